// Paths the tests need, baked in at configure time.
#pragma once

#include <filesystem>
#include <string>

namespace tressel::test {

inline std::filesystem::path testdata(const std::string& rel) { return std::filesystem::path(TRESSEL_TESTDATA_DIR) / rel; }
inline std::filesystem::path source(const std::string& rel) { return std::filesystem::path(TRESSEL_SOURCE_DIR) / rel; }
inline std::filesystem::path binary(const std::string& rel) { return std::filesystem::path(TRESSEL_BINARY_DIR) / rel; }

// A fresh empty directory for a test's outputs, under the build tree.
std::filesystem::path scratch_dir(const std::string& name);

}  // namespace tressel::test
