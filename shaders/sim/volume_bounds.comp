#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Hair volume, first pass of a step (sim_passes::volume_frame): the bounds of every vertex's current
// position, as float_to_ordered values, reduced per workgroup in shared memory and then into
// volume_bounds (cleared to min = ~0, max = 0 before the pass).
shared uint s_bounds[6];

void main() {
    uint t = gl_LocalInvocationIndex;
    if (t < 3u) s_bounds[t] = 0xffffffffu;
    else if (t < 6u) s_bounds[t] = 0u;
    barrier();
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex < pc.count) {
        vec3 x = pos[vertex].xyz;
        atomicMin(s_bounds[0], float_to_ordered(x.x));
        atomicMin(s_bounds[1], float_to_ordered(x.y));
        atomicMin(s_bounds[2], float_to_ordered(x.z));
        atomicMax(s_bounds[3], float_to_ordered(x.x));
        atomicMax(s_bounds[4], float_to_ordered(x.y));
        atomicMax(s_bounds[5], float_to_ordered(x.z));
    }
    barrier();
    if (t < 3u) atomicMin(volume_bounds[t], s_bounds[t]);
    else if (t < 6u) atomicMax(volume_bounds[t + 1u], s_bounds[t]);
}
