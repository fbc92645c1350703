// The compute hair rasterizer (HairRenderer::ComputeRaster) on small synthetic inputs, CPU driver with
// validation on: analytic coverage of one strand from 0.05 to 4 pixels wide, the same image whatever the
// strand order, depth against the meshes, coverage against a supersampled ribbon reference, level of
// detail keeping coverage and colour, and no resource growth across resizes and LOD switches.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_test.h"
#include "render/hair_data.h"
#include "render/renderer.h"
#include "render_test_util.h"

namespace tressel {
namespace {

using namespace tressel::render;

using test::srgb_to_linear;

class RasterTest : public test::GpuTest {
protected:
    // Straight strands in the z = depth plane from `a` to `b` (x, y metres), n vertices each.
    static void add_line(RenderStrands& s, glm::vec2 a, glm::vec2 b, float depth, uint32_t n, uint32_t seed) {
        s.vertices_per_strand = n;
        for (uint32_t k = 0; k < n; ++k) {
            glm::vec2 p = a + (b - a) * (float(k) / float(n - 1));
            s.positions_m.push_back(glm::vec4(p, depth, 1.0f));
            s.rest_lengths_m.push_back(glm::length(b - a) / float(n - 1));
        }
        s.strand_info.push_back({seed, seed});
        s.bounds_min_m = glm::min(s.bounds_min_m, glm::vec3(glm::min(a, b), depth) - 0.05f);
        s.bounds_max_m = glm::max(s.bounds_max_m, glm::vec3(glm::max(a, b), depth) + 0.05f);
    }
    static Shading flat(double radius_m, glm::dvec3 color = glm::dvec3(1.0), double opacity = 1.0) {
        return test::flat_shading(radius_m, color, opacity);
    }
    // Camera on +Z looking at the origin, unlit, every strand drawn (no level of detail).
    static FrameDesc unlit() {
        FrameDesc f = test::unlit_frame(0.0, 0.0);
        f.hair_lod = false;
        return f;
    }
    static double px_per_m(const FrameDesc& f, uint32_t h, double depth = 0.0) {
        return h / (2.0 * (f.camera.distance_m - depth) * std::tan(glm::radians(f.camera.fov_deg) * 0.5));
    }
    static test::Rgba render(Renderer& r, const FrameDesc& f) { return test::render_image(r, f); }
    std::unique_ptr<Renderer> renderer(uint32_t w, uint32_t h, HairRenderer which = HairRenderer::ComputeRaster,
                                       uint32_t samples = 1, RasterTileKernel kernel = RasterTileKernel::Auto) {
        RendererDesc d{w, h, samples, 64, 16};
        d.hair_renderer = which;
        d.raster_tile_kernel = kernel;
        auto r = Renderer::create(device(), d);
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
        return r.ok() ? std::move(*r) : nullptr;
    }
    // Linear coverage of each pixel (red channel of white hair on black).
    static std::vector<double> coverage(const test::Rgba& img) {
        std::vector<double> c(size_t(img.width) * img.height);
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x) c[size_t(y) * img.width + x] = srgb_to_linear(img.at(x, y).r);
        return c;
    }
    static double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }
    // Summed coverage (pixels) of one flat white strand `width_px` wide drawn alone by `r`.
    double strand_coverage(Renderer& r, const FrameDesc& f, const HairBuffers& strand, double width_px, double ppm) {
        r.clear_hair();
        EXPECT_TRUE(r.add_hair(strand.desc(flat(0.5 * width_px / ppm))).ok());
        double total = sum(coverage(render(r, f)));
        EXPECT_TRUE(device().wait_idle().ok());
        return total;
    }
};

TEST_F(RasterTest, OneStrandCoversWidthTimesLength) {
    const uint32_t W = 200, H = 200;
    auto r = renderer(W, H);
    ASSERT_TRUE(r);
    FrameDesc f = unlit();
    const double ppm = px_per_m(f, H);
    for (double angle_deg : {0.0, 17.0, 45.0, 71.0}) {
        double a = glm::radians(angle_deg);
        glm::vec2 dir(float(std::cos(a)), float(std::sin(a)));
        RenderStrands s;
        add_line(s, -0.5f * dir, 0.5f * dir, 0.0f, 16, 1);
        auto buffers = upload_strands(device(), s, "strand");
        ASSERT_TRUE(buffers.ok());
        for (double width_px : {0.05, 0.2, 1.0, 4.0}) {
            double expected = width_px * 1.0 * ppm;   // width x length, pixels
            double got = strand_coverage(*r, f, *buffers, width_px, ppm);
            EXPECT_NEAR(got, expected, 0.05 * expected)
                << "a strand " << width_px << " px wide at " << angle_deg << " degrees";
        }
    }
}

