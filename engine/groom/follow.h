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
// The formula and the GPU struct: shaders/shared/groom.h.
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
