// Follow hairs (DESIGN.md): descriptors evaluated from guides every frame, never stored as geometry.
//   TressFX style   per_guide followers of each guide; root offset uniform in a disc of root_radius_m in the
//                   plane perpendicular to the guide's first segment; the offset grows toward the tip by
//                   (1 + tip_separation * s) as TressFX 4.1 does.
//   barycentric     over scalp triangles (seed 002, Nalu): a regular set of interior points per region
//                   triangle (level L = subdivisions: barycentrics (i, j, k) / (L + 2) with i, j, k >= 1) plus
//                   area-uniform random points up to the total count. A follow in a triangle whose three
//                   corners carry guides (per-vertex placement) blends those three with its barycentric
//                   coordinates; otherwise it blends the 3 nearest guide roots by inverse distance and keeps
//                   the remainder as a root offset. clump c pulls it toward its primary (nearest / heaviest)
//                   guide: weights -> (1 - c) w + c e_primary, offset -> (1 - c) offset; c = 1 is on the guide.
//                   Follows stay near their guides: region triangles farther from every guide root than six
//                   times the guides' median nearest-neighbour distance grow none, with a warning (guides
//                   from a file over part of a whole-body region; covering guides leave every triangle in).
// The formula and the GPU struct: shaders/shared/groom.h.
//
// Order (for level of detail): any prefix of the follow list covers the region evenly, in proportion to
// the whole set. TressFX style is laid out in rounds, follower j of every guide before follower j + 1 of
// any, the guides of a round in spread_order of their roots; barycentric follows (regular set and random
// points alike) are put in spread_order of their scalp points after they are built. Each follow keeps its
// own descriptor, root and seed (and the random streams are keyed by the generation index), so the order is
// all that changes, and it is the same bit for bit for the same inputs.
//
// What a prefix of the drawn strands is: per hair group the simulation keeps guides and follows in two
// separate buffers (engine/sim/sim.h SimGroupState: `positions`, n vertices per guide in guide order, and
// `follow_positions`, n per follow in this order; on the GPU SimGpuGroup::follow_pos, same layout), and
// the runtime hands the renderer two hairs per group (SceneRuntime::build_hair_drawing): the guides, then
// the follows, each with its own strand_count and per-strand info {seed, primary guide} in the same order.
// So drawing the first N' strands of a group's follow hair draws follows 0 .. N'-1 of this list: an even
// thinning of the follow hair. The follow pass still evaluates every follow, and every follow reads the
// full guide set (all guides are simulated). The guide draw is in placement order, which is spread only
// for random placement (per-vertex: mesh order; file: file order).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "groom/groom.h"
#include "groom/placement.h"
#include "groom/region.h"
#include "io/mesh.h"
#include "scene/scene_types.h"

namespace tressel {

inline constexpr size_t kMaxFollowHairs = 5'000'000;

// Root frame per guide: tangent = first segment direction; bitangent = the root triangle's first edge
// made perpendicular to it (any perpendicular if parallel); normal = tangent x bitangent.
std::vector<gpu_shared::GuideFrame> compute_guide_frames(const Strands& guides, const Mesh& scalp);

struct FollowInputs {
    const Mesh* scalp = nullptr;                 // required
    const RegionInfo* region = nullptr;          // required
    const Strands* guides = nullptr;             // required; roots attached to `scalp`
    std::span<const gpu_shared::GuideFrame> frames;  // one per guide (compute_guide_frames)
    std::span<const int32_t> vertex_guide;       // per-vertex placement's map (RootSet::vertex_guide) or empty
    Follow follow;
};

// A permutation of `points` whose every prefix is spread over them evenly: points sorted along a Morton
// curve (a 1024^3 grid over their bounding cube, ties by index), then rank r placed at slot bit-reverse(r)
// (van der Corput), so the first k slots take about every (n / k)-th point along the curve. Deterministic.
std::vector<uint32_t> spread_order(std::span<const glm::vec3> points);

// Checks the follow parameters, naming the failing one.
Status validate_follow(const Follow& f);

Result<FollowHairs> generate_follow(const FollowInputs& in, Diagnostics& diag);

// Evaluates one follow hair: out[k] for k < n from guide points laid out with n points per guide
// (guide g's point k at guide_points[g * n + k]). Pure; no allocation; mirrors the GPU pass exactly.
void evaluate_follow(const gpu_shared::FollowDescriptor& d, std::span<const glm::vec3> guide_points, uint32_t n,
                     std::span<const gpu_shared::GuideFrame> frames, std::span<glm::vec3> out);

// All follow hairs as strands (n points each) for inspection and export; the guides must all have n
// points (resample first). Roots, seeds copied from `follows`.
Strands evaluate_follows(const FollowHairs& follows, const Strands& guides, std::span<const gpu_shared::GuideFrame> frames);

}  // namespace tressel
