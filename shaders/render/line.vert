#version 450
// Lines (ground grid, bounds boxes): MeshVertex pairs, normal_ws holds the RGBA colour.
#include "shared/render.h"
#include "render/render_common.glsl"

layout(set = kRenderSetObject, binding = kObjectBindVertices, std430) readonly buffer Vertices { MeshVertex vertices[]; };
layout(location = 0) out vec4 out_color;

void main() {
    MeshVertex v = vertices[gl_VertexIndex];
    out_color = v.normal_ws;
    gl_Position = frame.view_proj * vec4(v.position_ws.xyz, 1.0);
}
