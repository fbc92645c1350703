// The groom of one hair group: guide strands and follow-hair descriptors, kept apart (DESIGN.md "Data
// model"). Strands are flat point arrays plus `strand_offsets` (n + 1 entries, Blender-curves style), any
// point count per strand; each strand is attached to the scalp by a triangle index and barycentric
// coordinates so roots can follow a deforming scalp. Follow hairs are descriptors that the GPU evaluates
// every frame from the (simulated) guides: see follow.h and shaders/shared/groom.h.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "shared/groom.h"

namespace tressel {

// Where a strand's root sits on its scalp mesh: point = b.x * v0 + b.y * v1 + b.z * v2 of triangle
// `triangle` (indices into the mesh's index buffer / 3). b is in [0, 1] and sums to 1.
struct ScalpAttachment {
    uint32_t triangle = 0;
    glm::vec3 barycentric{1.0f, 0.0f, 0.0f};
};

enum StrandFlags : uint32_t {
    kStrandDegenerate = 1u << 0,   // total length below kDegenerateStrandLength_m (kept, never dropped)
    kStrandFromFile = 1u << 1,     // read from a .tfx / .hair file rather than grown
    kStrandMovedOut = 1u << 2,     // grown into the scalp and moved out of it (keep_strands_outside)
    // Grown through a body it is kept out of (GroomInputs::obstacles: a bun) and still in it where the body
    // meets the scalp, which the growth cannot turn it out of: the simulation leaves it to that body.
    kStrandWedged = 1u << 3,
};

inline constexpr float kDegenerateStrandLength_m = 1e-4f;

struct Strands {
    std::vector<glm::vec3> points_os_m;       // scalp-mesh (object) space, metres, strand-major
    std::vector<uint32_t> strand_offsets{0};  // strand i owns points [offsets[i], offsets[i+1]); size n + 1
    std::vector<float> widths_m;              // optional: fibre width per point (metres); empty or one per point
    std::vector<glm::vec4> colors;            // optional: linear RGBA per point; empty or one per point
    std::vector<ScalpAttachment> roots;       // one per strand
    std::vector<uint32_t> seeds;              // one per strand: per-strand variation seed (shading, jitter)
    std::vector<uint32_t> flags;              // one per strand: StrandFlags

    size_t strand_count() const { return strand_offsets.size() - 1; }
    size_t point_count() const { return points_os_m.size(); }
    uint32_t points_in(size_t strand) const { return strand_offsets[strand + 1] - strand_offsets[strand]; }
    std::span<const glm::vec3> strand(size_t i) const {
        return {points_os_m.data() + strand_offsets[i], points_in(i)};
    }
    std::span<glm::vec3> strand(size_t i) { return {points_os_m.data() + strand_offsets[i], points_in(i)}; }
    // Every strand has the same point count `n` (the GPU layout); 0 when counts differ or empty.
    uint32_t uniform_point_count() const;
    // Checks the invariants above (sizes, monotonic offsets, at least 2 points per strand); a programmer
    // error when violated, so callers assert on it.
    bool consistent() const;
};

// Polyline length of strand i (metres), summed in double so the result does not depend on the caller.
double strand_length_m(const Strands& s, size_t i);

// The GPU vertex counts a group may be resampled to (DESIGN.md: 4, 8, 16, 32 or 64).
bool is_gpu_vertex_count(uint32_t n);

// Resamples every strand to `count` points placed at equal arc length along its polyline (linear
// interpolation; widths and colours interpolated the same way). Roots, seeds and flags are kept.
// InvalidArgument when count is not a GPU vertex count (see is_gpu_vertex_count) unless allow_any_count.
Result<Strands> resample_strands(const Strands& in, uint32_t count, bool allow_any_count = false);

// Follow hairs: descriptors evaluated from guides (shaders/shared/groom.h has the formula and the GPU
// struct), plus where each follow was seeded on the scalp (for its root UV and shading).
struct FollowHairs {
    std::vector<gpu_shared::FollowDescriptor> descriptors;
    std::vector<ScalpAttachment> roots;  // one per descriptor: barycentric: the seeded scalp point (before
                                         // clumping); TressFX: its guide's root (the offset leaves the surface)
    std::vector<uint32_t> seeds;         // one per descriptor
    size_t size() const { return descriptors.size(); }
};

}  // namespace tressel
