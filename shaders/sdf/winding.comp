#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Pass 7 (winding sign only). mode 0, per coarse sample: exact generalized winding number at cell
// (i,j,k) * stride. mode 1, per cell: the coarse value itself (stride 1), exact in band cells
// (coarse_dims.w > 0 marks "band exact"), else trilinear from the coarse samples.
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"
#define SDF_FETCH(i) coarse[i]
#include "shared/sdf_sample.h"

float coarse_at(ivec3 i) {
    ivec3 cd = pc.coarse_dims.xyz;
    return coarse[uint(i.x) + uint(cd.x) * (uint(i.y) + uint(cd.y) * uint(i.z))];
}

void main() {
    uint item = LINEAR_INVOCATION_INDEX;
    if (item >= pc.count) return;
    int stride = abs(pc.coarse_dims.w);
    bool exact_band = pc.coarse_dims.w > 0;
    ivec3 cd = pc.coarse_dims.xyz;
    if (pc.mode == 0u) {
        ivec3 s = ivec3(int(item % uint(cd.x)), int((item / uint(cd.x)) % uint(cd.y)), int(item / uint(cd.x * cd.y)));
        coarse[item] = winding_number(sdf_cell_centre_m(g, s * stride));
        return;
    }
    ivec3 cell = sdf_cell_coords(g, item);
    if (stride == 1) {
        winding[item] = coarse[item];
    } else if (exact_band && band_tri[item] != kSdfNoTriangle) {  // a band cell (finalize sets the flags later)
        winding[item] = winding_number(sdf_cell_centre_m(g, cell));
    } else {
        vec3 u = vec3(cell) / float(stride);
        ivec3 i0 = clamp(ivec3(floor(u)), ivec3(0), max(cd - 2, ivec3(0)));
        ivec3 i1 = min(i0 + 1, cd - 1);
        vec3 f = clamp(u - vec3(i0), vec3(0.0), vec3(1.0));
        winding[item] = sdf_trilinear(coarse_at(ivec3(i0.x, i0.y, i0.z)), coarse_at(ivec3(i1.x, i0.y, i0.z)),
                                      coarse_at(ivec3(i0.x, i1.y, i0.z)), coarse_at(ivec3(i1.x, i1.y, i0.z)),
                                      coarse_at(ivec3(i0.x, i0.y, i1.z)), coarse_at(ivec3(i1.x, i0.y, i1.z)),
                                      coarse_at(ivec3(i0.x, i1.y, i1.z)), coarse_at(ivec3(i1.x, i1.y, i1.z)), f);
    }
}
