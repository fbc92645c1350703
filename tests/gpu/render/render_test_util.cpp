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

DefaultScene& default_scene(gpu::Device& device) {
    if (!cached) {
        auto loaded = load_scene(source("presets/scenes/default.json"));
        if (!loaded) ADD_FAILURE() << loaded.error().describe();
        auto s = std::make_unique<DefaultScene>();
        s->scene = loaded->scene;
        render::SceneContentDesc d;
        d.scene = &s->scene;
        d.build_sdf = true;
        d.sdf_cells_x = 40;   // small: the CPU build stays quick; the slice only needs to look right
        auto content = render::load_scene_content(device, d);
        if (!content) ADD_FAILURE() << content.error().describe();
        s->content = std::move(*content);
        cached = std::move(s);
    }
    return *cached;
}

}  // namespace tressel::test
