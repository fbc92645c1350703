#version 450
#include "shared/sim_gpu.h"
layout(local_size_x = kSimWorkgroupSize) in;
#include "sim/sim_common.glsl"

// Per free vertex within the global range: toward root x rest by global_stiffness.
void main() {
    uint vertex = LINEAR_INVOCATION_INDEX;
    if (vertex >= pc.count) return;
    SimGroupParams p = P();
    uint n = p.vertices_per_strand;
    vec4 x = pos[vertex];
    if (x.w <= 0.0 || p.global_stiffness <= 0.0 || !sim_in_global_range(vertex % n, n, p.global_range)) return;
    vec3 target = sim_transform_point(root_now(vertex / n, p.strand_count), rest_os[vertex].xyz);
    pos[vertex] = with_w(sim_global_shape(x.xyz, target, p.global_stiffness), x.w);
}
