#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Hair volume, first pass of a step (sim_passes::volume_frame), one invocation per strand: the bounds of
// its vertices' current positions as float_to_ordered values, reduced per workgroup in shared memory and
// then into volume_bounds (cleared to min = ~0, max = 0 before the pass). Per strand rather than per
// vertex: the workgroup's shared atomics on six words were the pass's time.
shared uint s_bounds[6];

void main() {
    uint t = gl_LocalInvocationIndex;
    if (t < 3u) s_bounds[t] = 0xffffffffu;
    else if (t < 6u) s_bounds[t] = 0u;
    barrier();
    uint strand = LINEAR_INVOCATION_INDEX;
    if (strand < pc.count) {
        uint n = step_params[pc.slot].vertices_per_strand;
        vec3 lo = pos[strand * n].xyz, hi = lo;
        for (uint k = 1u; k < n; ++k) {
            vec3 x = pos[strand * n + k].xyz;
            lo = min(lo, x);
            hi = max(hi, x);
        }
        atomicMin(s_bounds[0], float_to_ordered(lo.x));
        atomicMin(s_bounds[1], float_to_ordered(lo.y));
        atomicMin(s_bounds[2], float_to_ordered(lo.z));
        atomicMax(s_bounds[3], float_to_ordered(hi.x));
        atomicMax(s_bounds[4], float_to_ordered(hi.y));
        atomicMax(s_bounds[5], float_to_ordered(hi.z));
    }
    barrier();
    if (t < 3u) atomicMin(volume_bounds[t], s_bounds[t]);
    else if (t < 6u) atomicMax(volume_bounds[t + 1u], s_bounds[t]);
}
