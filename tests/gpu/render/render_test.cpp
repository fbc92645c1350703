// Renderer behaviour on small synthetic inputs: ribbons face the camera, taper, root-to-tip colour,
// no leaks across resizes and model switches; Marschner lookup functions against their formulas.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_test.h"
#include "render/hair_data.h"
#include "render/marschner.h"
#include "render/render_bench.h"
#include "render/renderer.h"
#include "render_test_util.h"

namespace tressel {
namespace {

using namespace tressel::render;
constexpr double kPi = std::numbers::pi;

using test::srgb_to_linear;

class RenderTest : public test::GpuTest {
protected:
    static constexpr uint32_t kW = 240, kH = 240;

    // A straight vertical strand from y = -0.5 m (root) to 0.5 m (tip) at the origin.
    RenderStrands vertical_strand(uint32_t n = 32) {
        RenderStrands s;
        s.vertices_per_strand = n;
        for (uint32_t k = 0; k < n; ++k) s.positions_m.push_back(glm::vec4(0.0f, -0.5f + float(k) / float(n - 1), 0.0f, 1.0f));
        s.strand_info.push_back({1u, 0u});
        s.rest_lengths_m.assign(n, 1.0f / float(n - 1));
        s.bounds_min_m = glm::vec3(-0.05f, -0.5f, -0.05f);
        s.bounds_max_m = glm::vec3(0.05f, 0.5f, 0.05f);
        return s;
    }
    static Shading flat_shading(double radius_m) { return test::flat_shading(radius_m); }
    static FrameDesc unlit(double yaw, double pitch) { return test::unlit_frame(yaw, pitch); }
    static test::Rgba render(Renderer& r, const FrameDesc& f) { return test::render_image(r, f); }
    // Covered area in pixels: linear red summed (a white ribbon on black).
    static double area_px(const test::Rgba& img) {
        double a = 0.0;
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x) a += srgb_to_linear(img.at(x, y).r);
        return a;
    }
    static double row_width_px(const test::Rgba& img, int row) {
        double a = 0.0;
        for (int x = 0; x < img.width; ++x) a += srgb_to_linear(img.at(x, row).r);
        return a;
    }
    // Screen row of world point p.
    static int row_of(const FrameDesc& f, glm::vec3 p, uint32_t w, uint32_t h) {
        glm::vec4 c = f.camera.view_projection(double(w) / double(h)) * glm::vec4(p, 1.0f);
        return int(std::floor((c.y / c.w * 0.5f + 0.5f) * float(h)));
    }
    static double px_per_m(const FrameDesc& f, uint32_t h) {
        return h / (2.0 * f.camera.distance_m * std::tan(glm::radians(f.camera.fov_deg) * 0.5));
    }
};

TEST_F(RenderTest, RibbonsFaceTheCamera) {
    auto r = Renderer::create(device(), {kW, kH, 4, 64, 16});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    auto buffers = upload_strands(device(), vertical_strand(), "strand");
    ASSERT_TRUE(buffers.ok());
    const double radius = 0.02;
    ASSERT_TRUE((*r)->add_hair(buffers->desc(flat_shading(radius))).ok());
    FrameDesc side = unlit(0.0, 0.0);
    double expected = 1.0 * px_per_m(side, kH) * 2.0 * radius * px_per_m(side, kH);
    std::vector<double> areas;
    for (double yaw : {0.0, 35.0, 90.0, 150.0}) areas.push_back(area_px(render(**r, unlit(yaw, 0.0))));
    for (double a : areas) {
        EXPECT_NEAR(a, expected, expected * 0.1) << "a side view of the strand should cover length x width";
        EXPECT_NEAR(a, areas[0], areas[0] * 0.03) << "turning around the strand's axis must not change its coverage";
    }
    // Looking down the strand: only its end shows.
    double end_on = area_px(render(**r, unlit(0.0, 89.0)));
    EXPECT_LT(end_on, 0.1 * areas[0]);
    EXPECT_GT(end_on, 0.0);
}

TEST_F(RenderTest, TaperReachesTheTipWidth) {
    auto r = Renderer::create(device(), {kW, kH, 4, 64, 16});
    ASSERT_TRUE(r.ok());
    auto buffers = upload_strands(device(), vertical_strand(), "strand");
    ASSERT_TRUE(buffers.ok());
    Shading sh = flat_shading(0.03);
    sh.thin_tip = true;
    sh.fiber_ratio = 0.25;
    ASSERT_TRUE((*r)->add_hair(buffers->desc(sh)).ok());
    FrameDesc f = unlit(0.0, 0.0);
    test::Rgba img = render(**r, f);
    double ppm = px_per_m(f, kH);
    for (double s : {0.05, 0.5, 0.95}) {
        int row = row_of(f, glm::vec3(0.0f, float(-0.5 + s), 0.0f), kW, kH);
        double expected = 2.0 * 0.03 * (1.0 + (0.25 - 1.0) * s) * ppm;
        EXPECT_NEAR(row_width_px(img, row), expected, 0.6 + expected * 0.08) << "at s = " << s;
    }
    // Without thin_tip the ribbon keeps its width.
    sh.thin_tip = false;
    (*r)->set_hair_shading(0, sh);
    img = render(**r, f);
    int tip_row = row_of(f, glm::vec3(0.0f, 0.45f, 0.0f), kW, kH);
    EXPECT_NEAR(row_width_px(img, tip_row), 2.0 * 0.03 * ppm, 0.6 + 0.06 * ppm * 0.08);
}

TEST_F(RenderTest, ColoursInterpolateFromRootToTip) {
    auto r = Renderer::create(device(), {kW, kH, 4, 64, 16});
    ASSERT_TRUE(r.ok());
    auto buffers = upload_strands(device(), vertical_strand(), "strand");
    ASSERT_TRUE(buffers.ok());
    Shading sh = flat_shading(0.03);
    sh.root_color = glm::dvec3(1.0, 0.0, 0.0);
    sh.tip_color = glm::dvec3(0.0, 0.0, 1.0);
    sh.tip_percentage = 1.0;
    ASSERT_TRUE((*r)->add_hair(buffers->desc(sh)).ok());
    FrameDesc f = unlit(0.0, 0.0);
    auto check = [&](const test::Rgba& img, double s, double blend) {
        int row = row_of(f, glm::vec3(0.0f, float(-0.5 + s), 0.0f), kW, kH);
        glm::vec4 c = img.at(int(kW / 2), row);
        EXPECT_NEAR(srgb_to_linear(c.r), 1.0 - blend, 0.04) << "red at s = " << s;
        EXPECT_NEAR(srgb_to_linear(c.b), blend, 0.04) << "blue at s = " << s;
        EXPECT_NEAR(c.g, 0.0, 0.02);
    };
    test::Rgba img = render(**r, f);
    for (double s : {0.1, 0.5, 0.9}) check(img, s, s);
    // tip_percentage 0.5: root colour over the first half, blending over the second.
    sh.tip_percentage = 0.5;
    (*r)->set_hair_shading(0, sh);
    img = render(**r, f);
    check(img, 0.25, 0.0);
    check(img, 0.75, 0.5);
}

TEST_F(RenderTest, DebugStretchShowsStretchedSegments) {
    auto r = Renderer::create(device(), {kW, kH, 4, 64, 16});
    ASSERT_TRUE(r.ok());
    RenderStrands s = vertical_strand();
    // Rest lengths 10% above the current ones in the upper half: compressed there, neutral below.
    for (uint32_t k = 16; k < 32; ++k) s.rest_lengths_m[k] *= 1.1f;
    auto buffers = upload_strands(device(), s, "strand");
    ASSERT_TRUE(buffers.ok());
    ASSERT_TRUE((*r)->add_hair(buffers->desc(flat_shading(0.03))).ok());
    FrameDesc f = unlit(0.0, 0.0);
    f.debug = HairDebug::Stretch;
    test::Rgba img = render(**r, f);
    glm::vec4 low = img.at(int(kW / 2), row_of(f, glm::vec3(0.0f, -0.3f, 0.0f), kW, kH));
    glm::vec4 high = img.at(int(kW / 2), row_of(f, glm::vec3(0.0f, 0.3f, 0.0f), kW, kH));
    EXPECT_GT(low.r, 0.8f);
    EXPECT_GT(low.b, 0.8f);   // neutral: white
    EXPECT_LT(high.r, 0.6f);  // compressed: blue
    EXPECT_GT(high.b, 0.8f);
}

TEST_F(RenderTest, ResizingAndSwitchingModelsDoesNotLeak) {
    auto& dev = device();
    ASSERT_TRUE(dev.wait_idle().ok());
    dev.collect_garbage();  // objects retired by earlier tests
    int64_t start = dev.live_objects();
    {
        auto r = Renderer::create(dev, {96, 64, 4, 64, 16});
        ASSERT_TRUE(r.ok());
        RenderStrands s = synthetic_strands(200, 16, glm::vec3(0.0f), 0.2f, 0.4f);
        auto buffers = upload_strands(dev, s, "hair");
        ASSERT_TRUE(buffers.ok());
        Mesh ball = make_collider_mesh({"ball", ColliderType::Sphere, {0, 0, 0}, {0, 0, 0}, 0.19, 0.3, ""});
        ASSERT_TRUE((*r)->add_mesh(ball, MeshStyle::Opaque).ok());
        Shading sh;
        ASSERT_TRUE((*r)->add_hair(buffers->desc(sh)).ok());
        FrameDesc f = unlit(30.0, 20.0);
        f.shadows = true;
        render(**r, f);
        ASSERT_TRUE((*r)->resize(64, 48).ok());
        render(**r, f);
        EXPECT_EQ((*r)->lut_computations(), 0u);
        sh.model = ShadingModel::Marschner;
        (*r)->set_hair_shading(0, sh);
        render(**r, f);
        render(**r, f);
        EXPECT_EQ((*r)->lut_computations(), 1u) << "unchanged parameters must not recompute the LUTs";
        sh.alpha_r_deg = -5.0;
        (*r)->set_hair_shading(0, sh);
        render(**r, f);
        EXPECT_EQ((*r)->lut_computations(), 2u) << "a changed parameter must recompute the LUTs";
        sh.model = ShadingModel::KajiyaKay;
        (*r)->set_hair_shading(0, sh);
        ASSERT_TRUE((*r)->resize(80, 40).ok());
        render(**r, f);
        EXPECT_FALSE((*r)->resize(0, 10).ok());
    }
    ASSERT_TRUE(dev.wait_idle().ok());
    dev.collect_garbage();
    EXPECT_EQ(dev.live_objects(), start);
}

TEST_F(RenderTest, RejectsBadHairDescriptions) {
    auto r = Renderer::create(device(), {32, 32, 1, 64, 16});
    ASSERT_TRUE(r.ok());
    auto buffers = upload_strands(device(), vertical_strand(8), "strand");
    ASSERT_TRUE(buffers.ok());
    HairDesc d = buffers->desc(Shading{});
    d.strand_count = 2;  // the buffer holds one
    auto bad = (*r)->add_hair(d);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("positions"), std::string::npos);
    d = buffers->desc(Shading{});
    d.strand_info = nullptr;
    EXPECT_FALSE((*r)->add_hair(d).ok());
    EXPECT_FALSE(Renderer::create(device(), {0, 32}).ok());
}

