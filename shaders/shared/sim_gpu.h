// Bindings and push constants of the GPU simulation passes (engine/sim/gpu, shaders/sim/*.comp). Every
// pass uses this one set-0 layout. Per-substep constants live in host-visible "slot" arrays indexed by
// SimPush.slot, so all substeps of a frame are recorded into one command buffer.
#ifndef TRESSEL_SHARED_SIM_GPU_H
#define TRESSEL_SHARED_SIM_GPU_H
#include "shared/common.h"

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kSimWorkgroupSize, 64u);

TRESSEL_CONST(uint, kSimBindParams, 0u);          // SimGroupParams per slot
TRESSEL_CONST(uint, kSimBindPos, 1u);             // vec4 per vertex: current positions
TRESSEL_CONST(uint, kSimBindPrev, 2u);            // vec4 per vertex: previous positions
TRESSEL_CONST(uint, kSimBindScratch, 3u);         // vec4 per vertex: integration output
TRESSEL_CONST(uint, kSimBindRest, 4u);            // vec4 per vertex: rest positions, scalp space
TRESSEL_CONST(uint, kSimBindRestLengths, 5u);     // float per vertex
TRESSEL_CONST(uint, kSimBindRefVectors, 6u);      // vec4 per vertex
TRESSEL_CONST(uint, kSimBindRestRootFrame, 7u);   // vec4 per strand (quaternion)
TRESSEL_CONST(uint, kSimBindStrandData, 8u);      // SimStrandData per strand
TRESSEL_CONST(uint, kSimBindRoots, 9u);           // mat4: per slot, roots now then roots before (1 or strand_count each)
TRESSEL_CONST(uint, kSimBindColliders, 10u);      // SimCollider: per slot, max_colliders
TRESSEL_CONST(uint, kSimBindSdfFrames, 11u);      // SimSdfFrame: per slot, 2 x max_sdfs (guides, then follows)
TRESSEL_CONST(uint, kSimBindSdfGrids, 12u);       // SdfGridParams per SDF of the group
TRESSEL_CONST(uint, kSimBindSdfFields, 13u);      // float: every SDF's distances, concatenated
TRESSEL_CONST(uint, kSimBindFramesRest, 14u);     // GuideFrame per strand, scalp space
TRESSEL_CONST(uint, kSimBindFramesWorld, 15u);    // GuideFrame per strand, world
TRESSEL_CONST(uint, kSimBindFollowDesc, 16u);     // FollowDescriptor per follow hair
TRESSEL_CONST(uint, kSimBindFollowPos, 17u);      // vec4 per follow vertex
TRESSEL_CONST(uint, kSimBindSdfOffsets, 18u);     // uint per SDF of the group: its first float in the fields
TRESSEL_CONST(uint, kSimBindPhaseClocks, 19u);    // uint per workgroup and phase: SM cycles (strands_phases.comp)
TRESSEL_CONST(uint, kSimBindContacts, 20u);       // vec4 per vertex: the step's SDF contact normal (split passes)
TRESSEL_CONST(uint, kSimBindChainQ, 21u);         // vec4 per vertex slot: chain shape matching rotation of the run starting there
TRESSEL_CONST(uint, kSimBindChainT, 22u);         // vec4 per vertex slot: that run's goal translation (split passes)
TRESSEL_CONST(uint, kSimBindVolumeGrid, 23u);     // int per node x kSimVolumeNodeInts: hair volume grid (shared/sim_volume.h)
TRESSEL_CONST(uint, kSimBindVolumeBounds, 24u);   // uint x kSimVolumeBoundsUints: the hair's bounds at the step's start
TRESSEL_CONST(uint, kSimBindVolumeGradient, 25u); // vec4 per node: the hair volume's overdensity gradient
TRESSEL_CONST(uint, kSimBindFollowCorrections, 26u); // vec4 per corrected follow and vertex (FollowDescriptor guides.w)
TRESSEL_CONST(uint, kSimBindDepthGuides, 27u);    // float per guide vertex: field depth in margins (sim/field_depth.comp)
TRESSEL_CONST(uint, kSimBindDepthFollows, 28u);   // float per follow vertex: the same
TRESSEL_CONST(uint, kSimBindSdfExempt, 29u);      // uint per guide strand, then per follow: bit i set = the group's SDF i does not act on it (SimGroupState::sdf_exempt)
TRESSEL_CONST(uint, kSimBindChainRest, 30u);      // vec4 per vertex: chain shape matching's rest shape, scalp space (the groom: sag-free moves kSimBindRest, not this)
TRESSEL_CONST(uint, kSimBindWork, 31u);           // uint: the fused pass's work counter, batches of strands taken (zeroed by the strand data pass)
TRESSEL_CONST(uint, kSimBindingCount, 32u);
// Phases of the fused strand pass whose SM cycles the sim/strands_phases.comp variant records, per
// batch of strands, each ending at a barrier: staging in (from registers: the batch's vertices and set-up
// are read during the previous batch's follow-the-leader sweep, which that phase's count includes); integration; the swap with
// global shape and VSP; the sweeps; chain shape matching (runs, then vertices); per SDF (summed over SDFs) the vertices (with the clamp before the
// first), the even and the odd segment midpoints; the follow-the-leader sweep with the contacts (with the
// clamp when there is no SDF); staging out. Then the two parts of the follow-the-leader phase alone, each
// the longest any of its threads took (kSimPhaseLanesFirst): the sweep's lanes, and the next batch's
// reading, integration and set-up on the other threads; the phase lasts as long as the longer of them
// (and the two share the SM's issue slots).
TRESSEL_CONST(uint, kSimPhaseLanesFirst, 10u);
TRESSEL_CONST(uint, kSimPhaseCount, 12u);
// The fused strand pass (shaders/sim/strands.comp): a workgroup's strands staged in shared memory, 11
// floats per vertex (position with inverse mass, previous position, reference vector, rest length) with a
// row stride of strands + 1, 16 floats and the SDF exemptions per strand, one copy each of the step's
// SimGroupParams, the current SDF's SdfGridParams and its SimSdfFrame, the next batch's index and the
// phase clock counts (strands_phases.comp). A workgroup takes batches of strands from the work counter
// until none is left; the host dispatches at most kSimStrandsMaxWorkgroups.
TRESSEL_CONST(uint, kSimStrandsMaxPerWorkgroup, 32u);
// Items per barrier step of the fused pass's pipelined sweeps, at most (SimGpuPipelines::set_sweep_items).
TRESSEL_CONST(uint, kSimSweepItemsMax, 8u);
TRESSEL_CONST(uint, kSimStrandsMaxThreads, 512u);  // H100: 512 and 1024 beat 256 by 8% at 16M; H200, 4M: 1.007 ms, 256 1.115, 128 1.556
TRESSEL_CONST(uint, kSimStrandsMaxWorkgroups, 1024u);  // more than fit at once on any GPU we know (an H100: 132)
TRESSEL_CONST(uint, kSimStrandsSharedBytesPerVertex, 44u);
TRESSEL_CONST(uint, kSimStrandsSharedBytesPerStrand, 68u);
TRESSEL_CONST(uint, kSimStrandsSharedBytesFixed, 436u);

struct SimPush {
    uint count;          // items of this dispatch
    uint slot;           // substep slot of the constants
    uint per_strand_roots; // 1: root transforms per strand (skinning); 0: one for all strands (rigid)
    uint sdf;            // SDF index within the group (sdf passes)
    uint field_offset;   // first float of that SDF in the fields buffer
    uint parity;         // sdf midpoint pass: 0 even segments, 1 odd
    uint max_colliders;
    uint max_sdfs;
    uint has_frames;     // strand pass: the group has guide frames to turn into the world (follow hairs)
    uint root_slot_stride; // root transforms per slot: now, then before (1 or strands each), then unused
    uint pad1;
    uint pad2;
};
TRESSEL_CHECK_SIZE(SimPush, 48)

TRESSEL_SHARED_END
#endif
