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

layout(location = 0) in vec3 in_pos_ws;
layout(location = 1) in vec3 in_tangent_ws;
layout(location = 2) in vec4 in_color;
layout(location = 3) in float in_side;
layout(location = 0) out vec4 out_color;

// Kajiya-Kay: diffuse kd sin(T, L); specular ks (sin(T', H))^ex for tangents shifted along the ribbon
// normal by +-spec_shift (primary lobe light-coloured, secondary tinted by the hair colour).
vec3 kajiya_kay(vec3 t, vec3 n, vec3 v, vec3 l, vec3 base) {
    float kd = pc.kd, ks1 = pc.ks1, ex1 = pc.ex1, ks2 = pc.ks2, ex2 = pc.ex2;
    float shift = pc.spec_shift;
    float tl = dot(t, l);
    float diffuse = sqrt(max(1.0 - tl * tl, 0.0));
    vec3 h = normalize(l + v);
    vec3 t1 = normalize(t + n * shift);
    vec3 t2 = normalize(t - n * shift);
    float th1 = dot(t1, h), th2 = dot(t2, h);
    float s1 = pow(sqrt(max(1.0 - th1 * th1, 0.0)), ex1);
    float s2 = pow(sqrt(max(1.0 - th2 * th2, 0.0)), ex2);
    // Light from behind the ribbon still lights it (wrapped), but dimmer.
    float facing = clamp(dot(n, l) * 0.5 + 0.5, 0.0, 1.0);
    return (kd * diffuse * base + ks1 * s1 * vec3(1.0) + ks2 * s2 * base) * mix(0.35, 1.0, facing);
}

// Marschner: S = M_R N_R + M_TT N_TT + M_TRT N_TRT (the N textures include 1 / cos^2 theta_d), times cos
// theta_i; TT and TRT take the hair colour, plus a small diffuse term for multiple scattering.
vec3 marschner(vec3 t, vec3 v, vec3 l, vec3 base) {
    float sin_i = clamp(dot(l, t), -1.0, 1.0);
    float sin_o = clamp(dot(v, t), -1.0, 1.0);
    vec4 m = texture(lut_m, vec2(sin_i, sin_o) * 0.5 + 0.5);
    vec3 lp = l - sin_i * t, vp = v - sin_o * t;
    float cos_phi = dot(lp, vp) * inversesqrt(max(dot(lp, lp) * dot(vp, vp), 1e-12));
    vec2 uv_n = vec2(cos_phi * 0.5 + 0.5, m.w);
    vec4 n = texture(lut_n, uv_n);
    vec3 ntrt = texture(lut_trt, uv_n).rgb;
    vec3 tint = base / max(max(base.r, max(base.g, base.b)), 1e-3);
    vec3 s = m.x * n.w * vec3(1.0) + m.y * n.rgb * tint + m.z * ntrt * tint;
    float cos_i = sqrt(max(1.0 - sin_i * sin_i, 0.0));
    return s * cos_i * pc.lut_scale + pc.kd * cos_i * base;
}

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
    vec3 key_l = frame.key_dir_ws, fill_l = frame.fill_dir_ws;
    vec3 c;
    if (pc.model == kHairModelMarschner)
        c = marschner(t, v, key_l, base) * frame.key_color * shadow + marschner(t, v, fill_l, base) * frame.fill_color;
    else
        c = kajiya_kay(t, n, v, key_l, base) * frame.key_color * shadow +
            kajiya_kay(t, n, v, fill_l, base) * frame.fill_color;
    c += frame.ambient * base;
    out_color = vec4(c, in_color.a);
}
