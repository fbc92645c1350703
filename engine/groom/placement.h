// Guide root placement on a scalp region (seeds 001, 002: roots at scalp vertices as in Nalu, or spread
// over the surface). Roots lie on the mesh surface: a triangle plus barycentric coordinates.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "core/diagnostics.h"
#include "core/result.h"
#include "groom/groom.h"
#include "groom/region.h"
#include "io/mesh.h"

namespace tressel {

struct RootSet {
    std::vector<ScalpAttachment> roots;
    std::vector<glm::vec3> points_m;      // mesh space, on the surface
    std::vector<glm::vec3> normals;       // unit: barycentric blend of vertex normals (face normal when absent)
    std::vector<glm::vec2> uvs;           // root UV (zero when the mesh has no UVs)
    // Per-vertex placement: guide index for every mesh vertex (vertices at the same position share one
    // guide), -1 for vertices without a guide. Empty for other placements.
    std::vector<int32_t> vertex_guide;
    size_t size() const { return roots.size(); }
};

inline constexpr size_t kMaxGuides = 2'000'000;
inline constexpr size_t kMaxGuidePoints = 64'000'000;  // 768 MB of positions

// Point, interpolated normal and UV of an attachment.
glm::vec3 attachment_point(const Mesh& mesh, const ScalpAttachment& a);
glm::vec3 attachment_normal(const Mesh& mesh, const ScalpAttachment& a);
glm::vec2 attachment_uv(const Mesh& mesh, const ScalpAttachment& a);
void append_root(const Mesh& mesh, const ScalpAttachment& a, RootSet& out);

// One guide per distinct vertex position in the region that some triangle uses (Nalu, seed 002); the
// root is attached to the lowest-numbered triangle using that vertex, barycentric at its corner.
RootSet place_per_vertex(const Mesh& mesh, const RegionInfo& region);

// Area-uniform random roots over the region's triangles: triangle by area (AreaSampler), then a
// uniform point in it (b = (1 - sqrt(u), sqrt(u)(1 - v), sqrt(u) v)). Sample i draws from its own
// stream seeded by (seed, i). With min_spacing_m > 0, Poisson-disk dart throwing over a grid: at most
// 30 x count darts, accepted in dart order; fewer roots than asked is reported in `diag`.
RootSet place_random(const Mesh& mesh, const RegionInfo& region, size_t count, uint32_t seed, double min_spacing_m,
                     Diagnostics& diag);

// Painted placement (groom/scalp_paint.h): each region triangle t gets floor(e) or floor(e) + 1 roots,
// e = guides_per_m2 x area x its painted density (region.triangle_density; 1 when empty), uniform in it,
// all drawn from t's own stream (seed, t). Local: changing the paint of one triangle (or taking it out of
// the region) changes that triangle's roots and no other's. Roots in ascending triangle order.
RootSet place_painted(const Mesh& mesh, const RegionInfo& region, double guides_per_m2, uint32_t seed);

// Area-uniform points on a region (used by follow generation as well): the triangle by Walker's alias
// method (Vose's construction, O(1) per sample), then a uniform point in it.
struct AreaSampler {
    explicit AreaSampler(const Mesh& mesh, const RegionInfo& region);
    // u in [0, 1) picks the triangle, (r1, r2) in [0, 1)^2 the point.
    ScalpAttachment sample(double u, float r1, float r2) const;
    const RegionInfo* region;
    std::vector<double> accept;   // per slot: probability of keeping the slot's own triangle
    std::vector<uint32_t> alias;  // per slot: the other triangle (index into region.triangles)
};

}  // namespace tressel
