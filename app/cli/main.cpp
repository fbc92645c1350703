// tressel-cli: the headless tool. Links only the engine; it is the integration-test driver and the
// benchmark harness.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "commands.h"
#include "core/install_paths.h"

namespace tressel::cli {
namespace {

const Command kCommands[] = {
    {"info", "summarise a scene or a mesh file: counts, bounds, topology problems", kInfoUsage, &run_info},
    {"sdf", "build a collision mesh's signed distance field: sizes, pass times, slices, raw field", kSdfUsage, &run_sdf},
    {"bake", "simulate a scene headless: per-frame stretch, penetration, energy, GPU ms per pass", kBakeUsage, &run_bake},
    {"groom", "grow a scene's hair groups: statistics, strands as JSON", kGroomUsage, &run_groom},
    {"brush", "apply recorded brush strokes to a hair group's guides and save them with the scene", kBrushUsage, &run_brush},
    {"render", "render a scene offscreen to a PNG: hair, shadows, shading models, debug views, SDF slice", kRenderUsage, &run_render},
    {"bench", "benchmarks printed as JSON: groom, sdf, sim, render", kBenchUsage, &run_bench},
    {"export", "write a scene's hair for engines: TressFX, cyHair, USD, glTF, TressFX settings", kExportUsage, &run_export},
    {"preset", "save, apply and check simulation / shading / growth / collision presets", kPresetUsage, &run_preset},
};

void print_help() {
    std::printf(
        "tressel-cli - headless tools of Tressel, the strand-hair authoring tool\n\n"
        "usage: tressel-cli <command> [arguments]\n"
        "       tressel-cli <command> --help\n"
        "       tressel-cli --version\n\n"
        "commands:\n");
    for (const Command& c : kCommands) std::printf("  %-10s %s\n", c.name, c.summary);
    std::printf(
        "\nenvironment:\n"
        "  TRESSEL_DEVICE      GPU to use: discrete, integrated, cpu, an index, or part of its name\n"
        "  TRESSEL_VALIDATION  1 enables the Vulkan validation layers\n"
        "  TRESSEL_PRESETS     the shipped presets' directory (default: found beside the installed tool)\n");
}

}  // namespace

int fail(const std::string& message, int code) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return code;
}

}  // namespace tressel::cli

int main(int argc, char** argv) {
    using namespace tressel::cli;
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        print_help();
        return argc < 2 ? 2 : 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
        tressel::print_version("tressel-cli");
        return 0;
    }
    std::vector<std::string> args(argv + 2, argv + argc);
    for (const Command& c : kCommands) {
        if (std::strcmp(c.name, argv[1]) != 0) continue;
        for (auto& a : args)
            if (a == "--help" || a == "-h") {
                std::printf("%s", c.usage);
                return 0;
            }
        return c.run(args);
    }
    return fail(std::string("unknown command '") + argv[1] + "' (see tressel-cli --help)", 2);
}
