// Refit of a deforming collision mesh (a skinned body): the topology a field was prepared with stays
// (welding, triangles, edges, adjacency: engine/sdf prepare_mesh), and each build takes the positions the
// skinning pass wrote and recomputes what depends on them: welded positions, triangle vertices, face
// normals, bounding spheres, and the angle-weighted vertex and edge pseudonormals. One formula text for the
// CPU reference (sdf_passes::refit_mesh, which prepare_mesh also calls) and the GPU pass (sdf/refit.comp).
#ifndef TRESSEL_SHARED_SDF_REFIT_H
#define TRESSEL_SHARED_SDF_REFIT_H
#include "shared/sdf.h"

TRESSEL_SHARED_BEGIN

// Bindings of sdf/refit.comp (all storage buffers; a layout of its own).
TRESSEL_CONST(uint, kSdfRefitBindSource, 0u);          // vec4 per vertex of the unwelded mesh (skinned positions)
TRESSEL_CONST(uint, kSdfRefitBindWeldSource, 1u);      // uint per welded vertex: its first unwelded vertex
TRESSEL_CONST(uint, kSdfRefitBindIndices, 2u);         // uint x 3 per triangle, welded
TRESSEL_CONST(uint, kSdfRefitBindPositions, 3u);       // out: vec4 per welded vertex
TRESSEL_CONST(uint, kSdfRefitBindTriangles, 4u);       // out: vec4 x 3 per triangle
TRESSEL_CONST(uint, kSdfRefitBindFaceNormals, 5u);     // out: vec4 per triangle
TRESSEL_CONST(uint, kSdfRefitBindTriSpheres, 6u);      // out: vec4 per triangle
TRESSEL_CONST(uint, kSdfRefitBindVertexTriOffsets, 7u);
TRESSEL_CONST(uint, kSdfRefitBindVertexTris, 8u);
TRESSEL_CONST(uint, kSdfRefitBindVertexNormals, 9u);   // out: vec4 per welded vertex
TRESSEL_CONST(uint, kSdfRefitBindEdgeTriOffsets, 10u); // uint per edge + 1: start of its triangles in edge_tris
TRESSEL_CONST(uint, kSdfRefitBindEdgeTris, 11u);       // uint per (triangle, edge) use, in triangle order
TRESSEL_CONST(uint, kSdfRefitBindEdgeNormals, 12u);    // out: vec4 per edge
TRESSEL_CONST(uint, kSdfRefitBindFwnNodes, 13u);      // in/out: SdfFwnNode per node of the fast winding hierarchy
TRESSEL_CONST(uint, kSdfRefitBindFwnTris, 14u);       // uint per triangle in the hierarchy's order
TRESSEL_CONST(uint, kSdfRefitBindFwnOrder, 15u);      // uint per node: leaves, then inner nodes deepest level first
TRESSEL_CONST(uint, kSdfRefitBindingCount, 16u);

struct SdfRefitPush {
    uint vertices;   // welded vertices
    uint triangles;
    uint edges;
    uint mode;       // 0: positions, then triangles; 1: vertex, then edge pseudonormals; 2: hierarchy nodes
    uint first;      // mode 2: the nodes fwn_order[first .. first + count), one level of the refit
    uint count;
    uint pad0, pad1;
};
TRESSEL_CHECK_SIZE(SdfRefitPush, 32)

// Interior angle at vertex a of triangle abc, radians (0 for a degenerate corner).
SDF_FN float sdf_corner_angle(vec3 a, vec3 b, vec3 c) {
    vec3 u = b - a;
    vec3 v = c - a;
    if (length(u) == 0.0f || length(v) == 0.0f) return 0.0f;
    return sdf_atan2(length(cross(u, v)), dot(u, v));
}

// v / |v|, or zero for a zero vector.
SDF_FN vec3 sdf_unit_or_zero(vec3 v) {
    float l = length(v);
    return l > 0.0f ? v / l : vec3(0.0f, 0.0f, 0.0f);
}

// Unit normal of triangle abc (counter-clockwise front), zero for a triangle of no area.
SDF_FN vec3 sdf_face_normal(vec3 a, vec3 b, vec3 c) { return sdf_unit_or_zero(cross(b - a, c - a)); }

TRESSEL_SHARED_END

#endif
