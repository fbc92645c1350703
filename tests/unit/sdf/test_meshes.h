// Meshes for the SDF tests: analytic shapes built in code, and test-data files.
#pragma once

#include <filesystem>

#include "core/result.h"
#include "io/mesh.h"

namespace tressel::test {

Mesh make_icosphere(float radius_m, int subdivisions);          // outward-facing, closed
Mesh make_box(glm::vec3 half_extent_m);                         // 12 triangles, closed
Mesh make_torus(float major_m, float minor_m, int nu, int nv);  // around the z axis, closed, genus 1

// Loads a test-data mesh with the engine importer, all parts merged (metres, as stored).
Result<Mesh> load_mesh(const std::filesystem::path& path);

}  // namespace tressel::test
