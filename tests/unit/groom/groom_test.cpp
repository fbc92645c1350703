#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <set>
#include <tuple>
#include <vector>

#include <stb_image_write.h>

#include "groom/det_math.h"
#include "groom/groom_bench.h"
#include "groom/grow.h"
#include "groom/image.h"
#include "groom/placement.h"
#include "groom/smoothing.h"
#include "groom/spatial.h"
#include "test_meshes.h"
#include "test_paths.h"

namespace tressel {
namespace {

GroomInputs plane_inputs(const Mesh& mesh) {
    GroomInputs in;
    in.scalp = &mesh;
    in.group.follow.mode = FollowMode::None;
    in.group.growth.length_variation = 0.0;
    in.scalp_clearance_m = -1.0;  // the shape tests comb and droop through the plane on purpose
    return in;
}

// --- deterministic math ------------------------------------------------------------------------------

TEST(DetMath, MatchesTheCLibraryToAFewUlps) {
    double worst_sc = 0.0, worst_at = 0.0;
    for (int i = -20000; i <= 20000; ++i) {
        const double x = i * 0.0123456789;  // covers many quadrants, up to |x| ~ 247
        worst_sc = std::max({worst_sc, std::abs(det::sin(x) - std::sin(x)), std::abs(det::cos(x) - std::cos(x))});
        const double t = i * 1e-3;
        worst_at = std::max(worst_at, std::abs(det::atan(t) - std::atan(t)));
        worst_at = std::max(worst_at, std::abs(det::atan2(std::sin(x), std::cos(x)) - std::atan2(std::sin(x), std::cos(x))));
    }
    EXPECT_LT(worst_sc, 1e-14);
    EXPECT_LT(worst_at, 1e-14);
    for (double c : {-1.0, -0.7, 0.0, 0.3, 0.999, 1.0}) EXPECT_NEAR(det::acos(c), std::acos(c), 1e-14);
}

// --- placement -------------------------------------------------------------------------------------

TEST(Placement, PerVertexGivesOneGuidePerDistinctVertexInTheCap) {
    const Mesh sphere = make_sphere_mesh(0.1f, 30, 40);  // seam and poles repeat positions
    GroomInputs in;
    in.scalp = &sphere;
    in.group.scalp.region = {RegionType::Cap, {0.0, 1.0, 0.0}, 50.0};
    in.group.growth.placement = Placement::PerVertex;
    in.group.follow.mode = FollowMode::None;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    // Independent count: distinct positions within 50 degrees of +Y seen from the centre (bbox centre = 0).
    std::set<std::tuple<float, float, float>> expected;
    const double cos_max = std::cos(50.0 * std::numbers::pi / 180.0);
    for (const auto& p : sphere.positions)
        if (glm::dot(glm::dvec3(p), glm::dvec3(0, 1, 0)) >= cos_max * glm::length(glm::dvec3(p))) expected.insert({p.x, p.y, p.z});
    EXPECT_EQ(r->guides.strand_count(), expected.size());
    std::set<std::tuple<float, float, float>> got;
    for (size_t i = 0; i < r->guides.strand_count(); ++i) {
        const glm::vec3 p = r->guides.strand(i)[0];
        got.insert({p.x, p.y, p.z});
    }
    EXPECT_EQ(got, expected) << "each guide root must sit exactly on a distinct region vertex";
}

TEST(Placement, RandomGivesTheCountOnTheSurface) {
    const Mesh sphere = make_sphere_mesh(0.1f, 40, 50);
    GroomInputs in;
    in.scalp = &sphere;
    in.group.scalp.region = {RegionType::Cap, {0.0, 1.0, 0.2}, 70.0};
    in.group.growth.guides = 5000;
    in.group.follow.mode = FollowMode::None;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->guides.strand_count(), 5000u);
    const TriangleBvh bvh(sphere.positions, sphere.indices);
    float worst = 0.0f;
    for (size_t i = 0; i < 5000; ++i) {
        const auto& a = r->guides.roots[i];
        EXPECT_NEAR(a.barycentric.x + a.barycentric.y + a.barycentric.z, 1.0f, 1e-6f);
        worst = std::max(worst, bvh.closest(r->guides.strand(i)[0]).distance_m);
    }
    EXPECT_LT(worst, 1e-5f);
    EXPECT_NEAR(r->stats.guides_per_cm2, 5000.0 / r->region.area_cm2(), 1e-9);
}

TEST(Placement, RandomDensityIsUniformByArea) {
    // Columns spaced quadratically: triangle areas differ by a factor of ~40 across the plane, so
    // sampling by triangle instead of by area would fail badly.
    const Mesh plane = test::make_plane(20, 8, 1.0f, 2.0f);
    RegionInfo region = *evaluate_region(plane, {}, {});
    Diagnostics diag;
    const size_t n = 20000;
    const RootSet roots = place_random(plane, region, n, 3, 0.0, diag);
    ASSERT_EQ(roots.size(), n);
    // 10 strips of equal width along x (not aligned with triangle edges): expected n / 10 each.
    const int bins = 10;
    std::vector<double> count(bins, 0.0);
    for (const auto& p : roots.points_m) count[std::min(bins - 1, int(p.x * bins))] += 1.0;
    double chi2 = 0.0;
    for (double c : count) chi2 += (c - n / double(bins)) * (c - n / double(bins)) / (n / double(bins));
    // Chi-square with 9 degrees of freedom: 27.88 is the 0.1% critical value.
    EXPECT_LT(chi2, 27.88) << "root density is not uniform by area";
}

TEST(Placement, MinimumSpacingIsRespectedAndShortfallReported) {
    const Mesh plane = test::make_plane(10, 10, 0.1f);
    GroomInputs in = plane_inputs(plane);
    in.group.growth.guides = 200;
    in.group.growth.min_spacing_m = 0.005;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto& g = r->guides;
    for (size_t i = 0; i < g.strand_count(); ++i)
        for (size_t j = i + 1; j < g.strand_count(); ++j)
            ASSERT_GE(glm::length(g.strand(i)[0] - g.strand(j)[0]), 0.005f - 1e-7f);
    EXPECT_EQ(g.strand_count(), 200u);
    in.group.growth.guides = 2000;  // impossible at 5 mm in 1 dm^2 (about 460 fit at best)
    auto full = grow_group(in);
    ASSERT_TRUE(full.ok());
    EXPECT_LT(full->guides.strand_count(), 2000u);
    EXPECT_GE(full->diagnostics.count(Severity::Warning), 1u);
}

// --- regions -------------------------------------------------------------------------------------

TEST(Region, UvMaskSelectsHalfThePlane) {
    const auto dir = test::scratch_dir("groom_uv_mask");
    const int w = 64, h = 16;
    std::vector<uint8_t> px(size_t(w) * h * 3, 0);
    for (int y = 0; y < h; ++y)
        for (int x = w / 2; x < w; ++x) px[(size_t(y) * w + x) * 3 + 1] = 255;  // green on the right half (u > 0.5)
    ASSERT_NE(stbi_write_png((dir / "mask.png").string().c_str(), w, h, 3, px.data(), w * 3), 0);
    const Mesh plane = test::make_plane(16, 4, 1.0f);
    ScalpRegion region{RegionType::UvMask};
    region.channel = 1;
    region.mask_path = "mask.png";
    auto info = evaluate_region(plane, region, dir);
    ASSERT_TRUE(info.ok()) << info.error().describe();
    EXPECT_EQ(info->triangles.size(), plane.triangle_count() / 2);
    EXPECT_NEAR(info->area_m2, 0.5, 1e-6);
    EXPECT_NEAR(info->area_cm2(), 5000.0, 1e-2);
    for (uint32_t t : info->triangles) EXPECT_GT(plane.positions[plane.indices[3 * t]].x, 0.49f);
}

TEST(Region, VertexColourThreshold) {
    Mesh plane = test::make_plane(4, 4, 1.0f);
    for (const auto& p : plane.positions) plane.colors.push_back({p.z < 0.6f ? 1.0f : 0.0f, 0, 0, 1});
    auto info = evaluate_region(plane, {RegionType::VertexColor, {0, 1, 0}, 70.0, 0, 0.5}, {});
    ASSERT_TRUE(info.ok());
    // Rows z = 0, .25, .5 are red: triangles of the first two quad rows have all corners red (mean 1),
    // the third row has a mean of 1/3 or 2/3.
    size_t expected = 0;
    for (size_t t = 0; t < plane.triangle_count(); ++t) {
        float m = 0;
        for (int k = 0; k < 3; ++k) m += plane.colors[plane.indices[3 * t + k]].r / 3.0f;
        expected += m > 0.5f;
    }
    EXPECT_EQ(info->triangles.size(), expected);
    EXPECT_GT(expected, 16u);
}

// --- shape ---------------------------------------------------------------------------------------

double angle_between(glm::dvec3 a, glm::dvec3 b) {
    return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

TEST(Shape, FirstSegmentFollowsTheNormalOrTheCombBlend) {
    Mesh plane = test::make_plane(8, 8, 0.2f);
    // Tilt the normals so the blend is not axis aligned.
    const glm::vec3 n = glm::normalize(glm::vec3(0.3f, 1.0f, -0.2f));
    for (auto& v : plane.normals) v = n;
    for (double comb : {0.0, 0.35, 1.0}) {
        GroomInputs in = plane_inputs(plane);
        in.group.growth.guides = 300;
        in.group.growth.comb = comb;
        in.group.growth.comb_direction = {0.0, -1.0, 1.0};
        auto r = grow_group(in);
        ASSERT_TRUE(r.ok()) << r.error().describe();
        const glm::dvec3 c = glm::normalize(glm::dvec3(0, -1, 1));
        const glm::dvec3 want = glm::normalize(glm::dvec3(n) * (1.0 - comb) + c * comb);
        for (size_t i = 0; i < r->guides.strand_count(); ++i) {
            const auto s = r->guides.strand(i);
            ASSERT_LT(angle_between(glm::dvec3(s[1] - s[0]), want), 1e-3) << "comb " << comb;
        }
    }
}

TEST(Shape, LengthsAreExactWithCurlWaveAndDroop) {
    const Mesh plane = test::make_plane(8, 8, 0.2f);
    GroomInputs in = plane_inputs(plane);
    in.group.growth.guides = 200;
    in.group.growth.length_m = 0.3;
    in.group.growth.vertices_per_strand = 48;
    in.group.growth.curl_radius_m = 0.01;
    in.group.growth.curl_pitch_m = 0.03;
    in.group.growth.wave_amplitude_m = 0.005;
    in.group.growth.wave_frequency = 7.0;
    in.group.growth.droop = 0.6;
    in.group.growth.comb = 0.3;
    in.group.growth.comb_direction = {1, 0, 0};
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    for (size_t i = 0; i < r->guides.strand_count(); ++i) {
        ASSERT_EQ(r->guides.points_in(i), 48u);
        ASSERT_NEAR(strand_length_m(r->guides, i), 0.3, 0.3 * 1e-4);
    }
    // The droop actually bent the strands toward -Y (from straight up).
    const auto s0 = r->guides.strand(0);
    EXPECT_LT(s0.back().y - s0.front().y, 0.25f);
}

TEST(Shape, LengthVariationStaysInItsRange) {
    const Mesh plane = test::make_plane(8, 8, 0.2f);
    GroomInputs in = plane_inputs(plane);
    in.group.growth.guides = 2000;
    in.group.growth.length_m = 0.2;
    in.group.growth.length_variation = 0.25;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok());
    EXPECT_GE(r->stats.length_min_m, 0.15 * (1 - 1e-5));
    EXPECT_LE(r->stats.length_max_m, 0.25 * (1 + 1e-5));
    EXPECT_LT(r->stats.length_min_m, 0.155);  // the range is actually used
    EXPECT_GT(r->stats.length_max_m, 0.245);
    EXPECT_NEAR(r->stats.length_mean_m, 0.2, 0.003);
}

TEST(Shape, CurlRadiusAndPitchMatch) {
    const Mesh plane = test::make_plane(2, 2, 0.01f);
    GroomInputs in = plane_inputs(plane);
    in.group.growth.guides = 5;
    in.group.growth.length_m = 0.25;
    in.group.growth.vertices_per_strand = 200;
    in.group.growth.curl_radius_m = 0.012;
    in.group.growth.curl_pitch_m = 0.025;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    for (size_t i = 0; i < r->guides.strand_count(); ++i) {
        const auto s = r->guides.strand(i);
        float xmin = 1e9f, xmax = -1e9f, zmin = 1e9f, zmax = -1e9f;
        for (const auto& p : s) {
            xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
            zmin = std::min(zmin, p.z), zmax = std::max(zmax, p.z);
        }
        EXPECT_NEAR((xmax - xmin) / 2, 0.012, 0.012 * 0.03);
        EXPECT_NEAR((zmax - zmin) / 2, 0.012, 0.012 * 0.03);
        // Rise along the normal: length x pitch / helix arc length per turn.
        const double rise = 0.25 * 0.025 / std::hypot(2 * std::numbers::pi * 0.012, 0.025);
        EXPECT_NEAR(s.back().y - s.front().y, rise, rise * 0.02);
    }
}

TEST(Shape, WaveAmplitudeMatches) {
    const Mesh plane = test::make_plane(2, 2, 0.01f);
    GroomInputs in = plane_inputs(plane);
    in.group.growth.guides = 3;
    in.group.growth.length_m = 0.3;
    in.group.growth.vertices_per_strand = 128;
    in.group.growth.wave_amplitude_m = 0.01;
    in.group.growth.wave_frequency = 10.0;
    in.group.growth.wave_axis = {1.0, 0.0, 0.0};
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    for (size_t i = 0; i < r->guides.strand_count(); ++i) {
        const auto s = r->guides.strand(i);
        float dmax = 0.0f, zdev = 0.0f;
        for (const auto& p : s) {
            dmax = std::max(dmax, std::abs(p.x - s[0].x));
            zdev = std::max(zdev, std::abs(p.z - s[0].z));
        }
        EXPECT_NEAR(dmax, 0.01, 0.01 * 0.03);
        EXPECT_LT(zdev, 1e-6f) << "a planar wave stays in the plane of its axis";
    }
}

TEST(Shape, LengthMapScalesByRootUv) {
    const auto dir = test::scratch_dir("groom_length_map");
    const int w = 32, h = 8;
    std::vector<uint8_t> px(size_t(w) * h, 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) px[size_t(y) * w + x] = x < w / 2 ? 128 : 255;  // half length on the left (u < 0.5)
    ASSERT_NE(stbi_write_png((dir / "length.png").string().c_str(), w, h, 1, px.data(), w), 0);
    const Mesh plane = test::make_plane(16, 4, 1.0f);
    GroomInputs in = plane_inputs(plane);
    in.base_dir = dir;
    in.group.growth.guides = 400;
    in.group.growth.length_m = 0.2;
    in.group.growth.length_map = "length.png";
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    size_t checked = 0;
    for (size_t i = 0; i < r->guides.strand_count(); ++i) {
        const float u = r->guides.strand(i)[0].x;  // the plane's u equals x
        if (std::abs(u - 0.5f) < 0.05f) continue;  // bilinear blend across the edge
        const double want = u < 0.5f ? 0.2 * 128.0 / 255.0 : 0.2;
        EXPECT_NEAR(strand_length_m(r->guides, i), want, want * 1e-4);
        ++checked;
    }
    EXPECT_GT(checked, 300u);
}

TEST(Shape, WidthTapersFromRootToTip) {
    const Mesh plane = test::make_plane(2, 2, 0.1f);
    GroomInputs in = plane_inputs(plane);
    in.group.growth.guides = 2;
    in.group.growth.tip_width_scale = 0.25;
    in.group.shading.fiber_radius_m = 0.001;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok());
    const auto& w = r->guides.widths_m;
    const uint32_t n = r->guides.points_in(0);
    EXPECT_FLOAT_EQ(w[0], 0.002f);
    EXPECT_FLOAT_EQ(w[n - 1], 0.0005f);
    for (uint32_t k = 1; k < n; ++k) EXPECT_LT(w[k], w[k - 1]);
}

