#include "test_meshes.h"

#include <cmath>

namespace tressel::test {

Mesh make_plane(int nx, int nz, float size_m, float x_power) {
    Mesh m;
    m.name = "plane";
    for (int j = 0; j <= nz; ++j)
        for (int i = 0; i <= nx; ++i) {
            const float u = float(i) / float(nx), v = float(j) / float(nz);
            m.positions.push_back({size_m * std::pow(u, x_power), 0.0f, size_m * v});
            m.normals.push_back({0.0f, 1.0f, 0.0f});
            m.uvs.push_back({u, v});
        }
    const uint32_t row = uint32_t(nx + 1);
    for (int j = 0; j < nz; ++j)
        for (int i = 0; i < nx; ++i) {
            const uint32_t a = uint32_t(j) * row + uint32_t(i), b = a + row;
            // Normal +Y: (b - a) x (a+1 - a) points up for z-forward rows.
            m.indices.insert(m.indices.end(), {a, b, a + 1, a + 1, b, b + 1});
        }
    return m;
}

bool inside_by_parity(const Mesh& mesh, const glm::vec3& p) {
    const glm::dvec3 dir = glm::normalize(glm::dvec3(0.5377, 0.8123, 0.2251));
    const glm::dvec3 o(p);
    int hits = 0;
    for (size_t t = 0; t < mesh.triangle_count(); ++t) {
        const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]), b(mesh.positions[mesh.indices[3 * t + 1]]),
            c(mesh.positions[mesh.indices[3 * t + 2]]);
        // Moller-Trumbore.
        const glm::dvec3 e1 = b - a, e2 = c - a, pv = glm::cross(dir, e2);
        const double det = glm::dot(e1, pv);
        if (std::abs(det) < 1e-18) continue;
        const double inv = 1.0 / det;
        const glm::dvec3 tv = o - a;
        const double u = glm::dot(tv, pv) * inv;
        if (u < 0.0 || u > 1.0) continue;
        const glm::dvec3 q = glm::cross(tv, e1);
        const double v = glm::dot(dir, q) * inv;
        if (v < 0.0 || u + v > 1.0) continue;
        if (glm::dot(e2, q) * inv > 0.0) ++hits;
    }
    return hits % 2 == 1;
}

}  // namespace tressel::test
