#include "groom/follow.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include "core/morton.h"
#include "groom/det_math.h"
#include "groom/rng.h"
#include "groom/spatial.h"

namespace tressel {

using gpu_shared::FollowDescriptor;
using gpu_shared::GuideFrame;

namespace {

}  // namespace

std::vector<uint32_t> spread_order(std::span<const glm::vec3> points) {
    const size_t n = points.size();
    std::vector<uint32_t> order(n);
    if (n < 3) {
        for (size_t i = 0; i < n; ++i) order[i] = uint32_t(i);
        return order;
    }
    // Morton code of a 1024^3 grid over the points' bounding cube (non-finite coordinates go to cell 0).
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const glm::vec3& p : points)
        for (int a = 0; a < 3; ++a)
            if (std::isfinite(p[a])) {
                lo[a] = std::min(lo[a], p[a]);
                hi[a] = std::max(hi[a], p[a]);
            }
    double extent = 0.0;
    for (int a = 0; a < 3; ++a) extent = std::max(extent, double(hi[a]) - double(lo[a]));
    const double scale = extent > 0.0 ? 1023.0 / extent : 0.0;
    // Key: the code above the index. A stable LSD radix sort on the code, 10 bits a pass, keeps equal codes
    // in index order.
    std::vector<uint64_t> key(n), tmp(n);
    std::vector<uint32_t> start(3 * 1025, 0);
    for (size_t i = 0; i < n; ++i) {
        uint32_t c = 0;
        for (int a = 0; a < 3; ++a) {
            const double v = (double(points[i][a]) - double(lo[a])) * scale;
            c |= morton_spread3(v >= 0.0 ? uint32_t(std::min(v, 1023.0)) : 0u) << a;
        }
        key[i] = (uint64_t(c) << 32) | uint64_t(i);
        for (int d = 0; d < 3; ++d) ++start[size_t(d) * 1025 + ((c >> (10 * d)) & 0x3FFu) + 1];
    }
    for (int d = 0; d < 3; ++d) {
        uint32_t* st = &start[size_t(d) * 1025];
        for (size_t b = 0; b < 1024; ++b) st[b + 1] += st[b];
        const int shift = 32 + 10 * d;
        for (const uint64_t k : key) tmp[st[(k >> shift) & 0x3FFu]++] = k;
        key.swap(tmp);
    }
    // Rank r along the curve goes to slot bitreverse(r): the first 2^j slots take every (2^bits / 2^j)-th
    // point along the curve, one per stretch of it.
    int bits = 0;
    while ((size_t(1) << bits) < n) ++bits;
    size_t slot = 0;
    for (uint64_t k = 0; k < (uint64_t(1) << bits); ++k) {
        uint32_t r = uint32_t(k);
        r = ((r >> 1) & 0x55555555u) | ((r & 0x55555555u) << 1);
        r = ((r >> 2) & 0x33333333u) | ((r & 0x33333333u) << 2);
        r = ((r >> 4) & 0x0F0F0F0Fu) | ((r & 0x0F0F0F0Fu) << 4);
        r = ((r >> 8) & 0x00FF00FFu) | ((r & 0x00FF00FFu) << 8);
        r = (r >> 16) | (r << 16);
        r = bits > 0 ? r >> (32 - bits) : 0u;
        if (r < n) order[slot++] = uint32_t(key[r]);
    }
    return order;
}

std::vector<GuideFrame> compute_guide_frames(const Strands& guides, const Mesh& scalp) {
    std::vector<GuideFrame> frames(guides.strand_count());
    for (size_t i = 0; i < guides.strand_count(); ++i) {
        const auto s = guides.strand(i);
        glm::vec3 t = s[1] - s[0];
        for (size_t k = 2; glm::length(t) <= 1e-12f && k < s.size(); ++k) t = s[k] - s[0];
        const uint32_t* tri = &scalp.indices[3 * size_t(guides.roots[i].triangle)];
        const glm::vec3 face = glm::cross(scalp.positions[tri[1]] - scalp.positions[tri[0]], scalp.positions[tri[2]] - scalp.positions[tri[0]]);
        if (glm::length(t) <= 1e-12f) t = glm::length(face) > 0.0f ? face : glm::vec3(0, 1, 0);
        t = glm::normalize(t);
        glm::vec3 b = scalp.positions[tri[1]] - scalp.positions[tri[0]];
        b -= t * glm::dot(b, t);
        if (glm::length(b) <= 1e-6f * (1.0f + glm::length(scalp.positions[tri[1]] - scalp.positions[tri[0]]))) {
            b = std::abs(t.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 0, 1);
            b -= t * glm::dot(b, t);
        }
        b = glm::normalize(b);
        const glm::vec3 nrm = glm::cross(t, b);
        frames[i] = {glm::vec4(t, 0.0f), glm::vec4(b, 0.0f), glm::vec4(nrm, 0.0f)};
    }
    return frames;
}

