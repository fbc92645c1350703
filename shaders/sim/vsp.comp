#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per free vertex: velocity shock propagation (position and previous position carried with the root).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint strand = vertex / n;
    SimStrandData d = strand_data[strand];
    float blend = d.vsp_t_m.w;
    if (pos[vertex].w <= 0.0 || blend <= 0.0) return;
    vec3 r0 = rest_os[strand * n].xyz;
    vec3 root_old = sim_transform_point(root_before(strand, p.strand_count), r0);
    vec3 root_new = sim_transform_point(root_now(strand, p.strand_count), r0);
    pos[vertex] = with_w(sim_vsp_apply(pos[vertex].xyz, d.vsp_q, root_old, root_new, blend), pos[vertex].w);
    prev[vertex] = with_w(sim_vsp_apply(prev[vertex].xyz, d.vsp_q, root_old, root_new, blend), prev[vertex].w);
}
