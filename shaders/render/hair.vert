#version 450
// Camera-facing hair ribbons expanded from the strand buffer: one instance per strand, a triangle strip
// of 2 vertices per strand vertex (left, right). Also draws the strands into the key light's shadow maps
// (pc.light_pass = 1), facing the light.
#include "shared/render.h"
#include "render/render_common.glsl"

layout(push_constant, std430) uniform PushBlock { HairPush pc; };
#include "render/hair_strands.glsl"

layout(location = 0) out vec3 out_pos_ws;
layout(location = 1) out vec3 out_tangent_ws;
layout(location = 2) out vec4 out_color;      // rgb base colour (or debug colour); a: coverage x opacity
layout(location = 3) out float out_side;      // -1 .. 1 across the ribbon

void main() {
    uint n = pc.vertices_per_strand;
    uint strand = uint(gl_InstanceIndex);
    uint k = uint(gl_VertexIndex) >> 1;
    float side = (gl_VertexIndex & 1) == 1 ? 1.0 : -1.0;
    uint base = strand * n;
    vec3 p = positions[base + k].xyz;
    vec3 prev = positions[base + (k > 0u ? k - 1u : k)].xyz;
    vec3 next = positions[base + min(k + 1u, n - 1u)].xyz;
    vec3 t = next - prev;
    t = dot(t, t) > 1e-20 ? normalize(t) : vec3(0.0, 1.0, 0.0);
    float s = float(k) / float(max(n, 2u) - 1u);

    bool light_pass = pc.light_pass == 1u;
    vec3 to_view = light_pass ? frame.key_dir_ws : normalize(frame.eye_ws - p);
    vec3 b = cross(t, to_view);
    if (dot(b, b) < 1e-12) b = cross(t, abs(t.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0));
    b = normalize(b);
    float half_width = mix(pc.root_half_width_m, pc.tip_half_width_m, s);

    mat4 vp = light_pass ? frame.light_view_proj : frame.view_proj;
    float coverage = 1.0;
    if (!light_pass) {
        // Coverage-based anti-aliasing: a ribbon narrower than one pixel is widened to one pixel and
        // made proportionally transparent.
        vec4 c0 = vp * vec4(p, 1.0);
        vec4 c1 = vp * vec4(p + b * half_width, 1.0);
        vec2 d_px = (c1.xy / c1.w - c0.xy / c0.w) * 0.5 * frame.viewport_px;
        float half_px = length(d_px);
        if (half_px < 0.5 && half_px > 0.0) {
            coverage = half_px / 0.5;
            half_width *= 0.5 / half_px;
        }
    }
    vec3 pos = p + b * (half_width * side);
    gl_Position = vp * vec4(pos, 1.0);

    vec3 color = strand_base_color(strand, k, s);
    out_pos_ws = pos;
    out_tangent_ws = t;
    out_color = vec4(color, coverage * pc.opacity);
    out_side = side;
}
