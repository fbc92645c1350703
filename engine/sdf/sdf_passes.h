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
    std::vector<uint32_t> weld_source;            // per welded vertex: the first mesh vertex welded into it
    std::vector<uint32_t> indices;                // 3 per triangle into positions_m
    std::vector<uint32_t> tri_edges;              // 3 per triangle: edge ids of edges 01, 12, 20
    std::vector<uint32_t> tri_neighbours;         // 3 per triangle: the triangle across edge 01, 12, 20 (the
                                                  // first other user of a non-manifold edge; none if open)
    std::vector<uint32_t> vertex_tri_offsets;     // per welded vertex + 1: its triangles are
    std::vector<uint32_t> vertex_tris;            //   vertex_tris[offsets[v] .. offsets[v+1]), in index order
    std::vector<uint32_t> edge_tri_offsets;       // per edge + 1: its triangles are
    std::vector<uint32_t> edge_tris;              //   edge_tris[offsets[e] .. offsets[e+1]), in index order
    std::vector<glm::vec4> face_normals;          // unit; zero for zero-area triangles
    std::vector<glm::vec4> tri_spheres;           // bounding sphere per triangle (sdf_triangle_sphere)
    std::vector<glm::vec4> vertex_pseudonormals;  // angle-weighted sum of incident face normals, unit
    std::vector<glm::vec4> edge_pseudonormals;    // sum of the (up to two used) adjacent face normals, unit
    std::vector<gpu_shared::SdfFwnNode> fwn_nodes;  // fast winding numbers' hierarchy, depth first (shared/sdf.h)
    std::vector<uint32_t> fwn_tris;               // triangle ids in the hierarchy's order (leaves' ranges)
    std::vector<uint32_t> fwn_order;              // the refit's order: the leaves, then inner nodes deepest level first
    std::vector<uint32_t> fwn_level_offsets;      // fwn_order[offsets[i] .. offsets[i+1]): one refit dispatch each
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

// The positions-dependent part of prepare_mesh (shared/sdf_refit.h), for a mesh of the same topology
// whose vertices moved (a skinned body): welded positions from `source` (one per vertex of the mesh
// prepare_mesh was given, w ignored), face normals, triangle spheres, vertex and edge pseudonormals.
// The orientation stays the one prepared (a deformation does not turn a body inside out).
void refit_mesh(MeshData& m, std::span<const glm::vec4> source);

// Pass 1, per cell: distance unwritten, no nearest triangle. (The parity bit planes start all clear:
// sdf_parity_word_count(g) zero words.)
void init_cell(uint32_t cell, std::span<uint32_t> dist_ordered, std::span<uint32_t> nearest);

// Cell range [lo, hi] (inclusive, clamped to the grid) visited by a triangle's narrow-band scatter: its
// AABB grown by band_cells cells, rounded outwards. Empty when lo > hi on any axis.
void band_cell_range(const SdfGridParams& g, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::ivec3& lo, glm::ivec3& hi);

// Pass 2, per triangle: min of float_to_ordered(unsigned distance) into dist_ordered over its band range,
// for the cells at most band_cells cells away (sdf_band_limit_m): those are the band, exact, and the only
// cells written. Farther cells of the range are skipped (no atomic on the GPU).
void band_distance_triangle(uint32_t tri, const SdfGridParams& g, const MeshData& m, std::span<uint32_t> dist_ordered);

// Pass 3, per triangle: min of the triangle id into nearest where its distance equals the minimum
// (ties resolved to the smallest id whatever the order). Same cells as pass 2.
void band_nearest_triangle(uint32_t tri, const SdfGridParams& g, const MeshData& m,
                           std::span<const uint32_t> dist_ordered, std::span<uint32_t> nearest);

// Pass 4, per cell: kSdfFlagWritten and kSdfFlagBand, both where the scatter wrote a distance (<=
// band_cells cells: exact there, since any triangle that close has the cell in its scatter range). The
// GPU computes these flags in its last pass.
void band_flags_cell(uint32_t cell, const SdfGridParams& g, std::span<const uint32_t> dist_ordered,
                     std::span<uint8_t> flags);

