// `tressel-cli bench anim`: an animated character's whole step on the GPU at Rat Boy scale: the body
// skinned, the roots placed on the skinned scalp, the body's collision field rebuilt from the skinned
// positions (refit and build at TressFX's 50 cells) and copied into the simulation, and one simulation step
// of the hair of `bench sim`'s Rat Boy case (the mohawk's 2,228 guides x 32 with 2 follows each, 37,747
// fur guides x 8 with 1 each). Each part has its timestamp; medians over --frames steps. Twice: with
// the field rebuilt in its narrow band only (collision_meshes[].animated_band_only) and in every cell. And the shipped
// walking scene (presets/scenes/walking.json) stepped through the runtime as the editor and `bake` do:
// the wall time of a frame, on whatever device runs it (the CPU driver's figure for the README).
//
// The body is Ratboy_body.tfxmesh (12,909 vertices, 25,814 triangles) with its own bone weights. No
// skeleton or clip ships with it, so its bones are driven by a procedural sway (each bone turned about
// the vertical through the body's centre by its own phase of a 1 Hz sine): the skinning costs what any
// pose costs. The mohawk's guides come from a .tfx file without scalp triangles: each root is attached
// to its nearest body triangle for the benchmark.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "anim/gpu/skin_gpu.h"
#include "bench.h"
#include "gpu/warm_up.h"
#include "gpu_context.h"
#include "runtime/scene_runtime.h"
#include "scene/scene_io.h"
#include "sdf/gpu/sdf_gpu.h"
#include "shared/sdf.h"
#include "sim/gpu/sim_gpu.h"

