// tressel: the editor. Usage: see usage() below.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/install_paths.h"
#include "editor_app.h"

namespace {

// The default scene: the shipped presets' (installed, or in the source tree the editor was built from).
std::filesystem::path default_scene() {
    const std::filesystem::path dir = tressel::presets_dir();
    return dir.empty() ? std::filesystem::path("presets/scenes/default.json") : dir / "scenes" / "default.json";
}

void usage() {
    std::printf(
        "usage: tressel [scene.json] [options]\n"
        "  scene.json             scene to open (default: presets/scenes/default.json)\n"
        "  --script steps.json    run a scripted session (see app/editor/script.h); exit 5 when a step fails\n"
        "  --frames N             quit after N frames, once loading has finished (for tests)\n"
        "  --autosave-seconds S   write the recovery file every S seconds while there are unsaved changes (default 60)\n"
        "  --recover              open the recovery file left by a crashed session\n"
        "  --no-scene             start with an empty scene\n"
        "  --size WxH             window size in pixels (default 1600x900)\n"
        "  --device NAME          GPU to use: discrete, integrated, cpu, an index, or part of its name\n"
        "  --validation           enable the Vulkan validation layers\n"
        "  --version              print the version and exit\n");
}

}  // namespace

int main(int argc, char** argv) {
#if defined(__GLIBC__)
    // Blocks of 256 KiB and more (grooms, fields, meshes being imported) are mapped on their own and given
    // back when freed. glibc otherwise raises that threshold to the largest block freed so far, and a
    // regrow of a million guides, cancelled, left the editor 27 MiB larger for the rest of the session.
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
    tressel::editor::EditorOptions options;
    bool scene_given = false, no_scene = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        bool has_value = i + 1 < argc;
        if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else if (a == "--version") {
            tressel::print_version("tressel");
            return 0;
        } else if (a == "--frames" && has_value) {
            options.max_frames = std::strtoull(argv[++i], nullptr, 10);
        } else if (a == "--script" && has_value) {
            options.script = argv[++i];
        } else if (a == "--autosave-seconds" && has_value) {
            char* end = nullptr;
            options.autosave_seconds = std::strtod(argv[++i], &end);
            if (!end || *end || !(options.autosave_seconds > 0.0)) {
                std::fprintf(stderr, "error: --autosave-seconds needs a number of seconds > 0\n");
                return 2;
            }
        } else if (a == "--size" && has_value) {
            if (std::sscanf(argv[++i], "%dx%d", &options.width, &options.height) != 2 || options.width < 64 ||
                options.height < 64 || options.width > 16384 || options.height > 16384) {
                std::fprintf(stderr, "error: --size needs WxH in pixels, each in [64, 16384]\n");
                return 2;
            }
        } else if (a == "--recover") {
            options.recover = true;
        } else if (a == "--no-scene") {
            no_scene = true;
        } else if (a == "--device" && has_value) {
            options.device = argv[++i];
        } else if (a == "--validation") {
            options.validation = true;
        } else if (a.rfind("--", 0) == 0) {
            std::fprintf(stderr, "error: unknown option %s (or it needs a value)\n", a.c_str());
            usage();
            return 2;
        } else {
            options.scene = a;
            scene_given = true;
        }
    }
    if (!scene_given && !no_scene) options.scene = default_scene();
    tressel::editor::EditorApp app(options);
    return app.run();
}
