// tressel: the editor. Usage: tressel [scene.json] [--frames N] [--device NAME] [--validation]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "editor_app.h"

namespace {

// The default scene: next to the binary in an installed layout, else in the source tree it was built from.
std::filesystem::path default_scene() {
    std::filesystem::path in_tree = std::filesystem::path(TRESSEL_SOURCE_PRESETS) / "scenes" / "default.json";
    return in_tree;
}

void usage() {
    std::printf(
        "usage: tressel [scene.json] [--frames N] [--device NAME] [--validation]\n"
        "  scene.json    scene to open (default: presets/scenes/default.json)\n"
        "  --frames N    quit after N frames, once loading has finished (for tests and scripts)\n"
        "  --device NAME GPU to use: discrete, integrated, cpu, an index, or part of its name\n"
        "  --validation  enable the Vulkan validation layers\n");
}

}  // namespace

int main(int argc, char** argv) {
    tressel::editor::EditorOptions options;
    bool scene_given = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else if (a == "--frames" && i + 1 < argc) {
            options.max_frames = std::strtoull(argv[++i], nullptr, 10);
        } else if (a == "--device" && i + 1 < argc) {
            options.device = argv[++i];
        } else if (a == "--validation") {
            options.validation = true;
        } else if (a.rfind("--", 0) == 0) {
            std::fprintf(stderr, "error: unknown option %s\n", a.c_str());
            usage();
            return 2;
        } else {
            options.scene = a;
            scene_given = true;
        }
    }
    if (!scene_given) options.scene = default_scene();
    tressel::editor::EditorApp app(options);
    return app.run();
}