namespace tressel::cli {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The nearest triangle of `mesh` to each point and the barycentric coordinates of the closest point on it
// (brute force: a benchmark's setup).
std::vector<ScalpAttachment> attach_to_nearest(const Mesh& mesh, std::span<const glm::vec3> points) {
    std::vector<ScalpAttachment> out(points.size());
    const size_t tris = mesh.indices.size() / 3;
    for (size_t r = 0; r < points.size(); ++r) {
        float best = std::numeric_limits<float>::infinity();
        for (size_t t = 0; t < tris; ++t) {
            const glm::vec3 a = mesh.positions[mesh.indices[3 * t]], b = mesh.positions[mesh.indices[3 * t + 1]],
                            c = mesh.positions[mesh.indices[3 * t + 2]];
            const gpu_shared::SdfClosest q = gpu_shared::sdf_closest_on_triangle(points[r], a, b, c);
            const float d = glm::length(points[r] - q.point_m);
            if (d >= best) continue;
            best = d;
            // Barycentric coordinates of the closest point.
            const glm::vec3 v0 = b - a, v1 = c - a, v2 = q.point_m - a;
            const float d00 = glm::dot(v0, v0), d01 = glm::dot(v0, v1), d11 = glm::dot(v1, v1), d20 = glm::dot(v2, v0),
                        d21 = glm::dot(v2, v1), den = d00 * d11 - d01 * d01;
            const float v = den != 0.0f ? (d11 * d20 - d01 * d21) / den : 0.0f, w = den != 0.0f ? (d00 * d21 - d01 * d20) / den : 0.0f;
            out[r].triangle = uint32_t(t);
            out[r].barycentric = glm::vec3(1.0f - v - w, v, w);
        }
    }
    return out;
}

Result<nlohmann::json> bench_ratboy(gpu::Device& device, const std::filesystem::path& data, int frames, bool band_only) {
    Scene s = ratboy_bench_scene(data);
    s.motion = Motion{};      // the body moves by its skin
    s.environment.substeps = 1;  // a frame is one step: every part below runs once per simulation step
    for (HairGroup& g : s.hair_groups) g.simulation.sag_free = false;
    const CollisionMesh& cm = s.collision_meshes.front();

    runtime::RuntimeOptions options;
    options.simulation = runtime::SimBackend::None;
    auto rt = runtime::SceneRuntime::create(&device, options);
    if (!rt) return rt.error();
    if (Status st = (*rt)->apply(s); !st) return st.error();
    SimWorld& world = *(*rt)->world();
    const runtime::SceneContent& content = *(*rt)->content();
    const Mesh& mesh = content.find_mesh("body")->mesh;
    if (mesh.joints.size() != mesh.positions.size()) return make_error(ErrorCode::InvalidArgument, "Ratboy_body.tfxmesh has no bone weights");
    uint32_t bones = 1;
    for (const auto& jj : mesh.joints) {
        const glm::uvec4 j(jj);
        bones = std::max({bones, j.x + 1, j.y + 1, j.z + 1, j.w + 1});
    }

    auto sim_pipes = SimGpuPipelines::create(device);
    if (!sim_pipes) return sim_pipes.error();
    auto sim = SimGpu::create(device, *sim_pipes, world, 4, SimGpuMode::Fused);
    if (!sim) return sim.error();
    auto skin_pipe = SkinGpuPipeline::create(device);
    if (!skin_pipe) return skin_pipe.error();
    SkinBind bind;
    bind.positions = mesh.positions;
    bind.normals = mesh.normals;
    auto skinned = SkinnedMeshGpu::create(device, *skin_pipe, mesh, bind, bones);
    if (!skinned) return skinned.error();

    // The field on the world's own grid, so that the rebuilt distances drop into the simulation's.
    auto sdf_pipes = SdfGpuPipelines::create(device);
    if (!sdf_pipes) return sdf_pipes.error();
    Diagnostics diag;
    SdfBuildDesc desc;
    desc.mesh = &mesh;
    desc.cells_x = cm.cells_x;
    desc.fixed_grid = world.sdfs[0].grid->grid;
    desc.band_only = band_only;
    auto field = build_sdf_gpu(device, *sdf_pipes, desc, diag);
    if (!field) return field.error();
    auto refit = prepare_sdf_refit(device, *sdf_pipes, *field, skinned->positions(), skinned->vertex_count());
    if (!refit) return refit.error();

    // Roots: the fur's from its scalp triangles, the mohawk's attached to the nearest triangle.
    std::vector<std::unique_ptr<SkinnedRootsGpu>> roots;
    for (size_t gi = 0; gi < world.groups.size(); ++gi) {
        const GroomResult& groom = *content.grooms[gi];
        std::vector<ScalpAttachment> at = groom.guides.roots;
        if (at.size() != groom.guides.strand_count()) {
            std::vector<glm::vec3> points;
            for (size_t st = 0; st < groom.guides.strand_count(); ++st) points.push_back(groom.guides.strand(st)[0]);
            at = attach_to_nearest(mesh, points);
        }
        auto r = SkinnedRootsGpu::create(device, *skin_pipe, mesh, at, skinned->positions(), skinned->vertex_count());
        if (!r) return r.error();
        roots.push_back(std::make_unique<SkinnedRootsGpu>(std::move(*r)));
        TRESSEL_TRY(sim->set_device_root_targets(device, world, gi, &roots.back()->targets()));
    }

    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& p : mesh.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
    const glm::vec3 centre = 0.5f * (lo + hi);
    std::vector<glm::mat4> joints(bones);
    auto pose = [&](double t) {
        for (uint32_t b = 0; b < bones; ++b) {
            const float angle = 0.05f * float(std::sin(2.0 * 3.14159265358979 * t + 0.37 * b));
            joints[b] = glm::translate(glm::mat4(1.0f), centre) * glm::rotate(glm::mat4(1.0f), angle, glm::vec3(0, 1, 0)) *
                        glm::translate(glm::mat4(1.0f), -centre);
        }
        return skinned->set_joints(joints);
    };
    // The grid placed around each pose, as the runtime places an animated body's (its joints' boxes on the
    // host, whole cells from the bind pose's grid, the origin updated on the device before the refit).
    auto boxes = joint_bounds(mesh, bind, bones);
    if (!boxes) return boxes.error();
    glm::dvec3 box_lo, box_hi;
    const std::vector<glm::mat4> rest_joints(bones, glm::mat4(1.0f));
    if (!posed_bounds(*boxes, rest_joints, box_lo, box_hi)) return make_error(ErrorCode::InvalidArgument, "bench anim: no bone moves the body");
    const glm::dvec3 bind_centre = 0.5 * (box_lo + box_hi);
    const SdfGridDesc bind_grid = *desc.fixed_grid;
    auto place = [&]() {
        if (!posed_bounds(*boxes, joints, box_lo, box_hi)) return bind_grid.origin_m;
        return bind_grid.origin_m + glm::round((0.5 * (box_lo + box_hi) - bind_centre) / bind_grid.cell_size_m) * bind_grid.cell_size_m;
    };

    auto ts = gpu::TimestampQueries::create(device, 16);
    if (!ts) return ts.error();
    if (!ts->supported()) return make_error(ErrorCode::Unsupported, "the GPU has no timestamp queries");
    std::map<std::string, std::vector<double>> per_part;
    std::vector<double> totals;
    int step = 0;
    auto one_step = [&](bool keep) -> Status {
        TRESSEL_TRY(pose(double(step++) * world.frame_dt_s()));
        auto cmd = device.begin_commands();
        if (!cmd) return cmd.error();
        ts->reset(*cmd);
        ts->begin(*cmd, "skinning");
        skinned->record(*cmd, *skin_pipe);
        ts->end(*cmd);
        ts->begin(*cmd, "root update");
        for (const auto& r : roots) r->record(*cmd, *skin_pipe);
        ts->end(*cmd);
        ts->begin(*cmd, "sdf place");
        const glm::dvec3 origin = place();
        record_sdf_place(*cmd, *field, origin);
        set_sdf_placement(world.sdfs[0], glm::vec3(origin - bind_grid.origin_m));
        ts->end(*cmd);
        record_sdf_refit(*cmd, *sdf_pipes, *field, *refit, &*ts);
        record_sdf_build(*cmd, *sdf_pipes, *field, &*ts);
        ts->begin(*cmd, "sdf copy to simulation");
        Status copied = sim->record_sdf_field_copy(*cmd, world, 0, field->distance);
        ts->end(*cmd);
        ts->begin(*cmd, "simulation");
        Status stepped = sim->record_steps(*cmd, world, 1, nullptr);
        ts->end(*cmd);
        TRESSEL_TRY(copied);
        TRESSEL_TRY(stepped);
        auto serial = device.submit(std::move(*cmd));
        if (!serial) return serial.error();
        TRESSEL_TRY(device.wait(*serial));
        auto times = ts->read();
        if (!times) return times.error();
        if (!keep) return {};
        double sum = 0.0, sdf = 0.0;
        for (const gpu::PassTime& t : *times) {
            per_part[t.name].push_back(t.ms);
            sum += t.ms;
            if (t.name.rfind("sdf", 0) == 0) sdf += t.ms;
        }
        per_part["sdf rebuild"].push_back(sdf);  // refit, build passes and copy together
        totals.push_back(sum);
        return {};
    };
    TRESSEL_TRY(gpu::warm_up([&]() { return one_step(false); }));
    for (int f = 0; f < frames; ++f) TRESSEL_TRY(one_step(true));
    TRESSEL_TRY(sim->download(device, world));
    size_t non_finite = 0;
    for (const SimGroupState& g : world.groups)
        for (const glm::vec4& p : g.positions) non_finite += std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z) ? 0 : 1;

