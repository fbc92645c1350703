// Brushes on guide strands (groom/brush.h) and the guides file they are saved in (groom/guides_file.h).
// Analytic scalps: a plane (strands standing up, seen from the front) for the brushes' geometry, a UV
// sphere symmetric across x = 0 for symmetry and collision.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>

#include "core/file_io.h"
#include "groom/brush.h"
#include "groom/grow.h"
#include "groom/guides_file.h"
#include "groom/placement.h"
#include "groom/rng.h"
#include "groom/spatial.h"
#include "sdf/sdf.h"
#include "damaged_files.h"
#include "test_fields.h"
#include "test_meshes.h"
#include "test_paths.h"

namespace tressel {
namespace {

constexpr uint32_t kN = 16;

// Strands of kN points rooted at `roots` (on `mesh`), straight along `dir` with length `len`.
Strands straight_strands(const Mesh& mesh, const std::vector<glm::vec3>& roots, glm::vec3 dir, float len) {
    TriangleBvh bvh(mesh.positions, mesh.indices);
    Strands s;
    for (size_t i = 0; i < roots.size(); ++i) {
        const ClosestPoint c = bvh.closest(roots[i]);
        const ScalpAttachment a{c.triangle, c.barycentric};
        const glm::vec3 r = attachment_point(mesh, a);
        for (uint32_t k = 0; k < kN; ++k) {
            s.points_os_m.push_back(r + dir * (len * float(k) / float(kN - 1)));
            s.widths_m.push_back(0.001f * (1.0f - 0.5f * float(k) / float(kN - 1)));
            s.colors.push_back(glm::vec4(0.3f, 0.2f, 0.1f + 0.01f * float(i % 7), 1.0f));
        }
        s.strand_offsets.push_back(uint32_t(s.points_os_m.size()));
        s.roots.push_back(a);
        s.seeds.push_back(uint32_t(1000 + i));
        s.flags.push_back(0u);
    }
    return s;
}

// The plane y = 0 over [0, 1]^2 with a 12 x 12 grid of 0.2 m strands standing up in [0.3, 0.7]^2, seen
// from the front (+z) and a little above, 800 x 600 pixels.
struct PlaneScene {
    Mesh mesh = test::make_plane(10, 10, 1.0f);
    Strands guides;
    BrushView view = BrushView::look_at({0.5f, 0.35f, 2.0f}, {0.5f, 0.1f, 0.5f}, {0.0f, 1.0f, 0.0f}, 30.0f, {800.0f, 600.0f});
    BrushTarget target;
    Growth growth;
    PlaneScene() {
        std::vector<glm::vec3> roots;
        for (int j = 0; j < 12; ++j)
            for (int i = 0; i < 12; ++i) roots.push_back({0.3f + 0.4f * float(i) / 11.0f, 0.0f, 0.3f + 0.4f * float(j) / 11.0f});
        guides = straight_strands(mesh, roots, {0.0f, 1.0f, 0.0f}, 0.2f);
        growth.vertices_per_strand = int(kN);
        growth.length_m = 0.2;
        growth.length_variation = 0.0;
        target.scalp = &mesh;
        target.growth = &growth;
    }
    glm::vec2 px(glm::vec3 p) const {
        glm::vec2 s;
        float z;
        EXPECT_TRUE(view.project(p, s, z));
        return s;
    }
};

float distance_to_polyline(glm::vec2 p, const std::vector<glm::vec2>& line) {
    float best = glm::length(p - line[0]);
    for (size_t i = 1; i < line.size(); ++i) {
        const glm::vec2 a = line[i - 1], b = line[i];
        const float t = std::clamp(glm::dot(p - a, b - a) / glm::dot(b - a, b - a), 0.0f, 1.0f);
        best = std::min(best, glm::length(p - (a + (b - a) * t)));
    }
    return best;
}

bool strand_identical(const Strands& a, size_t sa, const Strands& b, size_t sb) {
    const auto pa = a.strand(sa), pb = b.strand(sb);
    return pa.size() == pb.size() && std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(glm::vec3)) == 0;
}

std::vector<float> segment_lengths(const Strands& s, size_t i) {
    std::vector<float> l;
    const auto p = s.strand(i);
    for (size_t k = 1; k < p.size(); ++k) l.push_back(glm::length(p[k] - p[k - 1]));
    return l;
}

TEST(Brush, CombMovesStrandsUnderTheStrokeAlongItKeepsLengthsAndLeavesTheRestBitIdentical) {
    PlaneScene sc;
    const Strands before = sc.guides;
    // Across the middle row of strands (z = 0.5), at half their height, left to right.
    const std::vector<glm::vec2> stroke = {sc.px({0.42f, 0.1f, 0.5f}), sc.px({0.5f, 0.1f, 0.5f}), sc.px({0.58f, 0.1f, 0.5f})};
    BrushSettings s;
    s.type = BrushType::Comb;
    s.radius_px = 30.0f;
    s.strength = 0.8f;
    auto st = apply_stroke(sc.guides, sc.target, sc.view, s, stroke);
    ASSERT_TRUE(st.ok()) << st.error().describe();
    size_t moved_right = 0, untouched = 0, reached = 0;
    double worst_len = 0.0;
    for (size_t i = 0; i < before.strand_count(); ++i) {
        float nearest = 1e9f;
        for (const glm::vec3& p : before.strand(i)) nearest = std::min(nearest, distance_to_polyline(sc.px(p), stroke));
        const auto l0 = segment_lengths(before, i), l1 = segment_lengths(sc.guides, i);
        for (size_t k = 0; k < l0.size(); ++k) worst_len = std::max(worst_len, std::abs(double(l1[k]) / double(l0[k]) - 1.0));
        EXPECT_EQ(sc.guides.strand(i)[0], before.strand(i)[0]) << "roots never move";
        if (nearest > s.radius_px) {
            EXPECT_TRUE(strand_identical(before, i, sc.guides, i)) << "strand " << i << " is " << nearest << " px from the stroke";
            ++untouched;
        } else if (nearest < 0.5f * s.radius_px && glm::length(sc.px(before.strand(i)[kN / 2]) - stroke.front()) > 1.5f * s.radius_px &&
                   glm::length(sc.px(before.strand(i)[kN / 2]) - stroke.back()) > 1.5f * s.radius_px) {
            // Well inside the stroke, not at its ends, where the brush only begins or stops.
            ++reached;
            const glm::vec3 tip0 = before.strand(i)[kN - 1], tip1 = sc.guides.strand(i)[kN - 1];
            // Combed to the right (+x on screen and in the object), hardly at all toward the camera.
            // A strand held at half its height by a brush a fifth of its length across: its upper half
            // turns (each segment keeps its length), the tip moves a few millimetres to the right.
            EXPECT_GT(tip1.x - tip0.x, 0.002f) << "strand " << i;
            EXPECT_GT(tip1.x - tip0.x, 3.0f * std::abs(tip1.z - tip0.z)) << "strand " << i;
            moved_right += tip1.x - tip0.x > 0.002f ? 1 : 0;
        }
    }
    EXPECT_GT(reached, 5u);
    EXPECT_EQ(moved_right, reached);
    EXPECT_GT(untouched, 30u);
    EXPECT_LE(worst_len, 1e-5) << "comb keeps every segment's length";
    EXPECT_EQ(st->strands_changed, before.strand_count() - untouched - (before.strand_count() - untouched - st->strands_changed));
    EXPECT_GE(st->strands_changed, reached);
}

TEST(Brush, CutEndsCrossedStrandsAtTheCrossingAndLeavesOthers) {
    PlaneScene sc;
    const Strands before = sc.guides;
    // A horizontal knife at height 0.08 m through the front row (z = 0.7) from x = 0.25 to 0.5 (on screen
    // the rows behind are higher: the camera looks down a little, so the knife crosses them lower or not).
    const float cut_y = 0.08f;
    const std::vector<glm::vec2> stroke = {sc.px({0.25f, cut_y, 0.7f}), sc.px({0.5f, cut_y, 0.7f})};
    BrushSettings s;
    s.type = BrushType::Cut;
    s.radius_px = 10.0f;
    auto st = apply_stroke(sc.guides, sc.target, sc.view, s, stroke);
    ASSERT_TRUE(st.ok()) << st.error().describe();
    size_t cut = 0;
    for (size_t i = 0; i < before.strand_count(); ++i) {
        const auto p0 = before.strand(i);
        // Where the strand's screen polyline crosses the knife, in metres from the root (the strand is
        // straight and vertical: the crossing's height).
        float crossing = -1.0f;
        for (size_t k = 1; k < p0.size() && crossing < 0.0f; ++k) {
            const glm::vec2 a = sc.px(p0[k - 1]), b = sc.px(p0[k]);
            const glm::vec2 r = b - a, q = stroke[1] - stroke[0], w = stroke[0] - a;
            const float den = r.x * q.y - r.y * q.x;
            const float t = (w.x * q.y - w.y * q.x) / den, u = (w.x * r.y - w.y * r.x) / den;
            if (t >= 0 && t <= 1 && u >= 0 && u <= 1) crossing = glm::mix(p0[k - 1].y, p0[k].y, t);
        }
        if (crossing < 0.0f) {
            EXPECT_TRUE(strand_identical(before, i, sc.guides, i)) << "strand " << i << " is not crossed";
            continue;
        }
        ++cut;
        const auto p1 = sc.guides.strand(i);
        const float seg = 0.2f / float(kN - 1);
        EXPECT_NEAR(p1[kN - 1].y, crossing, seg) << "strand " << i << " ends at the crossing";
        EXPECT_NEAR(float(strand_length_m(sc.guides, i)), crossing, seg);
        EXPECT_EQ(p1[0], p0[0]);
    }
    EXPECT_GE(cut, 4u);
    EXPECT_EQ(st->strands_changed, cut);
}

TEST(Brush, GrowShrinkPuffClumpSmoothActOnlyUnderTheBrush) {
    for (BrushType type : {BrushType::Grow, BrushType::Smooth, BrushType::Puff, BrushType::Clump}) {
        for (bool invert : {false, true}) {
            PlaneScene sc;
            if (type == BrushType::Smooth || type == BrushType::Puff) {
                // Zigzag strands leaning toward +x: something to smooth, something to lift.
                for (size_t i = 0; i < sc.guides.strand_count(); ++i) {
                    auto p = sc.guides.strand(i);
                    for (uint32_t k = 1; k < kN; ++k)
                        p[k] = p[0] + glm::vec3(0.012f * float(k) + ((k % 2) ? 0.004f : -0.004f), 0.004f * float(k), 0.0f);
                }
            }
            const Strands before = sc.guides;
            const glm::vec2 centre = sc.px({0.5f, type == BrushType::Puff ? 0.0f : 0.1f, 0.7f});
            const std::vector<glm::vec2> stroke = {centre, centre + glm::vec2(2.0f, 0.0f)};
            BrushSettings s;
            s.type = type;
            s.invert = invert;
            s.radius_px = 60.0f;
            s.strength = 1.0f;
            s.front_faces_only = false;
            auto st = apply_stroke(sc.guides, sc.target, sc.view, s, stroke);
            ASSERT_TRUE(st.ok()) << st.error().describe();
            EXPECT_GT(st->strands_changed, 0u) << brush_type_name(type) << (invert ? " inverted" : "");
            for (size_t i = 0; i < before.strand_count(); ++i) {
                float nearest = 1e9f;
                for (const glm::vec3& p : before.strand(i)) nearest = std::min(nearest, glm::length(sc.px(p) - centre) - 2.0f);
                if (nearest > s.radius_px) {
                    EXPECT_TRUE(strand_identical(before, i, sc.guides, i)) << brush_type_name(type) << " strand " << i;
                }
                EXPECT_EQ(sc.guides.strand(i)[0], before.strand(i)[0]);
                const double l0 = strand_length_m(before, i), l1 = strand_length_m(sc.guides, i);
                if (type == BrushType::Grow && nearest < 0.3f * s.radius_px) {
                    // Two dabs near full weight: about 10% each way.
                    if (invert) EXPECT_LT(l1, l0 * 0.9);
                    else EXPECT_GT(l1, l0 * 1.1);
                } else if (type == BrushType::Grow) {
                    if (invert) EXPECT_LE(l1, l0 * (1.0 + 1e-6));
                    else EXPECT_GE(l1, l0 * (1.0 - 1e-6));
                } else {
                    EXPECT_NEAR(l1, l0, 1e-5 * l0) << brush_type_name(type) << " keeps lengths";
                }
            }
            if (type == BrushType::Puff) {
                // The first segment of a strand at the brush centre turns toward the normal (+y) or away.
                size_t best = 0;
                float bd = 1e9f;
                for (size_t i = 0; i < before.strand_count(); ++i)
                    if (float d = glm::length(sc.px(before.strand(i)[0]) - centre); d < bd) bd = d, best = i;
                auto up = [&](const Strands& g) { return glm::normalize(g.strand(best)[1] - g.strand(best)[0]).y; };
                if (invert) EXPECT_LT(up(sc.guides), up(before) - 0.02f);
                else EXPECT_GT(up(sc.guides), up(before) + 0.1f);
            }
            if (type == BrushType::Smooth) {
                // Less zigzag: the summed turning angle of the strands under the centre drops.
                auto turning = [&](const Strands& g) {
                    double a = 0.0;
                    for (size_t i = 0; i < g.strand_count(); ++i) {
                        if (glm::length(sc.px(before.strand(i)[kN / 2]) - centre) > 20.0f) continue;
                        const auto p = g.strand(i);
                        for (size_t k = 2; k < p.size(); ++k)
                            a += std::acos(std::clamp(glm::dot(glm::normalize(p[k] - p[k - 1]), glm::normalize(p[k - 1] - p[k - 2])), -1.0f, 1.0f));
                    }
                    return a;
                };
                if (!invert) {
                    EXPECT_LT(turning(sc.guides), 0.8 * turning(before));
                }
            }
            if (type == BrushType::Clump) {
                // The points under the brush gather (or spread) on screen around the centre.
                double d0 = 0.0, d1 = 0.0;
                for (size_t i = 0; i < before.strand_count(); ++i)
                    for (uint32_t k = kN / 2; k < kN; ++k) {
                        if (glm::length(sc.px(before.strand(i)[k]) - centre) > 40.0f) continue;
                        d0 += glm::length(sc.px(before.strand(i)[k]) - centre);
                        d1 += glm::length(sc.px(sc.guides.strand(i)[k]) - centre);
                    }
                ASSERT_GT(d0, 0.0);
                if (invert) EXPECT_GT(d1, d0 * 1.05);
                else EXPECT_LT(d1, d0 * 0.95);
            }
        }
    }
}

TEST(Brush, AddGrowsGuidesUnderTheCursorAndDeleteRemovesOnlyThere) {
    PlaneScene sc;
    const size_t before_count = sc.guides.strand_count();
    const glm::vec2 centre = sc.px({0.85f, 0.0f, 0.5f});  // bare scalp right of the strands
    BrushSettings s;
    s.type = BrushType::Add;
    s.radius_px = 30.0f;
    s.strength = 1.0f;
    const std::vector<glm::vec2> stroke = {centre, centre + glm::vec2(0.0f, 40.0f)};
    auto st = apply_stroke(sc.guides, sc.target, sc.view, s, stroke);
    ASSERT_TRUE(st.ok()) << st.error().describe();
    ASSERT_GT(st->strands_added, 2u);
    ASSERT_EQ(sc.guides.strand_count(), before_count + st->strands_added);
    ASSERT_TRUE(sc.guides.consistent());
    for (size_t i = before_count; i < sc.guides.strand_count(); ++i) {
        const auto p = sc.guides.strand(i);
        ASSERT_EQ(p.size(), kN);
        EXPECT_NEAR(glm::length(p[0] - attachment_point(sc.mesh, sc.guides.roots[i])), 0.0f, 1e-6f) << "root on the scalp";
        EXPECT_LE(distance_to_polyline(sc.px(p[0]), stroke), s.radius_px) << "root under the brush";
        EXPECT_NEAR(strand_length_m(sc.guides, i), 0.2, 1e-4) << "grown with the group's length";
        EXPECT_GT(p[kN - 1].y, 0.19f) << "along the normal (+y)";
    }
    // Delete at full strength with a constant falloff: every strand whose root is under the brush, no other.
    const Strands full = sc.guides;
    const glm::vec2 at = sc.px({0.5f, 0.0f, 0.5f});
    BrushSettings d;
    d.type = BrushType::Delete;
    d.radius_px = 40.0f;
    d.strength = 1.0f;
    d.falloff = BrushFalloff::Constant;
    const std::vector<glm::vec2> dot = {at};
    auto dst = apply_stroke(sc.guides, sc.target, sc.view, d, dot);
    ASSERT_TRUE(dst.ok());
    size_t under = 0;
    for (size_t i = 0; i < full.strand_count(); ++i) under += glm::length(sc.px(full.strand(i)[0]) - at) < d.radius_px ? 1 : 0;
    EXPECT_GT(under, 2u);
    EXPECT_EQ(dst->strands_removed, under);
    EXPECT_EQ(sc.guides.strand_count(), full.strand_count() - under);
    for (size_t i = 0; i < sc.guides.strand_count(); ++i) EXPECT_GE(glm::length(sc.px(sc.guides.strand(i)[0]) - at), d.radius_px);
}

// A UV sphere of radius r about the origin, symmetric across x = 0 (longitude j and n - j mirror).
Mesh uv_sphere(float r, int rings, int segments) {
    Mesh m;
    for (int i = 0; i <= rings; ++i)
        for (int j = 0; j < segments; ++j) {
            const double th = 3.14159265358979 * double(i) / double(rings), ph = 2.0 * 3.14159265358979 * double(j) / double(segments);
            const double x = (j == 0 || 2 * j == segments) ? 0.0 : std::sin(th) * std::sin(ph);
            const glm::vec3 p(float(x), float(std::cos(th)), float(std::sin(th) * std::cos(ph)));
            m.positions.push_back(r * p);
            m.normals.push_back(p);
        }
    // Mirror exactly: vertex (i, segments - j) is (i, j) with x negated.
    for (int i = 0; i <= rings; ++i)
        for (int j = 1; 2 * j < segments; ++j) {
            const glm::vec3 a = m.positions[size_t(i * segments + j)];
            m.positions[size_t(i * segments + segments - j)] = glm::vec3(-a.x, a.y, a.z);
            m.normals[size_t(i * segments + segments - j)] = glm::vec3(-m.normals[size_t(i * segments + j)].x, m.normals[size_t(i * segments + j)].y, m.normals[size_t(i * segments + j)].z);
        }
    for (int i = 0; i < rings; ++i)
        for (int j = 0; j < segments; ++j) {
            const uint32_t a = uint32_t(i * segments + j), b = uint32_t(i * segments + (j + 1) % segments);
            const uint32_t c = a + uint32_t(segments), d = b + uint32_t(segments);
            m.indices.insert(m.indices.end(), {a, c, b, b, c, d});
        }
    return m;
}

// Strands over the upper front of a 0.1 m sphere, in mirror pairs: strand 2i at x < 0, 2i + 1 its image.
const Mesh& sphere_mesh() {
    static const Mesh m = uv_sphere(0.1f, 24, 32);
    return m;
}

const SdfGrid& sphere_field() {
    static const SdfGrid f = test::build_test_field(sphere_mesh(), 32, 0.5);
    return f;
}

struct SphereScene {
    const Mesh& mesh = sphere_mesh();
    Strands guides;
    const SdfGrid& field = sphere_field();
    BrushView view = BrushView::look_at({0.0f, 0.05f, 0.6f}, {0.0f, 0.02f, 0.0f}, {0.0f, 1.0f, 0.0f}, 35.0f, {800.0f, 800.0f});
    BrushTarget target;
    Growth growth;
    SphereScene() {
        std::vector<glm::vec3> roots;
        for (int a = 0; a < 8; ++a)
            for (int b = 0; b < 6; ++b) {
                const float th = 0.35f + 0.12f * float(b), ph = 0.12f + 0.13f * float(a);
                const glm::vec3 p = 0.1f * glm::vec3(-std::sin(th) * std::sin(ph), std::cos(th), std::sin(th) * std::cos(ph));
                roots.push_back(p);
                roots.push_back({-p.x, p.y, p.z});
            }
        TriangleBvh bvh(mesh.positions, mesh.indices);
        for (size_t i = 0; i < roots.size(); ++i) {
            const ClosestPoint c = bvh.closest(roots[i]);
            const ScalpAttachment at{c.triangle, c.barycentric};
            const glm::vec3 r = attachment_point(mesh, at);
            const glm::vec3 n = glm::normalize(r);
            // Out along the normal, then bent down and forward: a combed shape that lies near the surface.
            glm::vec3 p = r;
            for (uint32_t k = 0; k < kN; ++k) {
                if (k > 0) {
                    const float t = float(k) / float(kN - 1);
                    p += 0.012f * glm::normalize(n * (1.0f - t) + glm::vec3(0.0f, -1.0f, 0.4f) * t);
                }
                guides.points_os_m.push_back(p);
            }
            guides.strand_offsets.push_back(uint32_t(guides.points_os_m.size()));
            guides.roots.push_back(at);
            guides.seeds.push_back(uint32_t(i));
            guides.flags.push_back(0u);
        }
        // Make each odd strand the exact mirror of its even partner (roots included).
        for (size_t i = 0; i + 1 < guides.strand_count(); i += 2) {
            auto l = guides.strand(i);
            auto r = guides.strand(i + 1);
            for (uint32_t k = 0; k < kN; ++k) r[k] = glm::vec3(-l[k].x, l[k].y, l[k].z);
        }
        growth.vertices_per_strand = int(kN);
        growth.length_m = 0.15;
        growth.length_variation = 0.0;
        growth.comb = 0.5;
        growth.comb_direction = {0.0, -1.0, 0.3};
        target.scalp = &mesh;
        target.growth = &growth;
        target.colliders.push_back({&field, glm::mat4(1.0f), 0.004f});
        target.symmetry_plane_x = 0.0f;
    }
};

TEST(Brush, SymmetryGivesTheMirrorResultOnTheOtherSide) {
    for (BrushType type : {BrushType::Comb, BrushType::Smooth, BrushType::Grow, BrushType::Puff, BrushType::Clump, BrushType::Cut}) {
        SphereScene sc;
        const Strands before = sc.guides;
        // On the left half of the screen only (x < 0 seen from the front).
        std::vector<glm::vec2> stroke = {{300.0f, 330.0f}, {340.0f, 420.0f}, {330.0f, 500.0f}};
        if (type == BrushType::Cut) {
            // Across the left strands at about two thirds of their length, stopping short of the middle.
            float y = 0.0f, x0 = 400.0f;
            for (size_t i = 0; i < before.strand_count(); i += 2) {
                glm::vec2 q;
                float z;
                ASSERT_TRUE(sc.view.project(before.strand(i)[10], q, z));
                y += q.y / float(before.strand_count() / 2);
                x0 = std::min(x0, q.x);
            }
            stroke = {{x0 - 10.0f, y}, {395.0f, y}};
        }
        BrushSettings s;
        s.type = type;
        s.radius_px = 60.0f;
        s.strength = 0.7f;
        s.symmetry_x = true;
        auto st = apply_stroke(sc.guides, sc.target, sc.view, s, stroke);
        ASSERT_TRUE(st.ok()) << st.error().describe();
        size_t changed = 0;
        double worst = 0.0;
        for (size_t i = 0; i + 1 < sc.guides.strand_count(); i += 2) {
            changed += strand_identical(before, i, sc.guides, i) ? 0 : 1;
            const auto l = sc.guides.strand(i), r = sc.guides.strand(i + 1);
            for (uint32_t k = 0; k < kN; ++k) worst = std::max(worst, double(glm::length(r[k] - glm::vec3(-l[k].x, l[k].y, l[k].z))));
        }
        EXPECT_GT(changed, 3u) << brush_type_name(type);
        EXPECT_LE(worst, 1e-4) << brush_type_name(type) << ": the right side mirrors the left within 0.1 mm";
    }
}

TEST(Brush, SymmetricAddPutsTheMirroredGuideOnTheScalp) {
    SphereScene sc;
    const size_t n0 = sc.guides.strand_count();
    BrushSettings s;
    s.type = BrushType::Add;
    s.radius_px = 20.0f;
    s.strength = 1.0f;
    s.symmetry_x = true;
    const std::vector<glm::vec2> stroke = {{330.0f, 380.0f}, {330.0f, 440.0f}};
    auto st = apply_stroke(sc.guides, sc.target, sc.view, s, stroke);
    ASSERT_TRUE(st.ok()) << st.error().describe();
    ASSERT_GE(st->strands_added, 4u);
    EXPECT_EQ(st->strands_added % 2, 0u) << "one mirrored guide per added guide on a symmetric sphere";
    size_t left = 0, right = 0;
    for (size_t i = n0; i < sc.guides.strand_count(); ++i) {
        const glm::vec3 r = sc.guides.strand(i)[0];
        EXPECT_LE(glm::length(r - attachment_point(sc.mesh, sc.guides.roots[i])), 1e-6f);
        (r.x < 0.0f ? left : right) += 1;
    }
    EXPECT_EQ(left, right);
}

// 100 random strokes of every brush over the sphere with its field: no guide vertex ends deeper than 0.1
// x the margin inside the field, and every root stays where its attachment puts it on the scalp.
TEST(Brush, RandomStrokesOfEveryBrushKeepGuidesOutAndRootsOnTheScalp) {
    SphereScene sc;
    auto rng = groom_rng::item_rng(99, groom_rng::kStreamBrush, 0);
    const float margin = sc.target.colliders[0].margin_m;
    for (int i = 0; i < 100; ++i) {
        BrushSettings s;
        s.type = kAllBrushTypes[size_t(i) % 8];
        s.radius_px = 20.0f + 100.0f * rng.next_float();
        s.strength = rng.next_float();
        s.invert = rng.next_float() < 0.3f;
        s.symmetry_x = rng.next_float() < 0.5f;
        s.falloff = BrushFalloff(rng.next_u32() % 4);
        s.seed = uint32_t(i);
        std::vector<glm::vec2> stroke;
        glm::vec2 p(200.0f + 400.0f * rng.next_float(), 200.0f + 400.0f * rng.next_float());
        for (int k = 0; k < 6; ++k) {
            stroke.push_back(p);
            p += glm::vec2(rng.next_float() - 0.5f, rng.next_float() - 0.3f) * 80.0f;
        }
        auto st = apply_stroke(sc.guides, sc.target, sc.view, s, stroke);
        ASSERT_TRUE(st.ok()) << st.error().describe();
        ASSERT_TRUE(sc.guides.consistent());
        for (size_t g = 0; g < sc.guides.strand_count(); ++g) {
            const auto pts = sc.guides.strand(g);
            ASSERT_LE(glm::length(pts[0] - attachment_point(sc.mesh, sc.guides.roots[g])), 1e-6f) << "stroke " << i;
            for (size_t k = 1; k < pts.size(); ++k)
                ASSERT_GE(sc.field.sample_m(pts[k]), -0.1f * margin) << brush_type_name(s.type) << " stroke " << i << " strand " << g << " point " << k;
        }
    }
    EXPECT_GT(sc.guides.strand_count(), 10u);
}

// The viewport feeds a stroke a few points a frame: the result is the same, bit for bit, as the whole
// stroke at once, for every brush, with symmetry.
TEST(Brush, AStrokeFedPointByPointEqualsTheWholeStroke) {
    for (BrushType type : kAllBrushTypes) {
        SphereScene a, b;
        BrushSettings s;
        s.type = type;
        s.radius_px = 50.0f;
        s.strength = 0.6f;
        s.symmetry_x = true;
        std::vector<glm::vec2> stroke;
        for (int i = 0; i < 12; ++i) stroke.push_back({300.0f + 7.0f * float(i), 330.0f + 15.0f * float(i)});
        auto whole = apply_stroke(a.guides, a.target, a.view, s, stroke);
        ASSERT_TRUE(whole.ok()) << whole.error().describe();
        auto live = BrushStroke::begin(b.guides, b.target, b.view, s);
        ASSERT_TRUE(live.ok());
        for (size_t i = 0; i < stroke.size(); i += 3)
            ASSERT_TRUE((*live)->extend(std::span<const glm::vec2>(stroke).subspan(i, std::min<size_t>(3, stroke.size() - i))).ok());
        const StrokeStats st = (*live)->finish();
        EXPECT_TRUE(bit_identical(a.guides, b.guides)) << brush_type_name(type);
        EXPECT_EQ(st.dabs, whole->dabs);
        EXPECT_EQ(st.strands_changed, whole->strands_changed) << brush_type_name(type);
        EXPECT_GT(st.strands_changed + st.strands_added + st.strands_removed, 0u) << brush_type_name(type);
    }
}

TEST(Brush, BadSettingsAreRefusedByNameAndLeaveTheGuides) {
    PlaneScene sc;
    const Strands before = sc.guides;
    const std::vector<glm::vec2> stroke = {{400.0f, 300.0f}};
    auto expect_refused = [&](BrushSettings s, std::vector<glm::vec2> pts, const char* word) {
        auto st = apply_stroke(sc.guides, sc.target, sc.view, s, pts);
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.error().message.find(word), std::string::npos) << st.error().message;
        EXPECT_TRUE(bit_identical(sc.guides, before));
    };
    BrushSettings s;
    s.radius_px = 0.0f;
    expect_refused(s, stroke, "radius_px");
    s = {};
    s.strength = 1.5f;
    expect_refused(s, stroke, "strength");
    s = {};
    s.strength = std::nanf("");
    expect_refused(s, stroke, "strength");
    expect_refused({}, {glm::vec2(std::nanf(""), 0.0f)}, "not finite");
    expect_refused({}, {}, "at least one point");
    sc.target.growth = nullptr;
    s = {};
    s.type = BrushType::Add;
    expect_refused(s, stroke, "growth");
}

