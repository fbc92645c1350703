// tressel-cli bake: the whole pipeline headless (groom, collision fields, simulation with the scene's
// motion) with per-frame metrics, for regression checks and batch previews.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "commands.h"
#include "core/file_io.h"
#include "gpu/timestamps.h"
#include "gpu_context.h"
#include "scene/scene_io.h"
#include "runtime/scene_runtime.h"
#include "io/usda.h"
#include "sim/mesh_oracle.h"

namespace tressel::cli {

const char* const kBakeUsage =
    "usage: tressel-cli bake <scene.json> --frames N [--report report.json] [--dump DIR] [--cpu]\n"
    "                        [--fused] [--metrics-every K] [--penetration-every K] [--still] [--no-sag-free]\n"
    "                        [--cache out.usda [--cache-follows]] [--device NAME]\n\n"
    "Grows every hair group, builds the collision fields (GPU passes; the CPU reference on a CPU Vulkan\n"
    "device, where it is faster), and simulates N frames at the\n"
    "scene's rate and substeps with its motion, on the GPU (--cpu: the CPU reference step). Per frame:\n"
    "maximum and mean segment stretch, hair vertices (guides and follows) and segment midpoints inside a\n"
    "collision mesh and the deepest penetration (measured against the exact mesh distance, not the field\n"
    "used for collision), kinetic energy, GPU milliseconds per pass. --fused records each step as the\n"
    "editor does, three dispatches (\"sim strand data\", \"sim strands\", \"sim follow hairs\") instead of one per pass:\n"
    "the same result, faster, with coarser timings. --report writes it as JSON with a `frames` array\n"
    "and a `summary` of the worst values; --metrics-every K measures every K-th frame (the exact\n"
    "distance is costly on large grooms; --penetration-every K measures penetration only every K-th\n"
    "frame and the last (0: never), the rest of the metrics as --metrics-every says; the follow hairs, which no step\n"
    "reads, are computed on the frames whose penetration is measured, dumped or cached); --dump DIR writes\n"
    "each frame's positions as float32\n"
    "little-endian xyz (guides then follows per group) with DIR/index.json describing them.\n"
    "Also per measured frame: the RMS and largest guide vertex speed (displacement since the previous\n"
    "measured frame), and the style error (each free guide\n"
    "vertex's distance from its groomed position carried by its root, mean and largest). The summary adds\n"
    "the rest jitter (RMS and largest speed over the last second, every frame of it measured), the last\n"
    "frame's style error and the deepest follow vertex. --still drops the scene's motion (a still head).\n"
    "Per measured frame and in the summary, per accessory: the largest and mean edge strain (a soft body's\n"
    "lattice links), the free vertices inside the collision meshes it collides with and the deepest (exact\n"
    "distance; a soft body's drawn surface, but where a pinned particle carries it), kinetic energy; for a\n"
    "cloth the hair collides with, on the frames penetration is measured: the guide and follow vertices within\n"
    "2 cm of it (beside its rim left out), those over its surface by more than the hair's particle radius\n"
    "(the wrong side) and the highest (exact closest point on its triangles); for a soft body the hair\n"
    "collides with, the same figures of its drawn surface, the wrong side its inside; strands rooted on\n"
    "the wrong side (hair grown under a bun pinned to the scalp) are left out and counted.\n"
    "Hair density per measured frame (hairs per cm^2 on each group's volume grid: densest node, the\n"
    "density the average hair sits in, the fraction above volume_density), whether or not volume is on.\n"
    "The report's `sag_free` gives the sag-free rest state's solve (groups with sag_free on): corrections,\n"
    "frames stepped, wall ms, and the guide vertices' distance from the groom before the first correction\n"
    "(the sag without it) and after the last, and how far the solve lifted the groom out of the collision\n"
    "meshes' margins first (lifted_vertices, lift_mean_m, lift_max_m: a groom lying inside a margin cannot\n"
    "rest there; the style error is measured against the lifted groom). --no-sag-free turns sag_free off in\n"
    "every group (no lift: the style error against the groom as grown).\n"
    "--cache out.usda writes the simulated guides of every frame as a USD groom cache: per hair group a\n"
    "BasisCurves prim whose points are time-sampled (time code = frame, timeCodesPerSecond = the scene's\n"
    "rate, metres, Y up); --cache-follows adds the follow hairs (large: a text layer of every vertex of\n"
    "every frame). Each accessory is a Mesh prim under /HairCache/accessories with time-sampled points (its\n"
    "drawn surface: a cloth's vertices, a soft body's mesh), the point cache Unreal's USD importer brings in as a\n"
    "Geometry Cache and Houdini, Blender and Maya read as animated geometry.\n"
    "Exit status 1 when a position becomes non-finite.\n";

namespace {

using nlohmann::json;

struct Worst {
    double max_stretch = 0.0, mean_stretch = 0.0, max_penetration_m = 0.0, kinetic_energy = 0.0;
    double max_penetration_follow_m = 0.0;
    size_t penetrating_vertices = 0, penetrating_midpoints = 0, non_finite = 0;
    // Over the last second: sum of squared RMS speeds (per frame), largest speed, frames.
    double jitter_ms2 = 0.0, jitter_max_m_s = 0.0;
    size_t jitter_frames = 0;
    double style_mean_m = 0.0, style_max_m = 0.0;   // the last measured frame
    double density_max = 0.0;                       // hairs per cm^2: densest node of any frame
    nlohmann::json deepest_follow = nullptr;        // where the deepest follow vertex of any frame was
    double density_mean = 0.0, density_over = 0.0;  // the last measured frame
};

Status dump_frame(const std::filesystem::path& dir, uint32_t frame, const SimWorld& world) {
    char name[32];
    std::snprintf(name, sizeof(name), "frame_%05u.f32", frame);
    return write_file_atomic(dir / name, runtime::positions_f32(world));
}

// A USD prim name from a hair group's name: letters, digits and '_', not starting with a digit.
std::string usd_name(const std::string& name) {
    std::string out;
    for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
    return out;
}

// The groom cache: per group, its guides (and follows) as BasisCurves with time-sampled points, one
// sample per frame (time code = frame number), the first frame's points as the default value.
// Accessories follow as meshes (their drawn surface: a cloth's welded vertices, a soft body's render
// mesh) with time-sampled points, under an Xform "accessories".
Status write_cache(const std::filesystem::path& path, const Scene& scene, const std::filesystem::path& scene_path, const SimWorld& world,
                   const std::vector<std::vector<std::vector<glm::vec3>>>& guides,
                   const std::vector<std::vector<std::vector<glm::vec3>>>& follows,
                   const std::vector<std::vector<std::vector<glm::vec3>>>& accessories) {
    UsdStage st;
    st.default_prim = "HairCache";
    st.doc = "Tressel groom cache of " + scene_path.filename().string() + ": simulated strands, one time sample per frame";
    st.time_codes_per_second = scene.environment.sim_rate_hz;
    st.start_time_code = 1.0;
    st.end_time_code = double(guides.empty() ? 1 : std::max<size_t>(guides[0].size(), 1));
    std::vector<std::string> used;
    for (size_t gi = 0; gi < world.groups.size(); ++gi) {
        const SimGroupState& g = world.groups[gi];
        if (guides[gi].empty()) continue;
        UsdCurvesGroup group;
        group.name = usd_name(g.name);
        while (std::find(used.begin(), used.end(), group.name) != used.end()) group.name += "_";
        used.push_back(group.name);
        float width = 0.0001f;
        for (const HairGroup& hg : scene.hair_groups)
            if (hg.name == g.name) width = float(2.0 * hg.shading.fiber_radius_m);
        auto curves = [&](const char* leaf, size_t strands, const std::vector<std::vector<glm::vec3>>& frames) {
            UsdCurves c;
            c.path = leaf;
            c.vertex_counts.assign(strands, int(g.n));
            c.points = frames.front();
            c.widths = {width};
            for (size_t f = 0; f < frames.size(); ++f) {
                c.sample_times.push_back(double(f + 1));
                c.point_samples.push_back(frames[f]);
            }
            return c;
        };
        group.curves.push_back(curves("guides", g.strand_count, guides[gi]));
        if (!follows[gi].empty() && g.follow_count() > 0) group.curves.push_back(curves("follows", g.follow_count(), follows[gi]));
        st.groups.push_back(std::move(group));
    }
    UsdCurvesGroup acc;
    acc.name = "accessories";
    while (std::find(used.begin(), used.end(), acc.name) != used.end()) acc.name += "_";
    for (size_t ci = 0; ci < world.cloths.size() && ci < accessories.size(); ++ci) {
        if (accessories[ci].empty()) continue;
        const ClothState& c = world.cloths[ci];
        const Mesh drawn = cloth_mesh(c);
        UsdMesh m;
        m.path = usd_name(c.name);
        for (const UsdMesh& other : acc.meshes)
            if (other.path == m.path) m.path += "_";
        m.face_vertex_counts.assign(drawn.indices.size() / 3, 3);
        m.face_vertex_indices.assign(drawn.indices.begin(), drawn.indices.end());
        m.points = accessories[ci].front();
        for (const Accessory& a : scene.accessories)
            if (a.name == c.name) m.display_color = glm::vec3(a.color);
        for (size_t f = 0; f < accessories[ci].size(); ++f) {
            m.sample_times.push_back(double(f + 1));
            m.point_samples.push_back(accessories[ci][f]);
        }
        acc.meshes.push_back(std::move(m));
    }
    if (!acc.meshes.empty()) st.groups.push_back(std::move(acc));
    return write_usda_file(path, st);
}

}  // namespace

int run_bake(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"frames", true}, {"report", true}, {"dump", true}, {"cpu", false},
                                   {"metrics-every", true}, {"device", true}, {"fused", false},
                                   {"still", false}, {"penetration-every", true},
                                   {"no-sag-free", false}, {"cache", true}, {"cache-follows", false}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 1) return fail("bake takes exactly one scene file (see --help)", 2);
    auto frames = args->get_int("frames", 0);
    if (!frames) return fail(frames.error().message, 2);
    if (*frames < 1 || *frames > 1'000'000) return fail("--frames must be between 1 and 1000000", 2);
    auto every = args->get_int("metrics-every", 1);
    if (!every || *every < 1) return fail("--metrics-every must be a whole number >= 1", 2);
    auto pen_every = args->get_int("penetration-every", *every);
    if (!pen_every || *pen_every < 0) return fail("--penetration-every must be a whole number >= 0 (0: never)", 2);
    const bool use_cpu = args->has("cpu");
    const std::filesystem::path scene_path = args->positionals()[0];

    auto loaded = load_scene(scene_path);
    if (!loaded) return fail(loaded.error().message);
    if (args->has("still")) loaded->scene.motion.type = MotionType::None;
    if (args->has("no-sag-free"))
        for (HairGroup& g : loaded->scene.hair_groups) g.simulation.sag_free = false;
    const Scene& scene = loaded->scene;
    for (auto& d : loaded->diagnostics.items) std::fprintf(stderr, "%s\n", format(d).c_str());
    auto ctx = GpuContext::create(args->get_or("device", ""));
    if (!ctx) return fail(ctx.error().message);
    gpu::Device& device = *ctx->device;

    // The scene as the editor runs it (engine/runtime): fields built on the GPU, the simulation on the GPU
    // (--fused: the editor's dispatches; otherwise one dispatch and timestamp per pass) or the CPU step.
    runtime::RuntimeOptions options;
    options.simulation = use_cpu ? runtime::SimBackend::Cpu : runtime::SimBackend::Gpu;
    options.sim_mode = args->has("fused") ? SimGpuMode::Fused : SimGpuMode::Split;
    auto rt = runtime::SceneRuntime::create(&device, options);
    if (!rt) return fail(rt.error().message);
    if (Status st = (*rt)->apply(scene); !st) return fail(st.error().message);
    const runtime::SceneContent& content = *(*rt)->content();
    for (auto& d : content.diagnostics.items) std::fprintf(stderr, "%s\n", format(d).c_str());
    std::fprintf(stderr, "info: built: %s\n", (*rt)->report().summary().c_str());
    SimWorld& world = *(*rt)->world();

    std::vector<std::unique_ptr<MeshDistanceOracle>> oracle_objects;
    std::vector<SimSdfOracle> oracles;
    json worst_accessories = json::object();  // per accessory: its worst figures over the measured frames
    for (const CollisionMesh& cm : scene.collision_meshes) {
        if (*pen_every == 0) break;  // never measured: no exact distance to build
        oracle_objects.push_back(std::make_unique<MeshDistanceOracle>(content.find_mesh(cm.mesh)->mesh));
        oracles.push_back(oracle_objects.back()->as_function());
    }

    const uint32_t substeps = uint32_t(scene.environment.substeps);
    auto ts = gpu::TimestampQueries::create(device, 64 * substeps * std::max<uint32_t>(1, uint32_t(world.groups.size())));
    if (!ts) return fail(ts.error().message);

    std::filesystem::path dump_dir;
    if (auto d = args->get("dump")) {
        dump_dir = *d;
        std::error_code ec;
        std::filesystem::create_directories(dump_dir, ec);
        if (ec) return fail("cannot create " + dump_dir.string() + ": " + ec.message());
    }

    // --cache: every frame's guide (and follow) positions, per group, for the USD cache.
    const std::optional<std::string> cache_path = args->get("cache");
    const bool cache_follows = args->has("cache-follows");
    std::vector<std::vector<std::vector<glm::vec3>>> cache_guides(world.groups.size()), cache_follow(world.groups.size());
    std::vector<std::vector<std::vector<glm::vec3>>> cache_accessories(world.cloths.size());

    json frames_json = json::array();
    Worst worst;
    std::map<std::string, double> gpu_total;
    int exit_code = 0;
    std::optional<SimMotionReference> last_measured;
    // Which frames are measured, and on which of those the (costly) exact penetration is.
    const uint32_t last_second = uint32_t(std::max(1.0, std::round(scene.environment.sim_rate_hz)));
    auto measured_frame = [&](uint32_t f) {
        // Every frame of the last second is measured, for the rest jitter. The frame before the last second
        // is measured too, so that the last second's first speed is over one frame, not over the time since
        // the last frame --metrics-every measured.
        const bool in_last_second = f + last_second > uint32_t(*frames);
        const bool before_last_second = f + last_second == uint32_t(*frames);
        return (f - 1) % uint32_t(*every) == 0 || in_last_second || before_last_second;
    };
    auto penetration_frame = [&](uint32_t f) {
        return *pen_every > 0 && ((f - 1) % uint32_t(*pen_every) == 0 || f == uint32_t(*frames));
    };
    for (uint32_t f = 1; f <= uint32_t(*frames); ++f) {
        std::map<std::string, double> gpu_ms;
        const bool measure = measured_frame(f);
        const bool penetration = measure && penetration_frame(f);
        // Nothing in a step reads the follow hairs (they are blended from the guides and pushed out of the
        // fields, every step anew), so they are computed on the frames that use them: where penetration is
        // measured, dumped or cached. On the default scene they are nine tenths of a step's GPU time.
        world.step_follows = penetration || !dump_dir.empty() || cache_follows;
        if (use_cpu) {
            Status st = (*rt)->step(1);
            if (!st) {
                std::fprintf(stderr, "frame %u: %s\n", f, st.error().message.c_str());
                exit_code = 1;
            }
        } else {
            auto cmd = device.begin_commands();
            if (!cmd) return fail(cmd.error().message);
            ts->reset(*cmd);
            Status st = (*rt)->step(1, &*cmd, &*ts);
            if (!st) return fail(st.error().message);
            auto serial = device.submit(std::move(*cmd));
            if (!serial) return fail(serial.error().message);
            if (Status w = device.wait(*serial); !w) return fail(w.error().message);
            auto times = ts->read();
            if (!times) return fail(times.error().message);
            for (auto& t : *times) gpu_ms[t.name] += t.ms;
        }
        if (!measure && dump_dir.empty() && !cache_path) continue;
        if (Status st = (*rt)->download(); !st) return fail(st.error().message);
        if (cache_path)
            for (size_t ci = 0; ci < world.cloths.size(); ++ci) cache_accessories[ci].push_back(cloth_mesh(world.cloths[ci]).positions);
        if (cache_path)
            for (size_t gi = 0; gi < world.groups.size(); ++gi) {
                const SimGroupState& g = world.groups[gi];
                auto& frame_guides = cache_guides[gi].emplace_back(g.positions.size());
                for (size_t i = 0; i < g.positions.size(); ++i) frame_guides[i] = glm::vec3(g.positions[i]);
                if (cache_follows) {
                    auto& frame_follows = cache_follow[gi].emplace_back(g.follow_positions.size());
                    for (size_t i = 0; i < g.follow_positions.size(); ++i) frame_follows[i] = glm::vec3(g.follow_positions[i]);
                }
            }
        if (!dump_dir.empty()) {
            if (Status st = dump_frame(dump_dir, f, world); !st) return fail(st.error().message);
        }
        if (!measure) continue;
        // The exact mesh distance is the costly part: every --penetration-every frames and at the last one.
        // Speeds are displacements since the previous measured frame (every frame in the last second).
        // An animated body is measured against its pose at this frame.
        for (size_t ci = 0; penetration && ci < scene.collision_meshes.size(); ++ci)
            if (auto posed = (*rt)->animated_mesh_now(scene.collision_meshes[ci].mesh)) {
                oracle_objects[ci] = std::make_unique<MeshDistanceOracle>(*posed);
                oracles[ci] = oracle_objects[ci]->as_function();
            }
        SimFrameMetrics m = measure_frame(world, penetration ? std::span<const SimSdfOracle>(oracles) : std::span<const SimSdfOracle>(),
                                          last_measured ? &*last_measured : nullptr);
        last_measured = capture_motion_reference(world);
        const size_t pen_vertices = m.vertices_inside + m.follow_vertices_inside;
        const double max_pen = std::max({m.max_depth_vertex_m, m.max_depth_midpoint_m, m.max_depth_follow_m});
        json pass_ms = json::object();
        double frame_gpu = 0.0;
        for (auto& [k, v] : gpu_ms) {
            pass_ms[k] = v;
            frame_gpu += v;
            gpu_total[k] += v;
        }
        // Accessories: edge strain (a soft body's lattice links), and vertices inside the collision meshes
        // they collide with (exact distance): a cloth's vertices, a soft body's drawn surface.
        json accessories = json::array();
        for (const ClothState& c : world.cloths) {
            const ClothStretch st = measure_cloth_stretch(c);
            double deepest = 0.0;
            size_t inside = 0;
            // Pinned vertices (a soft body's surface carried by a pinned particle) are where the scene
            // places them, not where the simulation put them: left out.
            std::vector<glm::vec3> surface;
            if (c.soft_body) {
                const Mesh drawn = cloth_mesh(c);
                for (size_t r = 0; r < drawn.positions.size(); ++r)
                    if (c.positions[c.render_vertices[r].p0.x].w > 0.0f) surface.push_back(drawn.positions[r]);
            } else {
                for (const glm::vec4& p : c.positions)
                    if (p.w > 0.0f) surface.push_back(glm::vec3(p));
            }
            for (uint32_t slot : c.sdf_indices) {
                // A cloth resting on the hair (add_cloth_hair_rest_field) is measured against the mesh itself.
                const uint32_t si = world.sdfs[slot].rest_of >= 0 ? uint32_t(world.sdfs[slot].rest_of) : slot;
                if (!penetration || si >= oracles.size() || !oracles[si]) continue;
                const glm::mat4 to_rest = glm::inverse(world.sdfs[si].transform);
                for (const glm::vec3& p : surface) {
                    const float d = oracles[si](glm::vec3(to_rest * glm::vec4(p, 1.0f)));
                    if (d < 0.0f) {
                        ++inside;
                        deepest = std::max(deepest, double(-d));
                    }
                }
            }
            const double ke = cloth_kinetic_energy(c, world.step_dt_s());
            json entry = {{"name", c.name}, {"type", c.soft_body ? "soft_body" : "cloth"}, {"max_strain", st.max_strain}, {"mean_strain", st.mean_strain},
                          {"penetrating_vertices", inside}, {"max_penetration_m", deepest}, {"kinetic_energy", ke}};
            json& w = worst_accessories[c.name];
            if (!w.is_object()) w = json::object();
            // Hair against the accessory (measured with the follows, on the frames that compute them): the
            // hair within 2 cm of it, how much of it lies over a cloth's surface (inside a soft body's) by
            // more than the hair's particle radius, and the highest (deepest).
            for (const SimAccessoryField& af : world.accessory_fields) {
                if (&world.cloths[af.cloth] != &c || !penetration) continue;
                double limit = 0.0;
                for (const SimGroupState& g : world.groups) limit = std::max(limit, g.params.particle_radius_m);
                const HairUnderClothStats hs = measure_hair_under_cloth(world, af, limit, 0.02);
                entry["hair_near"] = hs.near;
                entry["hair_wrong_side"] = hs.wrong_side;
                entry["hair_wrong_side_guides"] = hs.wrong_side_guides;
                entry["hair_max_height_guides_m"] = hs.near ? hs.max_height_guides_m : 0.0;
                entry["hair_max_height_m"] = hs.near ? hs.max_height_m : 0.0;
                entry["hair_limit_m"] = limit;
                entry["hair_rooted_inside"] = hs.rooted_inside;
                w["hair_wrong_side"] = std::max<uint64_t>(w.value("hair_wrong_side", uint64_t(0)), hs.wrong_side);
                if (hs.near) w["hair_max_height_m"] = std::max(w.value("hair_max_height_m", -1.0), hs.max_height_m);
            }
            accessories.push_back(entry);
            w["max_strain"] = std::max(w.value("max_strain", 0.0), st.max_strain);
            w["mean_strain"] = std::max(w.value("mean_strain", 0.0), st.mean_strain);
            w["max_penetration_m"] = std::max(w.value("max_penetration_m", 0.0), deepest);
            w["kinetic_energy"] = std::max(w.value("kinetic_energy", 0.0), ke);
        }
        frames_json.push_back({{"frame", f},
                               {"accessories", accessories},
                               {"penetration_measured", penetration},
                               {"time_s", world.time_s()},
                               {"max_stretch", m.max_stretch},
                               {"mean_stretch", m.mean_stretch},
                               {"penetrating_vertices", pen_vertices},
                               {"penetrating_guide_vertices", m.vertices_inside},
                               {"penetrating_follow_vertices", m.follow_vertices_inside},
                               {"penetrating_midpoints", m.midpoints_inside},
                               {"max_penetration_m", max_pen},
                               {"max_penetration_guide_m", std::max(m.max_depth_vertex_m, m.max_depth_midpoint_m)},
                               {"max_penetration_follow_m", m.max_depth_follow_m},
                               {"kinetic_energy", m.kinetic_energy},
                               {"rms_speed_m_s", m.rms_speed_m_s},
                               {"max_speed_m_s", m.max_speed_m_s},
                               {"style_error_mean_m", m.style_error_mean_m},
                               {"style_error_max_m", m.style_error_max_m},
                               {"non_finite", m.non_finite},
                               {"density_per_cm2", {{"max", m.density_max_per_cm2}, {"mean", m.density_mean_per_cm2},
                                                    {"over_target", m.density_over_target}}},
                               {"gpu_ms", pass_ms},
                               {"gpu_ms_total", frame_gpu}});
        worst.max_stretch = std::max(worst.max_stretch, m.max_stretch);
        worst.mean_stretch = std::max(worst.mean_stretch, m.mean_stretch);
        worst.max_penetration_m = std::max(worst.max_penetration_m, max_pen);
        worst.kinetic_energy = std::max(worst.kinetic_energy, m.kinetic_energy);
        worst.penetrating_vertices = std::max(worst.penetrating_vertices, pen_vertices);
        worst.penetrating_midpoints = std::max(worst.penetrating_midpoints, m.midpoints_inside);
        worst.non_finite = std::max(worst.non_finite, m.non_finite);
        if (m.max_depth_follow_m > worst.max_penetration_follow_m) {
            worst.max_penetration_follow_m = m.max_depth_follow_m;
            worst.deepest_follow = {{"frame", f},
                                    {"group", world.groups[m.deepest_follow_group].name},
                                    {"follow", m.deepest_follow_hair},
                                    {"vertex", m.deepest_follow_vertex},
                                    {"position_m", {m.deepest_follow_m.x, m.deepest_follow_m.y, m.deepest_follow_m.z}},
                                    {"depth_m", m.max_depth_follow_m}};
        }
        if (f + last_second > uint32_t(*frames)) {  // the last second
            worst.jitter_ms2 += m.rms_speed_m_s * m.rms_speed_m_s;
            worst.jitter_max_m_s = std::max(worst.jitter_max_m_s, m.max_speed_m_s);
            ++worst.jitter_frames;
        }
        worst.density_max = std::max(worst.density_max, m.density_max_per_cm2);
        worst.density_mean = m.density_mean_per_cm2;
        worst.density_over = m.density_over_target;
        worst.style_mean_m = m.style_error_mean_m;
        worst.style_max_m = m.style_error_max_m;
        if (m.non_finite) exit_code = 1;
    }

    size_t guides = 0, guide_vertices = 0, follows = 0, follow_vertices = 0;
    for (const SimGroupState& g : world.groups) {
        guides += g.strand_count;
        guide_vertices += g.positions.size();
        follows += g.follow_count();
        follow_vertices += g.follow_positions.size();
    }
    const SagFreeReport& sf = (*rt)->sag_free_report();
    const json sag_free = {{"groups", sf.groups},
                           {"iterations", sf.iterations},
                           {"frames", sf.frames},
                           {"wall_ms", (*rt)->sag_free_ms()},
                           {"converged", sf.converged},
                           {"sag_mean_m", sf.sag_mean_m},
                           {"sag_max_m", sf.sag_max_m},
                           {"error_mean_m", sf.error_mean_m},
                           {"error_max_m", sf.error_max_m},
                           {"lifted_vertices", sf.lifted_vertices},
                           {"lift_mean_m", sf.lift_mean_m},
                           {"lift_max_m", sf.lift_max_m},
                           {"error", sf.error}};
    if (!sf.error.empty()) std::fprintf(stderr, "%s\n", sf.error.c_str());
    json summary = {{"max_stretch", worst.max_stretch},
                    {"mean_stretch", worst.mean_stretch},
                    {"penetrating_vertices", worst.penetrating_vertices},
                    {"penetrating_midpoints", worst.penetrating_midpoints},
                    {"max_penetration_m", worst.max_penetration_m},
                    {"kinetic_energy", worst.kinetic_energy},
                    {"max_penetration_follow_m", worst.max_penetration_follow_m},
                    {"deepest_follow_vertex", worst.deepest_follow},
                    {"rest_jitter", {{"frames", worst.jitter_frames},
                                     {"rms_speed_m_s", worst.jitter_frames ? std::sqrt(worst.jitter_ms2 / double(worst.jitter_frames)) : 0.0},
                                     {"max_speed_m_s", worst.jitter_max_m_s}}},
                    {"style_error", {{"mean_m", worst.style_mean_m}, {"max_m", worst.style_max_m}}},
                    {"density_per_cm2", {{"max", worst.density_max}, {"mean_last", worst.density_mean}, {"over_target_last", worst.density_over}}},
                    {"accessories", worst_accessories},
                    {"still", args->has("still")},
                    {"non_finite", worst.non_finite}};
    json sdf_ms = json::object();
    for (const auto& times : content.sdf_pass_times)
        for (const gpu::PassTime& t : times) sdf_ms[t.name] = sdf_ms.value(t.name, 0.0) + t.ms;
    json sdf_build_ms = json::object();  // per collision mesh: GPU ms of its passes, or CPU wall ms
    for (size_t i = 0; i < scene.collision_meshes.size() && i < content.sdf_build_ms.size(); ++i)
        sdf_build_ms[scene.collision_meshes[i].mesh] = content.sdf_build_ms[i];
    json sdf_coverage = json::object();  // per collision mesh: how much of its surface its field sees (check_sdf_coverage)
    for (size_t i = 0; i < scene.collision_meshes.size() && i < content.sdf_coverage.size(); ++i) {
        const SdfCoverage& c = content.sdf_coverage[i];
        sdf_coverage[scene.collision_meshes[i].mesh] = {{"missed_share", c.missed_share()}, {"missed_area_m2", c.missed_area_m2},
                                                        {"area_m2", c.area_m2}, {"samples", c.samples}, {"missed_samples", c.missed_samples},
                                                        {"worst_reading_m", c.worst_reading_m},
                                                        {"worst_m", {c.worst_m.x, c.worst_m.y, c.worst_m.z}}};
    }
    json report = {{"format", "tressel-bake-report"},
                   {"scene", scene_path.string()},
                   {"device", device.info().name},
                   {"simulation", use_cpu ? "cpu" : "gpu"},
                   {"frames_simulated", *frames},
                   {"sim_rate_hz", scene.environment.sim_rate_hz},
                   {"substeps", substeps},
                   {"counts", {{"guides", guides}, {"guide_vertices", guide_vertices}, {"follows", follows}, {"follow_vertices", follow_vertices}}},
                   {"sdf_build_gpu_ms", sdf_ms},
                   {"sdf_backend", (*rt)->sdf_backend() == runtime::SdfBackend::Cpu ? "cpu" : "gpu"},
                   {"sdf_build_ms", sdf_build_ms},
                   {"sdf_coverage", sdf_coverage},
                   {"sag_free", sag_free},
                   {"frames", frames_json},
                   {"summary", summary}};
    if (!dump_dir.empty()) {
        json groups = json::array();
        for (const SimGroupState& g : world.groups)
            groups.push_back({{"name", g.name}, {"vertices_per_strand", g.n}, {"guides", g.strand_count}, {"follows", g.follow_count()}});
        json index = {{"format", "tressel-bake-frames"},
                      {"layout", "per frame file: float32 little-endian xyz, per group its guide vertices then its follow vertices, strand-major"},
                      {"units", "m"},
                      {"groups", groups}};
        if (Status st = write_file_atomic(dump_dir / "index.json", index.dump(2) + "\n"); !st) return fail(st.error().message);
    }
    if (auto path = args->get("report")) {
        if (Status st = write_file_atomic(*path, report.dump(2) + "\n"); !st) return fail(st.error().message);
    }
    if (cache_path) {
        if (Status st = write_cache(*cache_path, scene, scene_path, world, cache_guides, cache_follow, cache_accessories); !st) return fail(st.error().message);
        std::printf("wrote the groom cache %s: %lld frames\n", cache_path->c_str(), static_cast<long long>(*frames));
    }
    std::printf("baked %lld frames of %s on %s (%s): %zu guides (%zu vertices), %zu follows (%zu vertices)\n",
                static_cast<long long>(*frames), scene_path.filename().c_str(), device.info().name.c_str(),
                use_cpu ? "CPU step" : "GPU step", guides, guide_vertices, follows, follow_vertices);
    std::printf("worst: stretch %.4f%% (mean %.4f%%), %zu vertices and %zu midpoints inside, deepest %.3g m, kinetic energy %.4g\n",
                100.0 * worst.max_stretch, 100.0 * worst.mean_stretch, worst.penetrating_vertices,
                worst.penetrating_midpoints, worst.max_penetration_m, worst.kinetic_energy);
    std::printf("last second: RMS speed %.4g m/s, largest %.4g m/s; style error mean %.4g m, largest %.4g m; "
                "deepest follow vertex %.3g m\n",
                worst.jitter_frames ? std::sqrt(worst.jitter_ms2 / double(worst.jitter_frames)) : 0.0,
                worst.jitter_max_m_s, worst.style_mean_m, worst.style_max_m, worst.max_penetration_follow_m);
    std::printf("hair density: densest %.4g hairs/cm^2; at the end the average hair sits in %.4g hairs/cm^2, %.3g%% of it above "
                "volume_density\n",
                worst.density_max, worst.density_mean, 100.0 * worst.density_over);
    if (!gpu_total.empty()) {
        double total = 0.0;
        for (auto& [k, v] : gpu_total) total += v;
        std::printf("GPU ms per measured frame: %.4f\n", total / double(std::max<size_t>(frames_json.size(), 1)));
    }
    if (int e = ctx->validation_errors()) return fail(std::to_string(e) + " Vulkan validation errors", 3);
    if (exit_code) std::fprintf(stderr, "error: the simulation produced non-finite positions\n");
    return exit_code;
}

}  // namespace tressel::cli
