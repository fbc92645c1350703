#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per follow vertex: follow_point over the guides' current positions and world frames (with its rest
// correction).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    uint n = P().vertices_per_strand;
    uint follow = vertex / n;
    uint k = vertex % n;
    follow_pos[vertex] = with_w(follow_at(follow_desc[follow], k, n), k < kSimPinnedVertices ? 0.0 : 1.0);
}
