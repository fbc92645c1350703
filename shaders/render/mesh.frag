#version 450
// Lambert from the key (shadowed by hair) and fill lights, ambient, and a rim term; two-sided.
#include "shared/render.h"
#include "render/render_common.glsl"

layout(push_constant, std430) uniform PushBlock { MeshPush pc; };
layout(location = 0) in vec3 in_pos_ws;
layout(location = 1) in vec3 in_normal_ws;
layout(location = 0) out vec4 out_color;

void main() {
    if (pc.unlit == 1u) {
        out_color = vec4(pc.color, pc.opacity);
        return;
    }
    vec3 v = normalize(frame.eye_ws - in_pos_ws);
    vec3 n = normalize(in_normal_ws);
    if (dot(n, v) < 0.0) n = -n;
    float shadow = pc.receives_shadows == 1u ? hair_transmittance(in_pos_ws) : 1.0;
    vec3 c = pc.color * (frame.key_color * max(dot(n, frame.key_dir_ws), 0.0) * shadow +
                         frame.fill_color * max(dot(n, frame.fill_dir_ws), 0.0) + frame.ambient);
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * pc.rim;
    c += rim * (frame.fill_color + frame.key_color) * 0.15;
    out_color = vec4(c, pc.opacity);
}
