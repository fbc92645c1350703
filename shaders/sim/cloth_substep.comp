#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per vertex, small step pc.substep (cloth_passes::substep): one Jacobi iteration over the prediction
// (in_a), the tether, collisions and contacts against the small step's start (in_b); then the next small
// step's prediction and this one's end, or after the last small step the state. The pass of a cloth
// without tiles (cloth_tile.comp is the other): each vertex walks its edges and bending stencil itself.
void main() {
    ClothStepParams p = P();
    uint v = LINEAR_INVOCATION_INDEX;
    if (v >= pc.count) return;
    ClothVertex cv = vertices[v];
    vec4 x = in_a[v];
    if (pinned_small_step(v, p, x, cv.rest_os.xyz)) return;
    vec3 sum_e = vec3(0.0);
    for (uint i = 0u; i < cv.edges; ++i) {
        ClothConstraint k = constraints[adjacency[cv.first + i]];
        SimPair d = cloth_edge_deltas(k, in_a[k.v.x].xyz, in_a[k.v.y].xyz, p);
        sum_e += k.v.x == v ? d.a.xyz : d.b.xyz;
    }
    vec3 stencil = vec3(0.0);
    for (uint i = 0u; i < cv.bend_terms; ++i) {
        uvec2 t = bend_terms[cv.bend_first + i];
        stencil += uintBitsToFloat(t.y) * (in_a[t.x].xyz - x.xyz);
    }
    vec3 frame_normal = frames[2u * v].xyz;
    vec3 y = x.xyz + sum_e / float(max(cv.edges, 1u)) + cloth_bend_delta(stencil, frames[2u * v + 1u], x.w, p);
    if (p.tether_limit > 0.0 && cv.tether != kClothNone) y = cloth_tether(y, in_a[cv.tether].xyz, cv.tether_m, p.tether_limit);
    vec3 normal = pc.substep + 1u >= p.substeps ? vec3(0.0) : frame_normal;
    end_small_step(v, p, x.w, y, p.thickness_m, normal);
}
