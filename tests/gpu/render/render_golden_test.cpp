// Golden images of the default scene (presets/scenes/default.json) at 320 x 240 on the CPU driver,
// compared with the per-image tolerances in tests/golden/render/tolerances.json. Set
// TRESSEL_UPDATE_GOLDENS=1 to rewrite the goldens (then look at every one before committing it).
// Every render is also written to the test's scratch directory for inspection.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpu_test.h"
#include "render/renderer.h"
#include "render_test_util.h"
#include "test_paths.h"

namespace tressel {
namespace {

using namespace tressel::render;

constexpr uint32_t kW = 320, kH = 240;

class RenderGolden : public test::GpuTest {
protected:
    void SetUp() override {
        test::GpuTest::SetUp();
        scene_ = &test::default_scene(device(), kW, kH);
        ASSERT_TRUE(scene_->runtime);
        runtime_ = scene_->runtime.get();
        ASSERT_GT(runtime_->renderer()->hair_count(), 0u);
        // Every test starts from the scene as shipped: rest pose, shading and view of the file.
        ASSERT_TRUE(runtime_->apply(scene_->scene).ok());
        runtime_->set_hair_visibility(true, true);
    }
    // The runtime's frame, framed on the meshes (as `tressel-cli render` frames it without --camera).
    FrameDesc populate(std::optional<SliceAxis> slice = std::nullopt, double slice_position = 0.5,
                       SliceSource slice_of = SliceSource::Field) {
        Scene s = scene_->scene;
        s.view.show_slice = slice.has_value();
        if (slice) {
            s.view.slice_axis = *slice;
            s.view.slice_position = slice_position;
            s.view.slice_of = slice_of;
        }
        Status st = runtime_->apply(s);
        EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().describe());
        EXPECT_FALSE(runtime_->report().rebuilt_anything()) << runtime_->report().summary();
        return runtime_->frame_desc(/*frame_on_meshes=*/true);
    }
    void set_model(ShadingModel model) {
        Scene s = scene_->scene;
        for (HairGroup& g : s.hair_groups) g.shading.model = model;
        ASSERT_TRUE(runtime_->apply(s).ok());
        EXPECT_TRUE(runtime_->report().shading);
        EXPECT_FALSE(runtime_->report().rebuilt_anything()) << runtime_->report().summary();
    }
    test::Rgba render(const FrameDesc& f, const std::string& name) {
        auto px = runtime_->render_to_rgba(f);
        EXPECT_TRUE(px.ok()) << (px.ok() ? "" : px.error().describe());
        test::Rgba img;
        img.width = kW;
        img.height = kH;
        if (px.ok()) img.pixels = std::move(*px);
        static const auto dir = test::scratch_dir("render_golden");
        test::write_png(dir / (name + ".png"), img);
        return img;
    }
    // Compares with tests/golden/render/<name>.png under the tolerances file's entry for it.
    void expect_matches_golden(const test::Rgba& img, const std::string& name) {
        auto golden_path = test::source("tests/golden/render/" + name + ".png");
        if (const char* u = std::getenv("TRESSEL_UPDATE_GOLDENS"); u && std::string(u) == "1") {
            ASSERT_TRUE(test::write_png(golden_path, img));
            return;
        }
        std::ifstream tf(test::source("tests/golden/render/tolerances.json"));
        ASSERT_TRUE(tf.good()) << "tests/golden/render/tolerances.json is missing";
        nlohmann::json tol = nlohmann::json::parse(tf);
        ASSERT_TRUE(tol.contains(name + ".png")) << "no tolerance entry for " << name;
        int pixel_tol = tol[name + ".png"].at("pixel_tolerance").get<int>();
        double max_fraction = tol[name + ".png"].at("max_fraction").get<double>();
        test::Rgba golden;
        ASSERT_TRUE(test::read_png(golden_path, golden)) << "cannot read " << golden_path;
        ASSERT_EQ(golden.width, img.width);
        ASSERT_EQ(golden.height, img.height);
        size_t differing = 0;
        for (size_t i = 0; i < img.pixels.size(); i += 4) {
            int d = 0;
            for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(img.pixels[i + c]) - int(golden.pixels[i + c])));
            if (d > pixel_tol) ++differing;
        }
        double fraction = double(differing) / double(img.width * img.height);
        EXPECT_LE(fraction, max_fraction) << name << ": " << differing << " pixels differ by more than " << pixel_tol;
    }
    static double luminance(const test::Rgba& img, size_t pixel) {
        const uint8_t* p = &img.pixels[pixel * 4];
        return (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0;
    }

    test::DefaultScene* scene_ = nullptr;
    runtime::SceneRuntime* runtime_ = nullptr;
};

