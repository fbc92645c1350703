// Bindings and push constants of the GPU SDF build (engine/sdf/gpu, shaders/sdf/*.comp). Every SDF
// shader uses the same set-0 layout below (a shader declares only the bindings it touches), so one
// pipeline layout and two descriptor sets (coarse JFA ping and pong) serve the whole build.
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
TRESSEL_CONST(uint, kSdfBindBandKey, 7u);       // uint64 per cell: float_to_ordered(distance) << 32 | triangle;
                                                // unwritten outside the band; left cleared by the coarse seed
TRESSEL_CONST(uint, kSdfBindJfaIn, 8u);         // uint per coarse cell: nearest triangle (coarse JFA input)
TRESSEL_CONST(uint, kSdfBindJfaOut, 9u);        // uint per coarse cell: nearest triangle (coarse JFA output)
TRESSEL_CONST(uint, kSdfBindParityToggles, 10u); // parity bit planes (shared/sdf.h): crossings; left cleared
TRESSEL_CONST(uint, kSdfBindWinding, 11u);      // float per cell: winding number (winding sign only)
TRESSEL_CONST(uint, kSdfBindWindingCoarse, 12u); // float per coarse winding sample: winding number
TRESSEL_CONST(uint, kSdfBindDistance, 13u);     // float per cell: signed distance, metres (the result)
TRESSEL_CONST(uint, kSdfBindFlags, 14u);        // uint per cell: kSdfFlag*
TRESSEL_CONST(uint, kSdfBindTriangles, 15u);    // vec4 x 3 per triangle: its vertices a, b, c (metres)
TRESSEL_CONST(uint, kSdfBindParity, 16u);       // parity bit planes: running xor of the toggles
TRESSEL_CONST(uint, kSdfBindTriNeighbours, 17u);   // uint x 3 per triangle: across edges 01, 12, 20
TRESSEL_CONST(uint, kSdfBindVertexTriOffsets, 18u); // uint per vertex + 1: start of its triangles in vertex_tris
TRESSEL_CONST(uint, kSdfBindVertexTris, 19u);       // uint x 3 per triangle: triangles around each vertex
TRESSEL_CONST(uint, kSdfBindBandTri, 20u);          // uint per cell: the band cell's nearest triangle, else none
TRESSEL_CONST(uint, kSdfBindTriSpheres, 21u);       // vec4 per triangle: bounding sphere (candidate pruning)
TRESSEL_CONST(uint, kSdfBindFwnNodes, 22u);         // SdfFwnNode per node of the fast winding numbers' hierarchy
TRESSEL_CONST(uint, kSdfBindFwnTris, 23u);          // uint per triangle: triangle ids in the hierarchy's order
TRESSEL_CONST(uint, kSdfBindingCount, 24u);

// Band scatter: kSdfBandLanes invocations per triangle stride over its cells, kSdfBandTriangles triangles
// per workgroup.
TRESSEL_CONST(uint, kSdfBandLanes, 16u);
TRESSEL_CONST(uint, kSdfBandTriangles, 16u);
// Finalize: one thread per fine cell of a coarse block (kSdfCoarseFactor^3), so the block's 27 coarse
// candidates are loaded and deduplicated once, in shared memory; kSdfFinalizeBlocks blocks per workgroup.
TRESSEL_CONST(uint, kSdfFinalizeBlockThreads, 64u);
TRESSEL_CONST(uint, kSdfFinalizeBlocks, 2u);

// Coarse seed: one workgroup per coarse cell, one thread per fine cell of its block (unpack, clear, one
// exact distance each), the seed by a workgroup min.
TRESSEL_CONST(uint, kSdfCoarseSeedWorkgroupSize, 64u);
// Jump flooding: kSdfJfaLanes invocations of one subgroup per coarse cell share its 27 candidates and the
// triangles around a vertex in each walk step, then take the min of (distance, id) by subgroup shuffles.
// Needs subgroups of a multiple of kSdfJfaLanes invocations with shuffles in compute shaders. The most
// lanes per cell; a large coarse grid takes fewer (SdfGpuPipelines::jfa_for).
TRESSEL_CONST(uint, kSdfJfaLanes, 8u);
TRESSEL_CONST(uint, kSdfJfaWorkgroupSize, 64u);

struct SdfPush {
    uint count;        // items of this dispatch: cells, coarse cells, triangles, parity lines or winding samples
    int step;          // JFA step in coarse cells
    int axis;          // unused (kept for the layout)
    uint mode;         // finalize: kSdfSign*; winding: 0 coarse samples, 1 cells
    ivec4 coarse_dims; // winding: xyz coarse sample counts, w stride in cells
    float orientation; // +1, or -1 for an inside-out mesh
    uint triangles;
    uint parity_words; // init: words of the parity bit planes
    uint fast_winding; // winding: 1 to walk the fast winding numbers' hierarchy, 0 for the exact sum
};
TRESSEL_CHECK_SIZE(SdfPush, 48)

TRESSEL_SHARED_END

#endif
