#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per follow vertex with k >= 2, one SDF: pushed out (no friction: follows carry no velocity).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    uint n = P().vertices_per_strand;
    if (vertex % n < kSimPinnedVertices || sdf_exempt_strand(P().strand_count + vertex / n, pc.sdf)) return;
    SdfGridParams g = sdf_grids[pc.sdf];
    SimSdfFrame f = sdf_frames[pc.slot * 2u * pc.max_sdfs + pc.max_sdfs + pc.sdf];
    vec4 x = follow_pos[vertex];
    follow_pos[vertex] = with_w(sim_sdf_push_follow(g, f, x.xyz), x.w);
}
