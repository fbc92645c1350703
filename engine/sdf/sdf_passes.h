// The passes of the SDF build as plain functions over flat arrays, one call per GPU invocation (per cell,
// per triangle or per grid column). Every pass gives the same result whatever order its invocations run
// in: scatters combine with min / xor (GPU: atomicMin / atomicXor), gathers read only the previous pass.
// build_sdf_cpu (sdf_build.cpp) runs them in order; the GPU port (engine/sdf/gpu) runs the same passes
// as compute shaders built from shared/sdf.h and is checked against these. README.md lists the passes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "io/mesh.h"
#include "shared/sdf.h"

namespace tressel::sdf_passes {

using gpu_shared::SdfGridParams;

// Mesh-side buffers: positions welded by exact equality (so split UV seams share vertices and edges),
// triangles with a repeated welded vertex dropped, and the angle-weighted pseudonormals of
// Baerentzen & Aanaes (2005) for the sign test.
struct MeshData {
    std::vector<glm::vec4> positions_m;           // welded vertices (w = 0)
    std::vector<uint32_t> indices;                // 3 per triangle into positions_m
    std::vector<uint32_t> tri_edges;              // 3 per triangle: edge ids of edges 01, 12, 20
    std::vector<glm::vec4> face_normals;          // unit; zero for zero-area triangles
    std::vector<glm::vec4> vertex_pseudonormals;  // angle-weighted sum of incident face normals, unit
    std::vector<glm::vec4> edge_pseudonormals;    // sum of the (up to two used) adjacent face normals, unit
    uint64_t dropped_triangles = 0;
    uint64_t open_edges = 0;                      // edges used by one triangle
    uint64_t non_manifold_edges = 0;              // edges used by three or more
    uint64_t inconsistent_edges = 0;              // two triangles traversing the edge the same way
    float orientation = 1.0f;                     // -1 when the signed volume is negative (inside-out mesh)

    size_t triangle_count() const { return indices.size() / 3; }
    bool closed_manifold() const { return open_edges == 0 && non_manifold_edges == 0 && inconsistent_edges == 0; }
};

// Topology step (CPU, once per topology change): welding, edges, pseudonormals, orientation. The caller
// has validated the mesh (finite positions, indices in range).
MeshData prepare_mesh(const Mesh& mesh);

// Pass 1, per cell: distance unwritten, no nearest triangle, parity bits clear.
void init_cell(uint32_t cell, std::span<uint32_t> dist_ordered, std::span<uint32_t> nearest,
               std::span<uint32_t> parity);

// Cell range [lo, hi] (inclusive, clamped to the grid) visited by a triangle's narrow-band scatter: its
// AABB grown by band_cells cells, rounded outwards. Empty when lo > hi on any axis.
void band_cell_range(const SdfGridParams& g, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::ivec3& lo, glm::ivec3& hi);

// Pass 2, per triangle: min of float_to_ordered(unsigned distance) into dist_ordered over its band range.
void band_distance_triangle(uint32_t tri, const SdfGridParams& g, const MeshData& m, std::span<uint32_t> dist_ordered);

// Pass 3, per triangle: min of the triangle id into nearest where its distance equals the minimum
// (ties resolved to the smallest id whatever the order).
void band_nearest_triangle(uint32_t tri, const SdfGridParams& g, const MeshData& m,
                           std::span<const uint32_t> dist_ordered, std::span<uint32_t> nearest);

// Pass 4, per cell: kSdfFlagWritten / kSdfFlagBand (distance <= band_cells cells: exact there, since any
// triangle closer than that has the cell in its scatter range).
void band_flags_cell(uint32_t cell, const SdfGridParams& g, std::span<const uint32_t> dist_ordered,
                     std::span<uint8_t> flags);

// Jump-flooding step sizes for a grid (Rong & Tan 2006): N/2, N/4, ..., 1, then 2, 1 again (JFA+2) to
// repair the few cells plain JFA gets wrong.
std::vector<int> jfa_steps(const SdfGridParams& g);

// Pass 5, per cell and per step: the best of the nearest triangles of the 27 cells at offsets
// {-step, 0, step}^3 (smaller exact distance, then smaller id), read from `in`, written to `out`.
void jfa_cell(uint32_t cell, int step, const SdfGridParams& g, const MeshData& m, std::span<const uint32_t> in,
              std::span<uint32_t> out);

// Pass 6a, per triangle and axis (0 x, 1 y, 2 z): for every grid column along `axis` whose centre line
// crosses the triangle (watertight edge functions: shared edges evaluated identically from both sides,
// a top-left rule for points on an edge), toggle bit `axis` of the parity word of the first cell whose
// centre lies past the crossing.
void parity_triangle(uint32_t tri, int axis, const SdfGridParams& g, const MeshData& m, std::span<uint32_t> parity);

// Pass 6b, per column along `axis` (column = index over the other two axes, first-fastest): prefix xor,
// so bit `axis` of a cell is the parity of crossings before its centre (odd = inside).
void parity_column(uint32_t column, int axis, const SdfGridParams& g, std::span<uint32_t> parity);

// Majority vote of the three parity bits.
inline bool parity_inside(uint32_t bits) { return gpu_shared::sdf_parity_inside(bits); }

// Generalized winding number at p (Jacobson et al. 2013), multiplied by the mesh orientation: about 1
// inside a closed mesh, 0 outside, fractional near holes. Triangles summed in index order.
float winding_number(glm::vec3 p_m, const MeshData& m);

// Pass 7 (winding sign only) builds a per-cell winding value: exact for the cells listed, trilinear
// from a coarse sub-grid of stride `stride` cells elsewhere. See sdf_build.cpp.
struct CoarseWinding {
    glm::ivec3 dims{0};          // coarse samples at fine cell coordinates (i, j, k) * stride
    int stride = 1;
    std::vector<float> values;   // x fastest
    float at_cell(glm::ivec3 cell) const;  // trilinear at a fine cell centre
};

// Pass 8, per cell: exact distance to the propagated nearest triangle, sign by `sign` (never Auto: the
// build resolves it), written as signed metres; +inf when the cell has no nearest triangle.
// PseudonormalBandParityElsewhere (Auto on closed manifold meshes): the parity vote, except in band cells
// where the three axes disagree (a ray grazed an edge or vertex), which take the pseudonormal of the
// nearest feature. Pseudonormals alone are not trusted: a concave quad fan-triangulated into two folded
// triangles (bob.obj) is still a closed manifold yet gives the wrong sign up to 1.7 cells away, where all
// three parity rays agree and are right.
// Values equal the kSdfSign* constants of shared/sdf.h (static_assert in sdf_passes.cpp).
enum class CellSign : uint32_t { Pseudonormal, Parity, PseudonormalBandParityElsewhere, Winding, FaceNormal };
struct FinalizeInputs {
    const SdfGridParams* grid = nullptr;
    const MeshData* mesh = nullptr;
    CellSign sign = CellSign::PseudonormalBandParityElsewhere;
    std::span<const uint32_t> nearest;
    std::span<const uint32_t> parity;
    std::span<const float> winding;        // per cell (winding sign only)
};
void finalize_cell(uint32_t cell, const FinalizeInputs& in, std::span<float> distance_m, std::span<uint8_t> flags);

}  // namespace tressel::sdf_passes
