#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per strand: length constraints with the primitive colliders, then the follow-the-leader sweep
// (sim_passes::length_and_colliders).
void collide_strand(SimGroupParams p, uint base, float friction_scale) {
    for (uint k = 0u; k < p.vertices_per_strand; ++k) {
        vec4 x = pos[base + k];
        if (x.w <= 0.0) continue;
        for (uint c = 0u; c < p.collider_count; ++c)
            x = with_w(sim_collide_primitive(x.xyz, prev[base + k].xyz, colliders[pc.slot * pc.max_colliders + c],
                                             p.particle_radius_m, friction_scale), x.w);
        pos[base + k] = x;
    }
}

void main() {
    uint strand = LINEAR_INVOCATION_INDEX;
    if (strand >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint base = strand * n;
    for (uint it = 0u; it < p.length_iterations; ++it) {
        for (uint k = 0u; k + 1u < n; ++k) {
            SimPair r = sim_length_pair(pos[base + k], pos[base + k + 1u], rest_lengths[base + k]);
            pos[base + k] = r.a;
            pos[base + k + 1u] = r.b;
        }
        collide_strand(p, base, 1.0);
    }
    for (uint k = 0u; k + 1u < n; ++k) {
        vec3 d = sim_ftl_correction(pos[base + k], pos[base + k + 1u], rest_lengths[base + k]);
        pos[base + k + 1u] = with_w(pos[base + k + 1u].xyz + d, pos[base + k + 1u].w);
        if (pos[base + k].w > 0.0) prev[base + k] = with_w(prev[base + k].xyz + d * kSimFtlVelocityCorrection, prev[base + k].w);
    }
    collide_strand(p, base, 0.0);
}