// Procedural combing along the scalp (growth.comb_space "surface") and partings (growth.part "plane"), on a
// 0.1 m sphere: what "world" combing gets wrong on a head is hair combed back that sticks out behind it and
// hair combed sideways that flares out like a wing.
GroomResult grow_on_sphere(const std::function<void(Growth&)>& set) {
    GroomInputs in;
    in.scalp = &sphere_mesh();
    in.group.scalp.region.type = RegionType::Whole;
    in.group.growth.guides = 400;
    in.group.growth.length_m = 0.1;
    in.group.growth.length_variation = 0.0;
    in.group.growth.vertices_per_strand = 16;
    in.group.growth.comb = 0.8;
    in.group.follow.mode = FollowMode::None;
    set(in.group.growth);
    auto r = grow_group(in);
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r.ok() ? std::move(*r) : GroomResult{};
}

// Mean cosine between each picked strand's first segment and the sphere's normal at its root: 1 sticks
// straight out, -1 grows straight in, about 0.24 leans over as comb 0.8 asks.
double mean_lean(const GroomResult& g, const std::function<bool(glm::vec3)>& pick) {
    double c = 0.0;
    size_t n = 0;
    for (size_t i = 0; i < g.guides.strand_count(); ++i) {
        const auto p = g.guides.strand(i);
        if (!pick(p[0])) continue;
        c += glm::dot(glm::normalize(p[1] - p[0]), glm::normalize(p[0]));
        ++n;
    }
    EXPECT_GT(n, 10u);
    return n ? c / double(n) : 0.0;
}

