#version 450
// Skinned roots from the device, one invocation per strand and substep (shared/sim_roots.h): the slot's
// transform now is the one reached blended toward the frame's target, the one before is the one reached.
#include "shared/sim_roots.h"
#include "shared/dispatch.h"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = kSimRootsBindTargets) readonly buffer Targets { mat4 targets[]; };
layout(std430, set = 0, binding = kSimRootsBindState) buffer State { mat4 state[]; };
layout(std430, set = 0, binding = kSimRootsBindRoots) writeonly buffer Roots { mat4 roots[]; };
layout(push_constant) uniform Push { SimRootsPush pc; };

void main() {
    uint s = LINEAR_INVOCATION_INDEX;
    if (s >= pc.strands) return;
    mat4 before = state[s];
    mat4 now = sim_root_blend(before, targets[s], pc.t);
    roots[pc.slot_offset + s] = now;
    roots[pc.slot_offset + pc.strands + s] = before;
    state[s] = now;
}
