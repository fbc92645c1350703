// Keeps grown guides out of the scalp mesh. Combing and drooping bend strands toward the surface and,
// on a curved head, through it; a simulation would then start with vertices inside its collision mesh.
// Each strand is walked from the root: a point that ends inside the mesh or closer than the clearance is
// moved out along the surface normal and its segment is turned (not stretched) from the corrected parent,
// so the strand keeps its segment lengths and, away from the surface, its shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

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
// point (face normals when the mesh has none). Strands flagged degenerate, and those with a nonzero `leave`
// flag (when given: one per strand), are left alone. Deterministic.
ClearanceStats keep_strands_outside(const Mesh& scalp, const TriangleBvh& bvh, float clearance_m, Strands& strands,
                                    std::span<const uint8_t> leave = {});

// Which strands keep_strands_outside should leave alone when it keeps them out of `obstacle` (a closed mesh
// the hair wraps around, such as a bun on the scalp): those rooted inside it or within `clearance_m` of its
// surface, which cannot be turned out of it about their roots (the simulation leaves them to the body
// too). Returns one flag per strand, 1 = leave; `rooted_inside` counts them.
std::vector<uint8_t> strands_rooted_inside(const Mesh& obstacle, const TriangleBvh& bvh, float clearance_m, const Strands& strands,
                                           size_t* rooted_inside = nullptr);

// Sets `flag` on every strand not left (`leave`, as strands_rooted_inside gives it) with a point other than
// its root inside `obstacle` (the inside test of keep_strands_outside); returns how many.
size_t mark_strands_inside(const Mesh& obstacle, const TriangleBvh& bvh, std::span<const uint8_t> leave, uint32_t flag, Strands& strands);

}  // namespace tressel
