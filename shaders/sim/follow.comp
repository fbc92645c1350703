#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per follow vertex: follow_point over the guides' current positions and world frames.
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    uint n = P().vertices_per_strand;
    uint follow = vertex / n;
    uint k = vertex % n;
    FollowDescriptor d = follow_desc[follow];
    vec3 g0 = pos[d.guides.x * n + k].xyz;
    vec3 g1 = pos[d.guides.y * n + k].xyz;
    vec3 g2 = pos[d.guides.z * n + k].xyz;
    float s = float(k) / float(n - 1u);
    follow_pos[vertex] = with_w(follow_point(d, frames_world[d.guides.x], g0, g1, g2, s), k < kSimPinnedVertices ? 0.0 : 1.0);
}
