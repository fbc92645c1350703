#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per free vertex: movement over the step clamped to max_delta_m; the vertex's contact normal cleared for
// the SDF passes (sim_passes::clamp_delta).
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    contacts[vertex] = vec4(0.0);
    vec4 x = pos[vertex];
    if (x.w <= 0.0) return;
    pos[vertex] = with_w(sim_clamp_delta(x.xyz, prev[vertex].xyz, P().max_delta_m), x.w);
}
