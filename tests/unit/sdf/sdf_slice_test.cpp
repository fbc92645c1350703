#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include <stb_image.h>

#include "core/file_io.h"
#include "sdf/sdf.h"
#include "sdf/sdf_slice.h"
#include "test_meshes.h"
#include "test_paths.h"
#include "test_fields.h"

namespace tressel {
namespace {

SdfGrid sphere_grid(float radius_m, int cells_x) {
    static Mesh mesh = test::make_icosphere(radius_m, 3);
    return test::build_test_field(mesh, cells_x, 0.25);
}

TEST(SdfSlice, PicksThePlaneAndAxes) {
    SdfGrid g = sphere_grid(0.2f, 16);
    ASSERT_FALSE(g.distance_m.empty());
    const glm::ivec3 d = g.grid.dims;
    SdfSlice z = make_slice(g, SliceAxis::Z, 0.5);
    EXPECT_EQ(z.width, d.x);
    EXPECT_EQ(z.height, d.y);
    EXPECT_EQ(z.index, int(std::lround(0.5 * (d.z - 1))));
    EXPECT_FLOAT_EQ(z.values_m[size_t(3) * z.width + 5], g.at(5, 3, z.index));
    SdfSlice x = make_slice(g, SliceAxis::X, 0.0);
    EXPECT_EQ(x.index, 0);
    EXPECT_EQ(x.width, d.z);
    EXPECT_EQ(x.height, d.y);
    EXPECT_FLOAT_EQ(x.values_m[size_t(2) * x.width + 7], g.at(0, 2, 7));
    SdfSlice y = make_slice(g, SliceAxis::Y, 7.0);  // clamped to the last plane
    EXPECT_EQ(y.index, d.y - 1);
    EXPECT_EQ(y.width, d.x);
    EXPECT_EQ(y.height, d.z);
}

TEST(SdfSlice, ColoursContoursAndUnwrittenCells) {
    SdfGrid g = sphere_grid(0.2f, 16);
    ASSERT_FALSE(g.distance_m.empty());
    SdfSlice s = make_slice(g, SliceAxis::Z, 0.5);
    s.values_m[0] = std::numeric_limits<float>::infinity();  // pretend one corner cell is unwritten
    s.unwritten[0] = 1;
    SliceStyle style;
    style.upscale = 4;
    style.margin_m = 0.02;
    int w = 0, h = 0;
    auto rgba = slice_to_rgba(s, style, &w, &h);
    ASSERT_EQ(w, s.width * 4);
    ASSERT_EQ(h, s.height * 4);
    auto px = [&](int x, int y) { return glm::ivec3(rgba[(size_t(y) * w + x) * 4], rgba[(size_t(y) * w + x) * 4 + 1], rgba[(size_t(y) * w + x) * 4 + 2]); };
    // Centre (inside): blue dominates; corner-adjacent far cell (outside): red dominates.
    glm::ivec3 c = px(w / 2, h / 2);
    EXPECT_GT(c.z, c.x);
    glm::ivec3 o = px(w - 2, 2);
    EXPECT_GT(o.x, o.z);
    // Cell (0,0) is at the bottom-left of the image and flagged magenta.
    glm::ivec3 u = px(0, h - 1);
    EXPECT_GT(u.x, 100);
    EXPECT_LT(u.y, 30);
    EXPECT_GT(u.z, 100);
    // Along the middle row, black zero-contour pixels appear near the sphere radius on both sides, and
    // margin-coloured (yellow) pixels just outside them.
    int zero = 0, margin = 0;
    for (int x = 0; x < w; ++x) {
        glm::ivec3 p = px(x, h / 2);
        zero += p == glm::ivec3(0);
        margin += p == glm::ivec3(255, 217, 0);
    }
    EXPECT_GE(zero, 2);
    EXPECT_GE(margin, 2);
}

// Golden image: a Z slice through the coarse Stanford bunny (closed), compared per pixel with a stored
// PNG. Tolerance: a channel may differ by up to 24/255; at most 1% of pixels may exceed it (contour
// pixels move by one pixel under float differences between compilers).
TEST(SdfSliceGolden, CoarserBunnySliceMatchesGolden) {
    auto mesh = test::load_mesh(test::testdata("meshes/coarser_bunny.obj"));
    ASSERT_TRUE(mesh.ok()) << mesh.error().describe();
    SdfBuildDesc d;
    d.mesh = &*mesh;
    d.cells_x = 36;
    d.padding = 0.25;
    Diagnostics diag;
    auto r = build_sdf_cpu(d, diag);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    SdfSlice s = make_slice(*r, SliceAxis::Z, 0.5);
    SliceStyle style;
    style.upscale = 4;
    style.isoline_cells = 2;
    style.margin_m = 2.0 * r->grid.cell_size_m;
    int w = 0, h = 0;
    auto rgba = slice_to_rgba(s, style, &w, &h);
    ASSERT_LE(w, 320);
    ASSERT_LE(h, 240);
    auto out = test::scratch_dir("sdf_golden") / "coarser_bunny_z.png";
    ASSERT_TRUE(write_slice_png(out, s, style).ok());

    auto golden_path = test::source("tests/golden/sdf/coarser_bunny_z.png");
    if (std::getenv("TRESSEL_UPDATE_GOLDEN")) {
        ASSERT_TRUE(write_slice_png(golden_path, s, style).ok());
        GTEST_SKIP() << "golden image written to " << golden_path;
    }
    int gw = 0, gh = 0, gc = 0;
    stbi_uc* golden = stbi_load(golden_path.string().c_str(), &gw, &gh, &gc, 4);
    ASSERT_NE(golden, nullptr) << "missing golden " << golden_path << " (set TRESSEL_UPDATE_GOLDEN=1 to create it)";
    ASSERT_EQ(gw, w);
    ASSERT_EQ(gh, h);
    size_t differing = 0;
    for (size_t i = 0; i < size_t(w) * h; ++i) {
        int worst = 0;
        for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(int(golden[4 * i + k]) - int(rgba[4 * i + k])));
        differing += worst > 24 ? 1 : 0;
    }
    stbi_image_free(golden);
    EXPECT_LE(double(differing) / double(size_t(w) * h), 0.01) << differing << " pixels differ; output in " << out;
}

}  // namespace
}  // namespace tressel
