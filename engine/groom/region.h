// Scalp regions: which triangles and vertices of the scalp mesh grow hair (scene ScalpRegion).
//   whole        every triangle
//   cap          directions from the mesh's bounding-box centre within angle_deg of `axis` (mesh space)
//   vertex_color vertex colour `channel` above `threshold`
//   uv_mask      PNG `mask_path` (UV space) `channel` above `threshold`; the mesh must have UVs
//   paint        the mask painted on the scalp (groom/scalp_paint.h) above `threshold`
// A triangle is in the region when its centroid passes the test (cap: centroid direction; vertex colour:
// mean of its corners; UV mask: sampled at the centroid UV). A vertex is in the region when it passes the
// test itself.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/result.h"
#include "io/mesh.h"
#include "scene/scene_types.h"

namespace tressel {

struct RegionInfo {
    std::vector<uint32_t> triangles;   // ascending triangle indices in the region
    std::vector<uint8_t> vertex_in;    // one per mesh vertex: 1 inside the region
    double area_m2 = 0.0;              // summed area of `triangles`
    // Painted density (groom/scalp_paint.h): per entry of `triangles`, the mean of its corners' density
    // scale; empty when none is painted (every triangle 1). Area samplers weigh triangles by it.
    std::vector<float> triangle_density;
    double weighted_area_m2 = 0.0;     // sum of area x density (area_m2 when none is painted)
    double area_cm2() const { return area_m2 * 1e4; }
};

// Fails with InvalidArgument naming the parameter for a zero cap axis, an angle outside (0, 180], a
// channel outside 0..3, a vertex_color region on a mesh with no colours, a uv_mask region on a mesh with
// no UVs; the mask file's own errors otherwise. An empty selection is not an error here (grow_group
// reports it).
// `paint` (may be null) gives the paint region's mask and the density weights.
Result<RegionInfo> evaluate_region(const Mesh& mesh, const ScalpRegion& region, const std::filesystem::path& base_dir,
                                   const ScalpPaint* paint = nullptr);

// Area of triangle t of `mesh` in m^2, computed in double.
double triangle_area_m2(const Mesh& mesh, uint32_t t);

}  // namespace tressel
