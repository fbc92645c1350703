// Keeps grown guides out of the scalp mesh. Combing and drooping bend strands toward the surface and,
// on a curved head, through it; a simulation would then start with vertices inside its collision mesh.
// Each strand is walked from the root: a point that ends inside the mesh or closer than the clearance is
// moved out along the surface normal and its segment is turned (not stretched) from the corrected parent,
// so the strand keeps its segment lengths and, away from the surface, its shape.
#pragma once

#include <cstddef>

#include "groom/groom.h"
#include "groom/spatial.h"
#include "io/mesh.h"

namespace tressel {

struct ClearanceStats {
    size_t strands_moved = 0;   // strands with at least one point moved
    size_t points_moved = 0;
    float max_move_m = 0.0f;    // largest single point correction
};

// clearance_m: wanted distance from the surface (metres, >= 0). Near the root a point at arc length s
// only needs min(clearance_m, s / 2): the first segments leave the surface at an angle. `bvh` is over
// every triangle of `scalp`; inside / outside comes from the interpolated vertex normals at the closest
// point (face normals when the mesh has none). Strands flagged degenerate are left alone. Deterministic.
ClearanceStats keep_strands_outside(const Mesh& scalp, const TriangleBvh& bvh, float clearance_m, Strands& strands);

}  // namespace tressel
