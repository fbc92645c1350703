// Strand data in the renderer's input layout (renderer.h HairDesc): vec4 positions, strand-major, a fixed
// vertex count per strand, world metres; per strand (seed, guide id); per vertex rest segment lengths.
// Until the simulation exists this is built on the CPU from a groom (guides resampled, follow hairs
// evaluated with follow_point) and uploaded once; the simulation will write the same layout in place.
#pragma once

#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "gpu/device.h"
#include "groom/grow.h"
#include "render/renderer.h"
#include "sdf/sdf.h"
#include "sdf/sdf_check.h"
#include "sdf/sdf_slice.h"

namespace tressel::render {

struct RenderStrands {
    uint32_t vertices_per_strand = 0;
    std::vector<glm::vec4> positions_m;   // strand-major, w = 1 (inverse mass, unused by the renderer)
    std::vector<glm::uvec2> strand_info;  // (seed, guide id)
    std::vector<float> rest_lengths_m;    // per vertex: |P[k+1] - P[k]| of the rest shape (last: the previous one)
    glm::vec3 bounds_min_m{0.0f}, bounds_max_m{0.0f};
    uint32_t strand_count() const { return static_cast<uint32_t>(strand_info.size()); }
};

// Guides resampled to `vertices_per_strand` (a GPU count: 4, 8, 16, 32, 64) followed by the follow hairs
// evaluated from them. Guide strands keep their own index as guide id; follow hairs take their primary
// guide (descriptor guides.x). InvalidArgument for a bad vertex count or an empty groom.
Result<RenderStrands> strands_from_groom(const GroomResult& groom, uint32_t vertices_per_strand,
                                         bool include_guides = true, bool include_follows = true);

// `count` synthetic strands of n vertices hanging from a hemisphere of radius_m around centre_m (for
// benchmarks and tests): roots on a Fibonacci lattice of the upper hemisphere, falling outward then down,
// each strand `length_m` long.
RenderStrands synthetic_strands(uint32_t count, uint32_t n, glm::vec3 centre_m = glm::vec3(0.0f), float radius_m = 0.1f,
                                float length_m = 0.3f);

// Device buffers for RenderStrands (positions, strand info, rest lengths).
struct HairBuffers {
    gpu::Buffer positions, strand_info, rest_lengths;
    uint32_t strand_count = 0, vertices_per_strand = 0;
    glm::vec3 bounds_min_m{0.0f}, bounds_max_m{0.0f};
    // A HairDesc drawing these buffers with `shading`.
    HairDesc desc(const Shading& shading) const;
};
Result<HairBuffers> upload_strands(gpu::Device& device, const RenderStrands& strands, const std::string& name);

// The SDF slice for the 3D view and the 2D panel: make_slice + slice_to_rgba (engine/sdf/sdf_slice.h)
// placed in the world at the slice plane over the grid's bounds.
// With `check` and `edges` (sdf/sdf_check.h, of the same grid and its mesh) the view carries the field's
// diagnosis.
SliceView make_slice_view(const SdfGrid& grid, SliceAxis axis, double position, const SliceStyle& style,
                          const SdfFieldCheck* check = nullptr, const MeshEdgeProblems* edges = nullptr);

// A hair density slice: `nodes`^3 values (hairs per cm^2, index (z * nodes + y) * nodes + x, node (x, y, z)
// at origin + cell (x, y, z)) cut by the plane of nodes nearest `position` (0..1) across `axis`, bilinear
// between nodes, `px_per_cell` pixels a cell. Colour: black where there is no hair, through purple and
// orange to pale yellow at full (twice the target or the plane's densest, whichever is larger); a white
// contour where the density crosses `target_per_cm2`.
SliceView make_density_slice_view(uint32_t nodes, glm::vec3 origin_m, float cell_m, std::span<const float> per_cm2,
                                  double target_per_cm2, SliceAxis axis, double position, int px_per_cell = 6);

// The density slice's colour at `value` of `full` (sRGB, 0..1).
glm::vec3 density_colour(double value, double full);

}  // namespace tressel::render
