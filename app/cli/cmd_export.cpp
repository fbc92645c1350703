// tressel-cli export <scene.json> --format tfx|hair|usda|gltf|preset ... --out PATH: grows the scene's
// hair groups as the editor does (engine/runtime) and writes them for engines (engine/export).
#include <cstdio>
#include <filesystem>

#include "cli_args.h"
#include "commands.h"
#include "runtime/scene_export.h"
#include "runtime/scene_runtime.h"
#include "scene/scene_io.h"

namespace tressel::cli {

const char* const kExportUsage =
    "usage: tressel-cli export <scene.json> --format tfx|hair|usda|gltf|preset --out PATH\n"
    "                          [--group NAME] [--guides|--all] [--frame N] [--gravity-scale S]\n\n"
    "Grows the scene's hair groups (or only NAME) and writes them for engines:\n"
    "  tfx     TressFX 4.1 .tfx (resampled to simulation.gpu_vertices_per_strand) + .tfxbone beside it +\n"
    "          <stem>_<mesh>.tfxmesh per collision mesh\n"
    "  hair    cyHair .hair with segments, points, thickness, transparency and colours\n"
    "  usda    USD BasisCurves per group with Unreal groom primvars (upAxis Y, metersPerUnit 1)\n"
    "  gltf    glTF 2.0: the scene's visible meshes and the strands as LINES (.gltf or .glb by extension)\n"
    "  preset  TressFX settings (names and units of TressFX 4.1) as JSON; see docs/tressfx-export.md\n"
    "With several groups, tfx and hair write one file per group: <stem>_<group><ext>.\n"
    "--guides  guide strands only (the default)     --all  guides and follow hairs\n"
    "          With tfx, --all writes the follow hairs as ordinary strands, which TressFX then simulates as\n"
    "          guides; the default (guides, plus --format preset for the settings) lets TressFX make its own\n"
    "          follow hairs from numFollowHairsPerGuideHair.\n"
    "--frame   0 = the groomed rest pose (the only frame until the simulation is available)\n"
    "--gravity-scale  preset: gravityMagnitude = -gravity.y x S (default 1)\n";

int run_export(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"format", true}, {"out", true}, {"group", true}, {"guides", false}, {"all", false},
                                   {"frame", true}, {"gravity-scale", true}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 1) return fail("export takes exactly one scene file (see tressel-cli export --help)", 2);
    if (!args->has("format")) return fail("export needs --format tfx|hair|usda|gltf|preset", 2);
    if (!args->has("out")) return fail("export needs --out PATH", 2);
    if (args->has("guides") && args->has("all")) return fail("--guides and --all exclude each other", 2);
    auto kind = parse_export_format(*args->get("format"));
    if (!kind) return fail(kind.error().message, 2);
    auto frame = args->get_int("frame", 0);
    if (!frame) return fail(frame.error().message, 2);
    if (*frame != 0)
        return fail("--frame " + std::to_string(*frame) + ": exporting a simulated frame needs the simulation, which is not "
                    "available yet; only --frame 0 (the groomed rest pose) can be exported");
    auto gravity_scale = args->get_double("gravity-scale", 1.0);
    if (!gravity_scale) return fail(gravity_scale.error().message, 2);
    if (!(*gravity_scale > 0.0)) return fail("--gravity-scale must be positive", 2);

    auto loaded = load_scene(args->positionals()[0]);
    if (!loaded) return fail(loaded.error().message);
    // The scene's grooms as the editor grows them (runtime/scene_content.h); no GPU is needed.
    auto rt = runtime::SceneRuntime::create(nullptr, {});
    if (!rt) return fail(rt.error().message);
    if (Status st = (*rt)->apply(loaded->scene); !st) return fail(st.error().message);

    runtime::SceneExportRequest request;
    request.format = *kind;
    request.out = *args->get("out");
    request.include_follows = args->has("all");
    request.gravity_scale = *gravity_scale;
    request.group = args->get("group");
    auto report = runtime::export_scene((*rt)->scene(), *(*rt)->content(), request);
    if (!report) return fail(report.error().message);
    // What growing the hair did (e.g. guides moved out of the scalp) is part of what was exported.
    for (const auto& d : (*rt)->content()->diagnostics.items)
        if (d.where != "scene") std::fprintf(stderr, "%s\n", format(d).c_str());
    for (const auto& d : report->diagnostics.items) std::fprintf(stderr, "%s\n", format(d).c_str());
    for (const auto& f : report->files) std::printf("wrote %s\n", f.string().c_str());
    return 0;
}

}  // namespace tressel::cli
