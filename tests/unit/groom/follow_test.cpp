#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "groom/follow.h"
#include "groom/groom_bench.h"
#include "groom/grow.h"
#include "real_head.h"
#include "test_meshes.h"

namespace tressel {
namespace {

GroomInputs base_inputs(const Mesh& mesh) {
    GroomInputs in;
    in.scalp = &mesh;
    in.group.growth.length_variation = 0.0;
    in.group.growth.length_m = 0.1;
    in.group.growth.vertices_per_strand = 16;
    return in;
}

TEST(Follow, BarycentricOverPerVertexGuidesStartsInsideItsTriangle) {
    const Mesh plane = test::make_plane(6, 6, 0.1f);
    GroomInputs in = base_inputs(plane);
    in.group.growth.placement = Placement::PerVertex;
    in.group.follow = {FollowMode::Barycentric};
    in.group.follow.count = 3000;
    in.group.follow.subdivisions = 2;
    in.group.follow.clump = 0.0;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->follows.size(), 3000u);
    const Strands f = evaluate_follows(r->follows, r->guides, r->guide_frames);
    for (size_t i = 0; i < f.strand_count(); ++i) {
        const auto& a = r->follows.roots[i];
        for (int k = 0; k < 3; ++k) {
            ASSERT_GE(a.barycentric[k], 0.0f);
            ASSERT_LE(a.barycentric[k], 1.0f);
        }
        ASSERT_NEAR(a.barycentric.x + a.barycentric.y + a.barycentric.z, 1.0f, 1e-6f);
        // Its evaluated root is that surface point.
        ASSERT_LT(glm::length(f.strand(i)[0] - attachment_point(plane, a)), 1e-6f);
    }
    // The regular set: 3 interior points per triangle at level 2 (barycentrics (1, 1, 2) / 4 in some order),
    // spread through the list with the random points.
    size_t regular = 0;
    for (const auto& a : r->follows.roots) {
        glm::vec3 b = a.barycentric;
        std::sort(&b.x, &b.x + 3);
        regular += b == glm::vec3(0.25f, 0.25f, 0.5f) ? 1 : 0;
    }
    EXPECT_EQ(regular, 3u * 72u);
}

TEST(Follow, BarycentricOverRandomGuidesUsesNearestGuidesAndKeepsTheRoot) {
    const Mesh sphere = make_sphere_mesh(0.1f, 30, 40);
    // 400 and 3000 guides: triangles small next to the guide spacing (shared candidate lists); 20000:
    // large (a grid query per follow).
    for (int guides : {400, 3000, 20000}) {
        GroomInputs in = base_inputs(sphere);
        in.group.scalp.region = {RegionType::Cap, {0, 1, 0}, 60.0};
        in.group.growth.guides = guides;
        in.group.follow = {FollowMode::Barycentric};
        in.group.follow.count = 5000;
        in.group.follow.subdivisions = 0;
        in.group.follow.clump = 0.0;
        auto r = grow_group(in);
        ASSERT_TRUE(r.ok()) << r.error().describe();
        const Strands f = evaluate_follows(r->follows, r->guides, r->guide_frames);
        for (size_t i = 0; i < f.strand_count(); ++i) {
            ASSERT_LT(glm::length(f.strand(i)[0] - attachment_point(sphere, r->follows.roots[i])), 2e-6f);
            const auto& d = r->follows.descriptors[i];
            EXPECT_NEAR(d.weights.x + d.weights.y + d.weights.z, 1.0f, 1e-5f);
            // The primary guide is the nearest guide root (brute force).
            const glm::vec3 p = attachment_point(sphere, r->follows.roots[i]);
            float all[3] = {1e9f, 1e9f, 1e9f};  // the three smallest distances, ascending
            for (size_t g = 0; g < r->guides.strand_count(); ++g) {
                float dist = glm::length(r->guides.strand(g)[0] - p);
                for (float& a : all)
                    if (dist < a) std::swap(dist, a);
            }
            ASSERT_NEAR(glm::length(r->guides.strand(d.guides.x)[0] - p), all[0], 1e-7f) << guides << " guides";
            // The three blended guides are the three nearest (compared as distance sets).
            std::vector<float> used = {glm::length(r->guides.strand(d.guides.x)[0] - p), glm::length(r->guides.strand(d.guides.y)[0] - p),
                                       glm::length(r->guides.strand(d.guides.z)[0] - p)};
            std::sort(used.begin(), used.end());
            for (int k = 0; k < 3; ++k) ASSERT_NEAR(used[k], all[k], 1e-7f) << guides << " guides, follow " << i;
        }
    }
}

TEST(Follow, ClumpOnePutsFollowsOnTheirGuide) {
    const Mesh sphere = make_sphere_mesh(0.1f, 20, 30);
    for (FollowMode mode : {FollowMode::Barycentric, FollowMode::TressFX}) {
        GroomInputs in = base_inputs(sphere);
        in.group.growth.guides = 100;
        in.group.follow.mode = mode;
        in.group.follow.count = 500;
        in.group.follow.clump = 1.0;
        auto r = grow_group(in);
        ASSERT_TRUE(r.ok());
        const Strands f = evaluate_follows(r->follows, r->guides, r->guide_frames);
        for (size_t i = 0; i < f.strand_count(); ++i) {
            const auto g = r->guides.strand(r->follows.descriptors[i].guides.x);
            const auto s = f.strand(i);
            for (size_t k = 0; k < s.size(); ++k) ASSERT_EQ(s[k], g[k]);
        }
    }
}

TEST(Follow, TressFXOffsetsLieInTheRootDiscAndSpreadToTheTip) {
    const Mesh sphere = make_sphere_mesh(0.1f, 20, 30);
    GroomInputs in = base_inputs(sphere);
    in.group.growth.guides = 50;
    in.group.growth.curl_radius_m = 0.005;  // a bent guide: the offset must still be rigid in the root frame
    in.group.follow = {FollowMode::TressFX};
    in.group.follow.per_guide = 8;
    in.group.follow.root_radius_m = 0.012;
    in.group.follow.tip_separation = 1.5;
    in.group.follow.clump = 0.0;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->follows.size(), 400u);
    const Strands f = evaluate_follows(r->follows, r->guides, r->guide_frames);
    float largest = 0.0f;
    for (size_t i = 0; i < f.strand_count(); ++i) {
        const auto g = r->guides.strand(r->follows.descriptors[i].guides.x);
        const auto s = f.strand(i);
        const glm::vec3 off0 = s[0] - g[0];
        const glm::vec3 t = glm::normalize(g[1] - g[0]);
        ASSERT_LE(glm::length(off0), 0.012f * (1 + 1e-5f));
        ASSERT_LT(std::abs(glm::dot(off0, t)), 1e-6f) << "root offset must be perpendicular to the first segment";
        const glm::vec3 tip = s.back() - g.back();
        ASSERT_LT(glm::length(tip - 2.5f * off0), 1e-6f) << "offset x (1 + tip_separation) at the tip";
        largest = std::max(largest, glm::length(off0));
    }
    EXPECT_GT(largest, 0.010f) << "offsets fill the disc";
}

