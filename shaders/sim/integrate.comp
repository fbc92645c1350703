#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
uint g_field_offset = 0u;  // the field friction_prediction samples
#define SDF_FETCH(i) sdf_fields[g_field_offset + (i)]
#define SIM_FRICTION_FIELDS
#include "sim/sim_common.glsl"

// Per vertex: pinned vertices to root x rest; free ones a Verlet step with damping, gravity and wind drag
// (and the hair volume's friction and pressure when on), then Coulomb's friction where the previous step
// left a contact.
// Reads pos / prev, writes scratch (sim_passes::integrate).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint strand = vertex / n;
    uint k = vertex % n;
    vec4 x = pos[vertex];
    if (x.w <= 0.0) {
        scratch[vertex] = with_w(sim_transform_point(root_now(strand, p.strand_count), rest_os[vertex].xyz), x.w);
        return;
    }
    float dt = p.gravity_mps2.w;
    SimPair vol = volume_integration(p, x.xyz, prev[vertex].xyz);
    vec3 xp = vol.a.xyz;
    vec3 v = (x.xyz - xp) / dt;
    vec3 ahead = k + 1u < n ? pos[vertex + 1u].xyz : x.xyz;
    vec3 tangent = sim_safe_normalize(ahead - pos[vertex - 1u].xyz, vec3(0.0));
    vec3 accel = p.gravity_mps2.xyz + sim_wind_accel(sim_wind_velocity(p, strand), v, tangent, p.wind_drag_per_s);
    vec3 predicted = sim_integrate(x.xyz, xp, accel, p.damping_decay, dt) + vol.b.xyz;
    scratch[vertex] = with_w(friction_prediction(p, strand, x.xyz, predicted, tangent, prev[vertex].w), x.w);
}
