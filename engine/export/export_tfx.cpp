#include "export/export_tfx.h"

#include <cmath>
#include <string>

#include "core/file_io.h"
#include "io/export_bytes.h"

namespace tressel {

Result<std::vector<uint8_t>> encode_tfx(const HairFileData& d) {
    auto invalid = [](const std::string& what) { return make_error(ErrorCode::InvalidArgument, "tfx: " + what); };
    const size_t strands = d.strand_count();
    if (strands == 0) return invalid("cannot write a .tfx file with no strands");
    if (d.strand_offsets.front() != 0 || d.strand_offsets.back() != d.points.size())
        return invalid("strand_offsets must start at 0 and end at the point count");
    const uint32_t n = d.strand_offsets[1] - d.strand_offsets[0];
    for (size_t s = 1; s < strands; ++s)
        if (d.strand_offsets[s + 1] - d.strand_offsets[s] != n)
            return invalid("strand " + std::to_string(s) + " has " + std::to_string(d.strand_offsets[s + 1] - d.strand_offsets[s]) +
                           " vertices but strand 0 has " + std::to_string(n) + " (TressFX needs one count; resample first)");
    if (n != 4 && n != 8 && n != 16 && n != 32 && n != 64)
        return invalid(std::to_string(n) + " vertices per strand; TressFX 4.1 accepts 4, 8, 16, 32 or 64 (resample first)");
    if (!d.inverse_mass.empty() && d.inverse_mass.size() != d.points.size())
        return invalid("inverse_mass must be empty or one per point");
    if (!d.strand_uvs.empty() && d.strand_uvs.size() != strands) return invalid("strand_uvs must be empty or one per strand");
    const uint64_t pos_bytes = uint64_t(d.points.size()) * 16, uv_bytes = uint64_t(strands) * 8;
    if (kTfxHeaderBytes + pos_bytes + uv_bytes > 0xFFFFFFFFull)
        return make_error(ErrorCode::LimitExceeded, "tfx: " + std::to_string(strands) + " strands x " + std::to_string(n) +
                                                        " vertices pass the 4 GiB the format's 32-bit offsets can address");

    std::vector<uint8_t> out;
    out.reserve(size_t(kTfxHeaderBytes + pos_bytes + uv_bytes));
    const uint32_t off_uv = uint32_t(kTfxHeaderBytes + pos_bytes);
    io_bytes::put_f32(out, kTfxWriteVersion);
    io_bytes::put_u32(out, uint32_t(strands));   // numHairStrands
    io_bytes::put_u32(out, n);                   // numVerticesPerStrand
    io_bytes::put_u32(out, kTfxHeaderBytes);     // offsetVertexPosition
    io_bytes::put_u32(out, off_uv);              // offsetStrandUV
    io_bytes::put_u32(out, 0);                   // offsetVertexUV (absent)
    io_bytes::put_u32(out, 0);                   // offsetStrandThickness (absent)
    io_bytes::put_u32(out, 0);                   // offsetVertexColor (absent)
    out.resize(kTfxHeaderBytes, 0);              // reserved[32]
    for (size_t i = 0; i < d.points.size(); ++i) {
        const glm::vec3& p = d.points[i];
        const uint32_t k = uint32_t(i % n);
        const float w = d.inverse_mass.empty() ? (k < 2 ? 0.0f : 1.0f) : d.inverse_mass[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) || !std::isfinite(w))
            return invalid("vertex " + std::to_string(k) + " of strand " + std::to_string(i / n) + " is not finite");
        io_bytes::put_f32(out, p.x);
        io_bytes::put_f32(out, p.y);
        io_bytes::put_f32(out, p.z);
        io_bytes::put_f32(out, w);
    }
    for (size_t s = 0; s < strands; ++s) {
        const glm::vec2 uv = d.strand_uvs.empty() ? glm::vec2(0.0f) : d.strand_uvs[s];
        io_bytes::put_f32(out, uv.x);
        io_bytes::put_f32(out, uv.y);
    }
    return out;
}

Status write_tfx_file(const std::filesystem::path& path, const HairFileData& data) {
    auto bytes = encode_tfx(data);
    if (!bytes.ok()) return make_error(bytes.error().code, path.string() + ": " + bytes.error().message);
    return write_file_atomic(path, std::span<const uint8_t>(*bytes));
}

}  // namespace tressel
