// Set 0 of every render pipeline (shared/render_bindings.h) and the hair shadow lookup. Explicit-LOD
// lookups (the maps have one level) so compute shaders can include it too.
layout(set = kRenderSetFrame, binding = kRenderBindFrame, std140) uniform FrameBlock { FrameUniforms frame; };
layout(set = kRenderSetFrame, binding = kRenderBindShadowDepth) uniform sampler2D shadow_depth;
layout(set = kRenderSetFrame, binding = kRenderBindOpacity0) uniform sampler2D opacity0;
layout(set = kRenderSetFrame, binding = kRenderBindOpacity1) uniform sampler2D opacity1;

// Fraction of the key light reaching p_ws through the hair: deep opacity layers (shared/render.h),
// linearly interpolated between layer boundaries (seed 002), transmittance exp(-optical depth).
#ifndef OPAQUE_ZERO
#define OPAQUE_ZERO 0u  // graphics stages; compute shaders take shared/dispatch.h's
#endif
float hair_transmittance(vec3 p_ws) {
    if ((frame.shadows ^ OPAQUE_ZERO) == 0u) return 1.0;
    vec4 lp = frame.light_view_proj * vec4(p_ws, 1.0);
    vec2 uv = lp.xy * 0.5 + 0.5;
    if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) return 1.0;
    float z0 = textureLod(shadow_depth, uv, 0.0).r;
    float layers = (lp.z - z0) / frame.opacity_layer;   // layer boundaries at 1, 2, ..., 8
    if (layers <= 0.0) return 1.0;
    vec4 a = textureLod(opacity0, uv, 0.0);
    vec4 b = textureLod(opacity1, uv, 0.0);
    float o[9] = float[9](0.0, a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w);
    float f = min(layers, 8.0);
    int i = min(int(floor(f)), 7);
    float depth = mix(o[i], o[i + 1], f - float(i));
    return exp(-depth);
}
