#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per segment of parity pc.parity, one SDF: the midpoint's push moves both ends and is both ends' contact
// (sim_passes::sdf_midpoint).
void main() {
    uint segment = LINEAR_INVOCATION_INDEX;
    if (segment >= pc.count) return;
    uint n = P().vertices_per_strand;
    uint strand = segment / (n - 1u);
    uint k = segment % (n - 1u);
    if ((k & 1u) != pc.parity || sdf_exempt_strand(strand, pc.sdf)) return;
    uint ia = strand * n + k;
    vec4 a = pos[ia];
    vec4 b = pos[ia + 1u];
    if (a.w <= 0.0 || b.w <= 0.0) return;
    SdfGridParams g = sdf_grids[pc.sdf];
    SimSdfFrame f = sdf_frames[pc.slot * 2u * pc.max_sdfs + pc.sdf];
    vec3 mid = (a.xyz + b.xyz) * 0.5;
    vec3 push = sim_sdf_displacement(g, f, mid);
    if (push == vec3(0.0)) return;
    vec4 pa = prev[ia];
    vec4 pb = prev[ia + 1u];
    vec3 dep = sim_sdf_depenetration(push, mid - sim_transform_point(f.step_motion, (pa.xyz + pb.xyz) * 0.5));
    vec3 moved_a = a.xyz + push;
    vec4 normal = vec4(sim_safe_normalize(push, vec3(0.0)), 0.0);
    vec4 contact_a = normal;
    if (k > 0u && pos[ia - 1u].w <= 0.0) {
        moved_a = sim_keep_distance(moved_a, pos[ia - 1u].xyz, rest_lengths[ia - 1u]);
        contact_a = vec4(sim_contact_lifted(normal.xyz, a.xyz + push, moved_a, f.params.x), 0.0);
    }
    prev[ia] = with_w(pa.xyz + sim_sdf_prev_shift(dep, moved_a - a.xyz), pa.w);
    prev[ia + 1u] = with_w(pb.xyz + dep, pb.w);
    pos[ia] = with_w(moved_a, a.w);
    pos[ia + 1u] = with_w(b.xyz + push, b.w);
    contacts[ia] = contact_a;
    contacts[ia + 1u] = normal;
}
