#include "io/hair_files.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

#include "core/file_io.h"

namespace tressel {
namespace {

uint32_t rd_u32(std::span<const uint8_t> b, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(b[at + i]) << (8 * i);
    return v;
}
uint16_t rd_u16(std::span<const uint8_t> b, size_t at) {
    return static_cast<uint16_t>(b[at] | (b[at + 1] << 8));
}
float rd_f32(std::span<const uint8_t> b, size_t at) {
    uint32_t u = rd_u32(b, at);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
void wr_u32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void wr_u16(std::vector<uint8_t>& out, uint16_t v) {
    out.push_back(static_cast<uint8_t>(v));
    out.push_back(static_cast<uint8_t>(v >> 8));
}
void wr_f32(std::vector<uint8_t>& out, float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    wr_u32(out, u);
}

Error parse_error(const std::string& name, const std::string& what) {
    return make_error(ErrorCode::Parse, name + ": " + what);
}

bool finite3(const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

void find_degenerate(HairFileData& d, double limit) {
    for (size_t s = 0; s < d.strand_count(); ++s) {
        double len = 0.0;
        for (uint32_t i = d.strand_offsets[s] + 1; i < d.strand_offsets[s + 1]; ++i)
            len += glm::length(glm::dvec3(d.points[i]) - glm::dvec3(d.points[i - 1]));
        if (len < limit) d.degenerate_strands.push_back(static_cast<uint32_t>(s));
    }
}

constexpr size_t kTfxHeaderBytes = 160;
constexpr size_t kHairHeaderBytes = 128;

}  // namespace

Result<HairFileData> parse_tfx(std::span<const uint8_t> bytes, const std::string& name, const HairReadOptions& options) {
    const uint64_t size = bytes.size();
    if (size < kTfxHeaderBytes)
        return parse_error(name, "file is " + std::to_string(size) + " bytes, shorter than the 160-byte TressFX header");
    HairFileData d;
    d.format = "tfx";
    d.tfx_version = rd_f32(bytes, 0);
    const uint32_t strands = rd_u32(bytes, 4);
    const uint32_t verts = rd_u32(bytes, 8);
    const uint32_t off_pos = rd_u32(bytes, 12);
    const uint32_t off_uv = rd_u32(bytes, 16);
    if (!std::isfinite(d.tfx_version) || d.tfx_version < 4.0f)
        return make_error(ErrorCode::Unsupported, name + ": TressFX version " + std::to_string(d.tfx_version) +
                                                      " is not supported (4.0 or later expected)");
    if (strands == 0) return parse_error(name, "numHairStrands is 0");
    if (verts < 2) return parse_error(name, "numVerticesPerStrand is " + std::to_string(verts) + " (at least 2 needed)");
    if (verts > 4096) return parse_error(name, "numVerticesPerStrand " + std::to_string(verts) + " is implausibly large (over 4096)");
    if (off_pos < kTfxHeaderBytes || off_pos > size)
        return parse_error(name, "offsetVertexPosition " + std::to_string(off_pos) + " lies outside the file (" +
                                     std::to_string(size) + " bytes) or inside the header");
    const uint64_t points = uint64_t(strands) * verts;  // < 2^44: no overflow below
    if (points * 16 > size - off_pos)
        return parse_error(name, std::to_string(strands) + " strands x " + std::to_string(verts) +
                                     " vertices need " + std::to_string(points * 16) + " bytes of positions from offset " +
                                     std::to_string(off_pos) + ", but the file has only " + std::to_string(size) + " bytes");
    if (off_uv != 0) {
        if (off_uv < kTfxHeaderBytes || off_uv > size || uint64_t(strands) * 8 > size - off_uv)
            return parse_error(name, "offsetStrandUV " + std::to_string(off_uv) + " with " + std::to_string(strands) +
                                         " strands runs past the end of the file (" + std::to_string(size) + " bytes)");
    }
    if (verts != 4 && verts != 8 && verts != 16 && verts != 32 && verts != 64)
        d.diagnostics.warn(name, "numVerticesPerStrand " + std::to_string(verts) +
                                     " is not one TressFX 4.1 accepts (4, 8, 16, 32 or 64)");

    d.points.resize(points);
    d.inverse_mass.resize(points);
    d.strand_offsets.resize(size_t(strands) + 1);
    for (uint64_t i = 0; i < points; ++i) {
        const size_t at = off_pos + size_t(i) * 16;
        d.points[i] = {rd_f32(bytes, at), rd_f32(bytes, at + 4), rd_f32(bytes, at + 8)};
        d.inverse_mass[i] = rd_f32(bytes, at + 12);
        if (!finite3(d.points[i]) || !std::isfinite(d.inverse_mass[i]))
            return parse_error(name, "vertex " + std::to_string(i % verts) + " of strand " + std::to_string(i / verts) +
                                         " is not a finite number");
    }
    for (uint32_t s = 0; s <= strands; ++s) d.strand_offsets[s] = s * verts;
    if (off_uv != 0) {
        d.strand_uvs.resize(strands);
        for (uint32_t s = 0; s < strands; ++s)
            d.strand_uvs[s] = {rd_f32(bytes, off_uv + size_t(s) * 8), rd_f32(bytes, off_uv + size_t(s) * 8 + 4)};
    }
    find_degenerate(d, options.degenerate_length);
    if (!d.degenerate_strands.empty())
        d.diagnostics.warn(name, std::to_string(d.degenerate_strands.size()) + " strand(s) are shorter than " +
                                     std::to_string(options.degenerate_length) + " (degenerate; kept and flagged)");
    return d;
}

Result<HairFileData> parse_hair(std::span<const uint8_t> bytes, const std::string& name, const HairReadOptions& options) {
    const uint64_t size = bytes.size();
    if (size < kHairHeaderBytes)
        return parse_error(name, "file is " + std::to_string(size) + " bytes, shorter than the 128-byte cyHair header");
    if (std::memcmp(bytes.data(), "HAIR", 4) != 0) return parse_error(name, "missing the \"HAIR\" signature");
    HairFileData d;
    d.format = "hair";
    const uint32_t hair_count = rd_u32(bytes, 4);
    const uint32_t point_count = rd_u32(bytes, 8);
    const uint32_t arrays = rd_u32(bytes, 12);
    const uint32_t default_segments = rd_u32(bytes, 16);
    d.default_thickness = rd_f32(bytes, 20);
    d.default_transparency = rd_f32(bytes, 24);
    d.default_color = {rd_f32(bytes, 28), rd_f32(bytes, 32), rd_f32(bytes, 36)};
    const char* info = reinterpret_cast<const char*>(bytes.data() + 40);
    d.info.assign(info, strnlen(info, 88));

    const bool has_seg = arrays & 1u, has_pts = arrays & 2u, has_thick = arrays & 4u, has_transp = arrays & 8u,
               has_col = arrays & 16u;
    if (!has_pts) return make_error(ErrorCode::Unsupported, name + ": the file has no points array (arrays flag bit 2 clear)");
    if (hair_count == 0) return parse_error(name, "hair_count is 0");
    const uint64_t need = kHairHeaderBytes + (has_seg ? 2ull * hair_count : 0) + 12ull * point_count +
                          (has_thick ? 4ull * point_count : 0) + (has_transp ? 4ull * point_count : 0) +
                          (has_col ? 12ull * point_count : 0);
    if (need > size)
        return parse_error(name, "the header announces " + std::to_string(hair_count) + " strands and " +
                                     std::to_string(point_count) + " points needing " + std::to_string(need) +
                                     " bytes, but the file has only " + std::to_string(size) + " (truncated or corrupt)");
    if (hair_count > point_count)
        return parse_error(name, "hair_count " + std::to_string(hair_count) + " exceeds point_count " +
                                     std::to_string(point_count) + " (every strand has at least one point)");
    size_t at = kHairHeaderBytes;
    d.strand_offsets.resize(size_t(hair_count) + 1);
    uint64_t total = 0;
    for (uint32_t s = 0; s < hair_count; ++s) {
        const uint64_t segs = has_seg ? rd_u16(bytes, at + 2 * size_t(s)) : default_segments;
        total += segs + 1;
        if (total > point_count)
            return parse_error(name, "the segment counts need more points than the header's point_count " +
                                         std::to_string(point_count) + " (at strand " + std::to_string(s) + ")");
        d.strand_offsets[s + 1] = static_cast<uint32_t>(total);
    }
    if (total != point_count)
        return parse_error(name, "the segment counts account for " + std::to_string(total) +
                                     " points but the header's point_count is " + std::to_string(point_count));
    if (has_seg) at += 2 * size_t(hair_count);
    d.points.resize(point_count);
    for (uint32_t i = 0; i < point_count; ++i, at += 12) {
        d.points[i] = {rd_f32(bytes, at), rd_f32(bytes, at + 4), rd_f32(bytes, at + 8)};
        if (!finite3(d.points[i])) return parse_error(name, "point " + std::to_string(i) + " is not a finite number");
    }
    auto read_floats = [&](std::vector<float>& v) {
        v.resize(point_count);
        for (uint32_t i = 0; i < point_count; ++i, at += 4) v[i] = rd_f32(bytes, at);
    };
    if (has_thick) read_floats(d.thickness);
    if (has_transp) read_floats(d.transparency);
    if (has_col) {
        d.colors.resize(point_count);
        for (uint32_t i = 0; i < point_count; ++i, at += 12)
            d.colors[i] = {rd_f32(bytes, at), rd_f32(bytes, at + 4), rd_f32(bytes, at + 8)};
    }
    find_degenerate(d, options.degenerate_length);
    if (!d.degenerate_strands.empty())
        d.diagnostics.warn(name, std::to_string(d.degenerate_strands.size()) + " strand(s) are shorter than " +
                                     std::to_string(options.degenerate_length) + " (degenerate; kept and flagged)");
    return d;
}

Result<HairFileData> read_tfx_file(const std::filesystem::path& path, const HairReadOptions& options) {
    auto bytes = read_file_bytes(path, options.max_file_bytes);
    if (!bytes.ok()) return bytes.error();
    return parse_tfx(*bytes, path.string(), options);
}

Result<HairFileData> read_hair_file(const std::filesystem::path& path, const HairReadOptions& options) {
    auto bytes = read_file_bytes(path, options.max_file_bytes);
    if (!bytes.ok()) return bytes.error();
    return parse_hair(*bytes, path.string(), options);
}

Result<HairFileData> read_strand_file(const std::filesystem::path& path, const HairReadOptions& options) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".tfx") return read_tfx_file(path, options);
    if (ext == ".hair") return read_hair_file(path, options);
    return make_error(ErrorCode::Unsupported,
                      path.string() + ": unknown strand file extension \"" + ext + "\" (expected .tfx or .hair)");
}

Result<std::vector<uint8_t>> encode_hair(const HairFileData& d) {
    const size_t n = d.strand_count();
    const size_t pc = d.points.size();
    if (n == 0) return make_error(ErrorCode::InvalidArgument, "cannot write a .hair file with no strands");
    if (d.strand_offsets.back() != pc)
        return make_error(ErrorCode::InvalidArgument, "strand_offsets do not end at the point count");
    if (n > 0xFFFFFFFFull || pc > 0xFFFFFFFFull)
        return make_error(ErrorCode::LimitExceeded, "too many strands or points for the .hair format (32-bit counts)");
    for (size_t s = 0; s < n; ++s) {
        if (d.strand_offsets[s + 1] <= d.strand_offsets[s] || d.strand_offsets[s + 1] - d.strand_offsets[s] > 65536u)
            return make_error(ErrorCode::InvalidArgument, "strand " + std::to_string(s) +
                                                              " must have 1 to 65,536 points for the .hair format");
    }
    const bool thick = !d.thickness.empty(), transp = !d.transparency.empty(), col = !d.colors.empty();
    if ((thick && d.thickness.size() != pc) || (transp && d.transparency.size() != pc) || (col && d.colors.size() != pc))
        return make_error(ErrorCode::InvalidArgument, "per-point arrays must have one value per point");
    std::vector<uint8_t> out;
    out.reserve(kHairHeaderBytes + 2 * n + 12 * pc);
    out.insert(out.end(), {'H', 'A', 'I', 'R'});
    wr_u32(out, static_cast<uint32_t>(n));
    wr_u32(out, static_cast<uint32_t>(pc));
    wr_u32(out, 1u | 2u | (thick ? 4u : 0u) | (transp ? 8u : 0u) | (col ? 16u : 0u));
    wr_u32(out, d.strand_offsets[1] - d.strand_offsets[0] - 1);
    wr_f32(out, d.default_thickness);
    wr_f32(out, d.default_transparency);
    for (int i = 0; i < 3; ++i) wr_f32(out, d.default_color[i]);
    char info[88] = {};
    std::memcpy(info, d.info.data(), std::min<size_t>(d.info.size(), 87));
    out.insert(out.end(), info, info + 88);
    for (size_t s = 0; s < n; ++s) wr_u16(out, static_cast<uint16_t>(d.strand_offsets[s + 1] - d.strand_offsets[s] - 1));
    for (const auto& p : d.points)
        for (int i = 0; i < 3; ++i) wr_f32(out, p[i]);
    if (thick) for (float f : d.thickness) wr_f32(out, f);
    if (transp) for (float f : d.transparency) wr_f32(out, f);
    if (col)
        for (const auto& c : d.colors)
            for (int i = 0; i < 3; ++i) wr_f32(out, c[i]);
    return out;
}

Status write_hair_file(const std::filesystem::path& path, const HairFileData& data) {
    auto bytes = encode_hair(data);
    if (!bytes.ok()) return make_error(bytes.error().code, path.string() + ": " + bytes.error().message);
    return write_file_atomic(path, std::span<const uint8_t>(*bytes));
}

}  // namespace tressel
