#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
uint g_field_offset = 0u;  // first float of the SDF being sampled
#define SDF_FETCH(i) sdf_fields[g_field_offset + (i)]
#include "sim/sim_common.glsl"

layout(std430, binding = kSimBindDepthGuides) writeonly buffer DepthGuidesBuf { float depth_guides[]; };
layout(std430, binding = kSimBindDepthFollows) writeonly buffer DepthFollowsBuf { float depth_follows[]; };

// Per vertex, guides then follows: the deepest it lies in any of the group's fields that act on its strand
// (sim_sdf_margin_depth; sdf_exempt), for the viewport's depth colouring. Push: count = guide + follow
// vertices, pad1 = guide vertices, sdf = the group's SDF count, slot = the slot holding the fields' frames
// now, parity = vertices per strand, pad2 = guide strands.
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    bool follow = vertex >= pc.pad1;
    vec3 x = follow ? follow_pos[vertex - pc.pad1].xyz : pos[vertex].xyz;
    uint strand = follow ? pc.pad2 + (vertex - pc.pad1) / pc.parity : vertex / pc.parity;
    float depth = kSimNoDepth;
    for (uint i = 0u; i < pc.sdf; ++i) {
        if (sdf_exempt_strand(strand, i)) continue;
        g_field_offset = sdf_offsets[i];
        SimSdfFrame f = sdf_frames[pc.slot * 2u * pc.max_sdfs + i];
        depth = max(depth, sim_sdf_margin_depth(sdf_grids[i], f, x));
    }
    if (follow) depth_follows[vertex - pc.pad1] = depth;
    else depth_guides[vertex] = depth;
}
