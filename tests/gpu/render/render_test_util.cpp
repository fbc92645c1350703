#include "render_test_util.h"

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
