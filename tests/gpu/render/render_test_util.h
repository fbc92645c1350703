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

// sRGB-encoded [0, 1] -> linear.
float srgb_to_linear(float c);
// Hair of one flat colour, no variation, no taper, no shadows: fibre radius `radius_m`.
Shading flat_shading(double radius_m, glm::dvec3 color = glm::dvec3(1.0), double opacity = 1.0);
// Orbit camera 2 m from the origin (fov 40 degrees) at yaw / pitch; ambient light 1 only, so hair shows
// its base colour exactly; black background, no grid, no shadows.
render::FrameDesc unlit_frame(double yaw_deg, double pitch_deg);
// render_to_rgba into an Rgba (a failed render fails the test and gives an empty image).
Rgba render_image(render::Renderer& renderer, const render::FrameDesc& frame);
// Largest difference of any channel of any pixel (0..255); 255 when the sizes differ.
int max_channel_difference(const Rgba& a, const Rgba& b);
// Pixels with a channel differing by more than `tolerance` (0..255); every pixel when the sizes differ.
size_t pixels_differing(const Rgba& a, const Rgba& b, int tolerance);
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
