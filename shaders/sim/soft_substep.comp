#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per particle of a soft body, small step pc.substep (soft_passes::substep): the pull toward the mean of
// its clusters' goals, the contacts against the small step's start (in_b); then the next small step's
// prediction and this one's end, or after the last small step the state.
void main() {
    uint v = LINEAR_INVOCATION_INDEX;
    if (v >= pc.count) return;
    ClothStepParams p = P();
    ClothVertex cv = vertices[v];
    vec4 x = in_a[v];
    if (pinned_small_step(v, p, x, cv.rest_os.xyz)) return;
    vec3 goal = vec3(0.0);
    for (uint i = 0u; i < cv.edges; ++i) {
        uint j = adjacency[cv.first + i];
        goal += sm_goal(clusters[2u * j], clusters[2u * j + 1u].xyz, cv.rest_os.xyz);
    }
    goal /= float(cv.edges);
    // No normal: a soft body does not catch the wind.
    end_small_step(v, p, x.w, soft_pull(x.xyz, goal, p.shape_stiffness), cv.tether_m, vec3(0.0));
}
