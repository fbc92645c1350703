// Skinned roots read from the device (engine/sim/gpu SimGpu::set_device_root_targets): per strand a target
// transform written on the GPU before a frame (the skinned scalp's roots pass, engine/anim/gpu), blended
// into each substep's slot of the simulation's roots as the CPU step blends set_root_transforms' targets
// (engine/sim begin_step): substep `sub` of a frame of `substeps` goes 1 / (substeps - sub) of the way from
// the transform reached to the target. One formula text for both.
#ifndef TRESSEL_SHARED_SIM_ROOTS_H
#define TRESSEL_SHARED_SIM_ROOTS_H
#include "shared/common.h"

#ifdef __cplusplus
namespace tressel::gpu_shared {
using mat4 = glm::mat4;
}  // namespace tressel::gpu_shared
#define SIM_ROOTS_FN inline
#else
#define SIM_ROOTS_FN
#endif

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kSimRootsBindTargets, 0u);  // mat4 per strand: the frame's target (written on the GPU)
TRESSEL_CONST(uint, kSimRootsBindState, 1u);    // mat4 per strand: the transform reached (kept across frames)
TRESSEL_CONST(uint, kSimRootsBindRoots, 2u);    // the simulation's roots (kSimBindRoots): per slot now, then before
TRESSEL_CONST(uint, kSimRootsBindingCount, 3u);

struct SimRootsPush {
    uint strands;
    uint slot_offset;   // slot x root_slot_stride: the slot's first transform
    float t;            // 1 / (substeps - sub)
    uint pad;
};
TRESSEL_CHECK_SIZE(SimRootsPush, 16)

// An animated body's rebuilt field copied into a group's concatenated fields (sim/field_copy.comp).
TRESSEL_CONST(uint, kSimFieldCopyBindSource, 0u);       // float per cell (read as uvec4; the buffer padded to 16 bytes)
TRESSEL_CONST(uint, kSimFieldCopyBindDestination, 1u);  // the group's fields (kSimBindSdfFields)
TRESSEL_CONST(uint, kSimFieldCopyBindingCount, 2u);

struct SimFieldCopyPush {
    uint count;               // floats
    uint destination_offset;  // first float in the destination
    uint pad0, pad1;
};
TRESSEL_CHECK_SIZE(SimFieldCopyPush, 16)

// Column by column a + (b - a) t (the CPU step's blend of a root toward its target).
SIM_ROOTS_FN mat4 sim_root_blend(mat4 a, mat4 b, float t) {
    mat4 r = a;
    for (int c = 0; c < 4; ++c) r[c] = a[c] + (b[c] - a[c]) * t;
    return r;
}

TRESSEL_SHARED_END

#endif
