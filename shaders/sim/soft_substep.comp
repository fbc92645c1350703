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
    bool last = pc.substep + 1u >= p.substeps;
    if (x.w <= 0.0) {
        out_a[v] = last ? x : vec4(cloth_pin_position(p, cv.rest_os.xyz, pc.substep + 1u), x.w);
        out_b[v] = last ? in_b[v] : x;
        return;
    }
    vec3 goal = vec3(0.0);
    for (uint i = 0u; i < cv.edges; ++i) {
        uint j = adjacency[cv.first + i];
        goal += sm_goal(clusters[2u * j], clusters[2u * j + 1u].xyz, cv.rest_os.xyz);
    }
    goal /= float(cv.edges);
    vec3 y = soft_pull(x.xyz, goal, p.shape_stiffness);
    SimPair r = contacts(p, y, in_b[v].xyz, cv.tether_m);
    y = r.a.xyz;
    vec3 yp = r.b.xyz;
    if (last) {
        out_a[v] = vec4(y, x.w);
        out_b[v] = vec4(yp, x.w);
        return;
    }
    out_a[v] = vec4(cloth_predict(p, y, yp, vec3(0.0)), x.w);
    out_b[v] = vec4(y, x.w);
}
