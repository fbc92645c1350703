#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per strand: root rotation and VSP motion over the step; the guide's rest frame turned into the world
// (sim_passes::strand_data).
void main() {
    uint strand = LINEAR_INVOCATION_INDEX;
    if (strand == 0u) work_counter[0] = 0u;  // the fused strand pass's batches (strands.comp), none taken yet
    if (strand >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    mat4 now = root_now(strand, p.strand_count);
    mat4 before = root_before(strand, p.strand_count);
    vec4 q_now = sim_quat_from_mat(now);
    vec4 q_before = sim_quat_from_mat(before);
    vec3 r0 = rest_os[strand * n].xyz;
    vec3 r1 = rest_os[strand * n + 1u].xyz;
    vec3 root_old = sim_transform_point(before, r0);
    vec3 root_new = sim_transform_point(now, r0);
    vec3 disp = sim_transform_point(now, r1) - sim_transform_point(before, r1);
    SimStrandData d = strand_data[strand];
    float blend = sim_vsp_blend(disp, d.root_disp_m.xyz, p.gravity_mps2.w, p.vsp_coeff, p.vsp_threshold_mps2);
    d.root_frame_q = q_now;
    d.vsp_q = sim_quat_normalize(sim_quat_mul(q_now, sim_quat_conj(q_before)));
    d.vsp_t_m = with_w(root_new - root_old, blend);
    d.root_disp_m = with_w(disp, 0.0);
    strand_data[strand] = d;
    if (pc.has_frames != 0u) {
        GuideFrame r = frames_rest[strand];
        GuideFrame w;
        w.tangent = with_w(sim_quat_rotate(q_now, r.tangent.xyz), 0.0);
        w.bitangent = with_w(sim_quat_rotate(q_now, r.bitangent.xyz), 0.0);
        w.normal = with_w(sim_quat_rotate(q_now, r.normal.xyz), 0.0);
        frames_world[strand] = w;
    }
}