TEST_F(RenderTest, HairRendererComesFromTheDescription) {
    auto buffers = upload_strands(device(), vertical_strand(), "strand");
    ASSERT_TRUE(buffers.ok());
    RendererDesc d{kW, kH, 4, 64, 16};
    d.hair_renderer = HairRenderer::Ribbons;
    auto r = Renderer::create(device(), d);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_TRUE((*r)->add_hair(buffers->desc(flat_shading(0.02))).ok());
    EXPECT_GT(area_px(render(**r, unlit(0.0, 0.0))), 100.0) << "the ribbon hair pass must draw the strand";
    d.hair_renderer = static_cast<HairRenderer>(99);
    auto bad = Renderer::create(device(), d);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(bad.error().message.find("hair_renderer"), std::string::npos) << bad.error().message;
}

TEST_F(RenderTest, BenchmarkReportsEveryPass) {
    RenderBenchDesc d;
    d.width = 64;
    d.height = 48;
    d.shadow_size = 64;
    d.strand_counts = {50, 120};
    d.vertices_per_strand = 8;
    d.frames = 2;
    d.warm_up_seconds = 0.0;  // two untimed frames
    auto runs = bench_render(device(), d);
    ASSERT_TRUE(runs.ok()) << runs.error().describe();
    // Kajiya-Kay for each count, Marschner for the first; compute rasterizer then ribbons.
    ASSERT_EQ(runs->size(), 6u);
    EXPECT_EQ((*runs)[1].model, "marschner");
    EXPECT_EQ((*runs)[2].strands, 120u);
    for (size_t i = 0; i < runs->size(); ++i) {
        const RenderBenchRun& r = (*runs)[i];
        std::vector<std::string> names;
        for (auto& p : r.passes) {
            names.push_back(p.name);
            EXPECT_GE(p.ms, 0.0);
        }
        if (i < 3) {
            EXPECT_EQ(r.renderer, "compute");
            EXPECT_EQ(names, (std::vector<std::string>{"shadow_depth", "shadow_opacity", "hair_bin", "hair_raster",
                                                       "meshes", "slice", "hair", "overlays"}));
        } else {
            EXPECT_EQ(r.renderer, "ribbons");
            EXPECT_EQ(names, (std::vector<std::string>{"shadow_depth", "shadow_opacity", "meshes", "slice", "hair", "overlays"}));
        }
        EXPECT_EQ(r.lod.strands_total, r.strands);
        EXPECT_GT(r.total_ms, 0.0);
    }
}

