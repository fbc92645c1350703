#version 450
#include "shared/render.h"
layout(set = kRenderSetObject, binding = kObjectBindTexture) uniform sampler2D slice_texture;
layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;
void main() {
    vec4 c = texture(slice_texture, in_uv);
    out_color = vec4(c.rgb, 0.9 * c.a);
}
