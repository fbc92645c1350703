// Helpers shared by the renderer tests: images, pixel statistics and the default scene loaded once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "render/renderer.h"
#include "runtime/scene_runtime.h"
#include "scene/scene_types.h"

namespace tressel::test {

struct Rgba {
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;  // RGBA8, top row first
    glm::vec4 at(int x, int y) const {
        const uint8_t* p = &pixels[(size_t(y) * width + x) * 4];
        return glm::vec4(p[0], p[1], p[2], p[3]) / 255.0f;
    }
};

bool write_png(const std::filesystem::path& path, const Rgba& image);
bool read_png(const std::filesystem::path& path, Rgba& image);

// The default scene (presets/scenes/default.json) running in a SceneRuntime at its rest pose, drawn at
// width x height with 4x MSAA, built once per process. Its field is the CPU reference build at 40 cells
// across (quick to build; the slice only needs to look right).
struct DefaultScene {
    Scene scene;
    std::unique_ptr<runtime::SceneRuntime> runtime;
};
DefaultScene& default_scene(gpu::Device& device, uint32_t width, uint32_t height);

}  // namespace tressel::test
