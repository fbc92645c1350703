#include <algorithm>
#include <cmath>

#include "groom/groom.h"

namespace tressel {

uint32_t Strands::uniform_point_count() const {
    if (strand_count() == 0) return 0;
    const uint32_t n = points_in(0);
    for (size_t i = 1; i < strand_count(); ++i)
        if (points_in(i) != n) return 0;
    return n;
}

bool Strands::consistent() const {
    if (strand_offsets.empty() || strand_offsets.front() != 0 || strand_offsets.back() != points_os_m.size()) return false;
    const size_t n = strand_count();
    for (size_t i = 0; i < n; ++i)
        if (strand_offsets[i + 1] < strand_offsets[i] + 2) return false;
    if (!widths_m.empty() && widths_m.size() != points_os_m.size()) return false;
    if (!colors.empty() && colors.size() != points_os_m.size()) return false;
    return roots.size() == n && seeds.size() == n && flags.size() == n;
}

double strand_length_m(const Strands& s, size_t i) {
    double len = 0.0;
    const auto p = s.strand(i);
    for (size_t k = 1; k < p.size(); ++k) len += glm::length(glm::dvec3(p[k]) - glm::dvec3(p[k - 1]));
    return len;
}

bool is_gpu_vertex_count(uint32_t n) { return n == 4 || n == 8 || n == 16 || n == 32 || n == 64; }

Result<Strands> resample_strands(const Strands& in, uint32_t count, bool allow_any_count) {
    TRESSEL_ASSERT(in.consistent(), "resample_strands needs consistent Strands (see Strands::consistent)");
    if (!allow_any_count && !is_gpu_vertex_count(count))
        return make_error(ErrorCode::InvalidArgument, "the GPU vertex count " + std::to_string(count) +
                                                          " must be 4, 8, 16, 32 or 64");
    if (count < 2) return make_error(ErrorCode::InvalidArgument, "a resampled strand needs at least 2 points");
    Strands out;
    const size_t n = in.strand_count();
    out.points_os_m.resize(n * count);
    out.strand_offsets.resize(n + 1);
    if (!in.widths_m.empty()) out.widths_m.resize(n * count);
    if (!in.colors.empty()) out.colors.resize(n * count);
    out.roots = in.roots;
    out.seeds = in.seeds;
    out.flags = in.flags;
    std::vector<double> cum;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t first = in.strand_offsets[i], m = in.points_in(i);
        cum.assign(m, 0.0);
        for (uint32_t k = 1; k < m; ++k)
            cum[k] = cum[k - 1] + glm::length(glm::dvec3(in.points_os_m[first + k]) - glm::dvec3(in.points_os_m[first + k - 1]));
        const double total = cum.back();
        uint32_t seg = 0;
        for (uint32_t j = 0; j < count; ++j) {
            const size_t o = i * count + j;
            double t = 0.0;
            if (total > 0.0) {
                const double target = total * double(j) / double(count - 1);
                while (seg + 2 < m && cum[seg + 1] < target) ++seg;
                const double len = cum[seg + 1] - cum[seg];
                t = len > 0.0 ? std::clamp((target - cum[seg]) / len, 0.0, 1.0) : 0.0;
            } else {
                seg = std::min<uint32_t>(uint32_t(double(j) / double(count - 1) * (m - 1)), m - 2);
                t = double(j) / double(count - 1) * (m - 1) - seg;
            }
            if (j == count - 1) seg = m - 2, t = 1.0;
            const float tf = float(t);
            out.points_os_m[o] = glm::vec3(glm::mix(glm::dvec3(in.points_os_m[first + seg]), glm::dvec3(in.points_os_m[first + seg + 1]), t));
            if (!in.widths_m.empty()) out.widths_m[o] = in.widths_m[first + seg] * (1 - tf) + in.widths_m[first + seg + 1] * tf;
            if (!in.colors.empty()) out.colors[o] = glm::mix(in.colors[first + seg], in.colors[first + seg + 1], tf);
        }
        out.strand_offsets[i + 1] = uint32_t((i + 1) * count);
    }
    return out;
}

}  // namespace tressel