TEST(CombSpace, SurfaceCombingFollowsTheSkullWhereWorldCombingSticksOut) {
    for (glm::dvec3 comb : {glm::dvec3(0.0, 0.0, -1.0), glm::dvec3(1.0, 0.0, 0.0)}) {
        // Roots where that comb points nearly straight out of the sphere, and where straight into it.
        auto out = [&](glm::vec3 r) { return glm::dot(glm::normalize(glm::dvec3(r)), comb) > 0.8; };
        auto in = [&](glm::vec3 r) { return glm::dot(glm::normalize(glm::dvec3(r)), comb) < -0.8; };
        const GroomResult world = grow_on_sphere([&](Growth& g) { g.comb_direction = comb; });
        const GroomResult surface = grow_on_sphere([&](Growth& g) {
            g.comb_direction = comb;
            g.comb_space = CombSpace::Surface;
        });
        std::printf("comb (%g, %g, %g): first segments' cosine to the normal where it points out / in: world %.2f / %.2f, surface %.2f / %.2f\n",
                    comb.x, comb.y, comb.z, mean_lean(world, out), mean_lean(world, in), mean_lean(surface, out), mean_lean(surface, in));
        EXPECT_GT(mean_lean(world, out), 0.9) << "world combing sticks straight out";
        EXPECT_LT(mean_lean(world, in), -0.5) << "and grows into the head on the other side";
        // Along the surface everywhere: every strand leans over as far as comb 0.8 asks, outward.
        for (size_t i = 0; i < surface.guides.strand_count(); ++i) {
            const auto p = surface.guides.strand(i);
            const float c = glm::dot(glm::normalize(p[1] - p[0]), glm::normalize(p[0]));
            EXPECT_GT(c, 0.1f) << "strand " << i;
            EXPECT_LT(c, 0.4f) << "strand " << i;
        }
    }
}

