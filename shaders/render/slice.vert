#version 450
// The SDF slice plane: 4 MeshVertex corners (triangle strip), normal_ws.xy holds the texture coordinate.
#include "shared/render.h"
#include "render/render_common.glsl"

layout(set = kRenderSetObject, binding = kObjectBindVertices, std430) readonly buffer Vertices { MeshVertex vertices[]; };
layout(location = 0) out vec2 out_uv;

void main() {
    MeshVertex v = vertices[gl_VertexIndex];
    out_uv = v.normal_ws.xy;
    gl_Position = frame.view_proj * vec4(v.position_ws.xyz, 1.0);
}
