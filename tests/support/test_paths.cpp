#include "test_paths.h"

namespace tressel::test {

std::filesystem::path scratch_dir(const std::string& name) {
    auto dir = std::filesystem::path(TRESSEL_BINARY_DIR) / "test-scratch" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace tressel::test
