// GLSL only: the buffers of the SDF build (bindings from shared/sdf_gpu.h) and small helpers. Every SDF
// shader includes this after its local_size layout.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#include "shared/sdf.h"
#include "shared/sdf_gpu.h"
#include "shared/float_order.h"
#include "shared/dispatch.h"

layout(std430, binding = kSdfBindParams) readonly buffer ParamsBuf { SdfGridParams g; };
layout(std430, binding = kSdfBindPositions) readonly buffer PositionsBuf { vec4 positions_m[]; };
layout(std430, binding = kSdfBindIndices) readonly buffer IndicesBuf { uint indices[]; };
layout(std430, binding = kSdfBindTriEdges) readonly buffer TriEdgesBuf { uint tri_edges[]; };
layout(std430, binding = kSdfBindFaceNormals) readonly buffer FaceNormalsBuf { vec4 face_normals[]; };
layout(std430, binding = kSdfBindVertexNormals) readonly buffer VertexNormalsBuf { vec4 vertex_pseudonormals[]; };
layout(std430, binding = kSdfBindEdgeNormals) readonly buffer EdgeNormalsBuf { vec4 edge_pseudonormals[]; };
layout(std430, binding = kSdfBindBandKey) buffer BandKeyBuf { uint64_t band_key[]; };
layout(std430, binding = kSdfBindJfaIn) buffer JfaInBuf { uint jfa_in[]; };
layout(std430, binding = kSdfBindJfaOut) buffer JfaOutBuf { uint jfa_out[]; };
layout(std430, binding = kSdfBindParityToggles) buffer ParityTogglesBuf { uint parity_toggles[]; };
layout(std430, binding = kSdfBindParity) buffer ParityBuf { uint parity[]; };
layout(std430, binding = kSdfBindWinding) buffer WindingBuf { float winding[]; };
layout(std430, binding = kSdfBindWindingCoarse) buffer WindingCoarseBuf { float coarse[]; };
layout(std430, binding = kSdfBindDistance) buffer DistanceBuf { float distance_m[]; };
layout(std430, binding = kSdfBindFlags) buffer FlagsBuf { uint flags[]; };
layout(std430, binding = kSdfBindTriangles) readonly buffer TrianglesBuf { vec4 tri_vertices[]; };

layout(std430, binding = kSdfBindTriNeighbours) readonly buffer TriNeighboursBuf { uint tri_neighbours[]; };
layout(std430, binding = kSdfBindVertexTriOffsets) readonly buffer VertexTriOffsetsBuf { uint vertex_tri_offsets[]; };
layout(std430, binding = kSdfBindVertexTris) readonly buffer VertexTrisBuf { uint vertex_tris[]; };
layout(std430, binding = kSdfBindBandTri) buffer BandTriBuf { uint band_tri[]; };
layout(std430, binding = kSdfBindTriSpheres) readonly buffer TriSpheresBuf { vec4 tri_spheres[]; };

layout(push_constant) uniform PushBuf { SdfPush pc; };

#define kSdfInf uintBitsToFloat(0x7F800000u)

// Vertices from the packed per-triangle copy: one contiguous 48-byte read instead of index -> position.
vec3 tri_a(uint t) { return tri_vertices[3u * t].xyz; }
vec3 tri_b(uint t) { return tri_vertices[3u * t + 1u].xyz; }
vec3 tri_c(uint t) { return tri_vertices[3u * t + 2u].xyz; }

// The band key: ordered distance in the high word, triangle id in the low word, so one 64-bit atomic
// min picks the smallest distance and, among equal distances, the smallest id (passes 2 and 3 of the
// CPU reference at once).
const uint64_t kSdfUnwrittenKey = (uint64_t(kSdfUnwrittenOrdered) << 32) | uint64_t(kSdfNoTriangle);

float distance_to_triangle(uint t, vec3 p) { return sdf_triangle_distance_m(p, tri_a(t), tri_b(t), tri_c(t)); }

// Cells visited by a triangle's narrow-band scatter (sdf_passes::band_cell_range).
void band_cell_range(vec3 a, vec3 b, vec3 c, out ivec3 lo, out ivec3 hi) {
    vec3 mn = sdf_grid_coords(g, min(a, min(b, c)));
    vec3 mx = sdf_grid_coords(g, max(a, max(b, c)));
    float band = float(g.dims.w);
    lo = max(ivec3(floor(mn - band)), ivec3(0));
    hi = min(ivec3(ceil(mx + band)), g.dims.xyz - 1);
}

// Better of two candidates for point p: smaller exact distance, then smaller id; keeps the closest
// feature of the best (sdf_passes consider()), and in g_best_offset p minus its closest point.
vec3 g_best_offset = vec3(0.0);
void consider(uint cand, vec3 p, inout uint best, inout float best_d, inout uint best_feature) {
    if (cand == kSdfNoTriangle || cand == best) return;
    if (sdf_sphere_beyond(p, tri_spheres[cand], best_d)) return;
    SdfClosest q = sdf_closest_on_triangle(p, tri_a(cand), tri_b(cand), tri_c(cand));
    vec3 off = p - q.point_m;
    float d = sqrt(dot(off, off));  // sdf_triangle_distance_m
    if (d < best_d || (d == best_d && cand < best)) {
        best = cand;
        best_d = d;
        best_feature = q.feature;
        g_best_offset = off;
    }
}

// Greedy descent over the mesh from best's closest feature: every triangle around a vertex, the triangle
// across an edge, none inside the face (sdf_passes walk(), fine_nearest_cell).
void walk(vec3 p, inout uint best, inout float best_d, inout uint best_feature) {
    for (int step = 0; step < kSdfWalkSteps && best != kSdfNoTriangle; ++step) {
        uint from = best;
        uint feature = best_feature;
        if (feature == kSdfFeatureFace) break;
        if (feature <= kSdfFeatureVertex2) {
            uint v = indices[3u * from + feature];
            uint end = vertex_tri_offsets[v + 1u];
            for (uint i = vertex_tri_offsets[v]; i < end; ++i) consider(vertex_tris[i], p, best, best_d, best_feature);
        } else {
            consider(tri_neighbours[3u * from + (feature - kSdfFeatureEdge01)], p, best, best_d, best_feature);
        }
        if (best == from) break;
    }
}

float winding_number(vec3 p) {
    float w = 0.0;
    for (uint t = 0u; t < pc.triangles; ++t) w += sdf_triangle_winding(p, tri_a(t), tri_b(t), tri_c(t));
    return w * pc.orientation;
}
