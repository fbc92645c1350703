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

layout(std430, binding = kSdfBindFwnNodes) readonly buffer FwnNodesBuf { SdfFwnNode fwn_nodes[]; };
layout(std430, binding = kSdfBindFwnTris) readonly buffer FwnTrisBuf { uint fwn_tris[]; };

// sdf_passes::fast_winding_number: the same nodes in the same order.
float fast_winding_number(vec3 p) {
    float w = 0.0;
    uint count = uint(fwn_nodes.length());
    for (uint i = 0u; i < count;) {
        vec4 centre_radius = fwn_nodes[i].centre_radius;
        uvec4 range = fwn_nodes[i].range;
        if (sdf_fwn_far(p, centre_radius)) {
            w += sdf_fwn_dipole(p, centre_radius, fwn_nodes[i].area_vector);
            i = range.z;
        } else if (range.y > 0u) {
            for (uint k = 0u; k < range.y; ++k) {
                uint t = fwn_tris[range.x + k];
                w += sdf_triangle_winding(p, tri_a(t), tri_b(t), tri_c(t));
            }
            i = range.z;
        } else {
            ++i;
        }
    }
    return w * pc.orientation;
}

float winding_at(vec3 p) { return pc.fast_winding != 0u ? fast_winding_number(p) : winding_number(p); }

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
        coarse[item] = winding_at(sdf_cell_centre_m(g, s * stride));
        return;
    }
    ivec3 cell = sdf_cell_coords(g, item);
    if (stride == 1) {
        winding[item] = coarse[item];
    } else if (exact_band && band_tri[item] != kSdfNoTriangle) {  // a band cell (finalize sets the flags later)
        winding[item] = winding_at(sdf_cell_centre_m(g, cell));
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
