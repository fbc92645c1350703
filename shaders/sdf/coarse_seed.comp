#version 450
// Pass 5a, one workgroup per coarse cell, one thread per fine cell of its block: unpack the cell's band
// key into band_tri (the band cell's triangle, else none) and clear it for the next build; the JFA seed
// (jfa_in) is the best of the block's band triangles for the coarse sample point: every thread evaluates
// its own cell's triangle, then a workgroup min of the ordered distance and, among the threads at that
// distance, of the id (sdf_passes::coarse_seed_cell: smaller exact distance, then smaller id).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfCoarseSeedWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

shared uint s_dist;
shared uint s_tri;

void main() {
    uint block = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint l = gl_LocalInvocationIndex;
    if (block >= pc.count) return;  // uniform over the workgroup
    if (l == 0u) {
        s_dist = 0xFFFFFFFFu;
        s_tri = kSdfNoTriangle;
    }
    barrier();
    ivec3 cd = sdf_coarse_dims(g);
    ivec3 c = ivec3(int(block % uint(cd.x)), int((block / uint(cd.x)) % uint(cd.y)), int(block / uint(cd.x * cd.y)));
    const int K = kSdfCoarseFactor;
    ivec3 cell3 = c * K + ivec3(int(l) % K, (int(l) / K) % K, int(l) / (K * K));
    uint t = kSdfNoTriangle;
    uint od = 0xFFFFFFFFu;
    if (all(lessThan(cell3, g.dims.xyz))) {
        uint idx = sdf_cell_index(g, cell3);
        uint64_t key = band_key[idx];
        if (key != kSdfUnwrittenKey) {
            t = uint(key & 0xFFFFFFFFul);
            band_key[idx] = kSdfUnwrittenKey;
            od = float_to_ordered(distance_to_triangle(t, sdf_coarse_sample_m(g, c)));
            atomicMin(s_dist, od);
        }
        band_tri[idx] = t;
    }
    barrier();
    if (t != kSdfNoTriangle && od == s_dist) atomicMin(s_tri, t);
    barrier();
    if (l == 0u) jfa_in[block] = s_tri;
}