TEST(Follow, EvaluateMatchesTheDocumentedFormula) {
    // Three straight guides and a hand-built descriptor.
    Strands g;
    for (int s = 0; s < 3; ++s)
        for (int k = 0; k < 4; ++k) g.points_os_m.push_back({float(s), 0.1f * float(k), float(s * s)});
    g.strand_offsets = {0, 4, 8, 12};
    g.roots.resize(3);
    g.seeds = {0, 0, 0};
    g.flags = {0, 0, 0};
    std::vector<gpu_shared::GuideFrame> frames(3, {glm::vec4(0, 1, 0, 0), glm::vec4(1, 0, 0, 0), glm::vec4(0, 0, -1, 0)});
    gpu_shared::FollowDescriptor d{{2, 0, 1, 0}, {0.5f, 0.25f, 0.25f, 2.0f}, {0.0f, 0.01f, 0.02f, 0.0f}};
    glm::vec3 out[4];
    evaluate_follow(d, g.points_os_m, 4, frames, out);
    for (int k = 0; k < 4; ++k) {
        const float s = float(k) / 3.0f;
        const glm::vec3 base = 0.5f * g.points_os_m[8 + k] + 0.25f * g.points_os_m[k] + 0.25f * g.points_os_m[4 + k];
        const glm::vec3 want = base + (1.0f + 2.0f * s) * glm::vec3(0.01f, 0.0f, -0.02f);
        EXPECT_LT(glm::length(out[k] - want), 1e-6f);
    }
}

// --- order: every prefix of the follows spread evenly (level of detail) ---------------------------------

