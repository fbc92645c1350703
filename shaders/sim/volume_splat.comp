#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Hair volume, second pass of a step (sim_passes::volume_splat): per vertex, its hair length and momentum
// over the last step added to the 8 grid nodes around it, in fixed point (atomic int adds: any order gives
// the CPU's sums).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    uint k = vertex % n;
    float len = sim_volume_vertex_length(k > 0u ? rest_lengths[vertex - 1u] : 0.0, rest_lengths[vertex]);
    vec3 x = pos[vertex].xyz;
    vec3 d = x - prev[vertex].xyz;
    vec4 frame = volume_frame_now(p.volume_nodes);
    ivec4 cell = sim_volume_cell(x, frame, p.volume_nodes);
    vec3 f = sim_volume_fraction(x, frame, cell);
    for (uint c = 0u; c < 8u; ++c) {
        uint node = sim_volume_node(cell, c, p.volume_nodes);
        float wl = sim_volume_weight(f, c) * len;
        atomicAdd(volume_grid[node], sim_volume_fixed(wl, kSimVolumeLengthScale));
        atomicAdd(volume_grid[node + 1u], sim_volume_fixed(wl * d.x, kSimVolumeMomentumScale));
        atomicAdd(volume_grid[node + 2u], sim_volume_fixed(wl * d.y, kSimVolumeMomentumScale));
        atomicAdd(volume_grid[node + 3u], sim_volume_fixed(wl * d.z, kSimVolumeMomentumScale));
    }
}
