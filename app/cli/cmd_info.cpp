// tressel-cli info <scene.json | mesh file>: what a file holds and what is wrong with it.
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "commands.h"
#include "io/mesh_import.h"
#include "io/scene_meshes.h"
#include "scene/scene_io.h"

namespace tressel::cli {

const char* const kInfoUsage =
    "usage: tressel-cli info <scene.json | mesh file> [--json] [--units m|cm|mm|in|ft] [--up y|z] [--weld]\n\n"
    "Scene: its meshes (imported, with counts, bounds and topology problems), collision meshes, hair\n"
    "groups and warnings. Mesh file (OBJ, FBX, PLY, STL, DAE, glTF/GLB, .tfxmesh, ...): its parts, nodes,\n"
    "skins, animations and the report of the merged mesh. --units/--up/--weld apply to mesh files.\n"
    "--json prints the same as one JSON object.\n";

namespace {

using nlohmann::json;

json report_json(const MeshReport& r) {
    return {{"vertices", r.vertices},
            {"triangles", r.triangles},
            {"bounds_min_m", {r.bounds_min.x, r.bounds_min.y, r.bounds_min.z}},
            {"bounds_max_m", {r.bounds_max.x, r.bounds_max.y, r.bounds_max.z}},
            {"unique_positions", r.unique_positions},
            {"open_edges", r.open_edges},
            {"non_manifold_edges", r.non_manifold_edges},
            {"degenerate_triangles", r.degenerate_triangles},
            {"closed", r.closed()}};
}

void print_report(const char* indent, const MeshReport& r) {
    glm::vec3 size = r.bounds_max - r.bounds_min;
    std::printf("%svertices %zu, triangles %zu, unique positions %zu\n", indent, r.vertices, r.triangles,
                r.unique_positions);
    std::printf("%sbounds [%.4g %.4g %.4g] .. [%.4g %.4g %.4g] m (size %.4g x %.4g x %.4g m)\n", indent,
                r.bounds_min.x, r.bounds_min.y, r.bounds_min.z, r.bounds_max.x, r.bounds_max.y, r.bounds_max.z,
                size.x, size.y, size.z);
    std::printf("%s%s: open edges %zu, non-manifold edges %zu, degenerate triangles %zu\n", indent,
                r.closed() ? "closed" : "NOT closed", r.open_edges, r.non_manifold_edges, r.degenerate_triangles);
}

void print_diagnostics(const Diagnostics& d) {
    for (auto& item : d.items) std::printf("  %s\n", format(item).c_str());
}

json diagnostics_json(const Diagnostics& d) {
    json out = json::array();
    for (auto& item : d.items) out.push_back(format(item));
    return out;
}

int info_mesh(const std::filesystem::path& path, const Args& args) {
    ImportOptions options;
    if (auto u = args.get("units")) {
        auto unit = parse_length_unit(*u);
        if (!unit) return fail("--units must be m, cm, mm, in or ft, got '" + *u + "'", 2);
        options.units = *unit;
    }
    if (auto a = args.get("up")) {
        auto axis = parse_up_axis(*a);
        if (!axis) return fail("--up must be y or z, got '" + *a + "'", 2);
        options.up_axis = *axis;
    }
    options.weld = args.has("weld");
    auto imported = import_mesh_file(path, options);
    if (!imported) return fail(imported.error().message);
    Mesh merged = merge_meshes(*imported, path.stem().string());
    MeshReport total = analyze_mesh(merged);

    if (args.has("json")) {
        json parts = json::array();
        for (auto& m : imported->meshes) parts.push_back({{"name", m.name}, {"report", report_json(analyze_mesh(m))}});
        json out = {{"file", path.string()},
                    {"format", imported->format},
                    {"parts", parts},
                    {"nodes", imported->nodes.size()},
                    {"skins", imported->skins.size()},
                    {"animations", imported->animations.size()},
                    {"merged", report_json(total)},
                    {"diagnostics", diagnostics_json(imported->diagnostics)}};
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    }
    std::printf("%s (%s)\n", path.string().c_str(), imported->format.c_str());
    std::printf("  %zu part(s), %zu node(s), %zu skin(s), %zu animation(s)\n", imported->meshes.size(),
                imported->nodes.size(), imported->skins.size(), imported->animations.size());
    for (auto& s : imported->skins) std::printf("  skin '%s': %zu joints\n", s.name.c_str(), s.joints.size());
    for (auto& a : imported->animations)
        std::printf("  animation '%s': %.3g s, %zu channels\n", a.name.c_str(), a.duration_s, a.channels.size());
    if (imported->meshes.size() > 1) {
        for (auto& m : imported->meshes) {
            std::printf("  part '%s'\n", m.name.c_str());
            print_report("    ", analyze_mesh(m));
        }
        std::printf("  all parts\n");
    }
    print_report("    ", total);
    print_diagnostics(imported->diagnostics);
    return 0;
}

int info_scene(const std::filesystem::path& path, const Args& args) {
    auto loaded = load_scene(path);
    if (!loaded) return fail(loaded.error().message);
    const Scene& scene = loaded->scene;
    Diagnostics diags = loaded->diagnostics;

    json meshes = json::array();
    std::vector<std::string> lines;
    int failures = 0;
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        auto m = load_scene_mesh(scene, i);
        if (!m) {
            ++failures;
            diags.error("meshes[" + std::to_string(i) + "]", m.error().message);
            meshes.push_back({{"name", scene.meshes[i].name}, {"error", m.error().message}});
            continue;
        }
        diags.append(m->imported.diagnostics);
        meshes.push_back({{"name", m->name}, {"path", scene.meshes[i].path}, {"report", report_json(m->report)}});
    }