// Stable without a temporal filter: a fibre far below a pixel wide, moved across the pixel grid a tenth
// of a pixel at a time, keeps its total coverage (no shimmer), where point sampling or dithering would
// make it flicker between frames.
TEST_F(RasterTest, SubPixelMotionKeepsCoverage) {
    const uint32_t W = 160, H = 120;
    auto r = renderer(W, H);
    ASSERT_TRUE(r);
    FrameDesc f = unlit();
    const double ppm = px_per_m(f, H);
    const double width_px = 0.3;
    std::vector<double> totals;
    for (int step = 0; step < 10; ++step) {
        const float shift = float(0.1 * step / ppm);   // a tenth of a pixel, in metres
        const float a = glm::radians(7.0f);
        glm::vec2 dir(std::cos(a), std::sin(a)), off(shift * 0.6f, shift);
        RenderStrands s;
        add_line(s, -0.3f * dir + off, 0.3f * dir + off, 0.0f, 8, 1);
        auto buffers = upload_strands(device(), s, "strand");
        ASSERT_TRUE(buffers.ok());
        totals.push_back(strand_coverage(*r, f, *buffers, width_px, ppm));
    }
    const double expected = width_px * 0.6 * ppm;
    for (size_t i = 0; i < totals.size(); ++i)
        EXPECT_NEAR(totals[i], expected, 0.02 * expected) << "step " << i << " of a tenth of a pixel";
}

TEST_F(RasterTest, StrandOrderDoesNotChangeTheImage) {
    const uint32_t W = 128, H = 96;
    auto r = renderer(W, H, HairRenderer::ComputeRaster, 4);
    ASSERT_TRUE(r);
    // Crossing, overlapping translucent strands of different colours and depths.
    RenderStrands s = synthetic_strands(600, 16, glm::vec3(0.0f), 0.25f, 0.6f);
    Shading sh;
    sh.opacity = 0.7;
    sh.fiber_radius_m = 0.002;
    sh.color_variation = 0.4;
    sh.brightness_variation = 0.3;
    FrameDesc f = unlit();
    f.lighting.key.intensity = 1.0;   // lit, so colours vary along and across strands
    auto draw = [&](const RenderStrands& strands) {
        auto buffers = upload_strands(device(), strands, "hair");
        EXPECT_TRUE(buffers.ok());
        r->clear_hair();
        EXPECT_TRUE(r->add_hair(buffers->desc(sh)).ok());
        test::Rgba img = render(*r, f);
        EXPECT_TRUE(device().wait_idle().ok());
        return img;
    };
    auto permuted = [&](const std::vector<uint32_t>& order) {
        RenderStrands p = s;
        p.positions_m.clear();
        p.rest_lengths_m.clear();
        p.strand_info.clear();
        const uint32_t n = s.vertices_per_strand;
        for (uint32_t i : order) {
            p.positions_m.insert(p.positions_m.end(), s.positions_m.begin() + i * n, s.positions_m.begin() + (i + 1) * n);
            p.rest_lengths_m.insert(p.rest_lengths_m.end(), s.rest_lengths_m.begin() + i * n,
                                    s.rest_lengths_m.begin() + (i + 1) * n);
            p.strand_info.push_back(s.strand_info[i]);
        }
        return p;
    };
    test::Rgba base = draw(s);
    std::vector<uint32_t> order(s.strand_count());
    std::iota(order.begin(), order.end(), 0u);
    std::reverse(order.begin(), order.end());
    test::Rgba reversed = draw(permuted(order));
    std::mt19937 rng(7);
    std::shuffle(order.begin(), order.end(), rng);
    test::Rgba shuffled = draw(permuted(order));
    size_t hair = 0;
    for (size_t i = 0; i < base.pixels.size(); i += 4) hair += base.pixels[i] + base.pixels[i + 1] > 0;
    ASSERT_GT(hair, size_t(W * H / 8)) << "the groom should cover a good part of the frame";
    for (const test::Rgba* other : {&reversed, &shuffled}) {
        const int worst = test::max_channel_difference(base, *other);
        EXPECT_LE(worst, 2) << "reordering strands changed a pixel by " << worst << "/255";
    }
}