// The follows' evaluated roots (TressFX roots carry their offset from the guide's root).
std::vector<glm::vec3> follow_roots(const GroomResult& r) {
    const Strands f = evaluate_follows(r.follows, r.guides, r.guide_frames);
    std::vector<glm::vec3> p(f.strand_count());
    for (size_t i = 0; i < p.size(); ++i) p[i] = f.strand(i)[0];
    return p;
}

// Pearson's chi-square of the counts of points order[0 .. m-1] in coarse cells against the whole set's
// share of each cell. Cells: cubes, `res` along the longest side of the points' bounding box; cells where
// the prefix expects fewer than 5 points are pooled into one bin. dof = bins - 1.
struct ChiSquare {
    double chi2 = 0.0;
    int dof = 0;
};
ChiSquare prefix_chi_square(const std::vector<glm::vec3>& p, const std::vector<uint32_t>& order, size_t m, int res) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& q : p) lo = glm::min(lo, q), hi = glm::max(hi, q);
    const float side = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}) / float(res);
    auto cell = [&](const glm::vec3& q) {
        size_t c = 0;
        for (int a = 2; a >= 0; --a) c = c * size_t(res) + size_t(std::clamp(int((q[a] - lo[a]) / side), 0, res - 1));
        return c;
    };
    const size_t cells = size_t(res) * size_t(res) * size_t(res);
    std::vector<double> all(cells, 0.0), got(cells, 0.0);
    for (const glm::vec3& q : p) all[cell(q)] += 1.0;
    for (size_t i = 0; i < m; ++i) got[cell(p[order[i]])] += 1.0;
    ChiSquare x;
    double pool_e = 0.0, pool_o = 0.0;
    int bins = 0;
    for (size_t c = 0; c < cells; ++c) {
        if (all[c] == 0.0) continue;
        const double e = double(m) * all[c] / double(p.size());
        if (e < 5.0) {
            pool_e += e;
            pool_o += got[c];
            continue;
        }
        x.chi2 += (got[c] - e) * (got[c] - e) / e;
        ++bins;
    }
    if (pool_e > 0.0) {
        x.chi2 += (pool_o - pool_e) * (pool_o - pool_e) / pool_e;
        ++bins;
    }
    x.dof = bins - 1;
    return x;
}

// The groom's own order, and the follows sorted by scalp triangle (stable): the patch-by-patch order
// follows had when they were generated triangle by triangle.
std::vector<uint32_t> identity_order(size_t n) {
    std::vector<uint32_t> o(n);
    std::iota(o.begin(), o.end(), 0u);
    return o;
}
std::vector<uint32_t> by_triangle(const FollowHairs& f) {
    std::vector<uint32_t> o = identity_order(f.size());
    std::stable_sort(o.begin(), o.end(), [&](uint32_t a, uint32_t b) { return f.roots[a].triangle < f.roots[b].triangle; });
    return o;
}

GroomInputs real_head_inputs(const Mesh& head) {
    GroomInputs in = base_inputs(head);
    in.group.scalp.region = {RegionType::Cap, {0.0, 1.0, -0.3}, 45.0};
    in.group.growth.guides = 1500;
    return in;
}

// Evenness of every prefix (the renderer's level of detail draws the first N' follows of a group): the
// prefix's chi-square against the whole set's cell shares, on a 6^3 grid over the roots. An independent
// random sample of m of the N follows gives about dof x (1 - m / N) on average; the bound asks for half of
// that, which the spread (stratified) order meets with room and a patch-by-patch order misses by far.
double chi_square_bound(const ChiSquare& x, double fraction) { return 0.5 * double(x.dof) * (1.0 - fraction); }

constexpr double kPrefixes[] = {0.05, 0.10, 0.25, 0.50};
constexpr int kCells = 6;