TEST_F(RenderGolden, DefaultSceneKajiyaKay) {
    FrameDesc f = populate();
    expect_matches_golden(render(f, "default_kajiya_kay"), "default_kajiya_kay");
}

TEST_F(RenderGolden, DefaultSceneMarschner) {
    FrameDesc f = populate();
    set_model(ShadingModel::Marschner);
    test::Rgba m = render(f, "default_marschner");
    expect_matches_golden(m, "default_marschner");
    // The model visibly changes the hair.
    set_model(ShadingModel::KajiyaKay);
    test::Rgba k = render(f, "default_kajiya_kay_again");
    // Hair pixels: where hiding the hair changes the image; the model must change a good share of them.
    runtime_->set_hair_visibility(false, false);
    test::Rgba bare = render(f, "no_hair_marschner");
    runtime_->set_hair_visibility(true, true);
    size_t hair = 0, changed = 0;
    for (size_t i = 0; i < m.pixels.size() / 4; ++i) {
        if (std::abs(luminance(k, i) - luminance(bare, i)) < 0.02) continue;
        ++hair;
        if (std::abs(luminance(m, i) - luminance(k, i)) > 0.05) ++changed;
    }
    ASSERT_GT(hair, size_t(kW * kH / 50));
    EXPECT_GT(double(changed) / double(hair), 0.15) << "switching the model must visibly change the hair";
}

TEST_F(RenderGolden, ShadowsDarkenOverlappingHair) {
    FrameDesc f = populate();
    test::Rgba on = render(f, "shadows_on");
    f.shadows = false;
    test::Rgba off = render(f, "default_no_shadows");
    expect_matches_golden(off, "default_no_shadows");
    // Hair pixels: where hiding the hair changes the image.
    runtime_->set_hair_visibility(false, false);
    test::Rgba bare = render(f, "no_hair");
    size_t hair = 0, darker = 0;
    double sum_on = 0.0, sum_off = 0.0;
    for (size_t i = 0; i < on.pixels.size() / 4; ++i) {
        if (std::abs(luminance(off, i) - luminance(bare, i)) < 0.02) continue;
        ++hair;
        sum_on += luminance(on, i);
        sum_off += luminance(off, i);
        if (luminance(on, i) < 0.85 * luminance(off, i)) ++darker;
    }
    ASSERT_GT(hair, size_t(kW * kH / 50)) << "the default scene's hair should cover a good part of the frame";
    EXPECT_GT(double(darker) / double(hair), 0.25) << "self-shadowing should darken much of the hair";
    // The compute rasterizer shades per strand vertex, so the transmittance is the fibre's, not spread over
    // a widened ribbon: about 14% darker on average over the hair pixels (16% with ribbons).
    EXPECT_LT(sum_on, 0.88 * sum_off);
    size_t brighter = 0;
    for (size_t i = 0; i < on.pixels.size() / 4; ++i) brighter += luminance(on, i) > luminance(off, i) + 0.03;
    EXPECT_EQ(brighter, 0u) << "shadows must never brighten a pixel";
}

TEST_F(RenderGolden, SdfSliceView) {
    ASSERT_FALSE(runtime_->content()->sdfs.empty());
    FrameDesc f = populate(SliceAxis::X, 0.5);
    ASSERT_TRUE(f.show_slice);
    f.camera.yaw_deg = 70.0;
    runtime_->set_hair_visibility(false, false);
    expect_matches_golden(render(f, "sdf_slice"), "sdf_slice");
}

