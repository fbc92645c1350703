// Signed distance fields of collision meshes: grid sizing (TressFX's rule, seed 000, with its flat-mesh
// failure fixed) and the CPU reference build. The build runs the same passes the GPU port runs
// (engine/sdf/sdf_passes.h, README.md); its output is the oracle the GPU build must match.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "core/diagnostics.h"
#include "core/progress.h"
#include "core/result.h"
#include "io/mesh.h"
#include "scene/scene_types.h"
#include "sdf/sdf_passes.h"
#include "shared/sdf.h"

namespace tressel {

inline constexpr int kSdfMaxCellsX = gpu_shared::kSdfMaxCellsPerAxis;
inline constexpr double kSdfMaxPadding = 4.0;                          // x cells_x, per side
inline constexpr uint64_t kSdfDefaultMemoryCapBytes = 512ull << 20;   // 512 MiB
inline constexpr uint64_t kSdfDefaultWindingBudget = 400'000'000ull;  // point-triangle solid angles
// What one fast winding number costs against the budget: the nodes and triangles a point visits (220 to 410
// on the test meshes, the 69K-triangle bunny the most: SdfFastWinding.MatchesTheExactSumAndVisitsFewTriangles).
inline constexpr uint64_t kSdfFastWindingCost = 512;

// Per collision mesh grid parameters (GPU: their own buffer, gpu_shared::SdfGridParams).
struct SdfGridDesc {
    glm::ivec3 dims{0};               // cells along x, y, z
    glm::dvec3 origin_m{0.0};         // centre of cell (0,0,0), metres, engine space
    double cell_size_m = 0.0;
    int padding_cells = 0;            // extra cells on every side of the mesh bounds
    bool used_largest_extent = false; // the x extent was degenerate; cell size came from the largest extent

    uint64_t cell_count() const { return uint64_t(dims.x) * uint64_t(dims.y) * uint64_t(dims.z); }
    glm::dvec3 cell_centre_m(int i, int j, int k) const { return origin_m + glm::dvec3(i, j, k) * cell_size_m; }
    gpu_shared::SdfGridParams gpu_params(int band_cells) const;
};

// TressFX's sizing: cell size = bounds x width / cells_x; padding_cells = int(padding * cells_x) on every
// side; origin = bounds_min - padding (a cell centre). Dims cover the padded box with cell centres
// (TressFX truncates and falls one cell short: Rat Boy body at 50 cells gives 131 x 172 x 126 here,
// TressFX's 130 x 171 x 125 plus one). When the x extent is below 1e-3 of the largest extent (a mesh flat
// on x) the largest extent is used instead, with a warning in `diag`.
// Errors (InvalidArgument) name the parameter: cells_x outside [1, 4096], padding outside [0, 4],
// non-finite or inverted bounds, bounds of zero size.
Result<SdfGridDesc> compute_grid(glm::dvec3 bounds_min_m, glm::dvec3 bounds_max_m, int cells_x, double padding,
                                 Diagnostics& diag);

struct SdfBuildDesc {
    const Mesh* mesh = nullptr;               // positions in metres; only positions and indices are read
    int cells_x = 64;                         // TressFX numCellsInXAxis
    double padding = 0.8;                     // fraction of cells_x added on every side
    SignMethod sign = SignMethod::Auto;
    int band_cells = 2;                       // narrow band half-width in cells, [1, 8]
    uint64_t memory_cap_bytes = kSdfDefaultMemoryCapBytes;  // refuse builds needing more host memory
    uint64_t winding_budget = kSdfDefaultWindingBudget;     // cap on winding evaluations x triangles
    Progress* progress = nullptr;             // optional; cancellation gives ErrorCode::Cancelled
    // The grid to build on instead of one sized from the mesh (cells_x and padding then unused): a body
    // rebuilt every frame of an animation keeps one grid that covers all its poses. Its cells must be
    // positive in number and size.
    std::optional<SdfGridDesc> fixed_grid;
    // Only the narrow band exactly (a body rebuilt every simulation step): cells beyond it hold the band's
    // width, signed by the parity vote (no far-field search). The hair's collision reads distances within
    // its margin of the surface and pushes along the gradient, which is zero beyond the band: hair there
    // is not pushed, as in TressFX's own per-frame fields. Ignored (a full build) for the winding and
    // face-normal signs.
    bool band_only = false;
    // The one-sided shell field of an open sheet instead of a signed distance (a cloth accessory hair lies
    // under, shared/sdf.h sdf_shell_distance_m): band only, the obstacle on the side the face normals point
    // to times shell_side (+1 or -1); beyond the band the band's width (free).
    bool shell = false;
    float shell_side = 1.0f;
};

// The build a scene asks for of its collision mesh `cm` over `mesh`: cell count, padding and sign; the
// other settings keep their defaults.
inline SdfBuildDesc sdf_build_desc(const CollisionMesh& cm, const Mesh& mesh) {
    SdfBuildDesc d;
    d.mesh = &mesh;
    d.cells_x = cm.cells_x;
    d.padding = cm.padding;
    d.sign = cm.sign;
    return d;
}

struct SdfBuildStats {
    uint64_t cells = 0;
    uint64_t band_cells = 0;        // cells with kSdfFlagBand
    uint64_t written_cells = 0;     // cells the narrow-band scatter reached
    uint64_t inside_cells = 0;
    uint64_t unwritten_cells = 0;   // cells left without a distance (0 unless something is broken)
    uint64_t triangles = 0;         // after dropping triangles with repeated (welded) vertices
    uint64_t dropped_triangles = 0;
    uint64_t welded_vertices = 0;
    uint64_t open_edges = 0;
    uint64_t non_manifold_edges = 0;
    bool closed_manifold = false;
    bool pseudonormal_band = false; // band cells signed by pseudonormals (Auto on a closed manifold mesh)
    int winding_stride = 0;         // coarse sub-grid stride of the winding pass (0: not run)
    bool winding_fast = false;      // the winding numbers came from the fast hierarchy (Barill et al. 2018)
    uint64_t winding_evaluations = 0;
    uint64_t memory_bytes = 0;      // estimate used for the cap check
};

struct SdfGrid {
    SdfGridDesc grid;
    int band_cells = 0;
    std::vector<float> distance_m;  // signed, metres; x fastest, then y, then z; negative inside
    std::vector<uint8_t> flags;     // gpu_shared::kSdfFlag* per cell
    SignMethod sign_used = SignMethod::Auto;  // never Auto after a build
    SdfBuildStats stats;

