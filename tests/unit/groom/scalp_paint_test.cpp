// Scalp paint (groom/scalp_paint.h): mask, density, length and comb maps painted with a brush, growth that
// reads them, and the .tpaint file. The scalp is the plane y = 0 over [0, 1]^2 (40 x 40 quads, vertices
// 2.5 cm apart) seen from straight above, so a screen point maps to a known point of the plane.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "groom/grow.h"
#include "groom/guides_file.h"
#include "groom/placement.h"
#include "groom/scalp_paint.h"
#include "damaged_files.h"
#include "test_meshes.h"
#include "test_paths.h"

namespace tressel {
namespace {

struct PaintScene {
    Mesh mesh = test::make_plane(40, 40, 1.0f);
    BrushView view = BrushView::look_at({0.5f, 2.0f, 0.5f}, {0.5f, 0.0f, 0.5f}, {0.0f, 0.0f, -1.0f}, 40.0f, {800.0f, 800.0f});
    GroomInputs in;
    PaintScene() {
        in.scalp = &mesh;
        in.group.follow.mode = FollowMode::None;
        in.group.growth.placement = Placement::Random;
        in.group.growth.density_per_cm2 = 0.2;  // 2,000 guides over the square metre
        in.group.growth.vertices_per_strand = 8;
        in.group.growth.length_m = 0.1;
        in.group.growth.length_variation = 0.0;
        in.scalp_clearance_m = -1.0;
    }
    glm::vec2 px(glm::vec3 p) const {
        glm::vec2 s;
        float z;
        EXPECT_TRUE(view.project(p, s, z));
        return s;
    }
    // Pixels per metre on the plane.
    float scale() const { return glm::length(px({0.6f, 0.0f, 0.5f}) - px({0.5f, 0.0f, 0.5f})) / 0.1f; }
    // Full-strength settings painting `value` into `layer` with a radius of `radius_m` on the plane.
    PaintSettings brush(PaintLayer layer, float value, float radius_m, BrushFalloff falloff = BrushFalloff::Constant) const {
        PaintSettings b;
        b.layer = layer;
        b.value = value;
        b.strength = 1.0f;
        b.falloff = falloff;
        b.radius_px = radius_m * scale();
        return b;
    }
    GroomResult grow(const ScalpPaint& p) {
        in.group.scalp.painted = std::make_shared<const ScalpPaint>(p);
        in.group.scalp.paint = "plane.tpaint";
        auto r = grow_group(in);
        EXPECT_TRUE(r.ok()) << r.error().describe();
        return r.ok() ? std::move(*r) : GroomResult{};
    }
};

// A root's identity: its triangle and barycentric bits.
using RootKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;
RootKey key(const ScalpAttachment& a) {
    uint32_t b[3];
    std::memcpy(b, &a.barycentric, 12);
    return {a.triangle, b[0], b[1], b[2]};
}
std::map<RootKey, size_t> roots_of(const Strands& s) {
    std::map<RootKey, size_t> m;
    for (size_t i = 0; i < s.strand_count(); ++i) m.emplace(key(s.roots[i]), i);
    return m;
}
// Triangles with a corner the paint changed: the painted area.
std::vector<uint8_t> painted_triangles(const Mesh& mesh, const ScalpPaint& a, const ScalpPaint& b) {
    const std::vector<uint8_t> v = paint_difference(a, b);
    std::vector<uint8_t> t(mesh.triangle_count(), 0);
    for (size_t i = 0; i < t.size(); ++i)
        for (int k = 0; k < 3; ++k) t[i] |= v[mesh.indices[3 * i + k]];
    return t;
}

// Every guide rooted outside the painted triangles is in both grooms, point for point.
void expect_unchanged_outside(const GroomResult& before, const GroomResult& after, const std::vector<uint8_t>& painted, size_t* inside_before,
                              size_t* inside_after) {
    const auto a = roots_of(before.guides), b = roots_of(after.guides);
    *inside_before = *inside_after = 0;
    for (const auto& [k, i] : a) {
        if (painted[std::get<0>(k)]) {
            ++*inside_before;
            continue;
        }
        auto it = b.find(k);
        ASSERT_NE(it, b.end()) << "a guide outside the painted area disappeared (triangle " << std::get<0>(k) << ")";
        const auto p = before.guides.strand(i), q = after.guides.strand(it->second);
        ASSERT_EQ(p.size(), q.size());
        EXPECT_EQ(std::memcmp(p.data(), q.data(), p.size_bytes()), 0) << "a guide outside the painted area changed";
    }
    for (const auto& [k, i] : b) {
        if (painted[std::get<0>(k)]) ++*inside_after;
        else EXPECT_TRUE(a.count(k)) << "a guide appeared outside the painted area (triangle " << std::get<0>(k) << ")";
    }
}

TEST(ScalpPaint, PaintingTheMaskRemovesAndAddsGuidesOnlyInsideThePaintedArea) {
    PaintScene s;
    s.in.group.scalp.region.type = RegionType::Paint;
    ScalpPaint p0 = blank_paint(s.mesh);
    start_layer(p0, PaintLayer::Mask, nullptr);
    const GroomResult g0 = s.grow(p0);
    ASSERT_NEAR(double(g0.guides.strand_count()), 2000.0, 100.0);

    // Erase a band across the middle.
    PaintSettings erase;
    erase.layer = PaintLayer::Mask;
    erase.invert = true;
    erase.strength = 1.0f;
    erase.radius_px = 0.08f * s.scale();
    const std::vector<glm::vec2> band{s.px({0.25f, 0.0f, 0.5f}), s.px({0.75f, 0.0f, 0.5f})};
    ScalpPaint p1 = p0;
    auto st = apply_paint_stroke(p1, s.mesh, s.view, erase, band, 0.5f);
    ASSERT_TRUE(st.ok()) << st.error().describe();
    EXPECT_GT(st->vertices_changed, 40u);
    const GroomResult g1 = s.grow(p1);
    const std::vector<uint8_t> painted = painted_triangles(s.mesh, p0, p1);
    size_t in0 = 0, in1 = 0;
    expect_unchanged_outside(g0, g1, painted, &in0, &in1);
    EXPECT_GT(in0, 50u);
    EXPECT_LT(in1, in0);
    // No guide where the mask is under the threshold.
    for (size_t i = 0; i < g1.guides.strand_count(); ++i)
        EXPECT_GT(paint_triangle_mean(p1.mask, s.mesh, g1.guides.roots[i].triangle, 1.0f), 0.5f);
    // The centre of the band is bare.
    for (size_t i = 0; i < g1.guides.strand_count(); ++i) {
        const glm::vec3 r = g1.guides.strand(i)[0];
        EXPECT_FALSE(std::abs(r.z - 0.5f) < 0.03f && r.x > 0.3f && r.x < 0.7f) << "a guide left in the erased band at " << r.x << ", " << r.z;
    }

    // Painting it back brings the same guides back, bit for bit (each triangle draws from its own stream).
    PaintSettings add = erase;
    add.invert = false;
    ScalpPaint p2 = p1;
    ASSERT_TRUE(apply_paint_stroke(p2, s.mesh, s.view, add, band, 0.5f).ok());
    const GroomResult g2 = s.grow(p2);
    ASSERT_EQ(g2.guides.strand_count(), g0.guides.strand_count());
    EXPECT_EQ(std::memcmp(g2.guides.points_os_m.data(), g0.guides.points_os_m.data(), g0.guides.points_os_m.size() * 12), 0);
}

TEST(ScalpPaint, TheGuideCountFollowsThePaintedDensityWithinTenPercent) {
    PaintScene s;
    ScalpPaint p0 = blank_paint(s.mesh);
    start_layer(p0, PaintLayer::Density, nullptr);
    const GroomResult g0 = s.grow(p0);
    for (float value : {3.0f, 0.5f, 0.0f}) {
        SCOPED_TRACE(value);
        const PaintSettings dens = s.brush(PaintLayer::Density, value, 0.3f);
        ScalpPaint p1 = p0;
        ASSERT_TRUE(apply_paint_stroke(p1, s.mesh, s.view, dens, std::vector<glm::vec2>{s.px({0.5f, 0.0f, 0.5f})}, 0.5f).ok());
        const GroomResult g1 = s.grow(p1);
        const std::vector<uint8_t> painted = painted_triangles(s.mesh, p0, p1);
        size_t in0 = 0, in1 = 0;
        expect_unchanged_outside(g0, g1, painted, &in0, &in1);
        // Expected inside: the group's density x the area x the painted density, triangle by triangle.
        double expected = 0.0;
        for (size_t t = 0; t < painted.size(); ++t)
            if (painted[t]) expected += 0.2e4 * triangle_area_m2(s.mesh, uint32_t(t)) * double(paint_triangle_mean(p1.density, s.mesh, uint32_t(t), 1.0f));
        ASSERT_GT(in0, 500u);
        if (value == 0.0f) EXPECT_LT(double(in1), expected + 3.0 * std::sqrt(expected) + 1.0);  // only the rim's partly painted triangles
        else EXPECT_NEAR(double(in1), expected, 0.1 * expected);
    }
}

TEST(ScalpPaint, LengthAndCombMapsShapeTheGuidesWherePainted) {
    PaintScene s;
    ScalpPaint p = blank_paint(s.mesh);
    const PaintSettings len = s.brush(PaintLayer::Length, 0.5f, 0.15f);
    ASSERT_TRUE(apply_paint_stroke(p, s.mesh, s.view, len, std::vector<glm::vec2>{s.px({0.3f, 0.0f, 0.5f})}, 0.5f).ok());
    // Comb toward +x over the right half.
    const PaintSettings comb = s.brush(PaintLayer::Comb, 1.0f, 0.15f);
    ASSERT_TRUE(apply_paint_stroke(p, s.mesh, s.view, comb, std::vector<glm::vec2>{s.px({0.6f, 0.0f, 0.7f}), s.px({0.8f, 0.0f, 0.7f})}, 0.5f).ok());
    const GroomResult g = s.grow(p);
    size_t short_n = 0, combed_n = 0, plain_n = 0;
    for (size_t i = 0; i < g.guides.strand_count(); ++i) {
        const auto q = g.guides.strand(i);
        const glm::vec3 r = q[0], tip = q.back();
        float len_m = 0.0f;
        for (size_t k = 1; k < q.size(); ++k) len_m += glm::length(q[k] - q[k - 1]);
        const float paint_len = paint_length_at(p, s.mesh, g.guides.roots[i]);
        EXPECT_NEAR(len_m, 0.1f * paint_len, 1e-5f);
        if (glm::length(glm::vec2(r.x, r.z) - glm::vec2(0.3f, 0.5f)) < 0.1f) {
            EXPECT_NEAR(len_m, 0.05f, 1e-5f);
            ++short_n;
        }
        const glm::vec4 c = paint_comb_at(p, s.mesh, g.guides.roots[i]);
        if (c.w > 0.999f) {
            // Fully combed along +x in the plane: the tip lies flat along +x.
            EXPECT_GT(tip.x - r.x, 0.09f);
            EXPECT_NEAR(tip.y, 0.0f, 0.01f);
            ++combed_n;
        } else if (c.w == 0.0f && paint_len == 1.0f) {
            EXPECT_NEAR(tip.y - r.y, 0.1f, 1e-5f);  // straight up, as grown without paint
            EXPECT_NEAR(tip.x, r.x, 1e-5f);
            ++plain_n;
        }
    }
    EXPECT_GT(short_n, 20u);
    EXPECT_GT(combed_n, 20u);
    EXPECT_GT(plain_n, 500u);
}

TEST(ScalpPaint, SymmetryPaintsTheMirrorImage) {
    PaintScene s;
    ScalpPaint p = blank_paint(s.mesh);
    PaintSettings dens = s.brush(PaintLayer::Density, 4.0f, 0.1f, BrushFalloff::Smooth);
    dens.strength = 0.5f;
    dens.symmetry_x = true;
    ASSERT_TRUE(apply_paint_stroke(p, s.mesh, s.view, dens, std::vector<glm::vec2>{s.px({0.2f, 0.0f, 0.3f}), s.px({0.3f, 0.0f, 0.4f})}, 0.5f).ok());
    // Vertex at x and at 1 - x (the plane's columns are symmetric about 0.5) carry the same density.
    std::map<std::pair<int, int>, float> at;
    for (size_t v = 0; v < s.mesh.vertex_count(); ++v)
        at[{int(std::lround(s.mesh.positions[v].x * 40.0f)), int(std::lround(s.mesh.positions[v].z * 40.0f))}] = p.density[v];
    size_t painted = 0;
    for (const auto& [ij, d] : at) {
        const auto mirror = at.find({40 - ij.first, ij.second});
        ASSERT_NE(mirror, at.end());
        EXPECT_NEAR(d, mirror->second, 1e-4f) << ij.first << ", " << ij.second;
        painted += d > 1.0f;
    }
    EXPECT_GT(painted, 20u);
}

TEST(ScalpPaint, ACurvedPartingCombsEachSideAwayFromTheCurve) {
    PaintScene s;
    // An S-shaped parting across the plane.
    std::vector<glm::vec3> curve;
    for (int i = 0; i <= 24; ++i) {
        const float x = 0.2f + 0.6f * float(i) / 24.0f;
        curve.push_back({x, 0.0f, 0.5f + 0.12f * std::sin(6.2831853f * (x - 0.2f) / 0.6f)});
    }
    ScalpPaint p = blank_paint(s.mesh);
    ASSERT_TRUE(paint_part_curve(p, s.mesh, curve, 1.0f).ok());
    const GroomResult g = s.grow(p);
    size_t checked = 0;
    for (size_t i = 0; i < g.guides.strand_count(); ++i) {
        const auto q = g.guides.strand(i);
        const glm::vec3 r = q[0];
        if (r.x < 0.25f || r.x > 0.75f) continue;  // beside the curve, not past its ends
        // The nearest point of the curve (densely sampled) and the tip's way across the plane.
        float best = 1e9f;
        glm::vec3 near(0.0f);
        for (int k = 0; k <= 2400; ++k) {
            const float x = 0.2f + 0.6f * float(k) / 2400.0f;
            const glm::vec3 c(x, 0.0f, 0.5f + 0.12f * std::sin(6.2831853f * (x - 0.2f) / 0.6f));
            if (glm::length(c - r) < best) best = glm::length(c - r), near = c;
        }
        // Past one triangle from the line (corners 2.5 cm apart: nearer, corners on both sides blend), within
        // reach of its local direction.
        if (best < 0.036f || best > 0.06f) continue;
        const glm::vec3 way = q.back() - r, from = r - near;
        EXPECT_GT(glm::dot(glm::normalize(glm::vec2(way.x, way.z)), glm::normalize(glm::vec2(from.x, from.z))), 0.9f)
            << "a guide at " << r.x << ", " << r.z << " is not combed away from the parting";
        // Amount 1 lays it over; corners combed apart (a triangle across the line) blend to less.
        EXPECT_LT(std::abs(way.y), 0.05f);
        ++checked;
    }
    EXPECT_GT(checked, 25u);
    // A straight curve gives the plane parting's combing.
    s.in.group.growth.comb = 1.0;
    s.in.group.growth.comb_direction = {0.0, 0.0, 1.0};
    ScalpPaint line = blank_paint(s.mesh);
    const std::vector<glm::vec3> straight{{0.2f, 0.0f, 0.5f}, {0.8f, 0.0f, 0.5f}};
    ASSERT_TRUE(paint_part_curve(line, s.mesh, straight, 1.0f).ok());
    const GroomResult by_curve = s.grow(line);
    s.in.group.growth.part = PartMode::Plane;
    s.in.group.growth.part_point_m = {0.5, 0.0, 0.5};
    s.in.group.growth.part_normal = {0.0, 0.0, 1.0};
    const GroomResult by_plane = s.grow(blank_paint(s.mesh));
    ASSERT_EQ(by_curve.guides.point_count(), by_plane.guides.point_count());
    // Roots whose triangle lies on one side of the line (the paint is per vertex: on a triangle across it
    // the corners' directions blend, where the plane decides root by root).
    float worst = 0.0f;
    size_t compared = 0;
    for (size_t i = 0; i < by_curve.guides.strand_count(); ++i) {
        if (std::abs(by_curve.guides.strand(i)[0].z - 0.5f) < 0.026f) continue;
        ++compared;
        for (size_t k = 0; k < by_curve.guides.points_in(i); ++k)
            worst = std::max(worst, glm::length(by_curve.guides.strand(i)[k] - by_plane.guides.strand(i)[k]));
    }
    EXPECT_GT(compared, 1500u);
    EXPECT_LT(worst, 1e-4f);
    // Too short, or not finite: refused, nothing painted.
    ScalpPaint q = blank_paint(s.mesh);
    EXPECT_FALSE(paint_part_curve(q, s.mesh, std::vector<glm::vec3>{{0.5f, 0.0f, 0.5f}, {0.5f, 0.0f, 0.5004f}}, 1.0f).ok());
    EXPECT_FALSE(paint_part_curve(q, s.mesh, std::vector<glm::vec3>{{0.5f, 0.0f, 0.5f}, {NAN, 0.0f, 0.5f}}, 1.0f).ok());
    EXPECT_TRUE(q.comb.empty());
    // The editor's test of a drawn path.
    EXPECT_TRUE(polyline_is_straight(std::vector<glm::vec2>{{0, 0}, {50, 1}, {100, 0}}));
    EXPECT_FALSE(polyline_is_straight(std::vector<glm::vec2>{{0, 0}, {50, 20}, {100, 0}}));
}

// Guides taken into hand keep following the fibre radius (a shading edit), as grown guides do, unless
// their widths are not one tapered root width (read from a file's thickness).
TEST(EditedGuides, WidthsFollowTheFibreRadiusWhenTheyAreTheGrowthsTaper) {
    PaintScene s;
    const GroomResult grown = s.grow(blank_paint(s.mesh));
    auto edited = std::make_shared<EditedGuides>(EditedGuides{grown.guides, uint32_t(s.mesh.triangle_count())});
    GroomInputs in = s.in;
    in.group.scalp.painted.reset();
    in.group.scalp.paint.clear();
    in.group.growth.placement = Placement::Edited;
    in.group.growth.guide_file = "plane.tguides";
    in.group.growth.guides = int(grown.guides.strand_count());
    in.group.growth.edited = edited;
    in.group.shading.fiber_radius_m = 2.5 * s.in.group.shading.fiber_radius_m;
    auto wider = grow_group(in);
    ASSERT_TRUE(wider.ok()) << wider.error().describe();
    EXPECT_TRUE(wider->widths_from_fiber_radius);
    ASSERT_EQ(wider->guides.widths_m.size(), grown.guides.widths_m.size());
    for (size_t k = 0; k < grown.guides.widths_m.size(); ++k) ASSERT_NEAR(wider->guides.widths_m[k], 2.5f * grown.guides.widths_m[k], 1e-6f * grown.guides.widths_m[k] * 2.5f + 1e-12f);
    // Points and roots are the brush work's, untouched.
    EXPECT_EQ(std::memcmp(wider->guides.points_os_m.data(), grown.guides.points_os_m.data(), grown.guides.points_os_m.size() * 12), 0);
    // Widths that are no taper (a file's) are kept.
    Strands own = grown.guides;
    for (size_t k = 0; k < own.widths_m.size(); ++k) own.widths_m[k] = 0.001f + 0.0001f * float(k % 7);
    in.group.growth.edited = std::make_shared<EditedGuides>(EditedGuides{own, uint32_t(s.mesh.triangle_count())});
    auto kept = grow_group(in);
    ASSERT_TRUE(kept.ok());
    EXPECT_FALSE(kept->widths_from_fiber_radius);
    EXPECT_EQ(kept->guides.widths_m, own.widths_m);
}

TEST(ScalpPaint, FileRoundTripsAndBadFilesAreClearErrors) {
    PaintScene s;
    ScalpPaint p = blank_paint(s.mesh);
    PaintSettings brush;
    brush.radius_px = 0.2f * s.scale();
    for (PaintLayer l : kAllPaintLayers) {
        brush.layer = l;
        brush.value = l == PaintLayer::Length ? 0.3f : l == PaintLayer::Comb ? 0.8f : 2.5f;
        ASSERT_TRUE(apply_paint_stroke(p, s.mesh, s.view, brush, std::vector<glm::vec2>{s.px({0.4f, 0.0f, 0.4f}), s.px({0.6f, 0.0f, 0.5f})}, 0.5f).ok());
        EXPECT_TRUE(p.has(l));
    }
    const auto dir = test::scratch_dir("scalp_paint_file");
    const auto path = dir / "crown.tpaint";
    ASSERT_TRUE(save_paint_file(path, p).ok());
    auto back = load_paint_file(path, &s.mesh);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_TRUE(bit_identical(*back, p));

    auto missing = load_paint_file(dir / "nowhere.tpaint", &s.mesh);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("nowhere.tpaint"), std::string::npos) << missing.error().message;
    const std::vector<uint8_t> bytes = encode_paint(p);
    test::expect_damaged_files_refused(bytes, "crown.tpaint", "not a Tressel scalp paint file", 12 /* vertex count */,
                                       [](const std::vector<uint8_t>& b) { return decode_paint(b, "crown.tpaint"); });
    // Painted on another mesh.
    const Mesh other = test::make_plane(20, 20, 1.0f);
    auto foreign = load_paint_file(path, &other);
    ASSERT_FALSE(foreign.ok());
    EXPECT_NE(foreign.error().message.find("crown.tpaint"), std::string::npos) << foreign.error().message;
    // A paint region without a mask, a paint file that is missing: growth names the problem.
    s.in.group.scalp.region.type = RegionType::Paint;
    s.in.group.scalp.painted = std::make_shared<const ScalpPaint>(blank_paint(s.mesh));
    auto no_mask = grow_group(s.in);
    ASSERT_FALSE(no_mask.ok());
    EXPECT_NE(no_mask.error().message.find("mask"), std::string::npos) << no_mask.error().message;
    s.in.group.scalp.painted.reset();
    s.in.group.scalp.paint = (dir / "gone.tpaint").string();
    auto gone = grow_group(s.in);
    ASSERT_FALSE(gone.ok());
    EXPECT_NE(gone.error().message.find("gone.tpaint"), std::string::npos) << gone.error().message;
    // Bad settings are refused by name and change nothing.
    ScalpPaint q = p;
    brush.layer = PaintLayer::Density;
    brush.value = 9.0f;
    auto refused = apply_paint_stroke(q, s.mesh, s.view, brush, std::vector<glm::vec2>{{1.0f, 1.0f}}, 0.5f);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("density"), std::string::npos);
    EXPECT_TRUE(bit_identical(q, p));
}

}  // namespace
}  // namespace tressel