// ---------------------------------------------------------------------------------------------------
// Marschner LUTs against the formulas (CPU)

TEST(Marschner, LongitudinalLobesHaveUnitAreaAndSitAtTheirShifts) {
    MarschnerParams p;
    p.alpha_r_deg = -8.0;
    p.beta_r_deg = 6.0;
    double a = glm::radians(p.alpha_r_deg), b = glm::radians(p.beta_r_deg);
    // theta_o = theta_i means theta_h = theta_i; integrate each lobe over theta_h.
    double area[3] = {0, 0, 0};
    const int steps = 20000;
    double dh = kPi / steps;
    for (int i = 0; i < steps; ++i) {
        double th = -kPi / 2 + (i + 0.5) * dh;
        MarschnerM m = marschner_m(p, th, th);
        area[0] += m.r * dh;
        area[1] += m.tt * dh;
        area[2] += m.trt * dh;
    }
    for (double x : area) EXPECT_NEAR(x, 1.0, 1e-3);
    // Peaks: R at alpha, TT at -alpha / 2, TRT at -3 alpha / 2, heights 1 / (beta_p sqrt(2 pi)).
    EXPECT_NEAR(marschner_m(p, a, a).r, 1.0 / (b * std::sqrt(2 * kPi)), 1e-9);
    EXPECT_NEAR(marschner_m(p, -a / 2, -a / 2).tt, 1.0 / (b / 2 * std::sqrt(2 * kPi)), 1e-9);
    EXPECT_NEAR(marschner_m(p, -1.5 * a, -1.5 * a).trt, 1.0 / (2 * b * std::sqrt(2 * kPi)), 1e-9);
    for (double x : {0.02, 0.1, 0.3}) {
        EXPECT_NEAR(marschner_m(p, a + x, a + x).r, marschner_m(p, a - x, a - x).r, 1e-12);
        EXPECT_NEAR(marschner_m(p, 0.3, -0.1 + x).r, marschner_m(p, -0.1 + x, 0.3).r, 1e-12) << "M is reciprocal";
    }
    EXPECT_NEAR(marschner_m(p, a + b, a + b).r / marschner_m(p, a, a).r, std::exp(-0.5), 1e-9);
}

