#include "groom/groom_bench.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <numbers>
#include <sstream>
#include <vector>

namespace tressel {

Mesh make_sphere_mesh(float radius_m, int rings, int segments) {
    Mesh m;
    m.name = "sphere";
    const float pi = std::numbers::pi_v<float>;
    for (int r = 0; r <= rings; ++r) {
        const float v = float(r) / float(rings), theta = v * pi;
        // Exact poles and seam (the last column repeats the first one's angle): the duplicated vertices
        // coincide bit for bit, so the mesh welds closed.
        const float sin_t = (r == 0 || r == rings) ? 0.0f : std::sin(theta);
        const float cos_t = r == 0 ? 1.0f : r == rings ? -1.0f : std::cos(theta);
        for (int s = 0; s <= segments; ++s) {
            const float u = float(s) / float(segments), phi = float(s % segments) / float(segments) * 2.0f * pi;
            const glm::vec3 n(sin_t * std::cos(phi), cos_t, sin_t * std::sin(phi));
            m.positions.push_back(n * radius_m);
            m.normals.push_back(n);
            m.uvs.push_back({u, 1.0f - v});
        }
    }
    const uint32_t row = uint32_t(segments + 1);
    for (int r = 0; r < rings; ++r)
        for (int s = 0; s < segments; ++s) {
            const uint32_t a = uint32_t(r) * row + uint32_t(s), b = a + row;
            // Outward winding (counter-clockwise seen from outside); skip the zero-area pole triangles.
            if (r != 0) m.indices.insert(m.indices.end(), {a, a + 1, b});
            if (r != rings - 1) m.indices.insert(m.indices.end(), {a + 1, b + 1, b});
        }
    return m;
}

Result<GroomBenchResult> run_groom_bench(const GroomBenchOptions& o) {
    Mesh sphere;
    if (!o.scalp) sphere = make_sphere_mesh(0.1f, 90, 100);
    const Mesh& mesh = o.scalp ? *o.scalp : sphere;
    GroomInputs in;
    in.scalp = &mesh;
    in.group.scalp.region = o.region;
    in.group.growth.placement = Placement::Random;
    in.group.growth.guides = o.guides;
    in.group.growth.vertices_per_strand = o.vertices_per_strand;
    in.group.growth.length_m = 0.25;
    in.group.growth.droop = 0.3;
    in.group.follow.mode = FollowMode::Barycentric;
    in.group.follow.count = o.follows;
    in.group.follow.subdivisions = 0;
    in.scalp_clearance_m = o.clearance_m;
    GroomBenchResult r;
    r.mesh = mesh.name;
    r.clearance_m = o.clearance_m;
    r.repeats = std::max(1, o.repeats);
    std::vector<double> totals;
    r.cpu_ms_min = 1e300;
    for (int i = 0; i < r.repeats; ++i) {
        const std::clock_t c0 = std::clock();
        auto g = grow_group(in);
        const double cpu_ms = 1000.0 * double(std::clock() - c0) / double(CLOCKS_PER_SEC);
        if (!g.ok()) return g.error();
        r.cpu_ms_min = std::min(r.cpu_ms_min, cpu_ms);
        totals.push_back(g->timings.total_ms);
        if (i == 0 || g->timings.total_ms < r.best.total_ms) r.best = g->timings;
        r.guides = g->stats.guides;
        r.guide_points = g->stats.guide_points;
        r.follows = g->stats.follows;
    }
    std::sort(totals.begin(), totals.end());
    r.total_ms_min = totals.front();
    r.total_ms_median = totals[totals.size() / 2];
    return r;
}

std::string to_json(const GroomBenchResult& r) {
    std::ostringstream s;
    s << "{\"bench\": \"groom\", \"mesh\": \"" << r.mesh << "\", \"guides\": " << r.guides << ", \"guide_points\": " << r.guide_points
      << ", \"follows\": " << r.follows << ", \"clearance_m\": " << r.clearance_m << ", \"repeats\": " << r.repeats << ", \"total_ms_min\": " << r.total_ms_min
      << ", \"total_ms_median\": " << r.total_ms_median << ", \"cpu_ms_min\": " << r.cpu_ms_min << ", \"best\": {\"region_ms\": " << r.best.region_ms
      << ", \"guides_ms\": " << r.best.guides_ms << ", \"follow_ms\": " << r.best.follow_ms << ", \"total_ms\": " << r.best.total_ms << "}}";
    return s.str();
}

}  // namespace tressel
