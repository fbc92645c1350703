// Analytic scalps for the groom tests.
#pragma once

#include <vector>

#include "io/mesh.h"

namespace tressel::test {

// A plane in y = 0 facing +Y over [0, size]^2 (x, z), nx x nz quads. Column x positions follow
// x = size * (i / nx)^x_power, so triangle areas vary across the plane when x_power != 1.
Mesh make_plane(int nx, int nz, float size_m, float x_power = 1.0f);

// Ray-parity inside test against a closed triangle mesh (a fixed skew ray direction; odd hits = inside).
bool inside_by_parity(const Mesh& mesh, const glm::vec3& p);

}  // namespace tressel::test
