#version 450
// Opacity shadow maps (seed 002): each hair fragment adds its optical depth -ln(1 - shadow_alpha) to
// every layer whose far boundary z0 + (i + 1) * layer lies beyond it (additive blending).
#include "shared/render.h"
#include "render/render_common.glsl"

layout(push_constant, std430) uniform PushBlock { HairPush pc; };
layout(location = 2) in vec4 in_color;
layout(location = 0) out vec4 out_layers0;
layout(location = 1) out vec4 out_layers1;

void main() {
    vec2 uv = gl_FragCoord.xy / vec2(textureSize(shadow_depth, 0));
    float z0 = texture(shadow_depth, uv).r;
    float layers = (gl_FragCoord.z - z0) / frame.opacity_layer;
    float optical = -log(max(1.0 - clamp(pc.shadow_alpha, 0.0, 0.999), 1e-3));
    vec4 a = vec4(lessThan(vec4(layers), vec4(1.0, 2.0, 3.0, 4.0)));
    vec4 b = vec4(lessThan(vec4(layers), vec4(5.0, 6.0, 7.0, 8.0)));
    out_layers0 = a * optical;
    out_layers1 = b * optical;
}
