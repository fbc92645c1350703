#version 450
// Passes 2 and 3 fused, kLanes invocations per triangle and kTris triangles per workgroup: each cell
// within the band (sdf_band_limit_m) of a triangle takes the 64-bit atomic min of (ordered distance,
// triangle id). Per cell the result equals the CPU reference's min distance, then min id among
// triangles at that distance; farther cells cost no atomic, and a cell whose stored distance is already
// smaller costs none either.
//
// The pass is bound by its instructions, not by memory (on an H100, replacing the loads and atomics by
// arithmetic changed it by 5%), most of them the exact point-triangle distance. A triangle's band lies
// inside its bounding sphere grown by the band, a small part of the band range (its bounding box grown by
// the band) for the small triangles of a real mesh: so the triangle's lanes take rows (y, z) of the range
// and visit only the x span of each row inside that sphere, where nearly every cell needs the exact
// distance. Striding over all cells of the range instead left most lanes of each step idle beside the
// few that computed one. Few lanes per triangle and several triangles per workgroup keep the lanes busy
// and the workgroups few (H100, Rat Boy body: 0.069 ms with 64 lanes over the whole range, one triangle
// per workgroup; 0.050 ms now).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(constant_id = 0) const uint kLanes = kSdfBandLanes;
layout(constant_id = 1) const uint kTris = kSdfBandTriangles;
layout(local_size_x_id = 2) in;  // kLanes x kTris
#include "sdf/sdf_common.glsl"

void main() {
    uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint t = group * kTris + gl_LocalInvocationIndex / kLanes;
    uint lane = gl_LocalInvocationIndex % kLanes;
    if (t >= pc.count) return;
    vec3 a = tri_a(t), b = tri_b(t), c = tri_c(t);
    vec4 sphere = tri_spheres[t];
    ivec3 lo, hi;
    band_cell_range(a, b, c, lo, hi);
    ivec3 n = max(hi - lo + 1, ivec3(0));
    uint total = uint(n.x * n.y * n.z);
    if (total == 0u) return;
    float limit = sdf_band_limit_m(g);
    vec3 box_lo = min(a, min(b, c)), box_hi = max(a, max(b, c));
    // Rejection tests, each with a margin far above its rounding, so that no cell within the band is
    // skipped: outside the bounding box grown by the band, or farther than the band from the bounding
    // sphere (the distance is at least |p - centre| - radius), the distance exceeds the band.
    float skip2 = (limit * 1.001) * (limit * 1.001);
    float reach = (sphere.w + limit) * 1.001;
    float reach2 = reach * reach;
    // Rows (y, z) of the range, kLanes apart; in each the x span of cells inside the sphere.
    vec3 cu = sdf_grid_coords(g, sphere.xyz);
    float ru = reach / g.origin_m.w;
    float ru2 = ru * ru;
    uint rows = uint(n.y * n.z);
    for (uint row = lane; row < rows; row += kLanes) {
        int y = lo.y + int(row % uint(n.y));
        int z = lo.z + int(row / uint(n.y));
        float dy = float(y) - cu.y, dz = float(z) - cu.z;
        float h2 = ru2 - dy * dy - dz * dz;
        if (h2 < 0.0) continue;
        float h = sqrt(h2) + 1e-3;
        int x0 = max(lo.x, int(ceil(cu.x - h))), x1 = min(hi.x, int(floor(cu.x + h)));
        for (int x = x0; x <= x1; ++x) {
            ivec3 cell = ivec3(x, y, z);
            vec3 p = sdf_cell_centre_m(g, cell);
            vec3 out_box = max(max(box_lo - p, p - box_hi), vec3(0.0));
            if (dot(out_box, out_box) > skip2) continue;
            float d = sdf_triangle_distance_m(p, a, b, c);
            if (!(d <= limit)) continue;
            uint od = float_to_ordered(d);
            uint idx = sdf_cell_index(g, cell);
            if (uint(band_key[idx] >> 32) < od) continue;
            atomicMin(band_key[idx], (uint64_t(od) << 32) | uint64_t(t));
        }
    }
}
