#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per vertex, small step pc.substep (cloth_passes::substep): one Jacobi iteration over the prediction
// (in_a), the tether, collisions and contacts against the small step's start (in_b); then the next small
// step's prediction and this one's end, or after the last small step the state.
shared vec3 lane_sums[2u * kClothWorkgroupSize];

void main() {
    ClothStepParams p = P();
    uint invocation = LINEAR_INVOCATION_INDEX;
    uint v = invocation / p.lanes;
    uint lane = invocation % p.lanes;
    uint local = gl_LocalInvocationIndex;
    bool valid = v < pc.count;
    ClothVertex cv = vertices[valid ? v : 0u];
    vec4 x = in_a[valid ? v : 0u];
    // Each lane sums every lanes-th constraint of the vertex; lane 0 adds the lanes' sums in order.
    vec3 lane_e = vec3(0.0), lane_h = vec3(0.0);
    uint count = cv.edges + cv.hinges;
    if (valid && x.w > 0.0) {
        for (uint i = lane; i < count; i += p.lanes) {
            ClothConstraint k = constraints[adjacency[cv.first + i]];
            vec3 d = cloth_constraint_delta(k, in_a[k.v.x].xyz, in_a[k.v.y].xyz, in_a[k.v.z].xyz, in_a[k.v.w].xyz, p, cloth_slot_of(k, v));
            if (i < cv.edges)
                lane_e += d;
            else
                lane_h += d;
        }
    }
    lane_sums[2u * local] = lane_e;
    lane_sums[2u * local + 1u] = lane_h;
    barrier();
    if (!valid || lane != 0u) return;
    if (pinned_small_step(v, p, x, cv.rest_os.xyz)) return;
    vec3 sum_e = vec3(0.0), sum_h = vec3(0.0);
    for (uint l = 0u; l < p.lanes; ++l) {
        sum_e += lane_sums[2u * (local + l)];
        sum_h += lane_sums[2u * (local + l) + 1u];
    }
    vec3 y = x.xyz + sum_e / float(max(cv.edges, 1u)) + sum_h / float(max(cv.hinges, 1u));
    if (p.tether_limit > 0.0 && cv.tether != kClothNone) y = cloth_tether(y, in_a[cv.tether].xyz, cv.tether_m, p.tether_limit);
    vec3 normal = pc.substep + 1u >= p.substeps ? vec3(0.0) : vertex_normal(v);
    end_small_step(v, p, x.w, y, p.thickness_m, normal);
}
