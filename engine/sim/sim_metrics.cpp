#include "sim/sim_metrics.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "sim/sim_passes.h"
#include "sdf/sdf_passes.h"
#include "shared/sdf.h"

#include <thread>
#include <unordered_map>

namespace tressel {
namespace {

bool finite(const glm::vec4& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

// Depth (metres, > 0 inside) of a world point against the group's SDFs; 0 when outside all of them.
// `to_rest`: each world SDF's world -> rest transform.
double depth_m(const SimGroupState& g, std::span<const SimSdfOracle> oracles, std::span<const glm::mat4> to_rest, glm::vec3 p_world) {
    double depth = 0.0;
    for (uint32_t si : g.sdf_indices) {
        if (si >= oracles.size() || !oracles[si]) continue;
        const glm::vec3 p_rest = glm::vec3(to_rest[si] * glm::vec4(p_world, 1.0f));
        depth = std::max(depth, -double(oracles[si](p_rest)));
    }
    return depth;
}

// body(i) for every i in [0, n), on as many threads as the machine has (at most 32): the exact mesh
// distance is most of a measured frame's time. Each i writes only its own results, so the answer does not
// depend on the threads.
template <class F>
void parallel_for(size_t n, const F& body) {
    const size_t threads = std::min<size_t>({std::max(1u, std::thread::hardware_concurrency()), 32, (n + 255) / 256});
    if (threads <= 1) {
        for (size_t i = 0; i < n; ++i) body(i);
        return;
    }
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t begin; (begin = next.fetch_add(1024)) < n;)
            for (size_t i = begin; i < std::min(n, begin + 1024); ++i) body(i);
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
}

// Penetration depths of one group's points (metres, 0 outside; NaN where a point is not measured): per
// guide vertex (free and finite), per segment midpoint (both ends free and finite), per follow vertex
// (k >= 2, finite).
struct GroupDepths {
    std::vector<double> vertex, midpoint, follow;
};

GroupDepths group_depths(const SimGroupState& g, std::span<const SimSdfOracle> oracles, std::span<const glm::mat4> to_rest) {
    GroupDepths d;
    const double none = std::numeric_limits<double>::quiet_NaN();
    const size_t nv = g.positions.size(), nf = g.follow_positions.size();
    d.vertex.assign(nv, none);
    d.midpoint.assign(nv, none);
    d.follow.assign(nf, none);
    parallel_for(2 * nv + nf, [&](size_t j) {
        if (j < nv) {
            const glm::vec4& x = g.positions[j];
            if (finite(x) && x.w > 0.0f) d.vertex[j] = depth_m(g, oracles, to_rest, glm::vec3(x));
        } else if (j < 2 * nv) {
            const size_t i = j - nv;
            const glm::vec4& x = g.positions[i];
            if (finite(x) && x.w > 0.0f && i % g.n + 1 < g.n && g.positions[i + 1].w > 0.0f && finite(g.positions[i + 1]))
                d.midpoint[i] = depth_m(g, oracles, to_rest, (glm::vec3(x) + glm::vec3(g.positions[i + 1])) * 0.5f);
        } else {
            const size_t i = j - 2 * nv;
            const glm::vec4& x = g.follow_positions[i];
            if (finite(x) && i % g.n >= gpu_shared::kSimPinnedVertices) d.follow[i] = depth_m(g, oracles, to_rest, glm::vec3(x));
        }
    });
    return d;
}

}  // namespace

SimDensityGrid volume_density_grid(const SimGroupState& g) {
    using namespace gpu_shared;
    SimDensityGrid out;
    SimGroupParams p{};
    p.vertices_per_strand = g.n;
    p.volume_nodes = uint32_t(g.params.volume_cells) + 1u;
    const glm::vec4 frame = sim_passes::volume_frame(p, g.positions);
    std::vector<int32_t> grid(size_t(p.volume_nodes) * p.volume_nodes * p.volume_nodes * kSimVolumeNodeInts, 0);
    for (uint32_t v = 0; v < g.positions.size(); ++v)
        sim_passes::volume_splat(v, p, frame, g.positions, g.positions, g.rest_lengths_m, grid);
    // Node value (fixed-point metres of guide hair) -> hairs per cm^2.
    const double h = frame.w;
    const double to_cm2 = h > 0.0 ? volume_hair_per_guide(g) * 1e-4 / (double(kSimVolumeLengthScale) * h * h * h) : 0.0;
    out.nodes = p.volume_nodes;
    out.origin_m = glm::vec3(frame);
    out.cell_m = frame.w;
    out.target_per_cm2 = g.params.volume_density_per_cm2;
    out.per_cm2.resize(grid.size() / kSimVolumeNodeInts);
    for (size_t i = 0; i < out.per_cm2.size(); ++i) out.per_cm2[i] = float(std::max(0.0, double(grid[i * kSimVolumeNodeInts]) * to_cm2));
    return out;
}

SimDensityStats volume_density_stats(const SimGroupState& g) {
    SimDensityStats st;
    const SimDensityGrid grid = volume_density_grid(g);
    double total = 0.0, weighted = 0.0, over = 0.0;
    for (float value : grid.per_cm2) {
        const double d = value;  // hairs per cm^2, and proportional to the node's hair length
        if (d <= 0.0) continue;
        st.max_per_cm2 = std::max(st.max_per_cm2, d);
        total += d;
        weighted += d * d;
        if (d > g.params.volume_density_per_cm2) over += d;
    }
    st.mean_per_cm2 = total > 0.0 ? weighted / total : 0.0;
    st.over_target = total > 0.0 ? over / total : 0.0;
    st.cell_m = grid.cell_m;
    return st;
}

SimMotionReference capture_motion_reference(const SimWorld& world) {
    SimMotionReference r;
    r.time_s = world.time_s();
    for (const SimGroupState& g : world.groups) r.positions.push_back(g.positions);
    return r;
}

SimFrameMetrics measure_frame(const SimWorld& world, std::span<const SimSdfOracle> oracles, const SimMotionReference* reference) {
    SimFrameMetrics m;
    double stretch_sum = 0.0, speed2_sum = 0.0, style_sum = 0.0;
    size_t free_vertices = 0;
    const double dt = world.step_dt_s();
    const double interval = reference ? world.time_s() - reference->time_s : 0.0;
    const bool displacement = reference && reference->positions.size() == world.groups.size() && interval > 0.0;
    std::vector<glm::mat4> to_rest;
    for (const SimSdfState& f : world.sdfs) to_rest.push_back(glm::inverse(f.transform));
    for (size_t gi = 0; gi < world.groups.size(); ++gi) {
        const SimGroupState& g = world.groups[gi];
        const GroupDepths depths = oracles.empty() ? GroupDepths{} : group_depths(g, oracles, to_rest);
        const std::vector<glm::vec4>* before = displacement && reference->positions[gi].size() == g.positions.size() ? &reference->positions[gi] : nullptr;
        for (size_t i = 0; i < g.positions.size(); ++i) {
            const glm::vec4& x = g.positions[i];
            if (!finite(x)) {
                ++m.non_finite;
                continue;
            }
            const uint32_t k = uint32_t(i % g.n);
            if (k + 1 < g.n && g.rest_lengths_m[i] >= kMinMeasuredSegment_m && finite(g.positions[i + 1])) {
                const double l = glm::length(glm::dvec3(g.positions[i + 1]) - glm::dvec3(x));
                const double s = std::abs(l - g.rest_lengths_m[i]) / g.rest_lengths_m[i];
                m.max_stretch = std::max(m.max_stretch, s);
                stretch_sum += s;
                ++m.segments;
            }
            if (x.w <= 0.0f) continue;
            const glm::dvec3 v = (glm::dvec3(x) - glm::dvec3(g.prev_positions[i])) / dt;
            m.kinetic_energy += 0.5 * glm::dot(v, v) / double(x.w);
            const glm::dvec3 moved = before ? (glm::dvec3(x) - glm::dvec3((*before)[i])) / interval : v;
            const double speed2 = glm::dot(moved, moved);
            speed2_sum += speed2;
            m.max_speed_m_s = std::max(m.max_speed_m_s, std::sqrt(speed2));
            const std::vector<glm::vec4>& groom = g.groomed_positions_os.empty() ? g.rest_positions_os : g.groomed_positions_os;
            if (i < groom.size() && !g.root_transforms.empty()) {
                const glm::mat4& root = sim_passes::root_of(g.root_transforms, uint32_t(i / g.n));
                const glm::dvec3 groomed(root * glm::vec4(glm::vec3(groom[i]), 1.0f));
                const double e = glm::length(glm::dvec3(x) - groomed);
                style_sum += e;
                m.style_error_max_m = std::max(m.style_error_max_m, e);
            }
            ++free_vertices;
            if (!oracles.empty()) {
                const double d = depths.vertex[i];
                if (d > 0.0) ++m.vertices_inside;
                m.max_depth_vertex_m = std::max(m.max_depth_vertex_m, d);
                if (k + 1 < g.n && g.positions[i + 1].w > 0.0f && finite(g.positions[i + 1])) {
                    const double dm = depths.midpoint[i];
                    if (dm > 0.0) ++m.midpoints_inside;
                    m.max_depth_midpoint_m = std::max(m.max_depth_midpoint_m, dm);
                }
            }
        }
        for (size_t i = 0; i < g.follow_positions.size(); ++i) {
            const glm::vec4& x = g.follow_positions[i];
            if (!finite(x)) {
                ++m.non_finite;
                continue;
            }
            if (i % g.n < gpu_shared::kSimPinnedVertices || oracles.empty()) continue;
            const double d = depths.follow[i];
            if (d > 0.0) ++m.follow_vertices_inside;
            if (d > m.max_depth_follow_m) {
                m.max_depth_follow_m = d;
                m.deepest_follow_m = glm::vec3(x);
                m.deepest_follow_group = gi;
                m.deepest_follow_hair = i / g.n;
                m.deepest_follow_vertex = i % g.n;
            }
        }
    }
    for (const SimGroupState& g : world.groups) {
        if (!g.params.enabled || g.positions.empty()) continue;
        const SimDensityStats d = volume_density_stats(g);
        m.has_density = true;
        m.density_max_per_cm2 = std::max(m.density_max_per_cm2, d.max_per_cm2);
        m.density_mean_per_cm2 = std::max(m.density_mean_per_cm2, d.mean_per_cm2);
        m.density_over_target = std::max(m.density_over_target, d.over_target);
    }
    m.mean_stretch = m.segments ? stretch_sum / double(m.segments) : 0.0;
    m.rms_speed_m_s = free_vertices ? std::sqrt(speed2_sum / double(free_vertices)) : 0.0;
    m.style_error_mean_m = free_vertices ? style_sum / double(free_vertices) : 0.0;
    return m;
}

HairUnderClothStats measure_hair_under_cloth(const SimWorld& world, const SimAccessoryField& field, double limit_m, double near_m) {
    HairUnderClothStats st;
    if (field.cloth >= world.cloths.size() || !(near_m > 0.0)) return st;
    const sdf_passes::MeshData m = sdf_passes::prepare_mesh(cloth_mesh(world.cloths[field.cloth]));
    // The obstacle's side: a cloth's field's; a soft body's inside (against its normals where the mesh
    // encloses a positive volume).
    float side = field.desc.shell_side;
    if (world.cloths[field.cloth].soft_body) {
        double volume = 0.0;
        for (uint32_t t = 0; t < m.triangle_count(); ++t) {
            const glm::dvec3 a(m.positions_m[m.indices[3 * t]]), b(m.positions_m[m.indices[3 * t + 1]]), c(m.positions_m[m.indices[3 * t + 2]]);
            volume += glm::dot(a, glm::cross(b, c));
        }
        side = volume >= 0.0 ? -1.0f : 1.0f;
    }
    // Triangles bucketed by their bounds grown by near_m, in cells of near_m.
    const float cell = float(near_m);
    auto key = [](glm::ivec3 c) { return (uint64_t(uint32_t(c.x) & 0x1FFFFF) << 42) | (uint64_t(uint32_t(c.y) & 0x1FFFFF) << 21) | uint64_t(uint32_t(c.z) & 0x1FFFFF); };
    std::unordered_map<uint64_t, std::vector<uint32_t>> buckets;
    auto vtx = [&](uint32_t t, int k) { return glm::vec3(m.positions_m[m.indices[3 * t + uint32_t(k)]]); };
    for (uint32_t t = 0; t < m.triangle_count(); ++t) {
        const glm::vec3 lo = glm::min(vtx(t, 0), glm::min(vtx(t, 1), vtx(t, 2))) - cell, hi = glm::max(vtx(t, 0), glm::max(vtx(t, 1), vtx(t, 2))) + cell;
        const glm::ivec3 a(glm::floor(lo / cell)), b(glm::floor(hi / cell));
        for (int z = a.z; z <= b.z; ++z)
            for (int y = a.y; y <= b.y; ++y)
                for (int x = a.x; x <= b.x; ++x) buckets[key({x, y, z})].push_back(t);
    }
    // The height of p over the surface, or NaN where p is not near it (or beside the rim).
    auto height = [&](const glm::vec4& q) {
        const double none = std::numeric_limits<double>::quiet_NaN();
        const glm::vec3 p(q);
        auto it = buckets.find(key(glm::ivec3(glm::floor(p / cell))));
        if (it == buckets.end()) return none;
        float best = std::numeric_limits<float>::infinity();
        uint32_t best_t = 0;
        gpu_shared::SdfClosest best_q{};
        for (uint32_t t : it->second) {
            const gpu_shared::SdfClosest c = gpu_shared::sdf_closest_on_triangle(p, vtx(t, 0), vtx(t, 1), vtx(t, 2));
            const float d = glm::length(p - c.point_m);
            if (d < best) best = d, best_t = t, best_q = c;
        }
        if (!(best <= float(near_m)) || sdf_passes::feature_on_rim(m, best_t, best_q.feature)) return none;
        glm::vec4 n;
        if (best_q.feature == gpu_shared::kSdfFeatureFace) n = m.face_normals[best_t];
        else if (best_q.feature <= gpu_shared::kSdfFeatureVertex2) n = m.vertex_pseudonormals[m.indices[3 * best_t + best_q.feature]];
        else n = m.edge_pseudonormals[m.tri_edges[3 * best_t + (best_q.feature - gpu_shared::kSdfFeatureEdge01)]];
        const glm::vec3 off = p - best_q.point_m;
        return glm::dot(off, glm::vec3(n) * side) >= 0.0f ? double(best) : -double(best);
    };
    auto measure = [&](const glm::vec4& q, bool guide) {
        const double h = height(q);
        if (std::isnan(h)) return;
        ++st.near;
        st.max_height_m = std::max(st.max_height_m, h);
        if (guide) st.max_height_guides_m = std::max(st.max_height_guides_m, h);
        if (h > limit_m) ++st.wrong_side, st.wrong_side_guides += guide ? 1 : 0;
    };
    for (const SimGroupState& g : world.groups) {
        if (!g.params.enabled) continue;
        // Pinned roots are where the scalp puts them, and a strand rooted on the wrong side (under a bun
        // pinned to the head: inside it) cannot leave it: both left out, the strands counted.
        for (int follows = 0; follows < 2; ++follows) {
            const std::vector<glm::vec4>& x = follows ? g.follow_positions : g.positions;
            for (size_t s0 = 0; g.n > 0 && s0 + g.n <= x.size(); s0 += g.n) {
                const double root = height(x[s0]);
                if (!std::isnan(root) && root > limit_m) {
                    ++st.rooted_inside;
                    continue;
                }
                for (size_t i = s0 + gpu_shared::kSimPinnedVertices; i < s0 + g.n; ++i) measure(x[i], follows == 0);
            }
        }
    }
    return st;
}

}  // namespace tressel
