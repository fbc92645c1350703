#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
uint g_field_offset = 0u;  // first float of the SDF being collided with
#define SDF_FETCH(i) sdf_fields[g_field_offset + (i)]
#include "sim/sim_common.glsl"

// Per follow vertex: follow_point over the guides' current positions and world frames (with its rest
// correction), then pushed out of
// every SDF of the group, last to first (follow.comp then follow_sdf.comp per SDF, in one dispatch).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint follow = vertex / n;
    uint k = vertex % n;
    vec4 x = with_w(follow_at(follow_desc[follow], k, n), k < kSimPinnedVertices ? 0.0 : 1.0);
    if (k >= kSimPinnedVertices) {
        uint exempt = sdf_exempt[p.strand_count + follow];  // SimGroupState::sdf_exempt
        for (uint j = p.sdf_count; j > 0u; --j) {  // last to first (step_once's order)
            uint i = j - 1u;
            if ((exempt & (1u << i)) != 0u) continue;
            g_field_offset = sdf_offsets[i];
            SimSdfFrame f = sdf_frames[pc.slot * 2u * pc.max_sdfs + pc.max_sdfs + i];
            x = with_w(sim_sdf_push_follow(sdf_grids[i], f, x.xyz), x.w);
        }
    }
    follow_pos[vertex] = x;
}
