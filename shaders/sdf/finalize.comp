#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Pass 8, per cell: exact distance to the propagated nearest triangle, signed by pc.mode (kSdfSign*).
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint cell = LINEAR_INVOCATION_INDEX;
    if (cell >= pc.count) return;
    uint t = nearest_in[cell];
    if (t == kSdfNoTriangle) {
        distance_m[cell] = kSdfInf;
        return;
    }
    vec3 p = sdf_cell_centre_m(g, sdf_cell_coords(g, cell));
    SdfClosest q = sdf_closest_on_triangle(p, tri_a(t), tri_b(t), tri_c(t));
    vec3 off = p - q.point_m;
    float d = sqrt(dot(off, off));
    uint f = flags[cell];
    bool band = (f & kSdfFlagBand) != 0u;
    vec4 n;
    if (q.feature == kSdfFeatureFace) n = face_normals[t];
    else if (q.feature <= kSdfFeatureVertex2) n = vertex_pseudonormals[indices[3u * t + q.feature]];
    else n = edge_pseudonormals[tri_edges[3u * t + (q.feature - kSdfFeatureEdge01)]];
    bool pn_inside = dot(off, n.xyz) * pc.orientation < 0.0;
    bool face_inside = dot(off, face_normals[t].xyz) * pc.orientation < 0.0;
    float w = pc.mode == kSdfSignWinding ? winding[cell] : 0.0;
    bool inside = sdf_cell_inside(pc.mode, band, parity[cell], pn_inside, w, face_inside);
    distance_m[cell] = inside ? -d : d;
    flags[cell] = f | (inside ? kSdfFlagInside : 0u);
}