Status validate_follow(const Follow& f) {
    auto bad = [](const std::string& m) { return Status(make_error(ErrorCode::InvalidArgument, m)); };
    if (f.mode == FollowMode::TressFX) {
        if (f.per_guide < 0 || f.per_guide > 1024)
            return bad("follow.per_guide " + std::to_string(f.per_guide) + " must be in 0..1024");
        if (!(f.root_radius_m >= 0.0)) return bad("follow.root_radius_m must be >= 0");
        if (!std::isfinite(f.tip_separation) || f.tip_separation < -1.0)
            return bad("follow.tip_separation " + std::to_string(f.tip_separation) + " must be >= -1");
    }
    if (f.mode == FollowMode::Barycentric) {
        if (f.count < 0) return bad("follow.count " + std::to_string(f.count) + " must be >= 0");
        if (size_t(f.count) > kMaxFollowHairs)
            return Status(make_error(ErrorCode::LimitExceeded, "follow.count " + std::to_string(f.count) + " exceeds the limit of " +
                                                                   std::to_string(kMaxFollowHairs)));
        if (!(f.density_per_cm2 >= 0.0)) return bad("follow.density_per_cm2 must be >= 0");
        if (f.subdivisions < 0 || f.subdivisions > 16)
            return bad("follow.subdivisions " + std::to_string(f.subdivisions) + " must be in 0..16");
    }
    if (!(f.clump >= 0.0 && f.clump <= 1.0)) return bad("follow.clump " + std::to_string(f.clump) + " must be in [0, 1]");
    return {};
}

