// tressel-cli groom <scene.json> [--group NAME] [--stats] [--out strands.json]: grows the scene's hair
// groups headless. tressel-cli bench groom [--mesh FILE] [--repeats N] [--clearance M] [--out FILE]: the regrow benchmark.
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "commands.h"
#include "core/file_io.h"
#include "groom/follow.h"
#include "groom/groom_bench.h"
#include "groom/grow.h"
#include "io/mesh_import.h"
#include "io/scene_meshes.h"
#include "runtime/scene_runtime.h"
#include "scene/scene_io.h"

namespace tressel::cli {

const char* const kGroomUsage =
    "usage: tressel-cli groom <scene.json> [--group NAME] [--stats] [--out strands.json]\n\n"
    "Grows every hair group of the scene (or only NAME) on its scalp mesh. Guide files (placement \"file\")\n"
    "are taken to share the scalp mesh file's coordinates and get the mesh's transform.\n"
    "--stats  prints, per group, strand and vertex counts, guide length min/mean/max (m), the region's\n"
    "         triangles and area (m^2, cm^2), roots per cm^2 and the diagnostics, as JSON\n"
    "--out    writes the guides and the evaluated follow hairs (points in metres, world space) as JSON\n";

namespace {

using nlohmann::json;

json stats_json(const std::string& name, const GroomResult& r) {
    const GroomStats& s = r.stats;
    json diags = json::array();
    for (const auto& d : r.diagnostics.items) diags.push_back(format(d));
    return {{"group", name},
            {"guides", s.guides},
            {"guide_vertices", s.guide_points},
            {"follows", s.follows},
            {"follow_vertices", s.follow_points},
            {"length_m", {{"min", s.length_min_m}, {"mean", s.length_mean_m}, {"max", s.length_max_m}}},
            {"region", {{"triangles", s.region_triangles}, {"area_m2", s.region_area_m2}, {"area_cm2", s.region_area_cm2}}},
            {"guides_per_cm2", s.guides_per_cm2},
            {"follows_per_cm2", s.follows_per_cm2},
            {"degenerate_guides", s.degenerate_guides},
            {"root_distance_m", {{"max", s.root_distance_max_m}, {"mean", s.root_distance_mean_m}}},
            {"time_ms", r.timings.total_ms},
            {"diagnostics", diags}};
}

json strands_json(const Strands& s) {
    json strands = json::array();
    for (size_t i = 0; i < s.strand_count(); ++i) {
        json pts = json::array();
        for (const auto& p : s.strand(i)) pts.push_back({p.x, p.y, p.z});
        strands.push_back({{"triangle", s.roots[i].triangle},
                           {"barycentric", {s.roots[i].barycentric.x, s.roots[i].barycentric.y, s.roots[i].barycentric.z}},
                           {"points_m", std::move(pts)}});
    }
    return strands;
}

}  // namespace

int run_groom(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"group", true}, {"stats", false}, {"out", true}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 1) return fail("groom takes exactly one scene file (see tressel-cli groom --help)", 2);
    auto loaded = load_scene(args->positionals()[0]);
    if (!loaded) return fail(loaded.error().message);
    const Scene& scene = loaded->scene;
    const auto only = args->get("group");

    // Every group grown as the editor grows it (engine/runtime: scalp clearance included); no GPU needed.
    auto rt = runtime::SceneRuntime::create(nullptr, {});
    if (!rt) return fail(rt.error().message);
    if (Status st = (*rt)->apply(scene); !st) return fail(st.error().message);
    const runtime::SceneContent& content = *(*rt)->content();

    json stats = json::array(), groups = json::array();
    int grown = 0;
    for (size_t gi = 0; gi < scene.hair_groups.size(); ++gi) {
        const HairGroup& group = scene.hair_groups[gi];
        if (only && group.name != *only) continue;
        const GroomResult* r = content.grooms[gi].get();
        ++grown;
        stats.push_back(stats_json(group.name, *r));
        if (args->has("out")) {
            Strands guides = r->guides;
            if (guides.uniform_point_count() == 0) {
                auto resampled = resample_strands(guides, uint32_t(group.simulation.gpu_vertices_per_strand));
                if (!resampled) return fail("hair group '" + group.name + "': " + resampled.error().message);
                guides = std::move(*resampled);
            }
            const Strands follows = evaluate_follows(r->follows, guides, r->guide_frames);
            groups.push_back({{"group", group.name}, {"guides", strands_json(r->guides)}, {"follows", strands_json(follows)}});
        }
    }
    if (only && grown == 0) return fail("no hair group named '" + *only + "'");
    if (args->has("stats") || !args->has("out")) std::printf("%s\n", json{{"groups", stats}}.dump(2).c_str());
    if (auto out = args->get("out")) {
        const json doc = {{"format", "tressel-strands"}, {"version", 1}, {"units", "m"}, {"groups", groups}};
        auto st = write_file_atomic(*out, doc.dump());
        if (!st.ok()) return fail(st.error().message);
    }
    return 0;
}

int run_bench_groom(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"mesh", true}, {"repeats", true}, {"out", true}, {"clearance", true}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 1 || args->positionals()[0] != "groom")
        return fail("bench takes one workload: groom (see tressel-cli bench --help)", 2);
    GroomBenchOptions options;
    auto repeats = args->get_int("repeats", 5);
    if (!repeats) return fail(repeats.error().message, 2);
    if (*repeats < 1 || *repeats > 1000) return fail("--repeats must be in 1..1000", 2);
    options.repeats = int(*repeats);
    auto clearance = args->get_double("clearance", -1.0);
    if (!clearance) return fail(clearance.error().message, 2);
    if (!(*clearance <= 0.1)) return fail("--clearance must be at most 0.1 m (negative: off)", 2);
    options.clearance_m = *clearance;
    Mesh mesh;
    if (auto path = args->get("mesh")) {
        auto imported = import_mesh_file(*path);
        if (!imported) return fail(imported.error().message);
        mesh = merge_meshes(*imported, std::filesystem::path(*path).stem().string());
        options.scalp = &mesh;
    }
    auto r = run_groom_bench(options);
    if (!r) return fail(r.error().message);
    const std::string text = to_json(*r) + "\n";
    if (auto out = args->get("out")) {
        auto st = write_file_atomic(*out, std::string_view(text));
        if (!st.ok()) return fail(st.error().message);
    } else {
        std::printf("%s", text.c_str());
    }
    return 0;
}

}  // namespace tressel::cli
