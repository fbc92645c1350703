#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <cstring>

#include "groom/follow.h"
#include "groom/groom_bench.h"
#include "groom/grow.h"
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
    // The regular set: 3 interior points per triangle at level 2 (barycentrics k / 4).
    EXPECT_FLOAT_EQ(r->follows.roots[0].barycentric.x, 0.25f);
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

}  // namespace
}  // namespace tressel
