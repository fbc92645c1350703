#version 450
// Compute hair rasterizer, pass 1 (shared/hair_raster.h): one thread per drawn vertex of one hair group.
// Projects it, gives it a width in pixels and shades it (the ribbon pass's colours and lighting, the key
// light's transmittance from the opacity maps), into a RasterVertex. Level of detail: the group draws a
// prefix of its strands (pc.lod_strands) with pc.lod_vertices vertices each, evenly spaced along the
// strand, widened by pc.lod_width_scale.
#include "shared/render.h"
#include "shared/hair_raster.h"
#include "shared/dispatch.h"
#include "render/render_common.glsl"

layout(set = kRenderSetHairShading, binding = kHairShadingBindLutM) uniform sampler2D lut_m;
layout(set = kRenderSetHairShading, binding = kHairShadingBindLutN) uniform sampler2D lut_n;
layout(set = kRenderSetHairShading, binding = kHairShadingBindLutTrt) uniform sampler2D lut_trt;
layout(push_constant, std430) uniform PushBlock { HairPush push; };
// The included helpers read `pc`: the push constants with every value that picks a branch made opaque to
// the CPU driver's uniform inlining (OPAQUE_ZERO, shared/dispatch.h), set first thing in main.
HairPush pc;
#include "render/hair_strands.glsl"
#include "render/hair_shading.glsl"
#include "render/raster_common.glsl"

layout(local_size_x = 64) in;

// The source vertex of drawn vertex j of m along a strand of n.
uint source_vertex(uint j, uint m, uint n) {
    if (m >= n) return j;
    return min(uint(float(j) * float(n - 1u) / float(m - 1u) + 0.5), n - 1u);
}

void main() {
    pc = push;
    const uint z = OPAQUE_ZERO;
    pc.model ^= z;
    pc.debug_mode ^= z;
    pc.shadows ^= z;
    pc.has_rest_lengths ^= z;
    pc.has_collision_depth ^= z;
    pc.vertices_per_strand ^= z;
    pc.lod_vertices ^= z;
    uint i = LINEAR_INVOCATION_INDEX;
    uint m = pc.lod_vertices, n = pc.vertices_per_strand;
    if (i >= pc.lod_strands * m) return;
    uint strand = i / m, j = i % m;
    uint base = strand * n;
    uint k = source_vertex(j, m, n);
    vec3 p = positions[base + k].xyz;
    vec3 prev = positions[base + source_vertex(j > 0u ? j - 1u : j, m, n)].xyz;
    vec3 next = positions[base + source_vertex(min(j + 1u, m - 1u), m, n)].xyz;
    vec3 t = next - prev;
    t = dot(t, t) > 1e-20 ? normalize(t) : vec3(0.0, 1.0, 0.0);
    float s = float(k) / float(max(n, 2u) - 1u);

    vec3 v = frame.eye_ws - p;
    v = dot(v, v) > 1e-20 ? normalize(v) : vec3(0.0, 0.0, 1.0);
    vec3 across = cross(t, v);
    if (dot(across, across) < 1e-12) across = cross(t, abs(t.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0));
    across = normalize(across);
    float half_width = mix(pc.root_half_width_m, pc.tip_half_width_m, s);

    vec4 c0 = frame.view_proj * vec4(p, 1.0);
    RasterVertex rv;
    uint flags = 0u;
    if (j == 0u) flags |= kRasterRoot;
    if (j + 1u == m) flags |= kRasterTip;
    else flags |= kRasterSegment;
    rv.screen = vec4(0.0);
    if (c0.w > 1e-5) {
        flags |= kRasterVisible;
        vec4 c1 = frame.view_proj * vec4(p + across * half_width, 1.0);
        vec2 ndc0 = c0.xy / c0.w;
        vec2 d_px = (c1.xy / max(c1.w, 1e-5) - ndc0) * 0.5 * frame.viewport_px;
        rv.screen = vec4((ndc0 * 0.5 + 0.5) * frame.viewport_px, c0.z / c0.w, length(d_px) * pc.lod_width_scale);
    }

    vec3 base_color = strand_base_color(strand, k, s);
    vec3 color;
    if (pc.debug_mode != kHairDebugNone) {
        color = base_color * 0.95;   // the ribbons' debug shading averaged across the fibre
    } else {
        // The ribbon's cylinder normal, averaged across the fibre at two Gauss points (side = +-1/sqrt 3):
        // a strand a pixel wide or less shows the mean of its cross-section.
        vec3 facing = normalize(cross(across, t));
        const float side = 0.57735027, bend = 0.81649658;   // sqrt(1 - side^2)
        float shadow = pc.shadows == 1u ? hair_transmittance(p) : 1.0;
        color = 0.5 * (shade_hair(t, normalize(facing * bend + across * side), v, base_color, shadow) +
                       shade_hair(t, normalize(facing * bend - across * side), v, base_color, shadow));
    }
    rv.color = uvec4(packHalf2x16(color.rg), packHalf2x16(vec2(color.b, pc.opacity)), flags, floatBitsToUint(c0.w));
    raster_vertices[pc.raster_vertex_base + i] = rv;
}
