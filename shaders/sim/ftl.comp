#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per strand, the step's last sweep: follow-the-leader kept outside each vertex's SDF contact plane and the
// primitive colliders, DFTL's velocity correction on the parents (sim_passes::ftl_contact).
void main() {
    uint strand = LINEAR_INVOCATION_INDEX;
    if (strand >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint base = strand * n;
    vec4 a = pos[base];
    for (uint k = 0u; k + 1u < n; ++k) {
        vec4 b = pos[base + k + 1u];
        if (b.w > 0.0) {
            float rest = rest_lengths[base + k];
            SimPair f = sim_ftl_contact(a, b, rest, contacts[base + k + 1u].xyz);
            vec3 d = f.b.xyz;
            vec3 t = f.a.xyz;
            vec3 b_prev = prev[base + k + 1u].xyz;
            for (uint c = 0u; c < p.collider_count; ++c)
                t = sim_keep_distance(sim_collide_primitive(t, b_prev, colliders[pc.slot * pc.max_colliders + c], p.particle_radius_m, 0.0),
                                      a.xyz, rest);
            b = with_w(t, b.w);
            pos[base + k + 1u] = b;
            prev[base + k + 1u].w = sim_contact_code(contacts[base + k + 1u].xyz);
            if (a.w > 0.0) prev[base + k] = with_w(prev[base + k].xyz + d * kSimFtlVelocityCorrection, prev[base + k].w);
        }
        a = b;
    }
}
