#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per vertex of a soft body's render mesh (soft_passes::render_vertex): the renderer's MeshVertex
// (position w 1, normal w 0) from the weighted goals of its clusters, into the mesh's vertex buffer
// bound as out_a.
void main() {
    uint r = LINEAR_INVOCATION_INDEX;
    if (r >= pc.count) return;
    SoftRenderVertex rv = render_vertices[r];
    uint id[8] = uint[8](rv.p0.x, rv.p0.y, rv.p0.z, rv.p0.w, rv.p1.x, rv.p1.y, rv.p1.z, rv.p1.w);
    float w[8] = float[8](rv.w0.x, rv.w0.y, rv.w0.z, rv.w0.w, rv.w1.x, rv.w1.y, rv.w1.z, rv.w1.w);
    vec3 x = vec3(0.0), n = vec3(0.0);
    for (uint k = 0u; k < kSoftRenderInfluences; ++k) {
        vec4 q = clusters[2u * id[k]];
        x += sm_goal(q, clusters[2u * id[k] + 1u].xyz, rv.rest_os.xyz) * w[k];
        n += sim_quat_rotate(q, rv.normal_os.xyz) * w[k];
    }
    out_a[2u * r] = vec4(x, 1.0);
    out_a[2u * r + 1u] = vec4(sim_safe_normalize(n, vec3(0.0, 1.0, 0.0)), 0.0);
}
