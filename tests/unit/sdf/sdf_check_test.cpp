// The field's diagnosis (sdf/sdf_check.h): a cavity enclosed by a closed surface and a sign that flips with
// no surface read apart, and the mesh's open, non-manifold and mis-wound edges are found.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sdf/sdf.h"
#include "sdf/sdf_check.h"
#include "sdf/sdf_slice.h"
#include "test_meshes.h"
#include "test_fields.h"

namespace tressel {
namespace {

constexpr double kPi = 3.14159265358979323846;

SdfGrid build(const Mesh& mesh, int cells_x) { return test::build_test_field(mesh, cells_x, 0.2); }

// A ball of radius `outer` with a hollow of radius `inner`: the inner sphere faces inward, so the mesh is
// closed, manifold and consistently wound, and the hollow is outside.
Mesh hollow_ball(float outer, float inner) {
    Mesh m = test::make_icosphere(outer, 3);
    Mesh in = test::make_icosphere(inner, 3);
    const uint32_t base = uint32_t(m.positions.size());
    m.positions.insert(m.positions.end(), in.positions.begin(), in.positions.end());
    for (size_t t = 0; t + 2 < in.indices.size(); t += 3)
        m.indices.insert(m.indices.end(), {base + in.indices[t], base + in.indices[t + 2], base + in.indices[t + 1]});
    m.normals.clear();
    return m;
}

TEST(SdfCheck, ASolidBallIsClean) {
    const SdfGrid g = build(test::make_icosphere(0.2f, 3), 40);
    const SdfFieldCheck c = check_sdf_field(g);
    EXPECT_TRUE(c.clean()) << c.cavity_cells << " cavity cells, " << c.sign_jump_cells << " sign jumps";
    ASSERT_EQ(c.marks.size(), g.distance_m.size());
    const MeshEdgeProblems e = find_mesh_edge_problems(test::make_icosphere(0.2f, 3));
    EXPECT_EQ(e.total(), 0u);
    EXPECT_FALSE(e.inside_out);
}

TEST(SdfCheck, AHollowIsACavityNotASignError) {
    const float outer = 0.3f, inner = 0.15f;
    const SdfGrid g = build(hollow_ball(outer, inner), 48);
    const SdfFieldCheck c = check_sdf_field(g);
    EXPECT_EQ(c.cavity_regions, 1u);
    EXPECT_EQ(c.sign_jump_cells, 0u);
    // The hollow's cells: the volume of the inner ball over the cell volume (the icosphere is a little smaller).
    const double h = g.grid.cell_size_m;
    const double want = 4.0 / 3.0 * kPi * std::pow(double(inner), 3) / (h * h * h);
    EXPECT_NEAR(double(c.cavity_cells), want, 0.15 * want);
    // The centre is in the cavity, the space around the ball is not.
    const glm::ivec3 mid = g.grid.dims / 2;
    EXPECT_EQ(c.marks[g.index(mid.x, mid.y, mid.z)], kSdfCellCavity);
    EXPECT_EQ(c.marks[g.index(0, 0, 0)], kSdfCellOk);
    EXPECT_EQ(find_mesh_edge_problems(hollow_ball(outer, inner)).total(), 0u);

    // The slice through the centre carries the marks, and its image stripes the cavity.
    SdfSlice s = make_slice(g, SliceAxis::Z, 0.5, &c);
    ASSERT_EQ(s.marks.size(), s.values_m.size());
    size_t marked = 0;
    for (uint8_t m : s.marks) marked += m == kSdfCellCavity ? 1 : 0;
    const double disc = kPi * double(inner) * double(inner) / (h * h);
    EXPECT_NEAR(double(marked), disc, 0.2 * disc);
    // Half the marked cells are striped (stripes 4 pixels wide), toward the cavity's green.
    const SdfSlice plain = make_slice(g, SliceAxis::Z, 0.5);
    EXPECT_TRUE(plain.marks.empty());
    SliceStyle style;
    const std::vector<uint8_t> striped = slice_to_rgba(s, style), bare = slice_to_rgba(plain, style);
    ASSERT_EQ(striped.size(), bare.size());
    size_t changed = 0, greener = 0;
    for (size_t p = 0; p < striped.size(); p += 4)
        if (striped[p] != bare[p] || striped[p + 1] != bare[p + 1] || striped[p + 2] != bare[p + 2]) {
            ++changed;
            greener += striped[p + 1] > striped[p] && striped[p + 1] > striped[p + 2] ? 1 : 0;
        }
    EXPECT_GT(changed, size_t(0.3 * double(marked)));
    EXPECT_LT(changed, size_t(0.7 * double(marked)));
    EXPECT_EQ(greener, changed);
    EXPECT_TRUE(plain.marks.empty());
}

TEST(SdfCheck, ASignFlippedWithoutASurfaceIsASignJump) {
    // A solid ball whose field has a block of inside cells turned positive: an enclosed outside region like
    // the hollow's, but bordered by cells of opposite sign that are far from any surface.
    SdfGrid g = build(test::make_icosphere(0.3f, 3), 48);
    const glm::ivec3 mid = g.grid.dims / 2;
    uint64_t flipped = 0;
    for (int k = mid.z - 3; k <= mid.z + 3; ++k)
        for (int j = mid.y - 3; j <= mid.y + 3; ++j)
            for (int i = mid.x - 3; i <= mid.x + 3; ++i) {
                float& d = g.distance_m[g.index(i, j, k)];
                ASSERT_LT(d, -3.0f * float(g.grid.cell_size_m)) << "the block lies deep inside";
                d = -d;
                ++flipped;
            }
    const SdfFieldCheck c = check_sdf_field(g);
    EXPECT_EQ(c.cavity_regions, 0u);
    EXPECT_EQ(c.sign_jump_regions, 1u);
    // The block and the inside cells around it that face it.
    EXPECT_GE(c.sign_jump_cells, flipped);
    EXPECT_LE(c.sign_jump_cells, flipped + 6u * 49u);
    EXPECT_EQ(c.marks[g.index(mid.x, mid.y, mid.z)], kSdfCellSignJump);
    EXPECT_EQ(c.marks[g.index(mid.x - 4, mid.y, mid.z)], kSdfCellSignJump);
    EXPECT_EQ(c.marks[g.index(mid.x - 5, mid.y, mid.z)], kSdfCellOk);
}

TEST(SdfCheck, FindsOpenNonManifoldAndMisWoundEdges) {
    const Mesh ball = test::make_icosphere(0.2f, 2);
    // Open: one triangle taken away leaves its three edges with one user each.
    Mesh open = ball;
    open.indices.resize(open.indices.size() - 3);
    MeshEdgeProblems e = find_mesh_edge_problems(open);
    EXPECT_EQ(e.open, 3u);
    EXPECT_EQ(e.non_manifold + e.inconsistent, 0u);
    ASSERT_EQ(e.open_m.size(), 6u);
    for (const glm::vec3& p : e.open_m) EXPECT_NEAR(glm::length(p), 0.2f, 1e-4f) << "segment ends lie on the mesh";
    // Mis-wound: one triangle turned over disagrees with its three neighbours.
    Mesh flipped = ball;
    std::swap(flipped.indices[1], flipped.indices[2]);
    e = find_mesh_edge_problems(flipped);
    EXPECT_EQ(e.inconsistent, 3u);
    EXPECT_EQ(e.open + e.non_manifold, 0u);
    // Non-manifold: a fin on one edge gives it a third user, and the fin's two other edges are open.
    Mesh fin = ball;
    fin.positions.push_back(glm::vec3(0.0f, 0.0f, 1.0f));
    fin.indices.insert(fin.indices.end(), {ball.indices[0], ball.indices[1], uint32_t(fin.positions.size() - 1)});
    e = find_mesh_edge_problems(fin);
    EXPECT_EQ(e.non_manifold, 1u);
    EXPECT_EQ(e.open, 2u);
    // Inside out: every triangle turned over.
    Mesh inverted = ball;
    for (size_t t = 0; t + 2 < inverted.indices.size(); t += 3) std::swap(inverted.indices[t + 1], inverted.indices[t + 2]);
    e = find_mesh_edge_problems(inverted);
    EXPECT_TRUE(e.inside_out);
    EXPECT_EQ(e.total(), 0u);
    // The cap on segments drawn keeps the counts whole.
    e = find_mesh_edge_problems(open, 1);
    EXPECT_EQ(e.open, 3u);
    EXPECT_EQ(e.open_m.size(), 2u);
}

// How much of a mesh its field sees (check_sdf_coverage): a ball 10 cm across in 1 cm cells, all of it; a
// plate 6 mm thick (a flat ellipsoid, tilted so that no layer of nodes lies along it) beside it, most of it
// not in 2.2 cm cells (it reads as outside half a margin under its surface; so does part of the ball, whose
// curvature the cells smooth by more than a millimetre), and all but its rim in 2.75 mm cells (where the
// plate is thinner than the margin, the point half a margin in is out the other side).
TEST(SdfCheck, CoverageFindsThePartsThinnerThanACell) {
    const Mesh ball = test::make_icosphere(0.05f, 3);
    const SdfCoverage alone = check_sdf_coverage(build(ball, 10), ball, 0.002);
    EXPECT_GT(alone.samples, 1000u);
    EXPECT_EQ(alone.missed_samples, 0u);
    EXPECT_NEAR(alone.area_m2, 4.0 * kPi * 0.05 * 0.05, 0.002);

    Mesh plate = test::make_icosphere(1.0f, 3);
    const float c = std::cos(0.5f), s = std::sin(0.5f);
    for (glm::vec3& p : plate.positions) {
        p *= glm::vec3(0.05f, 0.003f, 0.05f);
        p = glm::vec3(p.x, c * p.y - s * p.z, s * p.y + c * p.z);   // tilted about x
        p = glm::vec3(c * p.x - s * p.y, s * p.x + c * p.y, p.z);   // and about z
        p += glm::vec3(0.12f, 0.0f, 0.0f);
    }
    Mesh both = ball;
    const uint32_t base = uint32_t(both.positions.size());
    both.positions.insert(both.positions.end(), plate.positions.begin(), plate.positions.end());
    for (uint32_t i : plate.indices) both.indices.push_back(base + i);
    both.normals.clear();
    const double plate_area = check_sdf_coverage(build(plate, 40), plate, 0.002).area_m2;
    const SdfCoverage coarse = check_sdf_coverage(build(both, 10), both, 0.002);
    const SdfCoverage fine = check_sdf_coverage(build(both, 80), both, 0.002);
    std::printf("plate %.1f cm^2 of %.1f: missed %.1f cm^2 in 2.2 cm cells, %.2f cm^2 in 2.75 mm cells (worst reading %.2f mm)\n",
                1e4 * plate_area, 1e4 * coarse.area_m2, 1e4 * coarse.missed_area_m2, 1e4 * fine.missed_area_m2, 1e3 * fine.worst_reading_m);
    EXPECT_GT(coarse.missed_area_m2, 0.8 * plate_area);
    EXPECT_GT(coarse.missed_share(), kSdfCoverageWarnShare);
    EXPECT_LT(fine.missed_area_m2, 0.15 * plate_area);
    EXPECT_LT(fine.missed_share(), kSdfCoverageWarnShare * 2.0);
    EXPECT_LT(fine.worst_reading_m, 0.001) << "nothing reads farther out than the depth it is in";
}

}  // namespace
}  // namespace tressel