    nlohmann::json parts = nlohmann::json::object();
    for (auto& [k, v] : per_part) parts[k] = median(v);
    uint64_t guide_vertices = 0, follow_vertices = 0;
    for (const SimGroupState& g : world.groups) guide_vertices += g.positions.size(), follow_vertices += g.follow_positions.size();
    const SdfGridDesc& grid = field->plan.grid;
    const std::string name = band_only ? "ratboy_animated_band_field" : "ratboy_animated_full_field";
    std::fprintf(stderr, "%s: step %.4f ms (skinning %.4f, root update %.4f, sdf rebuild %.4f, simulation %.4f)\n",
                 name.c_str(), median(totals), parts.value("skinning", 0.0), parts.value("root update", 0.0), parts.value("sdf rebuild", 0.0),
                 parts.value("simulation", 0.0));
    return nlohmann::json{{"name", name},
                          {"field", band_only ? "narrow band (animated_band_only)" : "every cell"},
                          {"body_vertices", mesh.positions.size()},
                          {"body_triangles", mesh.indices.size() / 3},
                          {"bones", bones},
                          {"sdf_dims", {grid.dims.x, grid.dims.y, grid.dims.z}},
                          {"sdf_sign", sign_method_name(field->plan.sign_used)},
                          {"guide_vertices", guide_vertices},
                          {"follow_vertices", follow_vertices},
                          {"steps", frames},
                          {"step_ms_median", median(totals)},
                          {"part_ms_median", parts},
                          {"non_finite_vertices", non_finite}};
}