// The two tile kernels (shared memory for GPUs, texel reads without barriers for CPU drivers) run the same
// pixel code: one image. The preview blending (one fragment in depth order, the rest as the tail) keeps
// each pixel's coverage, since the tail keeps the exact optical depth, and changes only the colour's order.
TEST_F(RasterTest, TileKernelsAgreeAndThePreviewKeepsCoverage) {
    const uint32_t W = 128, H = 96;
    RenderStrands s = synthetic_strands(600, 16, glm::vec3(0.0f), 0.25f, 0.6f);
    auto buffers = upload_strands(device(), s, "hair");
    ASSERT_TRUE(buffers.ok());
    Shading lit;
    lit.opacity = 0.7;
    lit.fiber_radius_m = 0.002;
    lit.color_variation = 0.4;
    lit.brightness_variation = 0.3;
    FrameDesc f = unlit();
    f.lighting.key.intensity = 1.0;
    auto draw = [&](RasterTileKernel kernel, const Shading& sh, bool preview) {
        auto r = renderer(W, H, HairRenderer::ComputeRaster, 4, kernel);
        EXPECT_TRUE(r);
        if (!r) return test::Rgba{};
        EXPECT_TRUE(r->add_hair(buffers->desc(sh)).ok());
        FrameDesc g = f;
        g.hair_preview = preview;
        test::Rgba img = render(*r, g);
        EXPECT_TRUE(device().wait_idle().ok());
        return img;
    };
    auto worst = test::max_channel_difference;
    test::Rgba shared = draw(RasterTileKernel::Shared, lit, false);
    test::Rgba direct = draw(RasterTileKernel::Direct, lit, false);
    ASSERT_EQ(shared.pixels.size(), direct.pixels.size());
    size_t hair = 0;
    for (size_t i = 0; i < shared.pixels.size(); i += 4) hair += shared.pixels[i] + shared.pixels[i + 1] > 0;
    ASSERT_GT(hair, size_t(W * H / 8));
    EXPECT_LE(worst(shared, direct), 1) << "the two tile kernels drew different images";

    // Coverage: white unlit translucent hair on black, the preview against the full K-buffer, both kernels.
    Shading white = flat(0.002, glm::dvec3(1.0), 0.7);
    FrameDesc saved = f;
    f = unlit();
    for (RasterTileKernel kernel : {RasterTileKernel::Shared, RasterTileKernel::Direct}) {
        test::Rgba full = draw(kernel, white, false);
        test::Rgba preview = draw(kernel, white, true);
        EXPECT_LE(worst(full, preview), 1) << "the preview changed a pixel's coverage";
    }
    // Colour: the lit hair's mean colour moves by a few percent at most.
    f = saved;
    test::Rgba preview = draw(RasterTileKernel::Auto, lit, true);
    glm::dvec3 a(0.0), b(0.0);
    for (int y = 0; y < int(H); ++y)
        for (int x = 0; x < int(W); ++x) {
            glm::vec4 p = shared.at(x, y), q = preview.at(x, y);
            a += glm::dvec3(srgb_to_linear(p.r), srgb_to_linear(p.g), srgb_to_linear(p.b));
            b += glm::dvec3(srgb_to_linear(q.r), srgb_to_linear(q.g), srgb_to_linear(q.b));
        }
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(b[c], a[c], 0.05 * a[c]) << "channel " << c;
    EXPECT_GT(worst(shared, preview), 0) << "the preview should blend differently from the full K-buffer";
}

