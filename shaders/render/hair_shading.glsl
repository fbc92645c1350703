// Hair shading shared by the ribbon fragment shader (hair.frag) and the compute rasterizer's vertex pass
// (raster_vertices.comp). Expects `pc` (HairPush) and the Marschner lookup samplers lut_m, lut_n, lut_trt
// declared before it is included. Lookups use an explicit LOD (the textures have one level) so compute
// shaders can call them.

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
    vec4 m = textureLod(lut_m, vec2(sin_i, sin_o) * 0.5 + 0.5, 0.0);
    vec3 lp = l - sin_i * t, vp = v - sin_o * t;
    float cos_phi = dot(lp, vp) * inversesqrt(max(dot(lp, lp) * dot(vp, vp), 1e-12));
    vec2 uv_n = vec2(cos_phi * 0.5 + 0.5, m.w);
    vec4 n = textureLod(lut_n, uv_n, 0.0);
    vec3 ntrt = textureLod(lut_trt, uv_n, 0.0).rgb;
    vec3 tint = base / max(max(base.r, max(base.g, base.b)), 1e-3);
    vec3 s = m.x * n.w * vec3(1.0) + m.y * n.rgb * tint + m.z * ntrt * tint;
    float cos_i = sqrt(max(1.0 - sin_i * sin_i, 0.0));
    return s * cos_i * pc.lut_scale + pc.kd * cos_i * base;
}

// The lit colour of a hair point: key light (times its transmittance through the hair), fill light,
// ambient. t: unit tangent; n: the fibre's normal toward the viewer side; v: toward the eye.
vec3 shade_hair(vec3 t, vec3 n, vec3 v, vec3 base, float shadow) {
    vec3 key_l = frame.key_dir_ws, fill_l = frame.fill_dir_ws;
    vec3 c;
    if (pc.model == kHairModelMarschner)
        c = marschner(t, v, key_l, base) * frame.key_color * shadow + marschner(t, v, fill_l, base) * frame.fill_color;
    else
        c = kajiya_kay(t, n, v, key_l, base) * frame.key_color * shadow +
            kajiya_kay(t, n, v, fill_l, base) * frame.fill_color;
    return c + frame.ambient * base;
}
