#include "core/install_paths.h"

#include <cstdio>
#include <cstdlib>
#include <system_error>

#include "core/version_config.h"

namespace tressel {

const char* version() { return TRESSEL_VERSION_STRING; }

void print_version(const char* program) {
    std::printf("%s %s (%s, %s)\n", program, TRESSEL_VERSION_STRING, TRESSEL_COMPILER_STRING, TRESSEL_BUILD_TYPE_STRING);
    const std::filesystem::path dir = presets_dir();
    std::printf("presets: %s\n", dir.empty() ? "not found (set TRESSEL_PRESETS)" : dir.string().c_str());
}

std::filesystem::path presets_dir() {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("TRESSEL_PRESETS"); env && *env) return fs::path(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "tressel" / "presets";
        if (fs::is_directory(installed / "scenes", ec)) return installed;
    }
    const fs::path source = TRESSEL_SOURCE_PRESETS_DIR;
    if (fs::is_directory(source / "scenes", ec)) return source;
    return {};
}

}  // namespace tressel
