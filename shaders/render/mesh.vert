#version 450
// Meshes (indexed draws), collision overlays and primitive colliders: vertices pulled from a storage
// buffer of MeshVertex in world space.
#include "shared/render.h"
#include "render/render_common.glsl"

layout(set = kRenderSetObject, binding = kObjectBindVertices, std430) readonly buffer Vertices { MeshVertex vertices[]; };
layout(location = 0) out vec3 out_pos_ws;
layout(location = 1) out vec3 out_normal_ws;

void main() {
    MeshVertex v = vertices[gl_VertexIndex];
    out_pos_ws = v.position_ws.xyz;
    out_normal_ws = v.normal_ws.xyz;
    gl_Position = frame.view_proj * vec4(v.position_ws.xyz, 1.0);
}