// FrameDesc::hair_moved false keeps the last shadow maps while nothing they depend on changed, and only then.
TEST_F(RasterTest, ShadowMapsAreKeptOnlyWhileTheHairIsStill) {
    const uint32_t W = 128, H = 96;
    auto r = renderer(W, H, HairRenderer::ComputeRaster, 1);
    ASSERT_TRUE(r);
    RenderStrands s = synthetic_strands(400, 16, glm::vec3(0.0f), 0.2f, 0.5f);
    auto buffers = upload_strands(device(), s, "hair");
    ASSERT_TRUE(buffers.ok());
    Shading sh;
    sh.fiber_radius_m = 0.002;
    sh.shadow_alpha = 0.6;
    ASSERT_TRUE(r->add_hair(buffers->desc(sh)).ok());
    FrameDesc f = unlit();
    f.lighting.key.intensity = 3.0;
    f.lighting.key.direction = glm::dvec3(0.3, -0.9, -0.3);
    f.shadows = true;
    auto draw = [&](bool moved) {
        FrameDesc g = f;
        g.hair_moved = moved;
        test::Rgba img = render(*r, g);
        EXPECT_TRUE(device().wait_idle().ok());
        return img;
    };
    auto differing = [](const test::Rgba& a, const test::Rgba& b) { return test::pixels_differing(a, b, 2); };
    draw(true);
    // The same buffer, new positions: shorter strands off to one side, within the old bounds, so the hair
    // shadows itself elsewhere. A frame claiming the hair is still shades it with the old maps.
    RenderStrands turned = synthetic_strands(400, 16, glm::vec3(0.08f, 0.0f, 0.0f), 0.15f, 0.3f);
    ASSERT_TRUE(device().upload(buffers->positions, turned.positions_m.data(),
                                turned.positions_m.size() * sizeof(glm::vec4)).ok());
    test::Rgba stale = draw(false);
    test::Rgba fresh = draw(true);
    EXPECT_GT(differing(stale, fresh), size_t(50)) << "hair_moved false should have kept the old shadow maps";
    EXPECT_EQ(differing(draw(false), fresh), size_t(0)) << "the maps just drawn should be kept as they are";
    // A change the maps depend on redraws them whatever hair_moved says: the fibres' opacity, the light.
    sh.shadow_alpha = 0.1;
    r->set_hair_shading(0, sh);
    test::Rgba lighter = draw(false);
    EXPECT_EQ(differing(lighter, draw(true)), size_t(0));
    EXPECT_GT(differing(lighter, fresh), size_t(50)) << "a lighter shadow_alpha should show";
    f.lighting.key.direction = glm::dvec3(-0.3, -0.9, 0.3);
    test::Rgba relit = draw(false);
    EXPECT_EQ(differing(relit, draw(true)), size_t(0));
}

