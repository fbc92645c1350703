#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per strand: local shape constraints, local_iterations sweeps root to tip, and the joints' reaction to
// the children's net moves in their previous positions (sim_passes::local_shape).
void main() {
    uint strand = LINEAR_INVOCATION_INDEX;
    if (strand >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint base = strand * n;
    if (p.local_stiffness_iter <= 0.0) return;
    vec4 frame0 = sim_quat_normalize(sim_quat_mul(strand_data[strand].root_frame_q, rest_root_frame_q[strand]));
    // The strand in a per-thread array: the sweeps are sequential within a strand, and GPUs interleave
    // thread-private arrays so equal indices of neighbouring threads are adjacent (coalesced), unlike the
    // strand-strided global buffer. Same arithmetic, same order as the CPU pass.
    vec4 x[kSimMaxVerticesPerStrand];
    for (uint k = 0u; k < n; ++k) x[k] = pos[base + k];
    vec4 xp[kSimMaxVerticesPerStrand];  // the joints' previous positions: one strided read and write each
    for (uint k = 0u; k + 2u < n; ++k)
        xp[k + 1u] = sim_shape_reaction(prev[base + k + 1u], x[k + 1u], x[k + 2u], -kSimShapeVelocityCorrection);
    for (uint it = 0u; it < p.local_iterations; ++it) {
        vec4 frame = frame0;
        for (uint k = 0u; k + 2u < n; ++k) {
            vec4 a = x[k + 1u];
            vec3 target = a.xyz + sim_quat_rotate(frame, ref_vectors[base + k + 2u].xyz);
            vec4 moved = sim_shape_child(x[k + 2u], target, p.local_stiffness_iter);
            x[k + 2u] = moved;
            frame = sim_frame_advance(frame, moved.xyz - a.xyz);
        }
    }
    for (uint k = 0u; k + 2u < n; ++k)
        prev[base + k + 1u] = sim_shape_reaction(xp[k + 1u], x[k + 1u], x[k + 2u], kSimShapeVelocityCorrection);
    for (uint k = 2u; k < n; ++k) pos[base + k] = x[k];
}