TEST(Marschner, AzimuthalReflectionMatchesTheClosedForm) {
    MarschnerParams p;
    for (double theta_d : {0.0, glm::radians(30.0)}) {
        double cd = std::cos(theta_d);
        for (double phi_deg : {0.0, 60.0, 120.0, 170.0}) {
            double phi = glm::radians(phi_deg);
            // R: h = -sin(phi / 2), N_R = F(cos theta_d cos(phi / 2)) cos(phi / 2) / 4.
            double c = std::cos(phi / 2);
            double expected = fresnel_dielectric(p.ior, cd * c) * c / 4.0;
            EXPECT_NEAR(marschner_n(p, phi, cd).r, expected, 1e-6 + 1e-3 * expected) << "phi " << phi_deg;
        }
    }
    // Fresnel at normal incidence: ((eta - 1) / (eta + 1))^2.
    EXPECT_NEAR(fresnel_dielectric(1.55, 1.0), std::pow(0.55 / 2.55, 2), 1e-12);
    EXPECT_NEAR(fresnel_dielectric(1.55, 0.0), 1.0, 1e-12);
}

TEST(Marschner, AzimuthalTermsAreEvenInPhi) {
    MarschnerParams p;
    for (double phi : {0.3, 1.1, 2.0, 2.9})
        for (double cd : {1.0, 0.8}) {
            MarschnerN a = marschner_n(p, phi, cd), b = marschner_n(p, -phi, cd);
            EXPECT_NEAR(a.r, b.r, 1e-9);
            for (int c = 0; c < 3; ++c) {
                EXPECT_NEAR(a.tt[c], b.tt[c], 1e-9);
                EXPECT_NEAR(a.trt[c], b.trt[c], 1e-9);
            }
        }
}

