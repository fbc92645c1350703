#include "render_test_util.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include <gtest/gtest.h>
#include <stb_image.h>

#include "core/file_io.h"
#include "scene/scene_io.h"
#include "sdf/sdf_slice.h"
#include "test_paths.h"

namespace tressel::test {

bool write_png(const std::filesystem::path& path, const Rgba& image) {
    auto png = encode_png_rgba(image.pixels, image.width, image.height);
    if (!png) return false;
    return write_file_atomic(path, std::span<const uint8_t>(*png)).ok();
}

float srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }

Shading flat_shading(double radius_m, glm::dvec3 color, double opacity) {
    Shading sh;
    sh.root_color = sh.tip_color = color;
    sh.color_variation = sh.brightness_variation = 0.0;
    sh.thin_tip = false;
    sh.fiber_radius_m = radius_m;
    sh.shadows = false;
    sh.opacity = opacity;
    return sh;
}

render::FrameDesc unlit_frame(double yaw_deg, double pitch_deg) {
    render::FrameDesc f;
    f.camera.target_m = glm::dvec3(0.0);
    f.camera.yaw_deg = yaw_deg;
    f.camera.pitch_deg = pitch_deg;
    f.camera.distance_m = 2.0;
    f.camera.fov_deg = 40.0;
    f.lighting.key.intensity = 0.0;
    f.lighting.fill.intensity = 0.0;
    f.lighting.ambient = glm::dvec3(1.0);
    f.shadows = false;
    f.show_grid = false;
    f.background = glm::vec3(0.0f);
    return f;
}

Rgba render_image(render::Renderer& renderer, const render::FrameDesc& frame) {
    auto px = renderer.render_to_rgba(frame);
    EXPECT_TRUE(px.ok()) << (px.ok() ? "" : px.error().describe());
    Rgba img;
    img.width = int(renderer.width());
    img.height = int(renderer.height());
    if (px.ok()) img.pixels = std::move(*px);
    return img;
}

int max_channel_difference(const Rgba& a, const Rgba& b) {
    if (a.pixels.size() != b.pixels.size()) return 255;
    int worst = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) worst = std::max(worst, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
    return worst;
}

size_t pixels_differing(const Rgba& a, const Rgba& b, int tolerance) {
    if (a.pixels.size() != b.pixels.size()) return std::max(a.pixels.size(), b.pixels.size()) / 4;
    size_t n = 0;
    for (size_t i = 0; i + 3 < a.pixels.size(); i += 4) {
        bool differs = false;
        for (size_t c = 0; c < 4; ++c) differs |= std::abs(int(a.pixels[i + c]) - int(b.pixels[i + c])) > tolerance;
        n += differs;
    }
    return n;
}

bool read_png(const std::filesystem::path& path, Rgba& image) {
    auto bytes = read_file_bytes(path);
    if (!bytes) return false;
    int w = 0, h = 0, c = 0;
    uint8_t* data = stbi_load_from_memory(bytes->data(), int(bytes->size()), &w, &h, &c, 4);
    if (!data) return false;
    image.width = w;
    image.height = h;
    image.pixels.assign(data, data + size_t(w) * h * 4);
    stbi_image_free(data);
    return true;
}

namespace {
std::unique_ptr<DefaultScene> cached;
// GPU buffers must go before main() destroys the device.
class ReleaseScene : public ::testing::Environment {
public:
    void TearDown() override { cached.reset(); }
};
[[maybe_unused]] ::testing::Environment* const release_env = ::testing::AddGlobalTestEnvironment(new ReleaseScene);
}  // namespace

DefaultScene& default_scene(gpu::Device& device, uint32_t width, uint32_t height) {
    if (!cached) {
        auto loaded = load_scene(source("presets/scenes/default.json"));
        if (!loaded) ADD_FAILURE() << loaded.error().describe();
        auto s = std::make_unique<DefaultScene>();
        s->scene = loaded->scene;
        for (CollisionMesh& cm : s->scene.collision_meshes) cm.cells_x = 40;
        runtime::RuntimeOptions options;
        options.sdf = runtime::SdfBackend::Cpu;
        options.renderer = render::RendererDesc{width, height, 4, 512, 32};
        auto rt = runtime::SceneRuntime::create(&device, options);
        if (!rt) ADD_FAILURE() << rt.error().describe();
        if (rt) {
            s->runtime = std::move(*rt);
            if (Status st = s->runtime->apply(s->scene); !st) ADD_FAILURE() << st.error().describe();
        }
        cached = std::move(s);
    }
    return *cached;
}

}  // namespace tressel::test
