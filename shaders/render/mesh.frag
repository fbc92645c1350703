#version 450
// Lambert from the key (shadowed by hair) and fill lights, ambient, and a rim term; two-sided.
#include "shared/render.h"
#include "render/render_common.glsl"

layout(push_constant, std430) uniform PushBlock { MeshPush pc; };
layout(location = 0) in vec3 in_pos_ws;
layout(location = 1) in vec3 in_normal_ws;
layout(location = 0) out vec4 out_color;

void main() {
    if (pc.params.z > 0.5) {
        out_color = pc.color;
        return;
    }
    vec3 v = normalize(frame.eye_ws.xyz - in_pos_ws);
    vec3 n = normalize(in_normal_ws);
    if (dot(n, v) < 0.0) n = -n;
    float shadow = pc.params.y > 0.5 ? hair_transmittance(in_pos_ws) : 1.0;
    vec3 c = pc.color.rgb * (frame.key_color.rgb * max(dot(n, frame.key_dir.xyz), 0.0) * shadow +
                             frame.fill_color.rgb * max(dot(n, frame.fill_dir.xyz), 0.0) + frame.ambient.rgb);
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * pc.params.x;
    c += rim * (frame.fill_color.rgb + frame.key_color.rgb) * 0.15;
    out_color = vec4(c, pc.color.a);
}
