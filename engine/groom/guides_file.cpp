#include "groom/guides_file.h"

#include <cmath>
#include <cstring>

#include "core/file_io.h"
#include "groom/byte_codec.h"

namespace tressel {
namespace {

using bytes::fnv1a;
using bytes::Reader;
using bytes::Writer;

// Layout (docs/guides-file.md), little-endian, no padding:
//   magic[8] u32 version u32 strands u32 points u32 attributes (bit 0 widths, bit 1 colours)
//   u32 scalp_triangles
//   u32 offsets[strands + 1]  f32 points[3 * points]  [f32 widths[points]]  [f32 colours[4 * points]]
//   { u32 triangle f32 barycentric[3] }[strands]  u32 seeds[strands]  u32 flags[strands]
//   u64 checksum (FNV-1a 64 of every byte before it)
constexpr uint32_t kHasWidths = 1u, kHasColors = 2u;
constexpr size_t kHeaderBytes = 8 + 5 * 4;

}  // namespace

std::vector<uint8_t> encode_guides(const Strands& g, uint32_t scalp_triangles) {
    TRESSEL_ASSERT(g.consistent(), "encode_guides needs consistent Strands");
    std::vector<uint8_t> out;
    Writer w{out};
    const size_t n = g.strand_count(), np = g.point_count();
    out.reserve(kHeaderBytes + 4 * (n + 1) + 12 * np + 4 * np + 16 * np + 24 * n + 8);
    out.resize(8);
    std::memcpy(out.data(), kGuidesFileMagic, 8);
    w.put(kGuidesFileVersion);
    w.put(uint32_t(n));
    w.put(uint32_t(np));
    w.put(uint32_t((g.widths_m.empty() ? 0u : kHasWidths) | (g.colors.empty() ? 0u : kHasColors)));
    w.put(scalp_triangles);
    for (uint32_t o : g.strand_offsets) w.put(o);
    w.floats(&g.points_os_m.data()->x, 3 * np);
    if (!g.widths_m.empty()) w.floats(g.widths_m.data(), np);
    if (!g.colors.empty()) w.floats(&g.colors.data()->x, 4 * np);
    for (const ScalpAttachment& r : g.roots) {
        w.put(r.triangle);
        w.floats(&r.barycentric.x, 3);
    }
    for (uint32_t s : g.seeds) w.put(s);
    for (uint32_t f : g.flags) w.put(f);
    w.put(fnv1a(out.data(), out.size()));
    return out;
}

Result<Strands> decode_guides(const std::vector<uint8_t>& bytes, uint32_t scalp_triangles, const std::string& name) {
    auto parse = [&](const std::string& what) { return make_error(ErrorCode::Parse, name + ": " + what); };
    if (bytes.size() < kHeaderBytes + 8 || std::memcmp(bytes.data(), kGuidesFileMagic, 8) != 0)
        return parse("not a Tressel guides file (no TRSLGDS header)");
    Reader r{bytes, 8};
    uint32_t version = 0, n = 0, np = 0, attributes = 0, triangles = 0;
    r.take(&version, 4);
    r.take(&n, 4);
    r.take(&np, 4);
    r.take(&attributes, 4);
    r.take(&triangles, 4);
    if (version > kGuidesFileVersion)
        return make_error(ErrorCode::Unsupported, name + ": guides file version " + std::to_string(version) + " is newer than this Tressel reads (" +
                                                      std::to_string(kGuidesFileVersion) + ")");
    if (attributes & ~(kHasWidths | kHasColors)) return parse("unknown attribute bits " + std::to_string(attributes));
    // The size the header promises, in 64 bits so that hostile counts cannot wrap it.
    const uint64_t per_point = 12 + ((attributes & kHasWidths) ? 4 : 0) + ((attributes & kHasColors) ? 16 : 0);
    const uint64_t expected = kHeaderBytes + 4ull * (uint64_t(n) + 1) + per_point * np + 24ull * n + 8;
    if (expected != bytes.size())
        return parse("truncated or corrupt: the header promises " + std::to_string(n) + " strands of " + std::to_string(np) + " points (" +
                     std::to_string(expected) + " bytes), the file has " + std::to_string(bytes.size()) + " bytes");
    uint64_t stored = 0;
    std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
    if (stored != fnv1a(bytes.data(), bytes.size() - 8)) return parse("checksum mismatch: the file was changed or damaged after it was written");
    if (triangles != scalp_triangles)
        return make_error(ErrorCode::InvalidArgument, name + ": the guides were made on a scalp mesh of " + std::to_string(triangles) +
                                                          " triangles; this scene's scalp mesh has " + std::to_string(scalp_triangles));
    Strands g;
    g.strand_offsets.resize(size_t(n) + 1);
    g.points_os_m.resize(np);
    r.take(g.strand_offsets.data(), 4 * (size_t(n) + 1));
    r.take(g.points_os_m.data(), 12 * size_t(np));
    if (attributes & kHasWidths) {
        g.widths_m.resize(np);
        r.take(g.widths_m.data(), 4 * size_t(np));
    }
    if (attributes & kHasColors) {
        g.colors.resize(np);
        r.take(g.colors.data(), 16 * size_t(np));
    }
    g.roots.resize(n);
    for (ScalpAttachment& a : g.roots) {
        r.take(&a.triangle, 4);
        r.take(&a.barycentric.x, 12);
    }
    g.seeds.resize(n);
    g.flags.resize(n);
    r.take(g.seeds.data(), 4 * size_t(n));
    r.take(g.flags.data(), 4 * size_t(n));
    if (!g.consistent()) return parse("strand offsets are not increasing by at least 2 points from 0 to the point count");
    for (size_t i = 0; i < np; ++i) {
        const glm::vec3& p = g.points_os_m[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return parse("point " + std::to_string(i) + " is not finite");
        if (!g.widths_m.empty() && !(std::isfinite(g.widths_m[i]) && g.widths_m[i] >= 0.0f))
            return parse("width of point " + std::to_string(i) + " is negative or not finite");
    }
    for (size_t s = 0; s < n; ++s) {
        const ScalpAttachment& a = g.roots[s];
        if (a.triangle >= scalp_triangles)
            return make_error(ErrorCode::InvalidArgument, name + ": strand " + std::to_string(s) + " is attached to triangle " +
                                                              std::to_string(a.triangle) + " of a " + std::to_string(scalp_triangles) +
                                                              "-triangle scalp");
        const glm::vec3 b = a.barycentric;
        if (!(b.x >= -1e-4f && b.y >= -1e-4f && b.z >= -1e-4f && std::abs(b.x + b.y + b.z - 1.0f) < 1e-3f))
            return parse("strand " + std::to_string(s) + " has barycentric coordinates outside the triangle");
    }
    return g;
}

Status save_guides_file(const std::filesystem::path& path, const Strands& guides, uint32_t scalp_triangles) {
    const std::vector<uint8_t> bytes = encode_guides(guides, scalp_triangles);
    return write_file_atomic(path, std::span<const uint8_t>(bytes));
}

Result<Strands> load_guides_file(const std::filesystem::path& path, uint32_t scalp_triangles) {
    auto bytes = read_file_bytes(path);
    if (!bytes) return bytes.error();
    return decode_guides(*bytes, scalp_triangles, path.string());
}

Result<EditedGuides> load_edited_guides(const std::filesystem::path& path) {
    auto bytes = read_file_bytes(path);
    if (!bytes) return bytes.error();
    uint32_t triangles = 0;
    if (bytes->size() >= kHeaderBytes) std::memcpy(&triangles, bytes->data() + kHeaderBytes - 4, 4);
    auto g = decode_guides(*bytes, triangles, path.string());
    if (!g) return g.error();
    return EditedGuides{std::move(*g), triangles};
}

bool bit_identical(const Strands& a, const Strands& b) {
    auto same = [](const auto& x, const auto& y) {
        using T = typename std::decay_t<decltype(x)>::value_type;
        return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
    };
    if (a.roots.size() != b.roots.size()) return false;
    for (size_t i = 0; i < a.roots.size(); ++i)
        if (a.roots[i].triangle != b.roots[i].triangle || std::memcmp(&a.roots[i].barycentric, &b.roots[i].barycentric, 12) != 0) return false;
    return same(a.points_os_m, b.points_os_m) && same(a.strand_offsets, b.strand_offsets) && same(a.widths_m, b.widths_m) &&
           same(a.colors, b.colors) && same(a.seeds, b.seeds) && same(a.flags, b.flags);
}

}  // namespace tressel
