#version 450
// Deep opacity maps by compute (shared/hair_raster.h): one thread per strand segment of one hair group,
// sampled kShadowSampleTexels apart in the key light's orthographic view, each sample spread bilinearly. Mode kShadowSplatDepth keeps the
// nearest light depth per texel; mode kShadowSplatOpacity adds each sample's optical depth (the fibre's
// width in texels x the sample's length in texels x -ln(1 - shadow_alpha)) to the layer behind that
// nearest depth it falls in, as the ribbons' opacity pass adds it to every texel a light-facing ribbon covers.
#include "shared/render.h"
#include "shared/hair_raster.h"
#include "shared/dispatch.h"
layout(set = kRenderSetFrame, binding = kRenderBindFrame, std140) uniform FrameBlock { FrameUniforms frame; };
layout(set = kRenderSetStrands, binding = kHairBindPositions, std430) readonly buffer Positions { vec4 positions[]; };
layout(set = kRenderSetShadowSplat, binding = kShadowBindDepthBits, std430) buffer DepthBits { uint depth_bits[]; };
layout(set = kRenderSetShadowSplat, binding = kShadowBindLayers, std430) buffer Layers { uint layers[]; };
layout(push_constant, std430) uniform PushBlock { ShadowPush sp; };

layout(local_size_x = 64) in;

void main() {
    uint i = LINEAR_INVOCATION_INDEX;
    uint n = sp.vertices_per_strand;
    if (i >= sp.strand_count * n) return;
    uint k = i % n;
    if (k + 1u >= n) return;
    vec3 la = (frame.light_view_proj * vec4(positions[i].xyz, 1.0)).xyz;
    vec3 lb = (frame.light_view_proj * vec4(positions[i + 1u].xyz, 1.0)).xyz;
    float size = float(sp.size);
    vec2 ta = (la.xy * 0.5 + 0.5) * size, tb = (lb.xy * 0.5 + 0.5) * size;
    float len = length(tb - ta);
    uint samples = clamp(uint(ceil(len / kShadowSampleTexels)), 1u, kShadowMaxSamples);
    // Texels per metre across the light's view: the light box's x scale.
    mat4 m = frame.light_view_proj;
    float texels_per_m = 0.5 * size * length(vec3(m[0][0], m[1][0], m[2][0]));
    float s0 = float(k) / float(n - 1u), s1 = float(k + 1u) / float(n - 1u);
    for (uint j = 0u; j < samples; ++j) {
        float t = (float(j) + 0.5) / float(samples);
        // Bilinear footprint: the sample spreads over the 2 x 2 texels around it, so the maps are smooth
        // where fibres are thinner than a texel and lie apart.
        vec2 tp = mix(ta, tb, t) - 0.5;
        float z = mix(la.z, lb.z, t);
        if (z < 0.0 || z > 1.0) continue;
        ivec2 base = ivec2(floor(tp));
        vec2 f = tp - vec2(base);
        float width = 2.0 * mix(sp.root_half_width_m, sp.tip_half_width_m, mix(s0, s1, t)) * texels_per_m;
        float optical = sp.optical * width * max(len, 1e-3) / float(samples);
        for (int q = 0; q < 4; ++q) {
            ivec2 c = base + ivec2(q & 1, q >> 1);
            if (any(lessThan(c, ivec2(0))) || any(greaterThanEqual(c, ivec2(sp.size)))) continue;
            uint texel = uint(c.y) * sp.size + uint(c.x);
            if (sp.mode == kShadowSplatDepth) {
                atomicMin(depth_bits[texel], floatBitsToUint(z));
                continue;
            }
            float w = ((q & 1) != 0 ? f.x : 1.0 - f.x) * ((q >> 1) != 0 ? f.y : 1.0 - f.y);
            float layer = (z - uintBitsToFloat(depth_bits[texel])) / frame.opacity_layer;
            if (layer >= float(kOpacityLayers) || w <= 0.0) continue;
            atomicAdd(layers[texel * kOpacityLayers + uint(max(layer, 0.0))], uint(optical * w * kShadowScale + 0.5));
        }
    }
}