Result<FollowHairs> generate_follow(const FollowInputs& in, Diagnostics& diag) {
    TRESSEL_ASSERT(in.scalp && in.region && in.guides, "FollowInputs needs scalp, region and guides");
    TRESSEL_ASSERT(in.frames.size() == in.guides->strand_count(), "FollowInputs::frames needs one frame per guide");
    TRESSEL_TRY(validate_follow(in.follow));
    const Follow& f = in.follow;
    const Mesh& mesh = *in.scalp;
    const Strands& guides = *in.guides;
    const size_t ng = guides.strand_count();
    FollowHairs out;
    if (f.mode == FollowMode::None || ng == 0) return out;

    if (f.mode == FollowMode::TressFX) {
        const size_t total = ng * size_t(f.per_guide);
        if (total > kMaxFollowHairs)
            return make_error(ErrorCode::LimitExceeded, "follow.per_guide x guides = " + std::to_string(total) +
                                                            " follow hairs exceeds the limit of " + std::to_string(kMaxFollowHairs));
        out.descriptors.reserve(total);
        // Rounds: follower 0 of every guide, then follower 1, ...; within a round the guides in spread order
        // (guide order itself is mesh or file order for per-vertex and file placement).
        std::vector<glm::vec3> groot(ng);
        for (size_t g = 0; g < ng; ++g) groot[g] = guides.points_os_m[guides.strand_offsets[g]];
        const std::vector<uint32_t> gorder = spread_order(groot);
        for (int j = 0; j < f.per_guide; ++j)
            for (const uint32_t g : gorder) {
                auto rng = groom_rng::item_rng(f.seed, groom_rng::kStreamFollowTressFX, g * size_t(f.per_guide) + j);
                const double r = f.root_radius_m * std::sqrt(rng.next_double());
                const double a = 2.0 * std::numbers::pi * rng.next_double();
                const uint32_t gi = uint32_t(g);
                const float keep = float(1.0 - f.clump);
                FollowDescriptor d;
                d.guides = {gi, gi, gi, 0u};
                d.weights = {1.0f, 0.0f, 0.0f, float(f.tip_separation)};
                d.offset_frame = {0.0f, float(r * det::cos(a)) * keep, float(r * det::sin(a)) * keep, 0.0f};
                out.descriptors.push_back(d);
                out.roots.push_back(guides.roots[g]);
                out.seeds.push_back(rng.next_u32());
            }
        return out;
    }

    // Barycentric.
    if (in.region->triangles.empty()) return out;
    // Guide roots in a grid for the nearest-3 search, cell about the mean guide spacing.
    std::vector<glm::vec3> groot(ng);
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (size_t g = 0; g < ng; ++g) {
        groot[g] = guides.points_os_m[guides.strand_offsets[g]];
        lo = glm::min(lo, groot[g]);
        hi = glm::max(hi, groot[g]);
    }
    const float spacing = float(std::sqrt(std::max(in.region->area_m2, 1e-12) / double(ng)));
    // Cells of about 1.5 guide spacings: the 3 nearest lie within one or two rings.
    PointGrid grid(lo, hi, std::max(1.5f * spacing, 1e-5f));
    for (size_t g = 0; g < ng; ++g) grid.insert(uint32_t(g), groot[g]);
    grid.compact();
    // Follows stay near their guides: region triangles farther from every guide root than six times the
    // guides' median spacing (their median nearest-neighbour distance) grow none. Guides that cover the
    // region (random or per-vertex placement) leave every triangle in; guides from a file that cover a part
    // of it (a mohawk on a whole body) would otherwise spread follows, each blended from guides far away,
    // over all of it.
    RegionInfo near_guides;
    const RegionInfo* region_used = in.region;
    if (ng >= 2) {
        std::vector<float> nn;
        nn.reserve(ng);
        for (size_t g = 0; g < ng; ++g) {
            uint32_t ids[2];
            float d2[2];
            if (grid.nearest(groot[g], 2, ids, d2) == 2 && d2[1] > 0.0f) nn.push_back(std::sqrt(d2[1]));  // roots apart
        }
        std::nth_element(nn.begin(), nn.begin() + long(nn.size() / 2), nn.end());
        const float reach = std::max(6.0f * (nn.empty() ? spacing : nn[nn.size() / 2]), 1e-4f);
        const bool weighted = in.region->triangle_density.size() == in.region->triangles.size();
        for (size_t ti = 0; ti < in.region->triangles.size(); ++ti) {
            const uint32_t t = in.region->triangles[ti];
            const glm::vec3 v0 = mesh.positions[mesh.indices[3 * t]], v1 = mesh.positions[mesh.indices[3 * t + 1]],
                            v2 = mesh.positions[mesh.indices[3 * t + 2]];
            const glm::vec3 c = (v0 + v1 + v2) * (1.0f / 3.0f);
            const float rho = std::sqrt(std::max({glm::dot(v0 - c, v0 - c), glm::dot(v1 - c, v1 - c), glm::dot(v2 - c, v2 - c)}));
            if (grid.any_within(c, reach + rho)) {
                near_guides.triangles.push_back(t);
                near_guides.area_m2 += triangle_area_m2(mesh, t);
                if (weighted) {
                    near_guides.triangle_density.push_back(in.region->triangle_density[ti]);
                    near_guides.weighted_area_m2 += triangle_area_m2(mesh, t) * double(in.region->triangle_density[ti]);
                }
            }
        }
        const size_t far = in.region->triangles.size() - near_guides.triangles.size();
        if (!weighted) near_guides.weighted_area_m2 = near_guides.area_m2;
        if (far > 0 && !near_guides.triangles.empty()) {
            near_guides.vertex_in = in.region->vertex_in;
            region_used = &near_guides;
            char text[320];
            std::snprintf(text, sizeof text,
                          "%zu of the region's %zu triangles (%.0f%% of its area) lie more than %.1f mm from every guide root: "
                          "follow hairs grow only near the guides. Narrow hair_groups[].scalp.region to the guides' part of "
                          "the scalp to silence this.",
                          far, in.region->triangles.size(), 100.0 * (1.0 - near_guides.area_m2 / std::max(in.region->area_m2, 1e-30)),
                          1000.0 * double(reach));
            diag.warn("follow", text);
            diag.items.back().code = "follows_far_from_guides";
        }
    }
    const RegionInfo& region = *region_used;
    // With a painted density the follows' density follows it: density_per_cm2 is the density where the
    // paint is 1, and the regular set (even over the region) is left out.
    const bool painted_density = !region.triangle_density.empty();
    size_t total = f.density_per_cm2 > 0.0 ? size_t(std::llround(f.density_per_cm2 * (painted_density ? region.weighted_area_m2 * 1e4 : region.area_cm2()))) : size_t(f.count);
    if (total > kMaxFollowHairs)
        return make_error(ErrorCode::LimitExceeded, "follow.density_per_cm2 asks for " + std::to_string(total) +
                                                        " follow hairs, over the limit of " + std::to_string(kMaxFollowHairs));
    const int level = f.subdivisions + 2;
    const size_t per_tri = size_t(level - 1) * size_t(level - 2) / 2;
    size_t regular = f.subdivisions > 0 && !painted_density ? per_tri * region.triangles.size() : 0;
    if (regular > total) {
        diag.info("follow.subdivisions", "the regular set (" + std::to_string(regular) + ") exceeds follow.count " +
                                             std::to_string(total) + "; using random points only");
        regular = 0;
    }
    std::vector<ScalpAttachment> seeds_at;
    seeds_at.reserve(total);
    if (regular > 0)
        for (uint32_t t : region.triangles)
            for (int i = 1; i < level; ++i)
                for (int j = 1; i + j < level; ++j) {
                    const int k = level - i - j;
                    seeds_at.push_back({t, glm::vec3(float(i), float(j), float(k)) / float(level)});
                }
    const AreaSampler sampler(mesh, region);
    for (size_t i = 0; seeds_at.size() < total; ++i) {
        auto rng = groom_rng::item_rng(f.seed, groom_rng::kStreamFollowBary, i);
        const double u = rng.next_double();
        const float r1 = rng.next_float(), r2 = rng.next_float();
        seeds_at.push_back(sampler.sample(u, r1, r2));
    }

    const float keep = float(1.0 - f.clump), pull = float(f.clump);
    const bool corners = !in.vertex_guide.empty();
    // Follows are generated triangle by triangle (the regular set), then at random, but stored in spread
    // order of their scalp points, so that every prefix covers the region evenly: follow i goes to slot[i].
    std::vector<uint32_t> slot(seeds_at.size());
    {
        std::vector<glm::vec3> at(seeds_at.size());
        for (size_t i = 0; i < seeds_at.size(); ++i) at[i] = attachment_point(mesh, seeds_at[i]);
        const std::vector<uint32_t> spread = spread_order(at);
        for (size_t k = 0; k < spread.size(); ++k) slot[spread[k]] = uint32_t(k);
    }
    out.descriptors.resize(seeds_at.size());
    out.seeds.resize(seeds_at.size());
    // Visit follows triangle by triangle (a stable counting sort) so consecutive nearest-guide queries
    // touch the same grid cells; each result lands in the follow's slot.
    std::vector<uint32_t> order(seeds_at.size());
    {
        const size_t nt = mesh.triangle_count();
        std::vector<uint32_t> start(nt + 1, 0);
        for (const auto& a : seeds_at) ++start[a.triangle + 1];
        for (size_t t = 0; t < nt; ++t) start[t + 1] += start[t];
        for (size_t i = 0; i < seeds_at.size(); ++i) order[start[seeds_at[i].triangle]++] = uint32_t(i);
    }
    // Per triangle: a shared candidate list pays off when the triangle is small next to the guide spacing
    // (few candidates); otherwise each follow asks the grid. Either way the result is the exact 3 nearest.
    std::vector<uint8_t> use_grid(mesh.triangle_count(), 1);
    for (uint32_t t : region.triangles) {
        const glm::vec3 v0 = mesh.positions[mesh.indices[3 * t]], v1 = mesh.positions[mesh.indices[3 * t + 1]],
                        v2 = mesh.positions[mesh.indices[3 * t + 2]];
        const glm::vec3 c = (v0 + v1 + v2) * (1.0f / 3.0f);
        const float rho = std::sqrt(std::max({glm::dot(v0 - c, v0 - c), glm::dot(v1 - c, v1 - c), glm::dot(v2 - c, v2 - c)}));
        const float reach = 1.5f * spacing + 2.0f * rho;  // typical d3 + 2 rho
        use_grid[t] = 3.14159f * reach * reach > 160.0f * spacing * spacing;
    }
    uint32_t cand_triangle = std::numeric_limits<uint32_t>::max();
    uint32_t prev_gid[3] = {0, 0, 0};
    int prev_found = 0;
    std::vector<uint32_t> cand_ids;
    std::vector<glm::vec3> cand_pts;
    for (const uint32_t i : order) {
        const ScalpAttachment& a = seeds_at[i];
        const uint32_t* tri = &mesh.indices[3 * size_t(a.triangle)];
        uint32_t gid[3] = {0, 0, 0};
        glm::vec3 w(0.0f);
        glm::vec3 offset_ws(0.0f);
        bool have = false;
        if (corners) {
            const int32_t g0 = in.vertex_guide[tri[0]], g1 = in.vertex_guide[tri[1]], g2 = in.vertex_guide[tri[2]];
            if (g0 >= 0 && g1 >= 0 && g2 >= 0) {
                gid[0] = uint32_t(g0), gid[1] = uint32_t(g1), gid[2] = uint32_t(g2);
                w = a.barycentric;
                have = true;
            }
        }
        if (!have) {
            const glm::vec3 p = attachment_point(mesh, a);
            float d2[3];
            if (a.triangle != cand_triangle && !use_grid[a.triangle]) {
                // Every guide among the 3 nearest to any point of this triangle lies within d3(c) + 2 rho of
                // its centroid c (rho: farthest corner from c), so one radius query serves the triangle.
                cand_triangle = a.triangle;
                const glm::vec3 v0 = mesh.positions[tri[0]], v1 = mesh.positions[tri[1]], v2 = mesh.positions[tri[2]];
                const glm::vec3 c = (v0 + v1 + v2) * (1.0f / 3.0f);
                const float rho = std::sqrt(std::max({glm::dot(v0 - c, v0 - c), glm::dot(v1 - c, v1 - c), glm::dot(v2 - c, v2 - c)}));
                uint32_t cid[3];
                float cd2[3];
                const int cf = grid.nearest(c, 3, cid, cd2);
                cand_ids.clear();
                cand_pts.clear();
                // Slack of a few ulps so float rounding never drops a guide on the bound.
                grid.collect_within(c, (std::sqrt(cd2[cf - 1]) + 2.0f * rho) * 1.0001f + 1e-7f, cand_ids, cand_pts);
            }
            int found = 0;
            if (use_grid[a.triangle]) {
                // Warm start from the previous grid query (follows are visited triangle by triangle, so it
                // is close by): its guides, re-measured from p and sorted, bound the search.
                int seeded = 0;
                for (int k = 0; k < prev_found; ++k) {
                    const glm::vec3 q = groot[prev_gid[k]] - p;
                    const float dd = glm::dot(q, q);
                    int m = seeded++;
                    while (m > 0 && (d2[m - 1] > dd || (d2[m - 1] == dd && gid[m - 1] > prev_gid[k]))) {
                        d2[m] = d2[m - 1];
                        gid[m] = gid[m - 1];
                        --m;
                    }
                    d2[m] = dd;
                    gid[m] = prev_gid[k];
                }
                found = grid.nearest(p, 3, gid, d2, seeded);
                prev_found = found;
                for (int k = 0; k < found; ++k) prev_gid[k] = gid[k];
            }
            else for (size_t j = 0; j < cand_ids.size(); ++j) {
                const glm::vec3 q = cand_pts[j] - p;
                const float dd = glm::dot(q, q);
                const uint32_t id = cand_ids[j];
                if (found == 3 && (dd > d2[2] || (dd == d2[2] && id > gid[2]))) continue;
                int m = found < 3 ? found++ : 2;
                while (m > 0 && (d2[m - 1] > dd || (d2[m - 1] == dd && gid[m - 1] > id))) {
                    d2[m] = d2[m - 1];
                    gid[m] = gid[m - 1];
                    --m;
                }
                d2[m] = dd;
                gid[m] = id;
            }
            float sum = 0.0f;
            for (int k = 0; k < found; ++k) {
                w[k] = 1.0f / (std::sqrt(d2[k]) + 1e-6f);
                sum += w[k];
            }
            for (int k = found; k < 3; ++k) gid[k] = gid[0];
            w /= sum;
            offset_ws = p - (groot[gid[0]] * w.x + groot[gid[1]] * w.y + groot[gid[2]] * w.z);
        }
        // Primary guide (largest weight, lowest slot on ties) goes to slot x: its frame holds the offset.
        int primary = 0;
        if (w.y > w[primary]) primary = 1;
        if (w.z > w[primary]) primary = 2;
        std::swap(gid[0], gid[primary]);
        std::swap(w[0], w[primary]);
        for (int k = 1; k < 3; ++k)
            if (w[k] == 0.0f) gid[k] = gid[0];
        const GuideFrame& fr = in.frames[gid[0]];
        const glm::vec3 off(glm::dot(offset_ws, glm::vec3(fr.tangent)), glm::dot(offset_ws, glm::vec3(fr.bitangent)),
                            glm::dot(offset_ws, glm::vec3(fr.normal)));
        const glm::vec3 wc = w * keep + glm::vec3(pull, 0.0f, 0.0f);
        FollowDescriptor& d = out.descriptors[slot[i]];
        d.guides = {gid[0], gid[1], gid[2], 0u};
        d.weights = {wc.x, wc.y, wc.z, 0.0f};
        d.offset_frame = glm::vec4(off * keep, 0.0f);
        out.seeds[slot[i]] = uint32_t(groom_rng::hash_seed(f.seed, groom_rng::kStreamFollowBary ^ 0xFFu, i));
    }
    // The roots follow their descriptors, moved in place (cycle by cycle; slot is used up).
    for (size_t i = 0; i < seeds_at.size(); ++i)
        while (slot[i] != i) {
            const uint32_t j = slot[i];
            std::swap(seeds_at[i], seeds_at[j]);
            std::swap(slot[i], slot[j]);
        }
    out.roots = std::move(seeds_at);
    return out;
}

