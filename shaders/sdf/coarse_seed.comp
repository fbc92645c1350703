#version 450
// Pass 5a, per coarse cell: over its block of fine cells, unpack the band keys into band_tri (the band
// cell's triangle, else none) and clear them for the next build; the JFA seed (jfa_in) is the best of the
// block's band triangles for the coarse sample point (sdf_passes::coarse_seed_cell).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint item = LINEAR_INVOCATION_INDEX;
    if (item >= pc.count) return;
    ivec3 cd = sdf_coarse_dims(g);
    ivec3 c = ivec3(int(item % uint(cd.x)), int((item / uint(cd.x)) % uint(cd.y)), int(item / uint(cd.x * cd.y)));
    ivec3 lo = c * kSdfCoarseFactor;
    ivec3 hi = min(lo + kSdfCoarseFactor, g.dims.xyz);
    vec3 p = sdf_coarse_sample_m(g, c);
    uint best = kSdfNoTriangle;
    float best_d = kSdfInf;
    uint best_f = 0u;
    for (int k = lo.z; k < hi.z; ++k)
        for (int j = lo.y; j < hi.y; ++j)
            for (int i = lo.x; i < hi.x; ++i) {
                uint idx = sdf_cell_index(g, ivec3(i, j, k));
                uint64_t key = band_key[idx];
                bool written = key != kSdfUnwrittenKey;
                uint t = written ? uint(key & 0xFFFFFFFFul) : kSdfNoTriangle;
                band_tri[idx] = t;
                if (written) {
                    band_key[idx] = kSdfUnwrittenKey;
                    consider(t, p, best, best_d, best_f);
                }
            }
    jfa_in[item] = best;
}