// Far field, coarse to fine (constants and indexing in shared/sdf.h). Coarse cells: x fastest.
inline glm::ivec3 coarse_dims(const SdfGridParams& g) { return gpu_shared::sdf_coarse_dims(g); }
inline uint32_t coarse_cell_count(const SdfGridParams& g) {
    glm::ivec3 d = coarse_dims(g);
    return uint32_t(d.x) * uint32_t(d.y) * uint32_t(d.z);
}

// Pass 5a, per coarse cell: the JFA seed, the best (exact distance to the coarse sample point, then id)
// of the nearest triangles of the band cells of its block; none when the block has no band cell.
void coarse_seed_cell(uint32_t coarse_cell, const SdfGridParams& g, const MeshData& m,
                      std::span<const uint32_t> dist_ordered, std::span<const uint32_t> nearest,
                      std::span<uint32_t> coarse);

// Jump-flooding step sizes for a grid of `dims` cells (Rong & Tan 2006): N/2, N/4, ..., 1, then 1 again
// (JFA+1) to repair the few cells plain JFA gets wrong. (JFA+2's extra step 2 round changed no far-field
// error on the test meshes once every round ends with the mesh walk; dropping both extra rounds doubled
// fandisk's worst error to 0.45 cell.)
std::vector<int> jfa_steps(glm::ivec3 dims);

// Pass 5b, per coarse cell and per step: the best of the triangles of the 27 coarse cells at offsets
// {-step, 0, step}^3 (smaller exact distance to the coarse sample point, then smaller id), improved by
// the mesh walk of fine_nearest_cell in the rounds of step <= kSdfJfaWalkMaxStep, read from `in`,
// written to `out`.
void coarse_jfa_cell(uint32_t coarse_cell, int step, const SdfGridParams& g, const MeshData& m,
                     std::span<const uint32_t> in, std::span<uint32_t> out);

// Pass 5c, per fine cell (on the GPU fused into finalize): the band cell's own triangle, else the best
// (smaller exact distance to the cell centre, then smaller id) of the triangles of the 3 x 3 x 3 coarse
// cells around the cell's coarse cell; if that is within sdf_near_limit_m (band_cells + 4 cells), also
// the band triangles of the cells at offsets {-r,0,r}^3, r = 2, 4; then improved by walking the mesh
// from the best one's closest feature: at a vertex, every triangle around the vertex; on an edge, the
// triangle across it; inside the face, stop. The walk moves while a triangle there is better (at most
// kSdfWalkSteps moves). A coarse candidate is the nearest triangle of a sample point up to a few cells
// away: a few triangles off, which the walk repairs on smooth parts; near the surface the walk can stop
// in a local minimum (sharp edges, folds) where the band's own triangles are right.
// kSdfNoTriangle only if no coarse cell holds one.
uint32_t fine_nearest_cell(uint32_t cell, const SdfGridParams& g, const MeshData& m,
                           std::span<const uint32_t> dist_ordered, std::span<const uint32_t> nearest,
                           std::span<const uint32_t> coarse);

// Exact distance from p to triangle `tri` (sdf_triangle_distance_m).
float triangle_distance_m(const MeshData& m, uint32_t tri, glm::vec3 p_m);

// Pass 5d, per fine cell (on the GPU fused into finalize, after 5c): consensus of 2 x 2 x 2 cells. A
// far cell between band_cells + 2 and band_cells + 4 cells from its `first` triangle
// (sdf_consensus_applies) also takes the triangles that the other cells of its aligned 2 x 2 x 2 group
// (band cells included) found in pass 5c, where they may be nearer (sdf_consensus_margin_cells); when
// one of them is better, it walks from there. Each cell looks up the band triangles around it on rings
// of fixed offsets, so neighbouring cells see different ones: on fandisk a cell 5.2 cells out missed
// its nearest triangle (0.55 cell off) that its neighbour had found. Band cells keep their triangle.
// `first_d`: the exact distance of each cell to its `first` triangle (the neighbours' side of the
// filter).
uint32_t block_consensus_cell(uint32_t cell, const SdfGridParams& g, const MeshData& m,
                              std::span<const uint32_t> dist_ordered, std::span<const uint32_t> first,
                              std::span<const float> first_d);

