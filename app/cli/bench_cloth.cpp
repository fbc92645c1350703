// `tressel-cli bench cloth`: GPU accessory step times (engine/sim/cloth.h, soft_body.h, engine/sim/gpu/
// cloth_gpu.h): a 64 x 64, 128 x 128 and 256 x 256 vertex sheet draped over a ball's SDF, pinned at its
// centre, in wind; a soft ball of about 4,096 particles resting on the ball.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "gpu_context.h"
#include "groom/groom_bench.h"
#include "sdf/sdf.h"
#include "sim/gpu/sim_bench.h"
#include "sim/cloth_tiles.h"
#include "sim/soft_body.h"

namespace tressel::cli {

int bench_cloth(const Args& args, nlohmann::json& out) {
    auto steps = args.get_int("frames", 200);
    if (!steps || *steps < 1 || *steps > 100000) return fail("--frames must be 1..100000", 2);
    std::vector<int> iteration_counts = {10, 20};
    if (auto it = args.get_int("iterations", 0); it && *it > 0) iteration_counts = {int(*it)};

    auto ctx = GpuContext::create(args.get_or("device", ""));
    if (!ctx) return fail(ctx.error().message);
    gpu::Device& device = *ctx->device;
    auto pipelines = SimGpuPipelines::create(device);
    if (!pipelines) return fail(pipelines.error().message);

    // A ball of 0.15 m radius and its field (64 cells across), the sheet 0.6 m across, 2 cm above it.
    const Mesh ball = make_sphere_mesh(0.15f, 48, 96);
    SdfBuildDesc d;
    d.mesh = &ball;
    d.cells_x = 64;
    d.padding = 0.3;
    Diagnostics diag;
    auto field = build_sdf_cpu(d, diag);
    if (!field) return fail("ball field: " + field.error().message);

    nlohmann::json results = nlohmann::json::array();
    std::vector<uint32_t> sides = {64u, 128u, 256u};
    if (const std::string list = args.get_or("sides", ""); !list.empty()) {
        sides.clear();
        size_t at = 0;
        while (at <= list.size()) {
            const size_t comma = std::min(list.find(',', at), list.size());
            const std::string one = list.substr(at, comma - at);
            char* end = nullptr;
            const unsigned long side = std::strtoul(one.c_str(), &end, 10);
            if (one.empty() || *end != '\0' || side < 2 || side > 1024) return fail("--sides takes sheet sides of 2..1024 vertices, comma-separated: got '" + one + "'", 2);
            sides.push_back(uint32_t(side));
            at = comma + 1;
        }
    }
    if (args.get_or("only", "") == "stats") sides.clear();
    for (uint32_t side : sides)
        for (int iterations : iteration_counts) {
            SimWorldInputs in;
            in.sdfs.push_back({"ball", &*field, 0.004});
            in.environment.wind.speed_mps = 2.0;
            in.environment.wind.turbulence = 0.5;
            auto world = build_sim_world(in);
            if (!world) return fail(world.error().message);
            const Mesh sheet = make_cloth_sheet("sheet", glm::vec3(-0.3f, 0.17f, -0.3f), glm::vec3(0.6f, 0, 0), glm::vec3(0, 0, 0.6f), side - 1, side - 1);
            ClothBuildInputs cb;
            cb.name = "sheet";
            cb.mesh = &sheet;
            cb.params.iterations = iterations;
            for (const glm::vec3& p : sheet.positions) cb.pinned.push_back(std::abs(p.x) < 0.03f && std::abs(p.z) < 0.03f);
            auto cloth = build_cloth(cb);
            if (!cloth) return fail(cloth.error().message);
            cloth->sdf_indices = {0};
            const size_t vertices = cloth->vertex_count(), constraints = cloth->constraints.size();
            const ClothTiles tiles = build_cloth_tiles(*cloth);
            world->cloths.push_back(std::move(*cloth));
            // Let it fall onto the ball first (on the device), so the timed steps have contacts.
            auto r = bench_sim_gpu(device, *pipelines, *world, int(*steps));
            if (!r) return fail(r.error().message);
            nlohmann::json row;
            row["vertices"] = vertices;
            row["constraints"] = constraints;
            row["iterations"] = iterations;
            row["step_ms"] = r->fused.step_ms;
            row["ms_per_iteration"] = r->fused.step_ms / double(iterations + 1);
            row["tiles"] = tiles.tiles.size();
            row["tile_vertices"] = tiles.vertices.size();
            row["tile_constraints"] = tiles.edges.size();
            row["tile_bending_groups"] = tiles.bend.size();
            results.push_back(row);
            std::fprintf(stderr, "cloth %u x %u, %d iterations: %.4f ms per step\n", side, side, iterations, r->fused.step_ms);
        }
    // A soft ball of 0.2 m across, particles 1 cm apart (4,169 of them), dropped onto the big ball.
    nlohmann::json soft = nlohmann::json::array();
    const std::vector<int> radii = args.get_or("only", "") != "" ? std::vector<int>{} : std::vector<int>{1, 2};
    Mesh bun = make_sphere_mesh(0.1f, 32, 48);
    for (glm::vec3& p : bun.positions) p.y += 0.27f;
    for (int cluster_radius : radii)
        for (int iterations : iteration_counts) {
            SimWorldInputs in;
            in.sdfs.push_back({"ball", &*field, 0.004});
            auto world = build_sim_world(in);
            if (!world) return fail(world.error().message);
            SoftBodyBuildInputs sb;
            sb.name = "soft ball";
            sb.mesh = &bun;
            sb.params.iterations = iterations;
            sb.params.cluster_radius = cluster_radius;
            sb.pins.mode = PinMode::None;
            auto body = build_soft_body(sb);
            if (!body) return fail(body.error().message);
            body->sdf_indices = {0};
            const size_t particles = body->vertex_count(), members = body->adjacency.size();
            world->cloths.push_back(std::move(*body));
            auto r = bench_sim_gpu(device, *pipelines, *world, int(*steps));
            if (!r) return fail(r.error().message);
            nlohmann::json row;
            row["particles"] = particles;
            row["cluster_radius"] = cluster_radius;
            row["cluster_members"] = members;
            row["iterations"] = iterations;
            row["step_ms"] = r->fused.step_ms;
            soft.push_back(row);
            std::fprintf(stderr, "soft body of %zu particles, clusters of radius %d, %d iterations: %.4f ms per step\n", particles, cluster_radius,
                         iterations, r->fused.step_ms);
        }
    out["soft_bodies"] = soft;
    nlohmann::json stats;
    for (auto [name, pipe] : {std::pair{"cloth_tile", &pipelines->cloth_tile}, std::pair{"cloth_substep", &pipelines->cloth_substep}}) {
        nlohmann::json one;
        for (auto& [k, v] : device.pipeline_statistics(*pipe)) one[k] = v;
        stats[name] = one;
    }
    out["pipeline_statistics"] = stats;
    if (args.get_or("only", "") == "stats") return 0;
    out["workload"] = "cloth";
    out["device"] = device.info().name;
    out["what"] = "median GPU ms of one simulation substep of a sheet pinned at its centre over a ball's SDF (64 cells), wind 2 m/s: "
                  "a predict pass and one pass per iteration (small step); soft_bodies: a soft ball falling onto and resting on the ball, "
                  "a predict pass, two passes per iteration (clusters, particles) and a last cluster pass";
    out["cases"] = results;
    return 0;
}

}  // namespace tressel::cli
