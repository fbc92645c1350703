#version 450
// The slice plane's depth (SlicePass, and the compute rasterizer's copy of it): written only where the plane
// is mostly opaque. A field's slice is opaque everywhere and hides the hair behind it; a density slice draws
// its air at a quarter opacity, and the hair behind the air stays seen through it.
#include "shared/render.h"
layout(set = kRenderSetObject, binding = kObjectBindTexture) uniform sampler2D slice_texture;
layout(location = 0) in vec2 in_uv;
void main() {
    if (texture(slice_texture, in_uv).a < 0.5) discard;
}