// Pass 6a, per triangle and axis (0 x, 1 y, 2 z): for every grid line along `axis` whose centre line
// crosses the triangle (watertight edge functions: shared edges evaluated identically from both sides,
// a top-left rule for points on an edge), toggle the bit of the first cell whose centre lies past the
// crossing in the bit plane of `axis` (`toggles`: sdf_parity_word_count(g) words).
void parity_triangle(uint32_t tri, int axis, const SdfGridParams& g, const MeshData& m, std::span<uint32_t> toggles);

// Number of parity lines over the three axes (the items of pass 6b).
inline uint32_t parity_line_count(const SdfGridParams& g) {
    return gpu_shared::sdf_parity_lines(g, 0) + gpu_shared::sdf_parity_lines(g, 1) + gpu_shared::sdf_parity_lines(g, 2);
}

// Pass 6b, per line (x lines first, then y, then z): running xor of the line's toggles into `prefixed`,
// so bit i is the parity of crossings before cell centre i (odd = inside); the toggles are cleared
// (the GPU reuses them in the next build without an init pass).
void parity_prefix_line(uint32_t line, const SdfGridParams& g, std::span<uint32_t> toggles,
                        std::span<uint32_t> prefixed);

// The three parity bits of a cell (bit a from the plane of axis a).
uint32_t parity_bits(uint32_t cell, const SdfGridParams& g, std::span<const uint32_t> prefixed);

// Majority vote of the three parity bits.
inline bool parity_inside(uint32_t bits) { return gpu_shared::sdf_parity_inside(bits); }

// Generalized winding number at p (Jacobson et al. 2013), multiplied by the mesh orientation: about 1
// inside a closed mesh, 0 outside, fractional near holes. Triangles summed in index order.
float winding_number(glm::vec3 p_m, const MeshData& m);

// The same from the fast winding numbers' hierarchy (shared/sdf.h SdfFwnNode): exact for the triangles of
// the leaves a point is near, one dipole per node it is far from. `visits`, when given, counts the nodes
// and triangles evaluated.
float fast_winding_number(glm::vec3 p_m, const MeshData& m, uint64_t* visits = nullptr);

// The hierarchy's nodes from the current positions: the topology built by prepare_mesh (median splits of
// the triangle centroids along the longest axis), the centres, radii and area vectors refitted bottom up
// in fwn_order, with the formulas of shared/sdf.h that sdf/refit.comp uses (refit_mesh calls it for a
// deformed mesh).
void refit_fwn_nodes(MeshData& m);

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
// Shell: not a sign but the one-sided shell field of an open sheet (gpu_shared::sdf_shell_distance_m; band
// cells only, the mesh's orientation giving the obstacle's side).
enum class CellSign : uint32_t { Pseudonormal, Parity, PseudonormalBandParityElsewhere, Winding, FaceNormal, Shell };
struct FinalizeInputs {
    const SdfGridParams* grid = nullptr;
    const MeshData* mesh = nullptr;
    CellSign sign = CellSign::PseudonormalBandParityElsewhere;
    std::span<const uint32_t> nearest;     // per cell, from block_consensus_cell
    std::span<const uint32_t> parity;      // prefixed parity bit planes (parity sign modes only)
    std::span<const float> winding;        // per cell (winding sign only)
};
void finalize_cell(uint32_t cell, const FinalizeInputs& in, std::span<float> distance_m, std::span<uint8_t> flags);

// Whether closest-point feature `feature` (kSdfFeature*) of triangle `tri` lies on the mesh's rim: an edge
// no other triangle shares, or a vertex on one (the shell field's test; sdf/finalize_band.comp's too).
bool feature_on_rim(const MeshData& m, uint32_t tri, uint32_t feature);

}  // namespace tressel::sdf_passes
