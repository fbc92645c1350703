// tressel-cli sdf: build a collision mesh's signed distance field (GPU by default, CPU reference on
// request), report it, and write slices and the raw field.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "commands.h"
#include "core/file_io.h"
#include "gpu_context.h"
#include "io/scene_meshes.h"
#include "scene/scene_io.h"
#include "sdf/gpu/sdf_gpu.h"
#include "sdf/sdf_slice.h"
#include "sdf/sdf_check.h"

namespace tressel::cli {

const char* const kSdfUsage =
    "usage: tressel-cli sdf <mesh file | scene.json> [--mesh NAME] [--cells-x N] [--padding F]\n"
    "                        [--sign auto|parity|winding|face_normal] [--band N] [--cpu]\n"
    "                        [--slice x|y|z:POS --png out.png] [--margin M] [--upscale K]\n"
    "                        [--raw out.f32] [--json] [--memory-cap-mib N]\n\n"
    "Builds the signed distance field of a collision mesh on the GPU (--cpu: the CPU reference) and\n"
    "prints the grid size, the time per pass (GPU timestamps), the inside-cell count and the mesh\n"
    "problems that affect the sign (open edges, non-manifold edges, degenerate triangles), and how much\n"
    "of the surface the field misses: under each triangle, points half the margin inside that the field\n"
    "reads as outside (parts thinner than about a cell, such as ears in coarse cells; hair passes into them).\n"
    "For a scene, the collision mesh is --mesh NAME (default: the first) and its cells_x, padding,\n"
    "margin and sign are used unless given here. Defaults otherwise: 64 cells, padding 0.8, auto sign.\n"
    "  --slice AXIS:POS  slice position 0..1 across the grid (e.g. z:0.5); --png writes it (diverging\n"
    "                    colours, isolines every 2 cells, zero contour, margin contour, unwritten cells\n"
    "                    magenta); --upscale pixels per cell (default: up to ~512 px wide)\n"
    "  --raw FILE        float32 little-endian signed distances in metres, x fastest then y then z,\n"
    "                    and FILE.json with origin (centre of cell 0,0,0, metres), cell_size, dims\n";

namespace {

using nlohmann::json;

Result<SignMethod> parse_sign(const std::string& s) {
    if (s == "auto") return SignMethod::Auto;
    if (s == "parity") return SignMethod::Parity;
    if (s == "winding") return SignMethod::Winding;
    if (s == "face_normal") return SignMethod::FaceNormal;
    return make_error(ErrorCode::InvalidArgument, "--sign must be auto, parity, winding or face_normal, got '" + s + "'");
}

Status write_raw(const std::filesystem::path& path, const SdfGrid& grid) {
    static_assert(sizeof(float) == 4);
    std::vector<uint8_t> bytes(grid.distance_m.size() * 4);
    for (size_t i = 0; i < grid.distance_m.size(); ++i) {
        uint32_t u;
        std::memcpy(&u, &grid.distance_m[i], 4);
        for (int b = 0; b < 4; ++b) bytes[4 * i + size_t(b)] = uint8_t(u >> (8 * b));  // little-endian
    }
    TRESSEL_TRY(write_file_atomic(path, bytes));
    json meta = {{"format", "tressel-sdf-raw"},
                 {"origin", {grid.grid.origin_m.x, grid.grid.origin_m.y, grid.grid.origin_m.z}},
                 {"cell_size", grid.grid.cell_size_m},
                 {"dims", {grid.grid.dims.x, grid.grid.dims.y, grid.grid.dims.z}},
                 {"units", "m"},
                 {"layout", "float32 little-endian, x fastest, then y, then z; negative inside"}};
    std::filesystem::path meta_path = path;
    meta_path += ".json";
    return write_file_atomic(meta_path, meta.dump(2) + "\n");
}

}  // namespace

int run_sdf(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"mesh", true},    {"cells-x", true}, {"padding", true}, {"sign", true},
                                   {"band", true},    {"cpu", false},    {"slice", true},   {"png", true},
                                   {"margin", true},  {"upscale", true}, {"raw", true},     {"json", false},
                                   {"memory-cap-mib", true}, {"device", true}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 1) return fail("sdf takes exactly one mesh or scene file (see --help)", 2);
    std::filesystem::path input = args->positionals()[0];

    // Defaults, then the scene's collision mesh, then the command line.
    CollisionMesh params;
    Mesh mesh;
    std::string ext = input.extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".json") {
        auto loaded = load_scene(input);
        if (!loaded) return fail(loaded.error().message);
        const Scene& scene = loaded->scene;
        if (scene.collision_meshes.empty()) return fail(input.string() + " has no collision meshes");
        const CollisionMesh* chosen = &scene.collision_meshes[0];
        if (auto name = args->get("mesh")) {
            chosen = nullptr;
            for (auto& c : scene.collision_meshes)
                if (c.mesh == *name) chosen = &c;
            if (!chosen) return fail("the scene has no collision mesh on mesh '" + *name + "'");
        }
        params = *chosen;
        size_t index = 0;
        while (index < scene.meshes.size() && scene.meshes[index].name != params.mesh) ++index;
        auto m = load_scene_mesh(scene, index);
        if (!m) return fail(m.error().message);
        mesh = std::move(m->mesh);
    } else {
        auto imported = import_mesh_file(input);
        if (!imported) return fail(imported.error().message);
        mesh = merge_meshes(*imported, input.stem().string());
    }

    auto cells_x = args->get_int("cells-x", params.cells_x);
    auto padding = args->get_double("padding", params.padding);
    auto band = args->get_int("band", 2);
    auto margin = args->get_double("margin", params.margin_m);
    auto cap = args->get_int("memory-cap-mib", int64_t(kSdfDefaultMemoryCapBytes >> 20));
    for (auto* r : {&cells_x, &band, &cap})
        if (!*r) return fail(r->error().message, 2);
    for (auto* r : {&padding, &margin})
        if (!*r) return fail(r->error().message, 2);
    if (*cells_x < -1'000'000 || *cells_x > 1'000'000) return fail("--cells-x is absurd: " + std::to_string(*cells_x), 2);
    if (*cap < 1) return fail("--memory-cap-mib must be at least 1", 2);
    SignMethod sign = params.sign;
    if (auto s = args->get("sign")) {
        auto parsed = parse_sign(*s);
        if (!parsed) return fail(parsed.error().message, 2);
        sign = *parsed;
    }

    SdfBuildDesc desc;
    desc.mesh = &mesh;
    desc.cells_x = int(*cells_x);
    desc.padding = *padding;
    desc.sign = sign;
    desc.band_cells = int(*band);
    desc.memory_cap_bytes = uint64_t(*cap) << 20;

    Diagnostics diag;
    std::vector<gpu::PassTime> times;
    std::string device_name = "CPU reference";
    Result<SdfGrid> grid = make_error(ErrorCode::InvalidArgument, "not built");
    if (args->has("cpu")) {
        grid = build_sdf_cpu(desc, diag);
    } else {
        auto ctx = GpuContext::create(args->get_or("device", ""));
        if (!ctx) return fail(ctx.error().message);
        device_name = ctx->device->info().name;
        auto pipelines = SdfGpuPipelines::create(*ctx->device);
        if (!pipelines) return fail(pipelines.error().message);
        auto field = build_sdf_gpu(*ctx->device, *pipelines, desc, diag, &times);
        if (!field) return fail(field.error().message);
        grid = read_back_sdf(*ctx->device, *field);
        if (int errors = ctx->validation_errors()) return fail(std::to_string(errors) + " Vulkan validation errors", 3);
    }
    if (!grid) return fail(grid.error().message);
    const SdfGrid& g = *grid;
    MeshReport report = analyze_mesh(mesh);

    if (auto slice_spec = args->get("slice")) {
        auto colon = slice_spec->find(':');
        char axis_char = slice_spec->empty() ? '?' : char(std::tolower(static_cast<unsigned char>((*slice_spec)[0])));
        if (colon != 1 || (axis_char != 'x' && axis_char != 'y' && axis_char != 'z'))
            return fail("--slice must look like z:0.5 (axis x, y or z, position 0..1)", 2);
        char* end = nullptr;
        double pos = std::strtod(slice_spec->c_str() + 2, &end);
        if (!end || *end || !std::isfinite(pos) || pos < 0.0 || pos > 1.0)
            return fail("--slice position must be a number in [0, 1]", 2);
        auto png = args->get("png");
        if (!png) return fail("--slice needs --png out.png", 2);
        SliceAxis axis = axis_char == 'x' ? SliceAxis::X : axis_char == 'y' ? SliceAxis::Y : SliceAxis::Z;
        SdfSlice slice = make_slice(g, axis, pos);
        SliceStyle style;
        style.margin_m = *margin;
        auto upscale = args->get_int("upscale", std::clamp(512 / std::max(slice.width, 1), 1, 16));
        if (!upscale || *upscale < 1 || *upscale > 16) return fail("--upscale must be 1..16", 2);
        style.upscale = int(*upscale);
        auto st = write_slice_png(*png, slice, style);
        if (!st) return fail(st.error().message);
    }
    if (auto raw = args->get("raw")) {
        auto st = write_raw(*raw, g);
        if (!st) return fail(st.error().message);
    }

    double total_ms = 0.0;
    for (auto& t : times) total_ms += t.ms;
    // How much of the surface the field sees at this margin (sdf/sdf_check.h): its cells against the
    // mesh's thin parts.
    const SdfCoverage coverage = check_sdf_coverage(g, mesh, *margin);
    if (args->has("json")) {
        json passes = json::object();
        for (auto& t : times) passes[t.name] = t.ms;
        json out = {{"mesh", mesh.name},
                    {"device", device_name},
                    {"dims", {g.grid.dims.x, g.grid.dims.y, g.grid.dims.z}},
                    {"cell_size_m", g.grid.cell_size_m},
                    {"origin_m", {g.grid.origin_m.x, g.grid.origin_m.y, g.grid.origin_m.z}},
                    {"sign", sign_method_name(g.sign_used)},
                    {"cells", g.stats.cells},
                    {"inside_cells", g.stats.inside_cells},
                    {"band_cells", g.stats.band_cells},
                    {"unwritten_cells", g.stats.unwritten_cells},
                    {"triangles", g.stats.triangles},
                    {"open_edges", report.open_edges},
                    {"non_manifold_edges", report.non_manifold_edges},
                    {"degenerate_triangles", report.degenerate_triangles},
                    {"coverage", {{"missed_share", coverage.missed_share()}, {"missed_area_m2", coverage.missed_area_m2},
                                  {"area_m2", coverage.area_m2}, {"worst_reading_m", coverage.worst_reading_m},
                                  {"worst_m", {coverage.worst_m.x, coverage.worst_m.y, coverage.worst_m.z}}}},
                    {"gpu_ms", passes},
                    {"gpu_ms_total", total_ms}};
        json d = json::array();
        for (auto& item : diag.items) d.push_back(format(item));
        out["diagnostics"] = d;
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    }
    std::printf("%s: %d x %d x %d cells (%llu), cell %.4g m, origin [%.4g %.4g %.4g] m\n", mesh.name.c_str(),
                g.grid.dims.x, g.grid.dims.y, g.grid.dims.z, static_cast<unsigned long long>(g.stats.cells),
                g.grid.cell_size_m, g.grid.origin_m.x, g.grid.origin_m.y, g.grid.origin_m.z);
    std::printf("sign: %s; inside cells %llu; band cells %llu; unwritten cells %llu\n", sign_method_name(g.sign_used),
                static_cast<unsigned long long>(g.stats.inside_cells), static_cast<unsigned long long>(g.stats.band_cells),
                static_cast<unsigned long long>(g.stats.unwritten_cells));
    std::printf("mesh: %llu triangles, %zu open edges, %zu non-manifold edges, %zu degenerate triangles%s\n",
                static_cast<unsigned long long>(g.stats.triangles), report.open_edges, report.non_manifold_edges,
                report.degenerate_triangles,
                report.closed() ? "" : " (not closed: inside/outside comes from winding numbers)");
    std::printf("coverage: %.2f%% of the surface (%.1f of %.1f cm^2) reads as outside half a margin (%.4g m) under it%s\n",
                100.0 * coverage.missed_share(), 1e4 * coverage.missed_area_m2, 1e4 * coverage.area_m2, 0.5 * *margin,
                coverage.missed_share() > kSdfCoverageWarnShare ? ": parts thinner than about a cell, which hair passes into; more cells resolve them" : "");
    if (!times.empty()) {
        std::printf("GPU passes on %s:\n", device_name.c_str());
        for (auto& t : times) std::printf("  %-20s %9.4f ms\n", t.name.c_str(), t.ms);
        std::printf("  %-20s %9.4f ms\n", "total", total_ms);
    }
    for (auto& item : diag.items) std::printf("%s\n", format(item).c_str());
    return 0;
}

}  // namespace tressel::cli
