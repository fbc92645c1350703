#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Pass 5, per cell and step: best nearest triangle of the 27 cells at {-step, 0, step}^3 (smaller exact
// distance, then smaller id), read from nearest_in, written to nearest_out (Rong & Tan 2006).
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint cell = LINEAR_INVOCATION_INDEX;
    if (cell >= pc.count) return;
    ivec3 c = sdf_cell_coords(g, cell);
    vec3 p = sdf_cell_centre_m(g, c);
    uint best = nearest_in[cell];
    if ((flags[cell] & kSdfFlagBand) != 0u) {  // exact already: no triangle can be closer
        nearest_out[cell] = best;
        return;
    }
    float best_d = kSdfInf;
    uint last_checked = kSdfNoTriangle;
    if (best != kSdfNoTriangle) best_d = distance_to_triangle(best, p);
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                ivec3 q = c + ivec3(dx, dy, dz) * pc.step;
                if (any(lessThan(q, ivec3(0))) || any(greaterThanEqual(q, g.dims.xyz))) continue;
                uint cand = nearest_in[sdf_cell_index(g, q)];
                if (cand == kSdfNoTriangle || cand == best || cand == last_checked) continue;
                last_checked = cand;
                float d = distance_to_triangle(cand, p);
                if (d < best_d || (d == best_d && cand < best)) {
                    best = cand;
                    best_d = d;
                }
            }
    nearest_out[cell] = best;
}
