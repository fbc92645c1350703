#version 450
// Hair shading: Kajiya-Kay with two shifted specular lobes (TressFX parameters; seed 001) or Marschner
// R/TT/TRT from lookup textures (seed 002), key light shadowed by the deep opacity maps, fill light and
// ambient unshadowed. Alpha (coverage x opacity) drives alpha-to-coverage.
#include "shared/render.h"
#include "render/render_common.glsl"

layout(set = kRenderSetHairShading, binding = kHairShadingBindLutM) uniform sampler2D lut_m;
layout(set = kRenderSetHairShading, binding = kHairShadingBindLutN) uniform sampler2D lut_n;
layout(set = kRenderSetHairShading, binding = kHairShadingBindLutTrt) uniform sampler2D lut_trt;
layout(push_constant, std430) uniform PushBlock { HairPush pc; };
#include "render/hair_shading.glsl"

layout(location = 0) in vec3 in_pos_ws;
layout(location = 1) in vec3 in_tangent_ws;
layout(location = 2) in vec4 in_color;
layout(location = 3) in float in_side;
layout(location = 0) out vec4 out_color;

void main() {
    vec3 base = in_color.rgb;
    if (pc.debug_mode != kHairDebugNone) {
        out_color = vec4(base * 0.9 + 0.1 * base * abs(in_side), in_color.a);
        return;
    }
    vec3 t = normalize(in_tangent_ws);
    vec3 v = normalize(frame.eye_ws - in_pos_ws);
    // Ribbon normal, bent across the ribbon as if it were a cylinder.
    vec3 across = normalize(cross(t, v));
    vec3 facing = normalize(cross(across, t));
    vec3 n = normalize(facing * sqrt(max(1.0 - in_side * in_side, 0.0)) + across * in_side);
    float shadow = pc.shadows == 1u ? hair_transmittance(in_pos_ws) : 1.0;
    out_color = vec4(shade_hair(t, n, v, base, shadow), in_color.a);
}
