#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per vertex: the renderer's MeshVertex (position w 1, then the area-weighted normal w 0) of the cloth's
// positions (in_a), written into the mesh's vertex buffer bound as out_a.
void main() {
    uint v = LINEAR_INVOCATION_INDEX;
    if (v >= pc.count) return;
    vec3 n = vertex_normal(v);
    out_a[2u * v] = vec4(in_a[v].xyz, 1.0);
    out_a[2u * v + 1u] = vec4(dot(n, n) > 0.0 ? n : vec3(0.0, 1.0, 0.0), 0.0);
}
