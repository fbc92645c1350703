// 8-bit images painted in a scalp's UV space (region masks, length maps), loaded with stb_image.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"

namespace tressel {

struct UvImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;  // 4 bytes per texel, top row first (as stored in the file)

    // Bilinear sample of `channel` (0 r .. 3 a) in [0, 1]. UVs outside [0, 1] wrap (repeat); filtering
    // clamps at the image border (no bleeding from the opposite edge). v = 0 is the bottom row (OpenGL /
    // Assimp convention), so the file's top row is v = 1.
    float sample(glm::vec2 uv, int channel) const;
};

// Loads a PNG (or any format stb_image reads) as RGBA8. NotFound / Io / Parse errors name the file;
// images over 16384 x 16384 are LimitExceeded.
Result<UvImage> load_uv_image(const std::filesystem::path& path);
// The same from bytes in memory; `name` names the file in messages.
Result<UvImage> decode_uv_image(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace tressel
