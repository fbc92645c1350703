#version 450
// Pass 2, per triangle: atomic min of the ordered unsigned distance over the triangle's band range.
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint t = LINEAR_INVOCATION_INDEX;
    if (t >= pc.count) return;
    vec3 a = tri_a(t), b = tri_b(t), c = tri_c(t);
    ivec3 lo, hi;
    band_cell_range(a, b, c, lo, hi);
    for (int k = lo.z; k <= hi.z; ++k)
        for (int j = lo.y; j <= hi.y; ++j)
            for (int i = lo.x; i <= hi.x; ++i) {
                ivec3 cell = ivec3(i, j, k);
                float d = sdf_triangle_distance_m(sdf_cell_centre_m(g, cell), a, b, c);
                atomicMin(dist_ordered[sdf_cell_index(g, cell)], float_to_ordered(d));
            }
}
