// Bindings and push constants of the GPU SDF build (engine/sdf/gpu, shaders/sdf/*.comp). Every SDF
// shader uses the same set-0 layout below (a shader declares only the bindings it touches), so one
// pipeline layout and two descriptor sets (JFA ping and pong) serve the whole build.
#ifndef TRESSEL_SHARED_SDF_GPU_H
#define TRESSEL_SHARED_SDF_GPU_H
#include "shared/common.h"

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kSdfBindParams, 0u);        // SdfGridParams (per collision mesh, its own buffer)
TRESSEL_CONST(uint, kSdfBindPositions, 1u);     // vec4 per welded vertex, metres
TRESSEL_CONST(uint, kSdfBindIndices, 2u);       // uint x 3 per triangle
TRESSEL_CONST(uint, kSdfBindTriEdges, 3u);      // uint x 3 per triangle: edge ids of 01, 12, 20
TRESSEL_CONST(uint, kSdfBindFaceNormals, 4u);   // vec4 per triangle
TRESSEL_CONST(uint, kSdfBindVertexNormals, 5u); // vec4 per vertex: angle-weighted pseudonormal
TRESSEL_CONST(uint, kSdfBindEdgeNormals, 6u);   // vec4 per edge: pseudonormal
TRESSEL_CONST(uint, kSdfBindBandKey, 7u);       // uint64 per cell: float_to_ordered(distance) << 32 | triangle
TRESSEL_CONST(uint, kSdfBindNearestIn, 8u);     // uint per cell: nearest triangle (JFA input)
TRESSEL_CONST(uint, kSdfBindNearestOut, 9u);    // uint per cell: nearest triangle (JFA output)
TRESSEL_CONST(uint, kSdfBindParity, 10u);       // uint per cell: ray-parity bits
TRESSEL_CONST(uint, kSdfBindWinding, 11u);      // float per cell: winding number (winding sign only)
TRESSEL_CONST(uint, kSdfBindCoarse, 12u);       // float per coarse sample: winding number
TRESSEL_CONST(uint, kSdfBindDistance, 13u);     // float per cell: signed distance, metres (the result)
TRESSEL_CONST(uint, kSdfBindFlags, 14u);        // uint per cell: kSdfFlag*
TRESSEL_CONST(uint, kSdfBindTriangles, 15u);     // vec4 x 3 per triangle: its vertices a, b, c (metres)
TRESSEL_CONST(uint, kSdfBindingCount, 16u);

// Threads of the per-triangle band workgroup (one workgroup per triangle, threads stride over its cells).
TRESSEL_CONST(uint, kSdfBandWorkgroupSize, 64u);

struct SdfPush {
    uint count;        // items of this dispatch: cells, triangles, columns or coarse samples
    int step;          // JFA step in cells
    int axis;          // parity axis 0 x, 1 y, 2 z
    uint mode;         // finalize: kSdfSign*; winding: 0 coarse samples, 1 cells
    ivec4 coarse_dims; // winding: xyz coarse sample counts, w stride in cells
    float orientation; // +1, or -1 for an inside-out mesh
    uint triangles;
    uint pad0;
    uint pad1;
};
TRESSEL_CHECK_SIZE(SdfPush, 48)

TRESSEL_SHARED_END

#endif
