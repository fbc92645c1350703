// GLSL only: buffers of the simulation passes (bindings in shared/sim_gpu.h). Included after each
// shader's local_size layout. SDF_FETCH reads the current SDF from the concatenated fields: by default
// the one at pc.field_offset; a shader looping over SDFs defines its own before including this file.
#include "shared/sim_gpu.h"
#include "shared/dispatch.h"
#include "shared/groom.h"
#include "shared/sdf.h"

layout(push_constant) uniform PushBuf { SimPush pc; };

layout(std430, binding = kSimBindSdfFields) readonly buffer SdfFieldsBuf { float sdf_fields[]; };
#ifndef SDF_FETCH
#define SDF_FETCH(i) sdf_fields[pc.field_offset + (i)]
#endif
#include "shared/sim_sdf.h"
#include "shared/shape_match.h"

layout(std430, binding = kSimBindParams) readonly buffer ParamsBuf { SimGroupParams step_params[]; };
layout(std430, binding = kSimBindPos) buffer PosBuf { vec4 pos[]; };
layout(std430, binding = kSimBindPrev) buffer PrevBuf { vec4 prev[]; };
layout(std430, binding = kSimBindScratch) buffer ScratchBuf { vec4 scratch[]; };
layout(std430, binding = kSimBindRest) readonly buffer RestBuf { vec4 rest_os[]; };
layout(std430, binding = kSimBindRestLengths) readonly buffer RestLengthsBuf { float rest_lengths[]; };
layout(std430, binding = kSimBindRefVectors) readonly buffer RefVectorsBuf { vec4 ref_vectors[]; };
layout(std430, binding = kSimBindRestRootFrame) readonly buffer RestRootFrameBuf { vec4 rest_root_frame_q[]; };
layout(std430, binding = kSimBindStrandData) buffer StrandDataBuf { SimStrandData strand_data[]; };
layout(std430, binding = kSimBindRoots) readonly buffer RootsBuf { mat4 roots[]; };
layout(std430, binding = kSimBindColliders) readonly buffer CollidersBuf { SimCollider colliders[]; };
layout(std430, binding = kSimBindSdfFrames) readonly buffer SdfFramesBuf { SimSdfFrame sdf_frames[]; };
layout(std430, binding = kSimBindSdfGrids) readonly buffer SdfGridsBuf { SdfGridParams sdf_grids[]; };
layout(std430, binding = kSimBindFramesRest) readonly buffer FramesRestBuf { GuideFrame frames_rest[]; };
layout(std430, binding = kSimBindFramesWorld) buffer FramesWorldBuf { GuideFrame frames_world[]; };
layout(std430, binding = kSimBindFollowDesc) readonly buffer FollowDescBuf { FollowDescriptor follow_desc[]; };
layout(std430, binding = kSimBindFollowPos) buffer FollowPosBuf { vec4 follow_pos[]; };
layout(std430, binding = kSimBindFollowCorrections) readonly buffer FollowCorrectionsBuf { vec4 follow_corrections[]; };
layout(std430, binding = kSimBindWork) buffer WorkBuf { uint work_counter[]; };
layout(std430, binding = kSimBindSdfExempt) readonly buffer SdfExemptBuf { uint sdf_exempt[]; };

// Whether the group's SDF `sdf` leaves guide strand `strand` alone (SimGroupState::sdf_exempt: rooted
// inside an accessory, whose field would push it against its own root); follow f is strand
// strand_count + f.
bool sdf_exempt_strand(uint strand, uint sdf) { return (sdf_exempt[strand] & (1u << sdf)) != 0u; }

// sim_passes::follow_vertex: point k of follow d over the guides' current positions and world frames,
// with its rest correction when it has one.
vec3 follow_at(FollowDescriptor d, uint k, uint n) {
    vec3 g0 = pos[d.guides.x * n + k].xyz;
    vec3 g1 = pos[d.guides.y * n + k].xyz;
    vec3 g2 = pos[d.guides.z * n + k].xyz;
    float s = float(k) / float(n - 1u);
    GuideFrame f0 = frames_world[d.guides.x];
    vec3 x = follow_point(d, f0, g0, g1, g2, s);
    if (d.guides.w != 0u) x += follow_correction(f0, follow_corrections[(d.guides.w - 1u) * n + k]);
    return x;
}
layout(std430, binding = kSimBindSdfOffsets) readonly buffer SdfOffsetsBuf { uint sdf_offsets[]; };
layout(std430, binding = kSimBindContacts) buffer ContactsBuf { vec4 contacts[]; };
// Coherent: the fused pass writes a run's rotation and reads it back from other invocations of the
// workgroup after a barrier.
layout(std430, binding = kSimBindChainQ) coherent buffer ChainQBuf { vec4 chain_q[]; };
layout(std430, binding = kSimBindChainT) buffer ChainTBuf { vec4 chain_t[]; };
layout(std430, binding = kSimBindChainRest) readonly buffer ChainRestBuf { vec4 chain_rest_os[]; };
#include "shared/sim_volume.h"
layout(std430, binding = kSimBindVolumeGrid) buffer VolumeGridBuf { int volume_grid[]; };
layout(std430, binding = kSimBindVolumeBounds) buffer VolumeBoundsBuf { uint volume_bounds[]; };
layout(std430, binding = kSimBindVolumeGradient) buffer VolumeGradientBuf { vec4 volume_gradient[]; };