    size_t index(int i, int j, int k) const {
        return size_t(i) + size_t(grid.dims.x) * (size_t(j) + size_t(grid.dims.y) * size_t(k));
    }
    float at(int i, int j, int k) const { return distance_m[index(i, j, k)]; }
    gpu_shared::SdfGridParams gpu_params() const { return grid.gpu_params(band_cells); }
    // Trilinear distance (metres) and central-difference gradient, shared/sdf_sample.h.
    float sample_m(glm::vec3 p_m) const;
    glm::vec3 gradient(glm::vec3 p_m, float h_m) const;
};

// Host memory the build would allocate for `cells` cells and the mesh's triangles / vertices, in bytes.
uint64_t estimate_sdf_build_bytes(const SdfGridDesc& grid, size_t triangles, size_t vertices);

// Everything decided before any pass runs, shared by the CPU and GPU builds: the validated mesh prepared
// (welded, pseudonormals), the grid, the memory estimate checked against the cap, and the sign method.
struct SdfBuildPlan {
    SdfGridDesc grid;
    int band_cells = 2;
    SignMethod requested_sign = SignMethod::Auto;
    SignMethod sign_used = SignMethod::Parity;       // never Auto
    sdf_passes::CellSign cell_sign = sdf_passes::CellSign::Parity;
    sdf_passes::MeshData mesh;
    std::string mesh_name;
    uint64_t memory_bytes = 0;
    uint64_t winding_budget = kSdfDefaultWindingBudget;
    bool band_only = false;   // SdfBuildDesc::band_only, where the sign allows it (always for a shell)
};

// Validation, grid sizing, memory cap and sign choice (the errors of build_sdf_cpu).
Result<SdfBuildPlan> plan_sdf_build(const SdfBuildDesc& desc, Diagnostics& diag);

// Winding sign only: the coarse sub-grid stride that keeps (band cells + coarse samples) x triangles
// within the budget, decided once the band is known.
struct WindingPlan {
    int stride = 0;                 // 0 = not used; 1 = every cell exact
    bool exact_band = true;         // band cells evaluated exactly (else everything from the coarse grid)
    bool fast = false;              // evaluated by the fast winding numbers' hierarchy (shared/sdf.h), not the exact sum
    glm::ivec3 coarse_dims{0};
    uint64_t evaluations = 0;
};
WindingPlan plan_winding(const SdfBuildPlan& plan, uint64_t band_cell_count, Diagnostics& diag);

// Fills out.stats from the plan and the finished distances and flags.
void fill_sdf_stats(const SdfBuildPlan& plan, const WindingPlan& winding, SdfGrid& out);

// Builds the field. Errors: InvalidArgument (null/empty mesh, non-finite vertex, index out of range, bad
// cells_x / padding / band_cells, with the parameter named), LimitExceeded (memory estimate above the
// cap, message gives the size needed), Cancelled. Warnings (x extent degenerate, triangles dropped,
// winding evaluated on a coarse grid) go to `diag`.
Result<SdfGrid> build_sdf_cpu(const SdfBuildDesc& desc, Diagnostics& diag);

// A band-only field (a shell, or a parity-signed band) rebuilt after its mesh moved, as the GPU's refit and
// build do: `plan` from plan_sdf_build on the mesh's topology (its grid fixed), refitted to `source` (one
// position per vertex of the mesh it was planned from; sdf_passes::refit_mesh), then the band passes and
// the finalize into `out` (resized to the grid). InvalidArgument when the plan is not band-only or the
// source holds fewer vertices than the plan's mesh came from.
Status rebuild_band_field_cpu(SdfBuildPlan& plan, std::span<const glm::vec4> source, SdfGrid& out);

// "auto", "parity", "winding", "face_normal".
const char* sign_method_name(SignMethod m);

}  // namespace tressel
