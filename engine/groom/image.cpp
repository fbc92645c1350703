#include "groom/image.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <stb_image.h>

#include "core/file_io.h"

namespace tressel {

float UvImage::sample(glm::vec2 uv, int channel) const {
    if (width <= 0 || height <= 0) return 0.0f;
    // UV 1.0 stays on the last texel rather than wrapping to the first.
    const float u = uv.x == 1.0f ? 1.0f : uv.x - std::floor(uv.x), v = uv.y == 1.0f ? 1.0f : uv.y - std::floor(uv.y);
    const float x = u * float(width) - 0.5f;
    const float y = (1.0f - v) * float(height) - 0.5f;
    const int x0 = int(std::floor(x)), y0 = int(std::floor(y));
    const float fx = x - float(x0), fy = y - float(y0);
    auto texel = [&](int xi, int yi) {
        xi = std::clamp(xi, 0, width - 1);
        yi = std::clamp(yi, 0, height - 1);
        return float(rgba[(size_t(yi) * width + xi) * 4 + channel]) * (1.0f / 255.0f);
    };
    const float top = texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx;
    const float bottom = texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx;
    return top * (1 - fy) + bottom * fy;
}

Result<UvImage> load_uv_image(const std::filesystem::path& path) {
    auto bytes = read_file_bytes(path, 512ull << 20);
    if (!bytes.ok()) return bytes.error();
    return decode_uv_image(*bytes, path.string());
}

Result<UvImage> decode_uv_image(std::span<const uint8_t> bytes_in, const std::string& name) {
    const std::filesystem::path path(name);
    const std::span<const uint8_t>* bytes = &bytes_in;
    // stb_image would offset the empty buffer's null pointer (undefined behaviour) before failing.
    if (bytes->empty()) return make_error(ErrorCode::Parse, path.string() + ": the file is empty (expected a PNG, JPEG, TGA or BMP image)");
    if (bytes->size() > size_t(INT32_MAX)) return make_error(ErrorCode::LimitExceeded, path.string() + ": the image file is over 2 GiB");
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(bytes->data(), int(bytes->size()), &w, &h, &comp))
        return make_error(ErrorCode::Parse, path.string() + ": not an image stb_image can read (" +
                                                (stbi_failure_reason() ? stbi_failure_reason() : "unknown") + ")");
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        return make_error(ErrorCode::LimitExceeded, path.string() + ": image size " + std::to_string(w) + " x " +
                                                        std::to_string(h) + " is outside 1..16384");
    // No format this reads compresses beyond about 1,000 : 1 (deflate's limit), so an image that claims far
    // more pixels than its bytes can encode is refused before a decoder allocates them (an 18-byte TGA
    // claiming millions of pixels took seconds and hundreds of megabytes).
    const uint64_t decoded = uint64_t(w) * uint64_t(h) * 4;
    if (decoded > (16ull << 20) + 1100ull * bytes->size())
        return make_error(ErrorCode::Parse, path.string() + ": the image claims " + std::to_string(w) + " x " + std::to_string(h) +
                                                " pixels, more than its " + std::to_string(bytes->size()) + " bytes can hold (corrupt file?)");
    stbi_uc* data = stbi_load_from_memory(bytes->data(), int(bytes->size()), &w, &h, &comp, 4);
    if (!data)
        return make_error(ErrorCode::Parse, path.string() + ": decoding failed (" +
                                                (stbi_failure_reason() ? stbi_failure_reason() : "unknown") + ")");
    UvImage img;
    img.width = w;
    img.height = h;
    img.rgba.assign(data, data + size_t(w) * h * 4);
    stbi_image_free(data);
    return img;
}

}  // namespace tressel