void evaluate_follow(const FollowDescriptor& d, std::span<const glm::vec3> guide_points, uint32_t n,
                     std::span<const GuideFrame> frames, std::span<glm::vec3> out) {
    TRESSEL_ASSERT(n >= 2 && out.size() >= n, "evaluate_follow needs n >= 2 and room for n points");
    const GuideFrame& f0 = frames[d.guides.x];
    const glm::vec3* g0 = guide_points.data() + size_t(d.guides.x) * n;
    const glm::vec3* g1 = guide_points.data() + size_t(d.guides.y) * n;
    const glm::vec3* g2 = guide_points.data() + size_t(d.guides.z) * n;
    const float inv = 1.0f / float(n - 1);
    for (uint32_t k = 0; k < n; ++k) out[k] = gpu_shared::follow_point(d, f0, g0[k], g1[k], g2[k], float(k) * inv);
}

Strands evaluate_follows(const FollowHairs& follows, const Strands& guides, std::span<const GuideFrame> frames) {
    const uint32_t n = guides.uniform_point_count();
    TRESSEL_ASSERT(n >= 2, "evaluate_follows needs guides with one point count (resample_strands first)");
    Strands s;
    s.points_os_m.resize(follows.size() * n);
    s.strand_offsets.resize(follows.size() + 1);
    for (size_t i = 0; i < follows.size(); ++i) {
        evaluate_follow(follows.descriptors[i], guides.points_os_m, n, frames, std::span<glm::vec3>(s.points_os_m.data() + i * n, n));
        s.strand_offsets[i + 1] = uint32_t((i + 1) * n);
    }
    s.roots = follows.roots;
    s.seeds = follows.seeds;
    s.flags.assign(follows.size(), 0u);
    return s;
}

}  // namespace tressel
