#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per strand: the rod's bending (sim_passes::bend) where the group bends as a rod, else local shape
// constraints, local_iterations sweeps root to tip, and the joints' reaction to the children's net moves
// in their previous positions (sim_passes::local_shape).
//
// The strand in a per-thread array: the sweeps are sequential within a strand, and GPUs interleave
// thread-private arrays so equal indices of neighbouring threads are adjacent (coalesced), unlike the
// strand-strided global buffer. Same arithmetic, same order as the CPU pass.
vec4 x[kSimMaxVerticesPerStrand];

// sim_passes::bend on x[]: a rigid strand's children placed on their rest segments, or one L D L^T solve
// of inertia plus bending (shared/sim.h, "rod bending"), forward root to tip and back.
void bend(SimGroupParams p, uint strand, uint base, uint n, vec4 frame) {
    if (p.bend_mode == kSimBendRigid) {
        for (uint k = 0u; k + 2u < n; ++k) {
            vec4 a = x[k + 1u];
            vec4 moved = sim_shape_child(x[k + 2u], a.xyz + sim_quat_rotate(frame, ref_vectors[base + k + 2u].xyz), 1.0);
            x[k + 2u] = moved;
            frame = sim_frame_advance(frame, moved.xyz - a.xyz);
        }
        return;
    }
    vec3 z[kSimMaxVerticesPerStrand];
    vec2 lf[kSimMaxVerticesPerStrand];
    lf[1] = vec2(0.0);
    float k_prev2 = 0.0, k_prev = 0.0, d1 = 1.0, d2 = 1.0;
    vec3 res_prev2 = vec3(0.0), res_prev = vec3(0.0), y1 = vec3(0.0), y2 = vec3(0.0);
    for (uint j = 1u; j <= n; ++j) {
        float k = 0.0;
        vec3 res = vec3(0.0);
        if (j + 1u < n) {
            vec3 xm = x[j - 1u].xyz, x0 = x[j].xyz, xp = x[j + 1u].xyz;
            if (j >= 2u) frame = sim_frame_advance(frame, x0 - xm);
            k = sim_bend_weight(p.bend_rigidity_dt2, rest_lengths[base + j - 1u], rest_lengths[base + j], j);
            res = sim_bend_residual(frame, ref_vectors[base + j + 1u].xyz, rest_lengths[base + j - 1u], xm, x0, xp);
        }
        uint i = j - 1u;
        if (i >= kSimPinnedVertices) {
            float mass = sim_bend_mass(rest_lengths[base + i - 1u], i + 1u < n ? rest_lengths[base + i] : 0.0);
            vec4 f = sim_bend_factor_row(i, mass, k_prev2, k_prev, k, d1, lf[i - 1u].x, d2);
            vec3 r = k_prev2 * res_prev2 - 2.0 * k_prev * res_prev + k * res;
            vec3 y = r - f.x * y1 - f.y * y2;
            lf[i] = f.xy;
            z[i] = y / f.z;
            y2 = y1;
            y1 = y;
            d2 = d1;
            d1 = f.z;
        }
        k_prev2 = k_prev;
        k_prev = k;
        res_prev2 = res_prev;
        res_prev = res;
    }
    vec3 e1 = vec3(0.0), e2 = vec3(0.0);
    for (uint i = n; i-- > kSimPinnedVertices;) {
        vec3 d = z[i] - (i + 1u < n ? lf[i + 1u].x : 0.0) * e1 - (i + 2u < n ? lf[i + 2u].y : 0.0) * e2;
        if (x[i].w > 0.0) x[i] = with_w(x[i].xyz + d, x[i].w);
        e2 = e1;
        e1 = d;
    }
}

void main() {
    uint strand = LINEAR_INVOCATION_INDEX;
    if (strand >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint base = strand * n;
    if (p.local_stiffness_iter <= 0.0 && p.bend_mode == kSimBendLocalShape) return;
    vec4 frame0 = sim_quat_normalize(sim_quat_mul(strand_data[strand].root_frame_q, rest_root_frame_q[strand]));
    for (uint k = 0u; k < n; ++k) x[k] = pos[base + k];
    if (p.bend_mode != kSimBendLocalShape) {
        bend(p, strand, base, n, frame0);
        for (uint k = 2u; k < n; ++k) pos[base + k] = x[k];
        return;
    }
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