TEST(CombSpace, APartingCombsEachSideAwayFromIt) {
    const GroomResult g = grow_on_sphere([](Growth& gr) {
        gr.part = PartMode::Plane;
        gr.part_point_m = glm::dvec3(0.02, 0.0, 0.0);
        gr.part_normal = glm::dvec3(1.0, 0.0, 0.0);
    });
    size_t right = 0, left = 0;
    for (size_t i = 0; i < g.guides.strand_count(); ++i) {
        const auto p = g.guides.strand(i);
        if (p[0].y < 0.03f) continue;  // the top of the head, where a parting shows
        const float dx = p[3].x - p[0].x;
        if (p[0].x > 0.025f) {
            EXPECT_GT(dx, 0.0f) << "strand " << i << " right of the part";
            ++right;
        } else if (p[0].x < 0.015f) {
            EXPECT_LT(dx, 0.0f) << "strand " << i << " left of the part";
            ++left;
        }
    }
    EXPECT_GT(right, 10u);
    EXPECT_GT(left, 10u);
}

// The part tool's geometry: the scalp point under a pixel, and the plane a line drawn on the scalp makes.
TEST(Brush, PickScalpAndPartPlane) {
    SphereScene sc;
    const glm::vec3 front(0.0f, 0.02f, 0.098f);  // about on the sphere, facing the camera
    glm::vec2 px;
    float z;
    ASSERT_TRUE(sc.view.project(front, px, z));
    auto hit = pick_scalp(sc.mesh, sc.view, px);
    ASSERT_TRUE(hit.has_value());
    EXPECT_LT(glm::length(hit->point_m - front), 0.003f) << "the near side of the sphere, under the pixel";
    EXPECT_GT(hit->normal.z, 0.9f);
    EXPECT_FALSE(pick_scalp(sc.mesh, sc.view, {5.0f, 5.0f}).has_value()) << "a corner of the view misses the sphere";
    // A line from the forehead over the top: a parting plane whose normal points sideways (x).
    glm::vec2 a, b;
    ASSERT_TRUE(sc.view.project({0.01f, 0.05f, 0.086f}, a, z));
    ASSERT_TRUE(sc.view.project({0.01f, 0.086f, 0.05f}, b, z));
    auto ha = pick_scalp(sc.mesh, sc.view, a), hb = pick_scalp(sc.mesh, sc.view, b);
    ASSERT_TRUE(ha && hb);
    auto plane = part_plane(*ha, *hb);
    ASSERT_TRUE(plane.has_value());
    EXPECT_GT(std::abs(plane->second.x), 0.95);
    // It holds the line and the surface normal along it (the parting runs across the scalp, not into it).
    EXPECT_NEAR(glm::dot(glm::dvec3(hb->point_m) - plane->first, plane->second), 0.0, 1e-6);
    EXPECT_NEAR(glm::dot(glm::normalize(glm::dvec3(ha->normal + hb->normal)), plane->second), 0.0, 1e-5);
    EXPECT_NEAR(plane->first.x, 0.01, 0.002);
    EXPECT_FALSE(part_plane(*ha, *ha).has_value());
}