    if (args.has("json")) {
        json groups = json::array();
        for (auto& g : scene.hair_groups)
            groups.push_back({{"name", g.name},
                              {"scalp", g.scalp.mesh},
                              {"guides", g.growth.guides},
                              {"vertices_per_strand", g.growth.vertices_per_strand},
                              {"follow_count", g.follow.count}});
        json collision = json::array();
        for (auto& c : scene.collision_meshes)
            collision.push_back({{"mesh", c.mesh}, {"cells_x", c.cells_x}, {"margin_m", c.margin_m}});
        json out = {{"file", path.string()},   {"meshes", meshes},
                    {"collision_meshes", collision}, {"colliders", scene.colliders.size()},
                    {"hair_groups", groups},   {"diagnostics", diagnostics_json(diags)}};
        std::printf("%s\n", out.dump(2).c_str());
        return failures ? 1 : 0;
    }

    std::printf("%s: scene v%d, units %s, up %s\n", path.string().c_str(), scene.version,
                std::string(to_string(scene.units)).c_str(), std::string(to_string(scene.up_axis)).c_str());
    std::printf("meshes: %zu\n", scene.meshes.size());
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        std::printf("  %s  (%s)\n", scene.meshes[i].name.c_str(), scene.meshes[i].path.c_str());
        if (meshes[i].contains("error")) {
            std::printf("    error: %s\n", meshes[i]["error"].get<std::string>().c_str());
            continue;
        }
        MeshReport r;
        const json& j = meshes[i]["report"];
        r.vertices = j["vertices"];
        r.triangles = j["triangles"];
        r.unique_positions = j["unique_positions"];
        r.open_edges = j["open_edges"];
        r.non_manifold_edges = j["non_manifold_edges"];
        r.degenerate_triangles = j["degenerate_triangles"];
        for (int k = 0; k < 3; ++k) {
            r.bounds_min[k] = j["bounds_min_m"][k];
            r.bounds_max[k] = j["bounds_max_m"][k];
        }
        print_report("    ", r);
    }
    std::printf("collision meshes: %zu\n", scene.collision_meshes.size());
    for (auto& c : scene.collision_meshes)
        std::printf("  %s: cells_x %d, padding %.3g, margin %.4g m\n", c.mesh.c_str(), c.cells_x, c.padding, c.margin_m);
    std::printf("colliders: %zu\n", scene.colliders.size());
    for (auto& c : scene.colliders)
        std::printf("  %s: %s, radius %.4g m\n", c.name.c_str(), c.type == ColliderType::Sphere ? "sphere" : "capsule",
                    c.radius_m);
    std::printf("hair groups: %zu\n", scene.hair_groups.size());
    for (auto& g : scene.hair_groups)
        std::printf("  %s: scalp '%s', %d guides x %d vertices, length %.3g m, %d follow hairs\n", g.name.c_str(),
                    g.scalp.mesh.c_str(), g.growth.guides, g.growth.vertices_per_strand, g.growth.length_m,
                    g.follow.mode == FollowMode::None ? 0 : g.follow.count);
    if (!diags.items.empty()) {
        std::printf("diagnostics:\n");
        print_diagnostics(diags);
    }
    return failures ? 1 : 0;
}

}  // namespace

int run_info(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"json", false}, {"units", true}, {"up", true}, {"weld", false}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 1) return fail("info takes exactly one file (see tressel-cli info --help)", 2);
    std::filesystem::path path = args->positionals()[0];
    std::string ext = path.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".json" ? info_scene(path, *args) : info_mesh(path, *args);
}

}  // namespace tressel::cli
