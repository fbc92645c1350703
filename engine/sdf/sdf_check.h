// What a finished SDF says about its mesh, for the slice's diagnostic overlay (the viewport, `tressel-cli
// sdf`): it tells a cavity of the mesh from a wrong sign, and finds the mesh's edges that make a sign
// doubtful.
//
// - A cavity: outside cells (distance >= 0) that cannot be reached from the grid's border through outside
//   cells. A closed mesh encloses them (the mouth bag of a scan, the inner shell of a helmet): the field is
//   right, and hair can never get there.
// - A sign jump: two neighbouring cells of opposite sign whose distances add up to more than the cell size
//   allows. A distance field changes by at most the distance between two points (it is 1-Lipschitz), so a
//   sign change between cells needs a surface within |d_a| + |d_b| <= cell size; where the sum is larger
//   the sign flips with no surface between (a hole in the mesh, a flipped shell, a winding number near
//   one half). An enclosed outside region that touches a sign jump is counted as a wrong sign, not as a
//   cavity.
// - Problem edges of the mesh (welded by exact position, as the build welds): open (one triangle),
//   non-manifold (three or more), inconsistently wound (two triangles traversing it the same way).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "io/mesh.h"
#include "sdf/sdf.h"

namespace tressel {

enum SdfCellMark : uint8_t {
    kSdfCellOk = 0,
    kSdfCellCavity = 1,     // outside, enclosed by the surface
    kSdfCellSignJump = 2,   // a sign change with no surface between, or an enclosed region bordered by one
};

struct SdfFieldCheck {
    std::vector<uint8_t> marks;        // per cell (SdfGrid::index), SdfCellMark
    uint64_t cavity_cells = 0;
    uint64_t cavity_regions = 0;
    uint64_t sign_jump_cells = 0;      // cells marked kSdfCellSignJump (regions included)
    uint64_t sign_jump_regions = 0;    // enclosed outside regions bordered by a jump
    bool clean() const { return cavity_cells == 0 && sign_jump_cells == 0; }
};

// `jump_tolerance`: a sign change between neighbours is a jump when |d_a| + |d_b| exceeds this many cell
// sizes (1 in exact arithmetic; the default leaves room for the far field's approximate distances).
SdfFieldCheck check_sdf_field(const SdfGrid& grid, double jump_tolerance = 1.5);

struct MeshEdgeProblems {
    // Segment ends in pairs, world metres: at most `max_each` segments of each kind are kept; the counts
    // are of all of them.
    std::vector<glm::vec3> open_m, non_manifold_m, inconsistent_m;
    uint64_t open = 0, non_manifold = 0, inconsistent = 0;
    bool inside_out = false;            // the closed mesh's signed volume is negative
    uint64_t total() const { return open + non_manifold + inconsistent; }
};

// How much of its mesh's surface a field sees: whether the cells are fine enough for the mesh's thin
// parts. Under every triangle (at its centroid and halfway from it to each corner), a point half a margin
// inside the mesh along the face normal; the field reads it outside (distance >= 0) where the mesh is
// thinner than about a cell there (an ear in 2.5 cm cells): hair that touches that part is not pushed out
// of it, and passes in. Weighted by triangle area. The grid and the mesh in the same (rest) frame.
struct SdfCoverage {
    double area_m2 = 0.0;
    double missed_area_m2 = 0.0;            // area whose points the field reads outside
    uint64_t samples = 0, missed_samples = 0;
    double worst_reading_m = -1e30;         // the farthest out the field reads any of the points
    glm::vec3 worst_m{0.0f};                // where (mesh frame)
    double missed_share() const { return area_m2 > 0.0 ? missed_area_m2 / area_m2 : 0.0; }
};
SdfCoverage check_sdf_coverage(const SdfGrid& grid, const Mesh& mesh, double margin_m);
// A build warns where its field misses more than this share of the surface.
inline constexpr double kSdfCoverageWarnShare = 0.02;

MeshEdgeProblems find_mesh_edge_problems(const Mesh& mesh, size_t max_each = 50000);

}  // namespace tressel