Strands sample_guides() {
    PlaneScene sc;
    Strands g = sc.guides;
    g.flags[3] = kStrandMovedOut;
    g.points_os_m[17].x = std::nextafter(g.points_os_m[17].x, 1.0f);  // a value no decimal text keeps by accident
    return g;
}

TEST(GuidesFile, RoundTripsBitIdentically) {
    const Strands g = sample_guides();
    const auto dir = test::scratch_dir("guides_file");
    const auto path = dir / "crown.tguides";
    ASSERT_TRUE(save_guides_file(path, g, 200).ok());
    auto back = load_guides_file(path, 200);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_TRUE(bit_identical(*back, g));
    // Without widths and colours too.
    Strands bare = g;
    bare.widths_m.clear();
    bare.colors.clear();
    ASSERT_TRUE(save_guides_file(path, bare, 200).ok());
    back = load_guides_file(path, 200);
    ASSERT_TRUE(back.ok());
    EXPECT_TRUE(bit_identical(*back, bare));
    EXPECT_FALSE(bit_identical(*back, g));
}

TEST(GuidesFile, MissingTruncatedCorruptOrForeignFilesAreClearErrors) {
    const Strands g = sample_guides();
    const auto dir = test::scratch_dir("guides_file_bad");
    const auto path = dir / "crown.tguides";
    auto missing = load_guides_file(dir / "nowhere.tguides", 200);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("nowhere.tguides"), std::string::npos) << missing.error().message;

    const std::vector<uint8_t> bytes = encode_guides(g, 200);
    test::expect_damaged_files_refused(bytes, "crown.tguides", "not a Tressel guides file", 12 /* strand count */,
                                       [](const std::vector<uint8_t>& b) { return decode_guides(b, 200, "crown.tguides"); });
    auto other = decode_guides(bytes, 150, "crown.tguides");
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().message.find("150"), std::string::npos) << other.error().message;
    // A save that fails (the directory is a file) leaves the old file as it was.
    ASSERT_TRUE(save_guides_file(path, g, 200).ok());
    EXPECT_FALSE(save_guides_file(path / "inside", g, 200).ok());
    auto still = load_guides_file(path, 200);
    ASSERT_TRUE(still.ok());
    EXPECT_TRUE(bit_identical(*still, g));
}

}  // namespace
}  // namespace tressel
