#include "sdf/sdf_oracle.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tressel {

namespace {

// Closest point on triangle abc to p, Ericson 5.1.5 in double (edges handled by clamped projection).
glm::dvec3 closest_on_triangle(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
    glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
    double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    glm::dvec3 bp = p - b;
    double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
    glm::dvec3 cp = p - c;
    double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    double sum = va + vb + vc;
    if (sum > 0) return a + ab * (vb / sum) + ac * (vc / sum);
    // zero-area triangle: nearest of its three edges
    auto seg = [&](glm::dvec3 u, glm::dvec3 v) {
        glm::dvec3 e = v - u;
        double l2 = glm::dot(e, e);
        double t = l2 > 0 ? std::clamp(glm::dot(p - u, e) / l2, 0.0, 1.0) : 0.0;
        return u + e * t;
    };
    glm::dvec3 q[3] = {seg(a, b), seg(b, c), seg(c, a)};
    glm::dvec3 best = q[0];
    for (auto& x : q)
        if (glm::dot(p - x, p - x) < glm::dot(p - best, p - best)) best = x;
    return best;
}

}  // namespace

double exact_unsigned_distance(const Mesh& mesh, glm::dvec3 p) {
    double best = std::numeric_limits<double>::infinity();
    const size_t nt = mesh.triangle_count();
    for (size_t t = 0; t < nt; ++t) {
        glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]), b(mesh.positions[mesh.indices[3 * t + 1]]),
            c(mesh.positions[mesh.indices[3 * t + 2]]);
        glm::dvec3 q = closest_on_triangle(p, a, b, c);
        best = std::min(best, glm::dot(p - q, p - q));
    }
    return std::sqrt(best);
}

double exact_winding_number(const Mesh& mesh, glm::dvec3 p) {
    double w = 0.0;
    const size_t nt = mesh.triangle_count();
    for (size_t t = 0; t < nt; ++t) {
        glm::dvec3 x = glm::dvec3(mesh.positions[mesh.indices[3 * t]]) - p;
        glm::dvec3 y = glm::dvec3(mesh.positions[mesh.indices[3 * t + 1]]) - p;
        glm::dvec3 z = glm::dvec3(mesh.positions[mesh.indices[3 * t + 2]]) - p;
        double lx = glm::length(x), ly = glm::length(y), lz = glm::length(z);
        double num = glm::dot(x, glm::cross(y, z));
        double den = lx * ly * lz + glm::dot(x, y) * lz + glm::dot(y, z) * lx + glm::dot(z, x) * ly;
        if (num == 0.0 && den == 0.0) continue;
        w += 2.0 * std::atan2(num, den);
    }
    return w / (4.0 * 3.14159265358979323846);
}

float exact_signed_distance(const Mesh& mesh, glm::vec3 p_m) {
    glm::dvec3 p(p_m);
    double d = exact_unsigned_distance(mesh, p);
    return float(std::abs(exact_winding_number(mesh, p)) > 0.5 ? -d : d);
}

std::vector<float> exact_signed_distance_grid(const Mesh& mesh, const SdfGridDesc& grid, size_t stride) {
    std::vector<float> out(grid.cell_count(), std::numeric_limits<float>::quiet_NaN());
    stride = std::max<size_t>(stride, 1);
    for (size_t c = 0; c < out.size(); c += stride) {
        int i = int(c % size_t(grid.dims.x));
        int j = int((c / size_t(grid.dims.x)) % size_t(grid.dims.y));
        int k = int(c / (size_t(grid.dims.x) * size_t(grid.dims.y)));
        out[c] = exact_signed_distance(mesh, glm::vec3(grid.cell_centre_m(i, j, k)));
    }
    return out;
}

}  // namespace tressel
