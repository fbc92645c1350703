#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per free vertex, one SDF: pushed out to the margin with friction, the depenetration share moving the
// previous position too, the contact normal recorded; next to a pinned vertex it keeps its rest distance
// and its contact plane stays where the push put it when the turn left it inside (sim_contact_lifted;
// sim_passes::sdf_vertex).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    uint n = P().vertices_per_strand;
    vec4 x = pos[vertex];
    if (x.w <= 0.0 || sdf_exempt_strand(vertex / n, pc.sdf)) return;
    SdfGridParams g = sdf_grids[pc.sdf];
    SimSdfFrame f = sdf_frames[pc.slot * 2u * pc.max_sdfs + pc.sdf];
    SimContact r = sim_sdf_collide_vertex(g, f, x.xyz, prev[vertex].xyz);
    if (r.normal == vec4(0.0)) return;
    vec3 moved = r.moved.xyz;
    vec4 c = r.normal;
    if (vertex % n > 0u && pos[vertex - 1u].w <= 0.0) {
        moved = sim_keep_distance(moved, pos[vertex - 1u].xyz, rest_lengths[vertex - 1u]);
        c = vec4(sim_contact_lifted(r.normal.xyz, r.moved.xyz, moved, f.params.x), 0.0);
    }
    vec4 xp = prev[vertex];
    prev[vertex] = with_w(xp.xyz + sim_sdf_prev_shift(r.dep.xyz, moved - x.xyz), xp.w);
    pos[vertex] = with_w(moved, x.w);
    contacts[vertex] = c;
}