// --- resampling and smoothing ---------------------------------------------------------------------

Strands arc_strand(int n) {  // quarter circle of radius 0.1 m, n points
    Strands s;
    for (int k = 0; k < n; ++k) {
        const double a = 0.5 * std::numbers::pi * k / (n - 1);
        s.points_os_m.push_back(glm::vec3(0.1 * std::cos(a), 0.1 * std::sin(a), 0.0));
    }
    s.strand_offsets = {0, uint32_t(n)};
    s.roots = {{}};
    s.seeds = {1};
    s.flags = {0};
    return s;
}

TEST(Resample, EqualArcLengthAndEndsKept) {
    const Strands s = arc_strand(7);
    auto r = resample_strands(s, 16);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->points_in(0), 16u);
    EXPECT_EQ(r->points_os_m.front(), s.points_os_m.front());
    EXPECT_LT(glm::length(r->points_os_m.back() - s.points_os_m.back()), 1e-7f);
    // Points lie on the input polyline at arc length L * j / 15.
    const double total = strand_length_m(s, 0);
    double along = 0.0;
    for (int j = 1; j < 16; ++j) {
        // Arc position of resampled point j measured on the input polyline.
        const glm::vec3 p = r->points_os_m[size_t(j)];
        double best = 1e9, at = 0.0, cum = 0.0;
        for (int k = 1; k < 7; ++k) {
            const glm::dvec3 a(s.points_os_m[k - 1]), b(s.points_os_m[k]);
            const double len = glm::length(b - a);
            const double t = std::clamp(glm::dot(glm::dvec3(p) - a, b - a) / (len * len), 0.0, 1.0);
            const double d = glm::length(a + t * (b - a) - glm::dvec3(p));
            if (d < best) best = d, at = cum + t * len;
            cum += len;
        }
        EXPECT_LT(best, 1e-6);
        EXPECT_NEAR(at, total * j / 15.0, 1e-6);
        along = at;
    }
    EXPECT_NEAR(along, total, 1e-6);
    EXPECT_FALSE(resample_strands(s, 12).ok()) << "12 is not a GPU vertex count";
}

