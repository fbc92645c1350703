// TressFX 4 `.tfx` writer: the layout the 4.1 loader reads (shared/FORMATS.md), the inverse of
// parse_tfx() in io/hair_files.h. Coordinates are written as given: the engine's space (metres, Y up) is
// TressFX's, so no conversion is needed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/result.h"
#include "io/hair_files.h"

namespace tressel {

inline constexpr uint32_t kTfxHeaderBytes = 160;
inline constexpr float kTfxWriteVersion = 4.0f;

// Writes the 160-byte header (version 4.0, reserved words zero), float4 positions strand-major with the
// inverse mass in w, then one float2 root UV per strand. offsetStrandUV is always valid (the 4.1 loader
// seeks there unconditionally: zeros are written when `data.strand_uvs` is empty); the vertex UV,
// thickness and colour offsets are 0 (absent; 4.1 reads none of them).
// `data.inverse_mass` empty: 0 for the first two vertices of each strand (pinned), 1 for the others.
// InvalidArgument when there are no strands, when strands differ in point count, when the count is not
// 4, 8, 16, 32 or 64 (resample first: groom/groom.h resample_strands), when a per-point or per-strand
// array has the wrong size, or a value is not finite; LimitExceeded when offsets would pass 4 GiB.
Result<std::vector<uint8_t>> encode_tfx(const HairFileData& data);
// encode_tfx + write_file_atomic (never a partial file); errors name the path.
Status write_tfx_file(const std::filesystem::path& path, const HairFileData& data);

}  // namespace tressel