// Real scalp (the head scan's 45-degree crown cap, 1,120 triangles), 20,000 barycentric follows at
// subdivisions 2 (a regular set of 3 points per triangle, 3,360, then random points). Chi-square (dof):
//   prefix              5%            10%           25%           50%
//   old order   6688 (67)     4213 (73)     1133 (83)     287 (88)    regular set triangle by triangle
//   new order     12.1 (67)     15.0 (73)     13.2 (83)     4.7 (88)
//   by triangle 10042 (67)     9038 (73)     9152 (83)    7787 (88)    the same follows sorted by triangle
TEST(FollowOrder, EveryPrefixOfBarycentricFollowsIsSpreadOverTheScalp) {
    const Mesh head = test::load_real_head();
    ASSERT_GT(head.triangle_count(), 0u);
    GroomInputs in = real_head_inputs(head);
    in.group.follow = {FollowMode::Barycentric};
    in.group.follow.count = 20000;
    in.group.follow.subdivisions = 2;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->follows.size(), 20000u);
    ASSERT_GT(r->region.triangles.size() * 3, 2000u) << "the regular set must cover the 5% and 10% prefixes";
    const std::vector<glm::vec3> p = follow_roots(*r);
    const std::vector<uint32_t> own = identity_order(p.size()), patchy = by_triangle(r->follows);
    for (double frac : kPrefixes) {
        const size_t m = size_t(std::llround(frac * double(p.size())));
        const ChiSquare x = prefix_chi_square(p, own, m, kCells), t = prefix_chi_square(p, patchy, m, kCells);
        ASSERT_GE(x.dof, 30) << "too few cells for the test to mean anything";
        RecordProperty("chi2_prefix_" + std::to_string(int(frac * 100)), std::to_string(x.chi2));
        EXPECT_LT(x.chi2, chi_square_bound(x, frac)) << "prefix " << frac << " (" << m << " follows), dof " << x.dof;
        EXPECT_GT(t.chi2, 10.0 * chi_square_bound(t, frac)) << "the bound must reject a triangle-by-triangle order";
    }
}

// TressFX followers on the same cap: per-vertex guides (558, in the scan's vertex order) x 16 = 8,928
// follows, and random guides (1,500) x 4 = 6,000. The old order was guide by guide, the followers of a
// guide together: exactly these follows stably sorted by guide. Chi-square (dof):
//   prefix                      5%           10%           25%           50%
//   per-vertex  old order   1647 (34)    4309 (65)     3917 (74)     3451 (79)
//               new order      7.2 (34)    14.5 (65)     13.4 (74)      6.4 (79)
//   random      old order    117 (25)     141 (55)      199 (69)      122 (77)    (4 per guide: clumps)
//               new order      8.2 (25)    15.6 (55)      9.5 (69)      8.9 (77)
TEST(FollowOrder, EveryPrefixOfTressFXFollowsIsSpreadOverTheScalp) {
    const Mesh head = test::load_real_head();
    ASSERT_GT(head.triangle_count(), 0u);
    for (Placement placement : {Placement::PerVertex, Placement::Random}) {
        GroomInputs in = real_head_inputs(head);
        in.group.growth.placement = placement;
        in.group.follow = {FollowMode::TressFX};
        in.group.follow.per_guide = placement == Placement::PerVertex ? 16 : 4;
        auto r = grow_group(in);
        ASSERT_TRUE(r.ok()) << r.error().describe();
        const size_t ng = r->guides.strand_count();
        ASSERT_GE(r->follows.size(), 5000u);
        const std::vector<glm::vec3> p = follow_roots(*r);
        std::vector<uint32_t> by_guide = identity_order(p.size());
        std::stable_sort(by_guide.begin(), by_guide.end(), [&](uint32_t a, uint32_t b) {
            return r->follows.descriptors[a].guides.x < r->follows.descriptors[b].guides.x;
        });
        const std::vector<uint32_t> own = identity_order(p.size());
        const std::string name = placement == Placement::PerVertex ? "per_vertex" : "random";
        for (double frac : kPrefixes) {
            const size_t m = size_t(std::llround(frac * double(p.size())));
            const ChiSquare x = prefix_chi_square(p, own, m, kCells), g = prefix_chi_square(p, by_guide, m, kCells);
            ASSERT_GE(x.dof, 10) << "too few cells for the test to mean anything";
            RecordProperty("chi2_" + name + "_prefix_" + std::to_string(int(frac * 100)), std::to_string(x.chi2));
            EXPECT_LT(x.chi2, chi_square_bound(x, frac)) << name << " prefix " << frac << " (" << m << " follows), dof " << x.dof;
            EXPECT_GT(g.chi2, 2.0 * chi_square_bound(g, frac)) << name << ": the bound must reject the guide-by-guide order";
        }
        // Rounds: follower j of every guide before follower j + 1 of any.
        for (size_t round = 0; round < size_t(in.group.follow.per_guide); ++round) {
            std::vector<int> seen(ng, 0);
            for (size_t i = round * ng; i < (round + 1) * ng; ++i) ++seen[r->follows.descriptors[i].guides.x];
            ASSERT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(ng)) << "round " << round;
        }
    }
}

