#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per strand: length constraints with the primitive colliders (sim_passes::length_and_colliders). The
// follow-the-leader sweep comes after the SDF passes (ftl.comp).
// The strand and its previous positions in per-thread arrays (see local_shape.comp): sequential sweeps
// with coalesced private memory instead of strand-strided global accesses. Same arithmetic and order as
// the CPU pass.
vec4 x[kSimMaxVerticesPerStrand];
vec4 xp[kSimMaxVerticesPerStrand];

void collide_strand(SimGroupParams p, float friction_scale) {
    for (uint k = 0u; k < p.vertices_per_strand; ++k) {
        vec4 v = x[k];
        if (v.w <= 0.0) continue;
        for (uint c = 0u; c < p.collider_count; ++c)
            v = with_w(sim_collide_primitive(v.xyz, xp[k].xyz, colliders[pc.slot * pc.max_colliders + c], p.particle_radius_m,
                                             friction_scale), v.w);
        x[k] = v;
    }
}

void main() {
    uint strand = LINEAR_INVOCATION_INDEX;
    if (strand >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint base = strand * n;
    for (uint k = 0u; k < n; ++k) {
        x[k] = pos[base + k];
        xp[k] = prev[base + k];
    }
    for (uint it = 0u; it < p.length_iterations; ++it) {
        for (uint k = 0u; k + 1u < n; ++k) {
            SimPair r = sim_length_pair(x[k], x[k + 1u], rest_lengths[base + k]);
            x[k] = r.a;
            x[k + 1u] = r.b;
        }
        collide_strand(p, 0.0);  // friction: at integration (sim_collider_friction)
    }
    for (uint k = 0u; k < n; ++k) pos[base + k] = x[k];
}
