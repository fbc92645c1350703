#version 450
// Pass 8, per cell: exact distance to the propagated nearest triangle, signed by pc.mode (kSdfSign*).
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

bool parity_inside(uint bits) {
    int n = int(bits & 1u) + int((bits >> 1) & 1u) + int((bits >> 2) & 1u);
    return n >= 2;
}

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
    bool inside = false;
    if (pc.mode == kSdfSignPseudonormal) inside = pn_inside;
    else if (pc.mode == kSdfSignParity) inside = parity_inside(parity[cell]);
    else if (pc.mode == kSdfSignPseudonormalBandParityElsewhere) inside = band ? pn_inside : parity_inside(parity[cell]);
    else if (pc.mode == kSdfSignWinding) inside = winding[cell] > 0.5;
    else inside = dot(off, face_normals[t].xyz) * pc.orientation < 0.0;
    distance_m[cell] = inside ? -d : d;
    flags[cell] = f | (inside ? kSdfFlagInside : 0u);
}