TEST_F(RasterTest, MeshesHideHairBehindThem) {
    const uint32_t W = 96, H = 96;
    auto r = renderer(W, H);
    ASSERT_TRUE(r);
    // A grey quad at z = 0 over the left half of the view; a red strand in front (z = 0.2) and a green
    // one behind (z = -0.2), both horizontal across the whole view.
    Mesh quad;
    quad.positions = {{-1.0f, -1.0f, 0.0f}, {0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {-1.0f, 1.0f, 0.0f}};
    quad.normals.assign(4, glm::vec3(0.0f, 0.0f, 1.0f));
    quad.indices = {0, 1, 2, 0, 2, 3};
    ASSERT_TRUE(r->add_mesh(quad, MeshStyle::Opaque, glm::vec3(0.5f)).ok());
    RenderStrands front, back;
    add_line(front, {-2.0f, 0.15f}, {2.0f, 0.15f}, 0.2f, 16, 1);
    add_line(back, {-2.0f, -0.15f}, {2.0f, -0.15f}, -0.2f, 16, 2);
    auto fb = upload_strands(device(), front, "front");
    auto bb = upload_strands(device(), back, "back");
    ASSERT_TRUE(fb.ok() && bb.ok());
    ASSERT_TRUE(r->add_hair(fb->desc(flat(0.02, {1.0, 0.0, 0.0}))).ok());
    ASSERT_TRUE(r->add_hair(bb->desc(flat(0.02, {0.0, 1.0, 0.0}))).ok());
    FrameDesc f = unlit();
    test::Rgba img = render(*r, f);
    auto row_of = [&](float y, float z) {
        glm::vec4 c = f.camera.view_projection(double(W) / H) * glm::vec4(0.0f, y, z, 1.0f);
        return int(std::floor((c.y / c.w * 0.5f + 0.5f) * float(H)));
    };
    int front_row = row_of(0.15f, 0.2f), back_row = row_of(-0.15f, -0.2f);
    int left = W / 4, right = 3 * W / 4;
    // In front of the quad: drawn on both sides. Behind it: hidden on the left, drawn on the right.
    EXPECT_GT(img.at(left, front_row).r, 0.9f);
    EXPECT_GT(img.at(right, front_row).r, 0.9f);
    EXPECT_LT(img.at(left, back_row).g, 0.8f) << "hair behind the mesh must be hidden";
    EXPECT_NEAR(img.at(left, back_row).g, img.at(left, back_row).r, 0.05f) << "the quad's grey shows there";
    EXPECT_GT(img.at(right, back_row).g, 0.9f) << "hair beside the mesh must be drawn";
}

TEST_F(RasterTest, CoverageMatchesASupersampledRibbonReference) {
    const uint32_t W = 64, H = 64, S = 8;
    auto compute = renderer(W, H);
    auto ribbons = renderer(W * S, H * S, HairRenderer::Ribbons, 4);
    ASSERT_TRUE(compute && ribbons);
    FrameDesc f = unlit();
    const double ppm = px_per_m(f, H);
    // Three strands apart from each other, 0.3, 0.8 and 1.5 pixels wide at the low resolution.
    struct Case {
        glm::vec2 a, b;
        double width_px;
    } cases[] = {{{-0.6f, -0.5f}, {-0.2f, 0.6f}, 0.3}, {{0.0f, -0.6f}, {0.15f, 0.6f}, 0.8}, {{0.3f, 0.5f}, {0.65f, -0.4f}, 1.5}};
    std::vector<HairBuffers> keep;
    keep.reserve(std::size(cases));  // the renderers keep pointers to the buffers: no reallocation
    for (const Case& c : cases) {
        RenderStrands s;
        add_line(s, c.a, c.b, 0.0f, 8, 1);
        auto b = upload_strands(device(), s, "strand");
        ASSERT_TRUE(b.ok());
        keep.push_back(std::move(*b));
        ASSERT_TRUE(compute->add_hair(keep.back().desc(flat(0.5 * c.width_px / ppm))).ok());
        ASSERT_TRUE(ribbons->add_hair(keep.back().desc(flat(0.5 * c.width_px / ppm))).ok());
    }
    std::vector<double> low = coverage(render(*compute, f));
    std::vector<double> high = coverage(render(*ribbons, f));
    std::vector<double> reference(size_t(W) * H, 0.0);   // 8 x 8 box filter
    for (uint32_t y = 0; y < H * S; ++y)
        for (uint32_t x = 0; x < W * S; ++x) reference[(y / S) * W + x / S] += high[size_t(y) * W * S + x] / (S * S);
    double total_ref = sum(reference), total = sum(low), abs_err = 0.0;
    for (size_t i = 0; i < low.size(); ++i) abs_err += std::abs(low[i] - reference[i]);
    ASSERT_GT(total_ref, 10.0);
    EXPECT_NEAR(total, total_ref, 0.05 * total_ref) << "total coverage against the 8x supersampled ribbons";
    // Where the coverage sits: the per-pixel differences stay a small share of the coverage.
    EXPECT_LT(abs_err / total_ref, 0.25) << "per-pixel coverage differs from the reference by " << abs_err << " px";
}

TEST_F(RasterTest, LevelsOfDetailKeepCoverageAndColour) {
    const uint32_t W = 160, H = 120;
    auto r = renderer(W, H, HairRenderer::ComputeRaster, 4);
    ASSERT_TRUE(r);
    // The synthetic roots are a Fibonacci lattice, whose prefixes are caps of the head; a groom's strands
    // are ordered so that prefixes spread over the scalp (groom/follow.h), which a shuffle stands in for.
    RenderStrands lattice = synthetic_strands(8000, 16, glm::vec3(0.0f), 0.1f, 0.3f);
    RenderStrands s = lattice;
    {
        std::vector<uint32_t> order(lattice.strand_count());
        std::iota(order.begin(), order.end(), 0u);
        std::mt19937 rng(3);
        std::shuffle(order.begin(), order.end(), rng);
        const uint32_t n = lattice.vertices_per_strand;
        for (uint32_t i = 0; i < order.size(); ++i) {
            std::copy_n(lattice.positions_m.begin() + order[i] * n, n, s.positions_m.begin() + i * n);
            s.strand_info[i] = lattice.strand_info[order[i]];
        }
    }
    auto buffers = upload_strands(device(), s, "hair");
    ASSERT_TRUE(buffers.ok());
    Shading sh;
    sh.fiber_radius_m = 0.00005;   // far below a pixel: the case level of detail is for
    sh.shadows = false;
    ASSERT_TRUE(r->add_hair(buffers->desc(sh)).ok());
    FrameDesc f = unlit();
    f.camera.distance_m = 0.9;
    f.camera.target_m = glm::dvec3(0.0, -0.05, 0.0);
    auto measure = [&](double fraction, HairLodStats& lod) {
        f.hair_lod = fraction < 1.0;
        f.hair_lod_fraction = fraction;
        test::Rgba img = render(*r, f);
        lod = r->hair_lod();
        glm::dvec3 colour(0.0);
        double cover = 0.0;
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x) {
                glm::vec4 p = img.at(x, y);
                glm::dvec3 lin(srgb_to_linear(p.r), srgb_to_linear(p.g), srgb_to_linear(p.b));
                colour += lin;
                cover += std::max({lin.r, lin.g, lin.b});
            }
        return std::make_pair(cover, colour / std::max(cover, 1e-9));
    };
    HairLodStats lod;
    auto full = measure(1.0, lod);
    EXPECT_EQ(lod.strands_drawn, 8000u);
    ASSERT_GT(full.first, 50.0);
    for (double fraction : {0.5, 0.25, 0.125}) {
        auto level = measure(fraction, lod);
        EXPECT_EQ(lod.strands_drawn, uint64_t(std::ceil(8000 * fraction)));
        EXPECT_NEAR(lod.width_scale, 1.0 / fraction, 0.01);
        EXPECT_NEAR(level.first, full.first, 0.10 * full.first) << "coverage at " << fraction << " of the strands";
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(level.second[c], full.second[c], 0.10 * full.second[c]) << "mean colour at " << fraction;
    }
    // The automatic choice: these fibres are a tiny fraction of a pixel, so it draws fewer, wider strands.
    f.hair_lod = true;
    f.hair_lod_fraction = 0.0;
    render(*r, f);
    lod = r->hair_lod();
    EXPECT_LT(lod.strands_drawn, lod.strands_total);
    EXPECT_GT(lod.width_scale, 1.5);
    EXPECT_LE(lod.vertices_per_strand, 16u);
}