TEST(Smoothing, InterpolatesAndApproachesTheCurve) {
    const Strands s = arc_strand(7);  // 7 control points as in Nalu
    for (SmoothingMode mode : {SmoothingMode::Bezier, SmoothingMode::CatmullRom}) {
        auto r = smooth_strands(s, {mode, 6});
        ASSERT_TRUE(r.ok());
        ASSERT_EQ(r->points_in(0), 37u);
        for (int k = 0; k < 7; ++k) EXPECT_EQ(r->points_os_m[size_t(k) * 6], s.points_os_m[size_t(k)]);
        // Inserted points sit much closer to the circle than the chords' midpoints do.
        const double chord_sag = 0.1 * (1 - std::cos(0.25 * std::numbers::pi / 6));
        for (const auto& p : r->points_os_m) EXPECT_LT(std::abs(glm::length(glm::dvec3(p)) - 0.1), 0.1 * chord_sag);
    }
    // A straight strand stays straight and evenly spaced.
    Strands line = arc_strand(5);
    for (int k = 0; k < 5; ++k) line.points_os_m[size_t(k)] = glm::vec3(0.0f, 0.01f * float(k), 0.0f);
    auto r = smooth_strands(line, {SmoothingMode::CatmullRom, 4});
    ASSERT_TRUE(r.ok());
    for (size_t k = 0; k < r->point_count(); ++k) {
        EXPECT_NEAR(r->points_os_m[k].y, 0.0025f * float(k), 1e-7f);
        EXPECT_EQ(r->points_os_m[k].x, 0.0f);
    }
    EXPECT_FALSE(smooth_strands(s, {SmoothingMode::Bezier, 0}).ok());
}