TEST(Marschner, AzimuthalEnergyEqualsTheAttenuationIntegral) {
    MarschnerParams p;
    for (double cd : {1.0, 0.85}) {
        // Integral of N_p over phi equals (1/2) integral of A(p, h) over h for paths without caustics.
        const int steps = 4000;
        double n_r = 0.0, n_tt = 0.0, a_r = 0.0, a_tt = 0.0;
        for (int i = 0; i < steps; ++i) {
            double phi = -kPi + (i + 0.5) * 2 * kPi / steps;
            MarschnerN n = marschner_n(p, phi, cd, 1024);
            n_r += n.r * 2 * kPi / steps;
            n_tt += n.tt.x * 2 * kPi / steps;
            double h = -1.0 + (i + 0.5) * 2.0 / steps;
            a_r += 0.5 * marschner_attenuation(p, 0, h, cd).x * 2.0 / steps;
            a_tt += 0.5 * marschner_attenuation(p, 1, h, cd).x * 2.0 / steps;
        }
        EXPECT_NEAR(n_r, a_r, 0.01 * a_r);
        EXPECT_NEAR(n_tt, a_tt, 0.02 * a_tt);
    }
    // Without absorption the three paths never return more than arrives (energy conservation).
    MarschnerParams clear = p;
    clear.absorption = glm::dvec3(0.0);
    for (double h : {-0.9, -0.4, 0.0, 0.5, 0.95}) {
        double total = 0.0;
        for (int path = 0; path < 3; ++path) total += marschner_attenuation(clear, path, h, 1.0).x;
        EXPECT_LE(total, 1.0 + 1e-12);
        EXPECT_GT(total, 0.0);
    }
    // Absorption darkens TT in proportion to its coefficient.
    glm::dvec3 tt = marschner_attenuation(p, 1, 0.0, 1.0);
    EXPECT_GT(tt.x, tt.y);
    EXPECT_GT(tt.y, tt.z);
}

TEST(Marschner, LookupTexturesHoldTheFunctionsAtTexelCentres) {
    MarschnerParams p;
    const int size = 16;
    MarschnerLuts l = compute_marschner_luts(p, size);
    ASSERT_EQ(l.m.size(), size_t(size * size));
    for (int v : {0, 5, 15})
        for (int u : {0, 7, 12}) {
            double si = (u + 0.5) / size * 2 - 1, so = (v + 0.5) / size * 2 - 1;
            MarschnerM m = marschner_m(p, std::asin(si), std::asin(so));
            glm::vec4 t = l.m[size_t(v) * size + u];
            EXPECT_NEAR(t.x, m.r, 1e-5 + 1e-5 * m.r);
            EXPECT_NEAR(t.z, m.trt, 1e-5 + 1e-5 * m.trt);
            EXPECT_NEAR(t.w, std::cos(0.5 * (std::asin(si) - std::asin(so))), 1e-6);
            double cd = (v + 0.5) / size;
            MarschnerN n = marschner_n(p, std::acos((u + 0.5) / size * 2 - 1), cd);
            EXPECT_NEAR(l.n[size_t(v) * size + u].w, n.r / (cd * cd), 1e-4 + 1e-5 * n.r / (cd * cd));
        }
    MarschnerParams shifted = p;
    shifted.alpha_r_deg = 5.0;
    EXPECT_NE(compute_marschner_luts(shifted, size).m[40].x, l.m[40].x);
}

}  // namespace
}  // namespace tressel
