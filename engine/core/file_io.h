// Whole-file reads with a size cap and crash-safe writes (temporary file, flush, fsync, rename), so an
// interrupted save never leaves a half-written file behind.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace tressel {

inline constexpr uint64_t kDefaultMaxFileBytes = 4ull << 30;  // 4 GiB: nothing Tressel reads is larger

// Reads a whole file. Fails with NotFound / Io, or LimitExceeded when it is larger than max_bytes.
Result<std::vector<uint8_t>> read_file_bytes(const std::filesystem::path& path, uint64_t max_bytes = kDefaultMaxFileBytes);
Result<std::string> read_file_text(const std::filesystem::path& path, uint64_t max_bytes = kDefaultMaxFileBytes);

// Writes `path.tmp-XXXX` in the same directory, fsyncs it, then renames it over `path`. On any failure
// the temporary is removed and `path` is left as it was.
Status write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes);
Status write_file_atomic(const std::filesystem::path& path, std::string_view text);

}  // namespace tressel
