#include "sdf/sdf_slice.h"

#include <algorithm>
#include <cmath>

#include <stb_image_write.h>

#include "core/file_io.h"
#include "sdf/sdf_check.h"

namespace tressel {

SdfSlice make_slice(const SdfGrid& grid, SliceAxis axis, double position, const SdfFieldCheck* check) {
    const glm::ivec3 d = grid.grid.dims;
    const int a = axis == SliceAxis::X ? 0 : axis == SliceAxis::Y ? 1 : 2;
    const int ua = axis == SliceAxis::X ? 2 : 0;  // u axis
    const int va = axis == SliceAxis::Z ? 1 : axis == SliceAxis::X ? 1 : 2;
    SdfSlice s;
    s.axis = axis;
    s.cell_size_m = grid.grid.cell_size_m;
    double t = std::isfinite(position) ? std::clamp(position, 0.0, 1.0) : 0.5;
    s.index = std::clamp(int(std::lround(t * double(d[a] - 1))), 0, std::max(d[a] - 1, 0));
    s.width = d[ua];
    s.height = d[va];
    s.values_m.resize(size_t(s.width) * s.height);
    s.unwritten.resize(s.values_m.size());
    const bool marked = check && check->marks.size() == grid.distance_m.size();
    if (marked) s.marks.resize(s.values_m.size());
    for (int v = 0; v < s.height; ++v)
        for (int u = 0; u < s.width; ++u) {
            glm::ivec3 c;
            c[a] = s.index;
            c[ua] = u;
            c[va] = v;
            float x = grid.at(c.x, c.y, c.z);
            size_t o = size_t(v) * s.width + u;
            s.values_m[o] = x;
            s.unwritten[o] = std::isfinite(x) ? 0 : 1;
            if (marked) s.marks[o] = check->marks[grid.index(c.x, c.y, c.z)];
        }
    return s;
}

double slice_range_m(const SdfSlice& s, const SliceStyle& style) {
    if (style.range_m > 0.0) return style.range_m;
    double range = 0.0;
    for (size_t i = 0; i < s.values_m.size(); ++i)
        if (!s.unwritten[i]) range = std::max(range, double(std::abs(s.values_m[i])));
    return range > 0.0 ? range : 1.0;
}

glm::vec3 slice_colour(double distance_m, double range_m, const SliceStyle& style) {
    const float t = float(std::min(std::abs(distance_m) / range_m, 1.0));
    const glm::vec3 end = distance_m < 0.0 ? style.inside_rgb : style.outside_rgb;
    return glm::mix(glm::vec3(0.96f), end, std::pow(t, 0.6f));
}

std::vector<uint8_t> slice_to_rgba(const SdfSlice& s, const SliceStyle& style, int* width_px, int* height_px) {
    const int up = std::clamp(style.upscale, 1, 16);
    const int W = s.width * up, H = s.height * up;
    if (width_px) *width_px = W;
    if (height_px) *height_px = H;
    std::vector<uint8_t> rgba(size_t(W) * H * 4, 0);
    if (W == 0 || H == 0) return rgba;

    const double range = slice_range_m(s, style);
    // Values at pixel centres (bilinear between cell centres), NaN where a corner is unwritten.
    std::vector<float> val(size_t(W) * H);
    auto cell = [&](int u, int v) {
        u = std::clamp(u, 0, s.width - 1);
        v = std::clamp(v, 0, s.height - 1);
        size_t o = size_t(v) * s.width + u;
        return s.unwritten[o] ? std::nanf("") : s.values_m[o];
    };
    for (int py = 0; py < H; ++py)
        for (int px = 0; px < W; ++px) {
            float u = (float(px) + 0.5f) / float(up) - 0.5f;
            float v = (float(H - 1 - py) + 0.5f) / float(up) - 0.5f;
            int u0 = int(std::floor(u)), v0 = int(std::floor(v));
            float fu = u - float(u0), fv = v - float(v0);
            float a = cell(u0, v0), b = cell(u0 + 1, v0), c = cell(u0, v0 + 1), d = cell(u0 + 1, v0 + 1);
            float x0 = a + (b - a) * fu, x1 = c + (d - c) * fu;
            val[size_t(py) * W + px] = x0 + (x1 - x0) * fv;
        }
    const double iso = style.isoline_cells > 0 ? style.isoline_cells * s.cell_size_m : 0.0;
    auto crosses = [&](float p, float q, double level) { return (double(p) < level) != (double(q) < level); };
    auto band = [&](float p) { return std::floor(double(p) / iso); };
    for (int py = 0; py < H; ++py)
        for (int px = 0; px < W; ++px) {
            float x = val[size_t(py) * W + px];
            glm::vec3 col;
            if (std::isnan(x)) {
                bool check = ((px / std::max(up, 4)) + (py / std::max(up, 4))) % 2 == 0;
                col = check ? style.unwritten_rgb : style.unwritten_rgb * 0.5f;
            } else {
                col = slice_colour(x, range, style);
                if (!s.marks.empty()) {
                    // The nearest cell's mark, as stripes 4 pixels wide: up-right for a cavity, down-right
                    // for a sign jump, so the two read apart without colour too.
                    const int cu = std::clamp(px / up, 0, s.width - 1), cv = std::clamp((H - 1 - py) / up, 0, s.height - 1);
                    const uint8_t mark = s.marks[size_t(cv) * s.width + cu];
                    const int stripe = mark == kSdfCellCavity ? px + py : px - py + 4 * H;
                    if (mark != kSdfCellOk && (stripe / 4) % 2 == 0)
                        col = glm::mix(col, mark == kSdfCellCavity ? style.cavity_rgb : style.sign_jump_rgb, 0.75f);
                }
                bool zero = false, margin = false, isoline = false;
                const int nb[2][2] = {{1, 0}, {0, 1}};
                for (const auto& o : nb) {
                    int qx = px + o[0], qy = py + o[1];
                    if (qx >= W || qy >= H) continue;
                    float y = val[size_t(qy) * W + qx];
                    if (std::isnan(y)) continue;
                    zero = zero || crosses(x, y, 0.0);
                    margin = margin || (style.margin_m >= 0.0 && crosses(x, y, style.margin_m));
                    isoline = isoline || (iso > 0.0 && band(x) != band(y));
                }
                if (zero) col = style.zero_rgb;
                else if (margin) col = style.margin_rgb;
                else if (isoline) col *= 0.6f;
            }
            uint8_t* o = &rgba[(size_t(py) * W + px) * 4];
            for (int k = 0; k < 3; ++k) o[k] = uint8_t(std::lround(std::clamp(col[k], 0.0f, 1.0f) * 255.0f));
            o[3] = 255;
        }
    return rgba;
}

Result<std::vector<uint8_t>> encode_png_rgba(const std::vector<uint8_t>& rgba, int width, int height) {
    if (width <= 0 || height <= 0 || rgba.size() != size_t(width) * size_t(height) * 4)
        return make_error(ErrorCode::InvalidArgument, "the image to encode is empty or its size does not match its pixels.");
    std::vector<uint8_t> png;
    auto sink = [](void* ctx, void* data, int size) {
        auto* out = static_cast<std::vector<uint8_t>*>(ctx);
        const auto* bytes = static_cast<const uint8_t*>(data);
        out->insert(out->end(), bytes, bytes + size);
    };
    if (!stbi_write_png_to_func(sink, &png, width, height, 4, rgba.data(), width * 4))
        return make_error(ErrorCode::Io, "PNG encoding failed.");
    return png;
}

Status write_slice_png(const std::filesystem::path& path, const SdfSlice& slice, const SliceStyle& style) {
    int w = 0, h = 0;
    std::vector<uint8_t> rgba = slice_to_rgba(slice, style, &w, &h);
    auto png = encode_png_rgba(rgba, w, h);
    if (!png.ok()) return make_error(png.error().code, "cannot write " + path.string() + ": " + png.error().message);
    Status st = write_file_atomic(path, std::span<const uint8_t>(png->data(), png->size()));
    if (!st.ok()) return make_error(st.error().code, "cannot write slice image " + path.string() + ": " + st.error().message);
    return {};
}

}  // namespace tressel