TEST_F(RasterTest, ResizingAndSwitchingLevelsDoesNotGrowResources) {
    auto& dev = device();
    ASSERT_TRUE(dev.wait_idle().ok());
    dev.collect_garbage();
    const int64_t start = dev.live_objects();
    {
        auto r = renderer(96, 64, HairRenderer::ComputeRaster, 4);
        ASSERT_TRUE(r);
        RenderStrands s = synthetic_strands(300, 16, glm::vec3(0.0f), 0.2f, 0.4f);
        auto buffers = upload_strands(dev, s, "hair");
        ASSERT_TRUE(buffers.ok());
        Shading sh;
        ASSERT_TRUE(r->add_hair(buffers->desc(sh)).ok());
        FrameDesc f = unlit();
        f.shadows = true;
        render(*r, f);
        ASSERT_TRUE(dev.wait_idle().ok());
        dev.collect_garbage();
        const int64_t running = dev.live_objects();
        for (int round = 0; round < 3; ++round) {
            ASSERT_TRUE(r->resize(64, 48).ok());
            f.hair_lod = true;
            f.hair_lod_fraction = 0.3;
            f.hair_preview = round % 2 == 0;   // the preview's tile pipeline is made once, with the other
            render(*r, f);
            sh.model = round % 2 ? ShadingModel::KajiyaKay : ShadingModel::Marschner;
            r->set_hair_shading(0, sh);
            ASSERT_TRUE(r->resize(96, 64).ok());
            f.hair_lod_fraction = 0.0;
            render(*r, f);
            ASSERT_TRUE(dev.wait_idle().ok());
            dev.collect_garbage();
            // Marschner textures appear once (the first switch); nothing else stays behind.
            EXPECT_LE(dev.live_objects(), running + 3) << "round " << round;
        }
    }
    ASSERT_TRUE(dev.wait_idle().ok());
    dev.collect_garbage();
    EXPECT_EQ(dev.live_objects(), start);
}

}  // namespace
}  // namespace tressel
