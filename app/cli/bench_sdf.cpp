// `tressel-cli bench sdf`: GPU SDF build times on the Rat Boy body (TressFX's own collision mesh and
// cell count) and on the armadillo at about 128^3 and 256^3 cells.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "core/file_io.h"
#include "gpu_context.h"
#include "io/mesh_import.h"
#include "sdf/gpu/sdf_bench.h"

namespace tressel::cli {

namespace {

Result<Mesh> load_mesh(const std::filesystem::path& path) {
    auto imported = import_mesh_file(path);
    if (!imported) return imported.error();
    return merge_meshes(*imported, path.stem().string());
}

// cells_x giving a grid of about `n` cells along its longest axis with padding `pad` (TressFX sizing).
int cells_x_for(const Mesh& m, int n, double pad) {
    MeshReport r = analyze_mesh(m);
    glm::dvec3 ext = glm::dvec3(r.bounds_max - r.bounds_min);
    double largest = std::max(ext.x, std::max(ext.y, ext.z));
    // dims_longest ~= cells_x * largest / ext.x + 2 * pad * cells_x
    double per_cell = largest / ext.x + 2.0 * pad;
    return std::max(1, int(std::lround(double(n) / per_cell)));
}

}  // namespace

int bench_sdf(const Args& args, nlohmann::json& out) {
    auto frames = args.get_int("frames", 50);
    if (!frames || *frames < 1 || *frames > 100000) return fail("--frames must be 1..100000", 2);
    std::filesystem::path data = args.get_or("testdata", bench_testdata_dir());
    auto ratboy = load_mesh(data / "tressfx/Ratboy_body.tfxmesh");
    if (!ratboy) return fail(ratboy.error().message + " (set --testdata DIR)");
    auto armadillo = load_mesh(data / "meshes/armadillo.obj");
    if (!armadillo) return fail(armadillo.error().message + " (set --testdata DIR)");

    auto ctx = GpuContext::create(args.get_or("device", ""));
    if (!ctx) return fail(ctx.error().message);
    auto pipelines = SdfGpuPipelines::create(*ctx->device);
    if (!pipelines) return fail(pipelines.error().message);

    const double pad = 0.1;
    std::vector<SdfBenchCase> cases = {
        {"ratboy_body_50_cells", &*ratboy, 50, 0.8, SignMethod::Auto},
        {"armadillo_128", &*armadillo, cells_x_for(*armadillo, 128, pad), pad, SignMethod::Auto},
        {"armadillo_256", &*armadillo, cells_x_for(*armadillo, 256, pad), pad, SignMethod::Auto},
    };
    nlohmann::json results = nlohmann::json::array();
    for (auto& c : cases) {
        auto r = bench_sdf_gpu(*ctx->device, *pipelines, c, int(*frames));
        if (!r) return fail(c.name + ": " + r.error().message);
        nlohmann::json passes = nlohmann::json::object();
        for (auto& [k, v] : r->median_ms) passes[k] = v;
        results.push_back({{"name", r->name},
                           {"cells_x", c.cells_x},
                           {"padding", c.padding},
                           {"dims", {r->dims.x, r->dims.y, r->dims.z}},
                           {"cells", r->cells},
                           {"triangles", r->triangles},
                           {"inside_cells", r->inside_cells},
                           {"frames", r->frames},
                           {"median_ms", passes},
                           {"narrow_band_ms", r->narrow_band_ms},
                           {"total_ms", r->total_ms}});
        std::fprintf(stderr, "%-22s %4d x %4d x %4d  narrow band %.4f ms  total %.4f ms\n", r->name.c_str(), r->dims.x,
                     r->dims.y, r->dims.z, r->narrow_band_ms, r->total_ms);
    }
    out["workload"] = "sdf";
    out["device"] = ctx->device->info().name;
    out["device_type"] = gpu::to_string(ctx->device->info().type);
    out["results"] = results;
    // The compiler's figures per pass (registers per thread, shared memory, spills) where the driver gives
    // them: what decides how many workgroups of a latency-bound pass an SM keeps in flight.
    nlohmann::json stats = nlohmann::json::object();
    const std::pair<const char*, const gpu::ComputePipeline*> named[] = {
        {"sdf/band.comp", &pipelines->band},         {"sdf/coarse_seed.comp", &pipelines->coarse_seed},
        {"sdf/jfa.comp (2 lanes)", &pipelines->jfa[0]},           {"sdf/parity_triangle.comp", &pipelines->parity_triangle},
        {"sdf/parity_prefix.comp", &pipelines->parity_prefix}, {"sdf/finalize.comp", &pipelines->finalize}};
    for (auto& [name, pipe] : named) {
        nlohmann::json one = nlohmann::json::object();
        for (auto& [k, v] : ctx->device->pipeline_statistics(*pipe)) one[k] = v;
        if (!one.empty()) stats[name] = one;
    }
    out["pipeline_statistics"] = stats;
    const SdfGpuTuning& t = pipelines->tuning;
    out["tuning"] = {{"band_lanes", t.band_lanes}, {"band_triangles", t.band_triangles},
                     {"finalize_blocks", t.finalize_blocks}, {"jfa_workgroup", t.jfa_workgroup},
                     {"jfa_lanes", t.jfa_lanes}};
    if (int e = ctx->validation_errors()) return fail(std::to_string(e) + " Vulkan validation errors", 3);
    return 0;
}

}  // namespace tressel::cli
