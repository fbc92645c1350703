#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Chain shape matching, per free vertex: each of its runs' pulls toward its goal, over the span
// (sim_passes::chain_match_vertex).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint span = p.chain_span;
    vec4 x = pos[vertex];
    if (span == 0u || x.w <= 0.0) return;
    uint k = vertex % n;
    uint first = sim_chain_first_run(k, span), last = sim_chain_last_run(k, n, span);
    if (first > last) return;
    uint base = vertex - k;
    vec3 sum = vec3(0.0);
    for (uint j = first; j <= last; ++j) sum += sm_goal(chain_q[base + j], chain_t[base + j].xyz, chain_rest_os[vertex].xyz) - x.xyz;
    pos[vertex] = vec4(x.xyz + sum * (p.chain_stiffness / float(span)), x.w);
}