// --- parameters ------------------------------------------------------------------------------------

void expect_error_naming(const GroomInputs& in, const std::string& name) {
    auto r = grow_group(in);
    ASSERT_FALSE(r.ok()) << "expected an error naming " << name;
    EXPECT_NE(r.error().message.find(name), std::string::npos) << r.error().describe();
}

TEST(Parameters, BadValuesGiveErrorsNamingThem) {
    const Mesh plane = test::make_plane(4, 4, 0.1f);
    GroomInputs base = plane_inputs(plane);
    base.group.growth.guides = 10;
    {
        GroomInputs in = base;
        in.group.growth.length_m = 0.0;
        expect_error_naming(in, "growth.length_m");
        in.group.growth.length_m = -0.1;
        expect_error_naming(in, "growth.length_m");
    }
    {
        GroomInputs in = base;
        in.group.growth.vertices_per_strand = 1;
        expect_error_naming(in, "growth.vertices_per_strand");
    }
    {
        GroomInputs in = base;
        in.group.growth.guides = 100'000'000;
        auto r = grow_group(in);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::LimitExceeded);
        EXPECT_NE(r.error().message.find("growth.guides"), std::string::npos);
    }
    {
        GroomInputs in = base;
        in.group.scalp.region = {RegionType::Cap, {0.0, 1.0, 0.0}, 1.0};  // the plane is flat: nothing within 1 degree of +Y
        expect_error_naming(in, "scalp.region");
    }
    {
        Mesh no_uv = plane;
        no_uv.uvs.clear();
        GroomInputs in = base;
        in.scalp = &no_uv;
        in.group.scalp.region.type = RegionType::UvMask;
        in.group.scalp.region.mask_path = "mask.png";
        auto r = grow_group(in);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find("no UVs"), std::string::npos) << r.error().describe();
        EXPECT_NE(r.error().message.find("uv_mask"), std::string::npos) << r.error().describe();
    }
    {
        GroomInputs in = base;
        in.group.follow.mode = FollowMode::Barycentric;
        in.group.follow.clump = 1.5;
        expect_error_naming(in, "follow.clump");
    }
    {
        GroomInputs in = base;
        in.group.growth.curl_radius_m = 0.01;
        in.group.growth.curl_pitch_m = 0.0;
        expect_error_naming(in, "growth.curl_pitch_m");
    }
}

