// The exact oracle the SDF build is tested against: brute force over every triangle in double precision,
// independent of the build's passes. O(triangles) per point: for tests and small meshes only.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "io/mesh.h"
#include "sdf/sdf.h"

namespace tressel {

// Unsigned distance in metres from p to the nearest triangle (closest point by Voronoi regions).
double exact_unsigned_distance(const Mesh& mesh, glm::dvec3 p_m);

// Generalized winding number at p (Jacobson et al. 2013): sum of signed solid angles / 4 pi.
double exact_winding_number(const Mesh& mesh, glm::dvec3 p_m);

// Signed distance in metres: negative where |winding number| > 0.5 (orientation-independent, so an
// inside-out closed mesh still has a negative inside).
float exact_signed_distance(const Mesh& mesh, glm::vec3 p_m);

// The oracle at every cell centre of `grid` (x fastest), or at every `stride`-th cell in index order
// (the others left NaN) to bound the cost on larger meshes.
std::vector<float> exact_signed_distance_grid(const Mesh& mesh, const SdfGridDesc& grid, size_t stride = 1);

}  // namespace tressel
