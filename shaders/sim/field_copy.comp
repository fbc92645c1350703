#version 450
// An animated body's rebuilt field into a hair group's concatenated fields (SimGpu::record_sdf_field_copy):
// one invocation per four distances. A compute copy: vkCmdCopyBuffer of the same 11 MB took 0.059 ms on an
// H100 against the 0.35 ms the whole animated step may take (engine/sim/README.md).
#include "shared/sim_roots.h"
#include "shared/dispatch.h"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = kSimFieldCopyBindSource) readonly buffer Source { uvec4 source[]; };
layout(std430, set = 0, binding = kSimFieldCopyBindDestination) writeonly buffer Destination { uint destination[]; };
layout(push_constant) uniform Push { SimFieldCopyPush pc; };

void main() {
    uint i = LINEAR_INVOCATION_INDEX;
    if (4u * i >= pc.count) return;
    uvec4 v = source[i];
    uint o = pc.destination_offset + 4u * i;
    destination[o] = v.x;
    if (4u * i + 1u < pc.count) destination[o + 1u] = v.y;
    if (4u * i + 2u < pc.count) destination[o + 2u] = v.z;
    if (4u * i + 3u < pc.count) destination[o + 3u] = v.w;
}
