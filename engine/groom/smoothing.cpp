#include "groom/smoothing.h"

#include <cmath>

namespace tressel {
namespace {

glm::dvec3 bezier_point(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& p2, const glm::dvec3& p3, double t) {
    const double u = 1.0 - t;
    return p0 * (u * u * u) + p1 * (3.0 * u * u * t) + p2 * (3.0 * u * t * t) + p3 * (t * t * t);
}

// Centripetal Catmull-Rom between p1 and p2 (Barry-Goldman pyramidal form).
glm::dvec3 catmull_rom_point(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& p2, const glm::dvec3& p3, double t) {
    auto knot = [](const glm::dvec3& a, const glm::dvec3& b) { return std::max(std::sqrt(glm::length(b - a)), 1e-12); };
    const double t0 = 0.0, t1 = t0 + knot(p0, p1), t2 = t1 + knot(p1, p2), t3 = t2 + knot(p2, p3);
    const double s = t1 + (t2 - t1) * t;
    const glm::dvec3 a1 = (t1 - s) / (t1 - t0) * p0 + (s - t0) / (t1 - t0) * p1;
    const glm::dvec3 a2 = (t2 - s) / (t2 - t1) * p1 + (s - t1) / (t2 - t1) * p2;
    const glm::dvec3 a3 = (t3 - s) / (t3 - t2) * p2 + (s - t2) / (t3 - t2) * p3;
    const glm::dvec3 b1 = (t2 - s) / (t2 - t0) * a1 + (s - t0) / (t2 - t0) * a2;
    const glm::dvec3 b2 = (t3 - s) / (t3 - t1) * a2 + (s - t1) / (t3 - t1) * a3;
    return (t2 - s) / (t2 - t1) * b1 + (s - t1) / (t2 - t1) * b2;
}

}  // namespace

Result<Strands> smooth_strands(const Strands& in, const Smoothing& sm) {
    TRESSEL_ASSERT(in.consistent(), "smooth_strands needs consistent Strands (see Strands::consistent)");
    if (sm.mode == SmoothingMode::None) return in;
    if (sm.factor < 1 || sm.factor > 16)
        return make_error(ErrorCode::InvalidArgument, "smoothing.factor " + std::to_string(sm.factor) + " must be in 1..16");
    const uint32_t f = uint32_t(sm.factor);
    Strands out;
    out.roots = in.roots;
    out.seeds = in.seeds;
    out.flags = in.flags;
    out.strand_offsets.reserve(in.strand_offsets.size());
    for (size_t i = 0; i < in.strand_count(); ++i) {
        const auto p = in.strand(i);
        const uint32_t first = in.strand_offsets[i], n = uint32_t(p.size());
        auto pt = [&](int k) -> glm::dvec3 {  // extrapolated beyond the ends (quadratic when possible)
            if (k < 0)
                return n >= 3 ? 3.0 * glm::dvec3(p[0]) - 3.0 * glm::dvec3(p[1]) + glm::dvec3(p[2])
                              : 2.0 * glm::dvec3(p[0]) - glm::dvec3(p[1]);
            if (k >= int(n))
                return n >= 3 ? 3.0 * glm::dvec3(p[n - 1]) - 3.0 * glm::dvec3(p[n - 2]) + glm::dvec3(p[n - 3])
                              : 2.0 * glm::dvec3(p[n - 1]) - glm::dvec3(p[n - 2]);
            return glm::dvec3(p[size_t(k)]);
        };
        for (uint32_t k = 0; k + 1 < n; ++k) {
            const glm::dvec3 a = pt(int(k) - 1), b = pt(int(k)), c = pt(int(k) + 1), d = pt(int(k) + 2);
            glm::dvec3 h1, h2;
            if (sm.mode == SmoothingMode::Bezier) {
                const double seg = glm::length(c - b);
                glm::dvec3 t1 = c - a, t2 = d - b;
                t1 = glm::length(t1) > 0.0 ? glm::normalize(t1) : glm::dvec3(0.0);
                t2 = glm::length(t2) > 0.0 ? glm::normalize(t2) : glm::dvec3(0.0);
                h1 = b + t1 * (seg / 3.0);
                h2 = c - t2 * (seg / 3.0);
            }
            for (uint32_t j = 0; j < f; ++j) {
                const double t = double(j) / double(f);
                const glm::dvec3 q = sm.mode == SmoothingMode::Bezier ? bezier_point(b, h1, h2, c, t) : catmull_rom_point(a, b, c, d, t);
                out.points_os_m.push_back(j == 0 ? glm::vec3(p[k]) : glm::vec3(q));
                const float tf = float(t);
                if (!in.widths_m.empty()) out.widths_m.push_back(in.widths_m[first + k] * (1 - tf) + in.widths_m[first + k + 1] * tf);
                if (!in.colors.empty()) out.colors.push_back(glm::mix(in.colors[first + k], in.colors[first + k + 1], tf));
            }
        }
        out.points_os_m.push_back(p[n - 1]);
        if (!in.widths_m.empty()) out.widths_m.push_back(in.widths_m[first + n - 1]);
        if (!in.colors.empty()) out.colors.push_back(in.colors[first + n - 1]);
        out.strand_offsets.push_back(uint32_t(out.points_os_m.size()));
    }
    return out;
}

}  // namespace tressel