// The shipped walking scene through the runtime, as `bake` steps it: wall ms per frame (median), after
// the build (grow, fields, sag-free solve) is done.
Result<nlohmann::json> bench_walking(gpu::Device& device, const std::filesystem::path& scene_path, int frames) {
    auto loaded = load_scene(scene_path);
    if (!loaded) return loaded.error();
    runtime::RuntimeOptions options;
    options.simulation = runtime::SimBackend::Gpu;
    auto rt = runtime::SceneRuntime::create(&device, options);
    if (!rt) return rt.error();
    const auto b0 = std::chrono::steady_clock::now();
    if (Status st = (*rt)->apply(loaded->scene); !st) return st.error();
    const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - b0).count();
    std::vector<double> wall;
    for (int f = 0; f < frames; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        TRESSEL_TRY((*rt)->step(1));
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    const runtime::RuntimeCounts counts = (*rt)->counts();
    std::fprintf(stderr, "walking scene: %.2f ms a frame (median of %d), build %.0f ms\n", median(wall), frames, build_ms);
    return nlohmann::json{{"name", "walking_scene"},
                          {"scene", scene_path.string()},
                          {"guides", counts.guides},
                          {"follows", counts.follows},
                          {"frames", frames},
                          {"frame_wall_ms_median", median(wall)},
                          {"build_wall_ms", build_ms}};
}

}  // namespace

int bench_anim(const Args& args, nlohmann::json& out) {
    auto frames = args.get_int("frames", 200);
    if (!frames || *frames < 1 || *frames > 100000) return fail("--frames must be 1..100000", 2);
    const std::filesystem::path data = args.get_or("testdata", bench_testdata_dir());
    const std::string only = args.get_or("only", "");
    auto ctx = GpuContext::create(args.get_or("device", ""));
    if (!ctx) return fail(ctx.error().message);
    gpu::Device& device = *ctx->device;
    nlohmann::json results = nlohmann::json::array();
    for (bool band_only : {true, false}) {
        if (!only.empty() && only != "ratboy") break;
        auto r = bench_ratboy(device, data, int(*frames), band_only);
        if (!r) return fail("ratboy: " + r.error().message);
        results.push_back(*r);
    }
    if (only.empty() || only == "walking") {
        const std::filesystem::path scene = args.get_or("scene", "presets/scenes/walking.json");
        auto r = bench_walking(device, scene, std::min(int(*frames), 120));
        if (!r) return fail("walking: " + r.error().message);
        results.push_back(*r);
    }
    out["workload"] = "anim";
    out["device"] = device.info().name;
    out["results"] = results;
    if (int e = ctx->validation_errors()) return fail(std::to_string(e) + " Vulkan validation errors", 3);
    return 0;
}

}  // namespace tressel::cli