TEST(FollowOrder, SpreadOrderIsAPermutation) {
    for (size_t n : {0, 1, 2, 3, 5, 64, 1000, 1025}) {
        std::vector<glm::vec3> p(n);
        for (size_t i = 0; i < n; ++i) p[i] = glm::vec3(float(i % 7), float((i * 13) % 11), float(i % 3)) * 0.01f;
        const std::vector<uint32_t> o = spread_order(p);
        ASSERT_EQ(o.size(), n);
        std::vector<int> seen(n, 0);
        for (uint32_t i : o) ++seen[i];
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(n)) << n << " points";
        EXPECT_EQ(spread_order(p), o);
    }
    // All points in one place: still a permutation.
    const std::vector<glm::vec3> same(100, glm::vec3(1.0f));
    std::vector<uint32_t> o = spread_order(same);
    std::sort(o.begin(), o.end());
    EXPECT_EQ(o, identity_order(100));
}

// --- determinism ---------------------------------------------------------------------------------------

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_groom(const GroomResult& a, const GroomResult& b) {
    return same_bytes(a.guides.points_os_m, b.guides.points_os_m) && same_bytes(a.guides.strand_offsets, b.guides.strand_offsets) &&
           same_bytes(a.guides.widths_m, b.guides.widths_m) && same_bytes(a.guides.seeds, b.guides.seeds) &&
           same_bytes(a.guides.roots, b.guides.roots) && same_bytes(a.follows.descriptors, b.follows.descriptors) &&
           same_bytes(a.follows.roots, b.follows.roots) && same_bytes(a.guide_frames, b.guide_frames);
}

TEST(Determinism, RunsAreBitIdenticalWhateverRanBefore) {
    const Mesh sphere = make_sphere_mesh(0.1f, 30, 40);
    GroomInputs a = base_inputs(sphere);
    a.group.growth.guides = 500;
    a.group.growth.min_spacing_m = 0.002;
    a.group.growth.curl_radius_m = 0.004;
    a.group.growth.droop = 0.4;
    a.group.growth.length_variation = 0.2;
    a.group.follow.count = 4000;
    GroomInputs b = a;
    b.group.growth.seed = 99;
    b.group.follow.mode = FollowMode::TressFX;

    auto r1 = grow_group(a);
    auto other = grow_group(b);
    auto r2 = grow_group(a);
    ASSERT_TRUE(r1.ok() && r2.ok() && other.ok());
    EXPECT_TRUE(same_groom(*r1, *r2));
    EXPECT_FALSE(same_groom(*r1, *other)) << "a different seed must change the groom";
    EXPECT_EQ(r1->stats.length_mean_m, r2->stats.length_mean_m);
}

// The follow order (level of detail draws prefixes of it) is part of the groom: the same inputs give the
// same follows in the same order, bit for bit, in both modes and with any guide placement.
TEST(Determinism, FollowOrderIsBitIdentical) {
    const Mesh sphere = make_sphere_mesh(0.1f, 30, 40);
    for (FollowMode mode : {FollowMode::Barycentric, FollowMode::TressFX})
        for (Placement placement : {Placement::Random, Placement::PerVertex}) {
            GroomInputs in = base_inputs(sphere);
            in.group.scalp.region = {RegionType::Cap, {0, 1, 0}, 70.0};
            in.group.growth.placement = placement;
            in.group.growth.guides = 700;
            in.group.follow.mode = mode;
            in.group.follow.count = 6000;
            in.group.follow.subdivisions = 1;
            in.group.follow.per_guide = 16;
            auto a = grow_group(in);
            in.group.follow.seed += 1;
            auto other = grow_group(in);
            in.group.follow.seed -= 1;
            auto b = grow_group(in);
            ASSERT_TRUE(a.ok() && b.ok() && other.ok());
            ASSERT_GE(a->follows.size(), 5000u);
            EXPECT_TRUE(same_bytes(a->follows.descriptors, b->follows.descriptors));
            EXPECT_TRUE(same_bytes(a->follows.roots, b->follows.roots));
            EXPECT_TRUE(same_bytes(a->follows.seeds, b->follows.seeds));
            EXPECT_FALSE(same_bytes(a->follows.seeds, other->follows.seeds)) << "the follow seed must matter";
        }
}

}  // namespace
}  // namespace tressel
