#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per vertex, small step pc.substep (cloth_passes::substep): one Jacobi iteration over the prediction
// (in_a), the tether, collisions and contacts against the small step's start (in_b); then the next small
// step's prediction and this one's end, or after the last small step the state. The pass of a cloth
// without tiles (cloth_tile.comp is the other): each vertex walks its constraints itself.
void main() {
    ClothStepParams p = P();
    uint v = LINEAR_INVOCATION_INDEX;
    if (v >= pc.count) return;
    ClothVertex cv = vertices[v];
    vec4 x = in_a[v];
    if (pinned_small_step(v, p, x, cv.rest_os.xyz)) return;
    vec3 sum_e = vec3(0.0), sum_h = vec3(0.0);
    for (uint i = 0u; i < cv.edges + cv.hinges; ++i) {
        ClothConstraint k = constraints[adjacency[cv.first + i]];
        vec3 d = cloth_constraint_delta(k, in_a[k.v.x].xyz, in_a[k.v.y].xyz, in_a[k.v.z].xyz, in_a[k.v.w].xyz, p, cloth_slot_of(k, v));
        if (i < cv.edges)
            sum_e += d;
        else
            sum_h += d;
    }
    vec3 y = x.xyz + sum_e / float(max(cv.edges, 1u)) + sum_h / float(max(cv.hinges, 1u));
    if (p.tether_limit > 0.0 && cv.tether != kClothNone) y = cloth_tether(y, in_a[cv.tether].xyz, cv.tether_m, p.tether_limit);
    vec3 normal = pc.substep + 1u >= p.substeps ? vec3(0.0) : vertex_normal(v);
    end_small_step(v, p, x.w, y, p.thickness_m, normal);
}