// The slice plane hides the hair behind it and the hair on the camera's side is drawn over it. Seen from
// +x: a plane at the grid's far side (behind all the hair) shows the hair over it, and one at the near side
// (in front of it all) hides it, inside the plane's rectangle. A density slice at the near side of its grid
// cuts only air, drawn at a quarter opacity: the hair behind it is seen through it (the plane's depth
// written over its whole rectangle hid it).
TEST_F(RenderGolden, HairOnTheCameraSideOfTheSliceIsDrawnOverIt) {
    auto frame = [&](double position, SliceSource of = SliceSource::Field) {
        FrameDesc f = populate(SliceAxis::X, position, of);
        f.camera.yaw_deg = 90.0;
        f.camera.pitch_deg = 0.0;
        f.show_grid = false;
        f.shadows = false;  // the hair's shadow on the head would show through the plane's 10% transparency
        return f;
    };
    // The plane's rectangle on screen, 3 pixels in from its edges.
    auto rectangle = [&](const FrameDesc& f) {
        const glm::mat4 vp = f.camera.view_projection(double(kW) / double(kH));
        glm::vec2 lo(1e9f), hi(-1e9f);
        for (const glm::vec3& c : runtime_->slice().corners_m) {
            const glm::vec4 clip = vp * glm::vec4(c, 1.0f);
            const glm::vec2 px((clip.x / clip.w * 0.5f + 0.5f) * float(kW), (clip.y / clip.w * 0.5f + 0.5f) * float(kH));
            lo = glm::min(lo, px), hi = glm::max(hi, px);
        }
        return std::pair(glm::max(glm::ivec2(lo) + 3, glm::ivec2(0)), glm::min(glm::ivec2(hi) - 3, glm::ivec2(kW - 1, kH - 1)));
    };
    auto differing = [&](const test::Rgba& a, const test::Rgba& b, std::pair<glm::ivec2, glm::ivec2> r, size_t* total) {
        size_t n = 0;
        *total = 0;
        for (int y = r.first.y; y <= r.second.y; ++y)
            for (int x = r.first.x; x <= r.second.x; ++x) {
                const size_t i = (size_t(y) * kW + size_t(x)) * 4;
                int d = 0;
                for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a.pixels[i + c]) - int(b.pixels[i + c])));
                n += d > 8 ? 1 : 0;
                ++*total;
            }
        return n;
    };
    for (double position : {0.0, 1.0}) {
        const FrameDesc f = frame(position);
        const auto r = rectangle(f);
        const test::Rgba with_hair = render(f, position == 0.0 ? "slice_behind_hair" : "slice_before_hair");
        runtime_->set_hair_visibility(false, false);
        const test::Rgba bare = render(f, position == 0.0 ? "slice_behind_hair_bare" : "slice_before_hair_bare");
        runtime_->set_hair_visibility(true, true);
        size_t total = 0;
        const size_t hair = differing(with_hair, bare, r, &total);
        ASSERT_GT(total, 1000u) << "the plane covers part of the view";
        std::printf("plane at %.0f: hair changes %zu of the plane's %zu pixels\n", position, hair, total);
        if (position == 0.0) EXPECT_GT(hair, total / 10) << "hair in front of the plane is drawn over it";
        else EXPECT_EQ(hair, 0u) << "hair behind the plane is hidden by it";
    }
    const FrameDesc f = frame(1.0, SliceSource::HairDensity);
    ASSERT_TRUE(runtime_->slice().density);
    const auto r = rectangle(f);
    const test::Rgba with_hair = render(f, "density_slice_before_hair");
    runtime_->set_hair_visibility(false, false);
    const test::Rgba bare = render(f, "density_slice_before_hair_bare");
    runtime_->set_hair_visibility(true, true);
    size_t total = 0;
    const size_t hair = differing(with_hair, bare, r, &total);
    ASSERT_GT(total, 1000u) << "the plane covers part of the view";
    std::printf("density slice in front of the hair: hair changes %zu of the plane's %zu pixels\n", hair, total);
    EXPECT_GT(hair, total / 10) << "the hair behind the density slice's air is seen through it";
}

TEST_F(RenderGolden, DebugGuideColouring) {
    FrameDesc f = populate();
    f.debug = HairDebug::Guide;
    expect_matches_golden(render(f, "debug_guide"), "debug_guide");
}

// Named level-of-detail levels of the compute rasterizer: half and a quarter of the strands, widened to
// keep coverage (RasterTest checks the coverage statistically; these pin the look).
TEST_F(RenderGolden, LevelsOfDetail) {
    FrameDesc f = populate();
    for (double fraction : {0.5, 0.25}) {
        f.hair_lod_fraction = fraction;
        const std::string name = fraction == 0.5 ? "lod_half" : "lod_quarter";
        test::Rgba img = render(f, name);
        HairLodStats lod = runtime_->renderer()->hair_lod();
        EXPECT_LT(lod.strands_drawn, lod.strands_total);
        expect_matches_golden(img, name);
    }
}

TEST_F(RenderGolden, SameImageOnEveryRun) {
    FrameDesc f = populate();
    test::Rgba a = render(f, "repeat_a");
    test::Rgba b = render(f, "repeat_b");
    EXPECT_TRUE(a.pixels == b.pixels);
}

}  // namespace
}  // namespace tressel
