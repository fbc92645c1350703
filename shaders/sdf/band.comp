#version 450
// Passes 2 and 3 fused, one workgroup per triangle: its threads stride over the cells of the triangle's
// band range, each taking the 64-bit atomic min of (ordered distance, triangle id) where the distance is
// within the band (sdf_band_limit_m; farther cells cost no atomic). Per cell the result equals the CPU
// reference's min distance, then min id among triangles at that distance. A cell whose stored distance
// is already smaller costs no atomic.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfBandWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint t = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    if (t >= pc.count) return;
    vec3 a = tri_a(t), b = tri_b(t), c = tri_c(t);
    ivec3 lo, hi;
    band_cell_range(a, b, c, lo, hi);
    ivec3 n = max(hi - lo + 1, ivec3(0));
    uint total = uint(n.x * n.y * n.z);
    float limit = sdf_band_limit_m(g);
    vec3 box_lo = min(a, min(b, c)), box_hi = max(a, max(b, c));
    float skip2 = (limit * 1.001) * (limit * 1.001);
    for (uint i = gl_LocalInvocationIndex; i < total; i += kSdfBandWorkgroupSize) {
        ivec3 cell = lo + ivec3(int(i % uint(n.x)), int((i / uint(n.x)) % uint(n.y)), int(i / uint(n.x * n.y)));
        vec3 p = sdf_cell_centre_m(g, cell);
        // Outside the triangle's bounding box grown by the band (with a margin for rounding) the
        // distance exceeds the band: no exact distance needed.
        vec3 out_box = max(max(box_lo - p, p - box_hi), vec3(0.0));
        if (dot(out_box, out_box) > skip2) continue;
        float d = sdf_triangle_distance_m(p, a, b, c);
        if (!(d <= limit)) continue;
        uint od = float_to_ordered(d);
        uint idx = sdf_cell_index(g, cell);
        // The key's distance word only decreases: once it is below ours this triangle cannot be the
        // minimum, so the atomic (contended: neighbouring triangles share band cells) is skipped. A plain
        // read of the high word is enough: any value it sees is at or above the final one.
        if (uint(band_key[idx] >> 32) < od) continue;
        atomicMin(band_key[idx], (uint64_t(od) << 32) | uint64_t(t));
    }
}
