#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Hair volume, third pass of a step (sim_passes::volume_gradient), one invocation per grid node: the
// overdensity gradient at the node from its neighbours' sums, for integration to interpolate.
float over(uvec3 q, uint n, float cell_m, float target_per_m2) {
    return sim_volume_overdensity(volume_grid[((q.z * n + q.y) * n + q.x) * kSimVolumeNodeInts], cell_m, target_per_m2);
}

void main() {
    uint node = LINEAR_INVOCATION_INDEX;
    if (node >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.volume_nodes;
    vec4 frame = volume_frame_now(n);
    uvec3 at = uvec3(node % n, (node / n) % n, node / (n * n));
    vec3 lo = vec3(0.0), hi = vec3(0.0), span = vec3(1.0);
    for (int a = 0; a < 3; ++a) {
        uvec3 l = at, h = at;
        l[a] = at[a] > 0u ? at[a] - 1u : 0u;
        h[a] = at[a] + 1u < n ? at[a] + 1u : at[a];
        lo[a] = over(l, n, frame.w, p.volume_target_per_m2);
        hi[a] = over(h, n, frame.w, p.volume_target_per_m2);
        span[a] = float(h[a] - l[a]);
    }
    volume_gradient[node] = vec4(sim_volume_node_gradient(lo, hi, span), 0.0);
}
