#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Chain shape matching, per run (the slot of its first vertex): the run's rotation, warm-started, and its
// goals' translation (sim_passes::chain_match_run).
void main() {
    uint run = LINEAR_INVOCATION_INDEX;
    if (run >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint span = p.chain_span;
    uint k = run % n;
    if (span == 0u || k < kSimChainFirstVertex || k + span > n) return;
    vec3 c = vec3(0.0), cr = vec3(0.0);
    for (uint i = 0u; i < span; ++i) {
        c += pos[run + i].xyz;
        cr += chain_rest_os[run + i].xyz;
    }
    float inv = 1.0 / float(span);
    c *= inv;
    cr *= inv;
    mat3 a = mat3(0.0);
    for (uint i = 0u; i < span; ++i) a += sm_outer(pos[run + i].xyz - c, chain_rest_os[run + i].xyz - cr);
    vec4 q = sm_extract_rotation(a, sm_warm_start(strand_data[run / n].vsp_q, chain_q[run]), kShapeMatchRotationIterations);
    chain_q[run] = q;
    chain_t[run] = vec4(sm_translation(c, q, cr), 0.0);
}
