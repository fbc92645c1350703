// Hair strand files: TressFX 4 `.tfx` and cyHair `.hair` (layouts in shared/FORMATS.md). Readers check
// every count and offset against the file size before allocating anything, so a hostile or truncated
// header gives an Error naming the file and the field, never a huge allocation or a crash.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/diagnostics.h"
#include "core/result.h"

namespace tressel {

// Strands as a file stores them, in the file's own units and axes (TressFX: metres, Y up).
struct HairFileData {
    std::string format;                       // "tfx" or "hair"
    std::vector<glm::vec3> points;            // file units, strand-major
    std::vector<uint32_t> strand_offsets{0};  // n + 1 entries; strand i owns points [offsets[i], offsets[i+1])
    std::vector<float> inverse_mass;          // tfx: per point (position w; 0 = pinned); empty for .hair
    std::vector<glm::vec2> strand_uvs;        // tfx: root UV per strand when the file has them; else empty
    std::vector<float> thickness;             // hair: per point when present; else empty
    std::vector<float> transparency;          // hair: per point when present; else empty
    std::vector<glm::vec3> colors;            // hair: per point RGB when present; else empty
    float default_thickness = 1.0f;           // hair header defaults (used when the arrays are absent)
    float default_transparency = 0.0f;
    glm::vec3 default_color{1.0f};
    float tfx_version = 0.0f;                 // tfx header version (4.0 in practice)
    std::string info;                         // hair: the header's info text, up to the first NUL
    std::vector<uint32_t> degenerate_strands; // strands whose polyline is shorter than the read option's limit
    Diagnostics diagnostics;

    size_t strand_count() const { return strand_offsets.size() - 1; }
};

struct HairReadOptions {
    uint64_t max_file_bytes = 1ull << 31;
    double degenerate_length = 1e-4;          // file units: strands shorter than this are listed (and kept)
};

// Parse a file already in memory; `name` is used in messages (usually the path).
Result<HairFileData> parse_tfx(std::span<const uint8_t> bytes, const std::string& name, const HairReadOptions& options = {});
Result<HairFileData> parse_hair(std::span<const uint8_t> bytes, const std::string& name, const HairReadOptions& options = {});

Result<HairFileData> read_tfx_file(const std::filesystem::path& path, const HairReadOptions& options = {});
Result<HairFileData> read_hair_file(const std::filesystem::path& path, const HairReadOptions& options = {});
// Picks the reader by extension (.tfx or .hair, case-insensitive); Unsupported otherwise.
Result<HairFileData> read_strand_file(const std::filesystem::path& path, const HairReadOptions& options = {});

// cyHair writer: segments array always written (strands may differ in point count); thickness,
// transparency and colour arrays written when present and sized one per point. Strands must have 1 to
// 65,536 points (the format stores segments as uint16). Written atomically (core/file_io.h).
Result<std::vector<uint8_t>> encode_hair(const HairFileData& data);
Status write_hair_file(const std::filesystem::path& path, const HairFileData& data);

}  // namespace tressel