SimGroupParams P() { return step_params[pc.slot]; }

// Root transform of `strand` now / at the previous step (rigid motion: one for all strands). A slot holds
// pc.root_slot_stride transforms: now, then before.
mat4 root_now(uint strand, uint strands) {
    uint i = pc.per_strand_roots != 0u ? strand : 0u;
    return roots[pc.slot * pc.root_slot_stride + i];
}
mat4 root_before(uint strand, uint strands) {
    uint per = pc.per_strand_roots != 0u ? strands : 1u;
    uint i = pc.per_strand_roots != 0u ? strand : 0u;
    return roots[pc.slot * pc.root_slot_stride + per + i];
}

vec4 with_w(vec3 v, float w) { return vec4(v, w); }

// Hair volume (shared/sim_volume.h): the step's grid from the bounds the volume_bounds pass reduced.
vec4 volume_frame_now(uint nodes) {
    vec3 lo = vec3(ordered_to_float(volume_bounds[0]), ordered_to_float(volume_bounds[1]), ordered_to_float(volume_bounds[2]));
    vec3 hi = vec3(ordered_to_float(volume_bounds[4]), ordered_to_float(volume_bounds[5]), ordered_to_float(volume_bounds[6]));
    return sim_volume_frame(lo, hi, nodes);
}

// sim_passes::volume_sample: what integration reads back at x.
SimVolumeSample volume_sample_at(vec3 x, vec4 frame, uint nodes, float target_per_m2) {
    ivec4 cell = sim_volume_cell(x, frame, nodes);
    vec3 f = sim_volume_fraction(x, frame, cell);
    SimVolumeSample s = sim_volume_sample_zero();
    for (uint c = 0u; c < 8u; ++c) {
        uint node = sim_volume_node(cell, c, nodes);
        s = sim_volume_add(s, ivec4(volume_grid[node], volume_grid[node + 1u], volume_grid[node + 2u], volume_grid[node + 3u]),
                           volume_gradient[node / kSimVolumeNodeInts].xyz, f, c);
    }
    return s;
}

// Integration's hair volume (sim_passes::integrate): the previous position x_prev turned to carry the
// internal friction, and the pressure push in .xyz of the second value.
SimPair volume_integration(SimGroupParams p, vec3 x, vec3 x_prev) {
    SimPair r;
    r.a = vec4(x_prev, 0.0);
    r.b = vec4(0.0);
    if (p.volume_nodes == 0u) return r;
    vec4 frame = volume_frame_now(p.volume_nodes);
    SimVolumeSample s = volume_sample_at(x, frame, p.volume_nodes, p.volume_target_per_m2);
    r.a.xyz = sim_volume_smoothed_prev(x, x_prev, sim_volume_mean_disp(s), sim_volume_has_hair(s), p.volume_friction);
    r.b.xyz = sim_volume_push(s.grad_cells, p.volume_pressure, frame.w, p.gravity_mps2.w);
    return r;
}

#ifdef SIM_FRICTION_FIELDS
// sim_passes::integrate's friction (a shader that defines SIM_FRICTION_FIELDS reads its fields through
// g_field_offset): the predicted position of free vertex x of `strand` (its contact code from its previous
// position's w, its strand tangent) after Coulomb's friction against the surface of the field it touched
// (sim_passes::friction_field: the only one, or the one it lies deepest in).
vec3 friction_prediction(SimGroupParams p, uint strand, vec3 x, vec3 predicted, vec3 tangent, float code) {
    for (uint c = 0u; c < p.collider_count; ++c)
        predicted = sim_collider_friction(predicted, x, tangent, colliders[pc.slot * pc.max_colliders + c], p.particle_radius_m);
    vec3 n = sim_contact_normal(code);
    if (n == vec3(0.0) || p.sdf_count == 0u || (p.friction_static <= 0.0 && p.friction_kinetic <= 0.0)) return predicted;
    uint best = 0u;
    if (p.sdf_count > 1u) {
        float deepest = -3.0e38;
        for (uint i = 0u; i < p.sdf_count; ++i) {
            if (sdf_exempt_strand(strand, i)) continue;
            g_field_offset = sdf_offsets[i];
            float d = sim_sdf_margin_depth(sdf_grids[i], sdf_frames[pc.slot * 2u * pc.max_sdfs + i], x);
            if (d > deepest) {
                deepest = d;
                best = i;
            }
        }
    }
    SimSdfFrame f = sdf_frames[pc.slot * 2u * pc.max_sdfs + best];
    return sim_coulomb_friction(predicted, sim_transform_point(f.step_motion, x), n, tangent, p.friction_static, p.friction_kinetic);
}
#endif
