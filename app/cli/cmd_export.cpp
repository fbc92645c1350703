// tressel-cli export <scene.json> --format tfx|hair|usda|gltf|preset ... --out PATH: grows the scene's
// hair groups on their scalp meshes and writes them for engines (engine/io/export_groom.h).
#include <cstdio>
#include <filesystem>
#include <list>

#include "cli_args.h"
#include "commands.h"
#include "groom/grow.h"
#include "io/export_groom.h"
#include "io/scene_meshes.h"
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
    const Scene& scene = loaded->scene;
    auto meshes = load_scene_meshes(scene);
    if (!meshes) return fail(meshes.error().message);
    auto find_mesh = [&](const std::string& name) -> const SceneMesh* {
        for (const auto& m : *meshes)
            if (m.name == name) return &m;
        return nullptr;
    };
    auto joint_names = [](const SceneMesh& m) {
        std::vector<std::string> names;
        if (m.mesh.skin < 0 || size_t(m.mesh.skin) >= m.imported.skins.size()) return names;
        for (int node : m.imported.skins[size_t(m.mesh.skin)].joints)
            names.push_back(node >= 0 && size_t(node) < m.imported.nodes.size() ? m.imported.nodes[size_t(node)].name : "");
        return names;
    };

    ExportDesc desc;
    desc.format = *kind;
    desc.out = *args->get("out");
    desc.include_follows = args->has("all");
    desc.environment = scene.environment;
    desc.tressfx.gravity_scale = *gravity_scale;
    const auto only = args->get("group");
    std::list<GroomResult> grooms;  // stable addresses for desc.groups
    for (const HairGroup& group : scene.hair_groups) {
        if (only && group.name != *only) continue;
        const SceneMesh* scalp = find_mesh(group.scalp.mesh);
        if (!scalp) return fail("hair group '" + group.name + "': scalp.mesh '" + group.scalp.mesh + "' names no mesh of the scene");
        GroomInputs in;
        in.scalp = &scalp->mesh;
        in.group = group;
        in.base_dir = scene.origin.dir;
        auto r = grow_group(in);
        if (!r) return fail("hair group '" + group.name + "': " + r.error().message);
        for (const auto& d : r->diagnostics.items) std::fprintf(stderr, "%s\n", format(d).c_str());
        grooms.push_back(std::move(*r));
        desc.groups.push_back({&group, &grooms.back(), &scalp->mesh, joint_names(*scalp), nullptr});
    }
    if (only && desc.groups.empty()) return fail("no hair group named '" + *only + "'");
    if (desc.groups.empty()) return fail("the scene has no hair groups to export");
    for (const auto& c : scene.collision_meshes)
        if (const SceneMesh* m = find_mesh(c.mesh)) desc.collision.push_back({c, &m->mesh, joint_names(*m)});
    for (size_t i = 0; i < scene.meshes.size(); ++i)
        if (scene.meshes[i].visible)
            if (const SceneMesh* m = find_mesh(scene.meshes[i].name)) desc.meshes.push_back(&m->mesh);

    auto report = export_groom(desc);
    if (!report) return fail(report.error().message);
    for (const auto& d : report->diagnostics.items) std::fprintf(stderr, "%s\n", format(d).c_str());
    for (const auto& f : report->files) std::printf("wrote %s\n", f.string().c_str());
    return 0;
}

}  // namespace tressel::cli