// A UV mask that is empty, truncated or not an image is an error naming the file, never a crash.
TEST(UvImage, EmptyTruncatedAndForeignFilesAreErrors) {
    auto dir = test::scratch_dir("uv_image_bad");
    std::vector<uint8_t> png;
    stbi_write_png_to_func([](void* ctx, void* data, int size) {
        auto* out = static_cast<std::vector<uint8_t>*>(ctx);
        out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
    }, &png, 4, 4, 4, std::vector<uint8_t>(64, 200).data(), 16);
    ASSERT_GT(png.size(), 40u);
    auto write = [&](const char* name, const std::vector<uint8_t>& bytes) {
        auto p = dir / name;
        FILE* f = std::fopen(p.string().c_str(), "wb");
        if (f) {
            if (!bytes.empty()) std::fwrite(bytes.data(), 1, bytes.size(), f);
            std::fclose(f);
        }
        return p;
    };
    auto good = load_uv_image(write("good.png", png));
    ASSERT_TRUE(good.ok()) << good.error().describe();
    EXPECT_EQ(good->width, 4);
    auto empty = load_uv_image(write("empty.png", {}));
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().message.find("empty.png: the file is empty"), std::string::npos) << empty.error().describe();
    auto truncated = load_uv_image(write("truncated.png", std::vector<uint8_t>(png.begin(), png.begin() + 30)));
    ASSERT_FALSE(truncated.ok());
    EXPECT_NE(truncated.error().message.find("truncated.png"), std::string::npos);
    auto text = load_uv_image(write("notes.png", std::vector<uint8_t>{'h', 'e', 'l', 'l', 'o'}));
    ASSERT_FALSE(text.ok());
    EXPECT_NE(text.error().message.find("notes.png"), std::string::npos);
    EXPECT_FALSE(load_uv_image(dir / "missing.png").ok());
}

// --- benchmark workload -----------------------------------------------------------------------------

TEST(Bench, WorkloadProducesTheRequestedGroom) {
    GroomBenchOptions o;
    o.repeats = 3;
    auto r = run_groom_bench(o);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->guides, 10000u);
    EXPECT_EQ(r->guide_points, 320000u);
    EXPECT_EQ(r->follows, 100000u);
    std::printf("%s\n", to_json(*r).c_str());
}

}  // namespace
}  // namespace tressel
