#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Pass 5b, per coarse cell and step: best triangle of the 27 coarse cells at {-step, 0, step}^3 (smaller
// exact distance to the coarse sample point, then smaller id), read from jfa_in, written to jfa_out
// (Rong & Tan 2006), improved by the mesh walk (sdf_passes::coarse_jfa_cell).
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint item = LINEAR_INVOCATION_INDEX;
    if (item >= pc.count) return;
    ivec3 cd = sdf_coarse_dims(g);
    ivec3 c = ivec3(int(item % uint(cd.x)), int((item / uint(cd.x)) % uint(cd.y)), int(item / uint(cd.x * cd.y)));
    vec3 p = sdf_coarse_sample_m(g, c);
    uint best = kSdfNoTriangle;
    float best_d = kSdfInf;
    uint best_f = 0u;
    consider(jfa_in[item], p, best, best_d, best_f);
    uint last = kSdfNoTriangle;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                ivec3 q = c + ivec3(dx, dy, dz) * pc.step;
                if (any(lessThan(q, ivec3(0))) || any(greaterThanEqual(q, cd))) continue;
                uint cand = jfa_in[sdf_coarse_index(cd, q)];
                if (cand == last) continue;  // evaluated already (the best or a loser): same result
                last = cand;
                consider(cand, p, best, best_d, best_f);
            }
    walk(p, best, best_d, best_f);
    jfa_out[item] = best;
}
