// tressel-cli render: headless renders of a scene to PNG, and `bench render` (GPU ms per render pass).
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "cli_args.h"
#include "sdf/gpu/sdf_gpu.h"
#include "sim/gpu/sim_gpu.h"
#include "sim/motion.h"
#include "sim/scene_sim.h"
#include "commands.h"
#include "core/file_io.h"
#include "gpu_context.h"
#include "render/render_bench.h"
#include "render/renderer.h"
#include "render/scene_content.h"
#include "scene/scene_io.h"
#include "sdf/sdf_slice.h"

namespace tressel::cli {

const char* const kRenderUsage =
    "usage: tressel-cli render <scene.json> --out shot.png [options]\n\n"
    "Grows the scene's hair groups and renders the scene offscreen (meshes, hair, shadows) to a PNG.\n"
    "The camera keeps the scene view's yaw, pitch and field of view and is framed on the meshes' bounds\n"
    "unless --camera is given.\n\n"
    "  --frame N                  simulate N frames on the GPU first (0: the groomed rest pose)\n"
    "  --width W --height H       image size in pixels (default 1280 x 720)\n"
    "  --camera yaw,pitch,dist    orbit camera in degrees, degrees, metres around the view target\n"
    "  --shading kajiya_kay|marschner   shading model of every hair group\n"
    "  --debug guide|stretch|depth      hair debug colouring\n"
    "  --slice x|y|z:POS          show the first collision mesh's SDF slice at POS in [0, 1] across the grid\n"
    "  --no-shadows               disable hair self-shadowing\n"
    "  --samples N                MSAA samples (1, 2, 4, 8; default 4)\n"
    "  --device NAME              GPU (as TRESSEL_DEVICE)\n";

namespace {

Result<std::vector<double>> parse_list(const std::string& text, size_t count, const std::string& option) {
    std::vector<double> v;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        try {
            size_t used = 0;
            v.push_back(std::stod(item, &used));
            if (used != item.size()) throw std::invalid_argument(item);
        } catch (const std::exception&) {
            return make_error(ErrorCode::InvalidArgument, "--" + option + ": '" + item + "' is not a number");
        }
    }
    if (v.size() != count)
        return make_error(ErrorCode::InvalidArgument, "--" + option + " needs " + std::to_string(count) + " comma-separated numbers");
    return v;
}

}  // namespace

// --frame N: simulates N frames on the GPU (the bake's pipeline), then copies the simulated guide and
// follow positions into the renderer's hair buffers (GPU to GPU: same layout, guides then follows, and
// the same deterministic groom), and poses the meshes the motion moves at that time.
Status simulate_into(gpu::Device& dev, const Scene& scene, render::SceneContent& content, uint32_t frames) {
    auto sdf_pipelines = SdfGpuPipelines::create(dev);
    if (!sdf_pipelines) return sdf_pipelines.error();
    SceneSimDesc desc;
    desc.scene = &scene;
    desc.meshes = &content.meshes;
    desc.build_sdf = [&](const SdfBuildDesc& d, Diagnostics& diag) -> Result<SdfGrid> {
        auto field = build_sdf_gpu(dev, *sdf_pipelines, d, diag);
        if (!field) return field.error();
        return read_back_sdf(dev, *field);
    };
    auto ss = build_scene_sim(desc);
    if (!ss) return ss.error();
    SimWorld& world = (*ss)->world;
    auto pipelines = SimGpuPipelines::create(dev);
    if (!pipelines) return pipelines.error();
    const uint32_t substeps = uint32_t(scene.environment.substeps);
    auto sim = SimGpu::create(dev, *pipelines, world, substeps);
    if (!sim) return sim.error();
    for (uint32_t f = 0; f < frames; ++f) {
        Status recorded;
        TRESSEL_TRY(dev.run_sync([&](gpu::CommandBuffer& cmd) { recorded = sim->record_steps(cmd, world, substeps, nullptr); }));
        TRESSEL_TRY(recorded);
    }
    TRESSEL_TRY(dev.run_sync([&](gpu::CommandBuffer& cmd) {
        for (size_t h = 0; h < content.hair.size(); ++h)
            for (size_t g = 0; g < world.groups.size(); ++g) {
                if (world.groups[g].name != content.hair_names[h] || !world.groups[g].params.enabled) continue;
                render::HairBuffers& hb = content.hair[h];
                const VkDeviceSize guides = world.groups[g].positions.size() * sizeof(glm::vec4);
                const VkDeviceSize follows = world.groups[g].follow_positions.size() * sizeof(glm::vec4);
                if (guides + follows != hb.positions.size()) continue;  // layouts differ: keep the rest pose
                cmd.copy(sim->guide_positions(g), hb.positions, guides, 0, 0);
                if (follows) cmd.copy(sim->follow_positions(g), hb.positions, follows, 0, guides);
                // Conservative bounds for shadow framing: the hair may swing a strand length anywhere.
                const float reach = float(scene.hair_groups[g].growth.length_m * (1.0 + scene.hair_groups[g].growth.length_variation));
                hb.bounds_min_m -= glm::vec3(reach);
                hb.bounds_max_m += glm::vec3(reach);
            }
        cmd.transfer_barrier();
    }));
    const glm::dmat4 motion = motion_transform(scene.motion, world.time_s());
    for (SceneMesh& m : content.meshes)
        if (motion_moves_mesh(scene.motion, m.name)) transform_mesh(m.mesh, motion);
    return {};
}

int run_render(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"out", true}, {"frame", true}, {"width", true}, {"height", true}, {"camera", true},
                                   {"shading", true}, {"debug", true}, {"slice", true}, {"no-shadows", false},
                                   {"samples", true}, {"device", true}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 1) return fail("render needs one scene file (see tressel-cli render --help)", 2);
    auto out = args->get("out");
    if (!out) return fail("render needs --out FILE.png", 2);
    auto frame_no = args->get_int("frame", 0);
    if (!frame_no) return fail(frame_no.error().message, 2);
    if (*frame_no < 0 || *frame_no > 100000) return fail("--frame must be in [0, 100000]", 2);
    auto width = args->get_int("width", 1280);
    auto height = args->get_int("height", 720);
    auto samples = args->get_int("samples", 4);
    if (!width || !height || !samples) return fail("--width, --height and --samples take whole numbers", 2);
    if (*width < 1 || *width > 16384 || *height < 1 || *height > 16384)
        return fail("--width and --height must be in [1, 16384] pixels", 2);
    if (*samples < 1 || *samples > 8) return fail("--samples must be 1, 2, 4 or 8", 2);

    render::SceneContentDesc cd;
    if (auto s = args->get("shading")) {
        if (*s == "kajiya_kay") cd.shading_override = ShadingModel::KajiyaKay;
        else if (*s == "marschner") cd.shading_override = ShadingModel::Marschner;
        else return fail("--shading must be kajiya_kay or marschner, got '" + *s + "'", 2);
    }
    render::HairDebug debug = render::HairDebug::None;
    if (auto d = args->get("debug")) {
        if (*d == "guide") debug = render::HairDebug::Guide;
        else if (*d == "stretch") debug = render::HairDebug::Stretch;
        else if (*d == "depth") debug = render::HairDebug::Depth;
        else return fail("--debug must be guide, stretch or depth, got '" + *d + "'", 2);
    }
    render::SceneFrameOptions fo;
    if (auto s = args->get("slice")) {
        auto colon = s->find(':');
        std::string axis = s->substr(0, colon);
        if (axis == "x") fo.slice_axis = SliceAxis::X;
        else if (axis == "y") fo.slice_axis = SliceAxis::Y;
        else if (axis == "z") fo.slice_axis = SliceAxis::Z;
        else return fail("--slice must be x|y|z:POS, got '" + *s + "'", 2);
        if (colon != std::string::npos) {
            auto pos = parse_list(s->substr(colon + 1), 1, "slice");
            if (!pos) return fail(pos.error().message, 2);
            if ((*pos)[0] < 0.0 || (*pos)[0] > 1.0) return fail("--slice: POS must be in [0, 1]", 2);
            fo.slice_position = (*pos)[0];
        }
        cd.build_sdf = true;
    }
    std::optional<std::vector<double>> camera;
    if (auto c = args->get("camera")) {
        auto v = parse_list(*c, 3, "camera");
        if (!v) return fail(v.error().message, 2);
        if (!((*v)[2] > 0.0)) return fail("--camera: the distance must be > 0 metres", 2);
        camera = *v;
        fo.frame_from_bounds = false;
    }

    auto loaded = load_scene(args->positionals()[0]);
    if (!loaded) return fail(loaded.error().message);
    for (auto& d : loaded->diagnostics.items) std::fprintf(stderr, "%s\n", format(d).c_str());
    auto gpu = GpuContext::create(args->get_or("device", ""));
    if (!gpu) return fail(gpu.error().message);
    gpu::Device& dev = *gpu->device;
    cd.scene = &loaded->scene;
    auto content = render::load_scene_content(dev, cd);
    if (!content) return fail(content.error().message);
    if (*frame_no > 0) {
        Status st = simulate_into(dev, loaded->scene, *content, uint32_t(*frame_no));
        if (!st) return fail(st.error().message);
    }
    auto renderer = render::Renderer::create(dev, {uint32_t(*width), uint32_t(*height), uint32_t(*samples), 2048, 64});
    if (!renderer) return fail(renderer.error().message);
    auto frame = render::populate_renderer(**renderer, loaded->scene, *content, fo);
    if (!frame) return fail(frame.error().message);
    frame->debug = debug;
    if (args->has("no-shadows")) frame->shadows = false;
    if (camera) {
        frame->camera.yaw_deg = (*camera)[0];
        frame->camera.pitch_deg = (*camera)[1];
        frame->camera.distance_m = (*camera)[2];
    }
    auto pixels = (*renderer)->render_to_rgba(*frame);
    if (!pixels) return fail(pixels.error().message);
    auto png = encode_png_rgba(*pixels, *width, *height);
    if (!png) return fail(png.error().message);
    auto st = write_file_atomic(*out, std::span<const uint8_t>(*png));
    if (!st) return fail(st.error().message);
    renderer->reset();
    content->hair.clear();
    (void)dev.wait_idle();
    if (gpu->validation_errors() > 0)
        return fail(std::to_string(gpu->validation_errors()) + " Vulkan validation error(s) during the render");
    std::printf("wrote %s (%lld x %lld)\n", out->c_str(), *width, *height);
    return 0;
}

int bench_render_json(const Args& args, nlohmann::json& out) {
    auto frames = args.get_int("frames", 20);
    if (!frames || *frames < 1 || *frames > 10000) return fail("--frames must be 1..10000", 2);
    auto gpu = GpuContext::create(args.get_or("device", ""));
    if (!gpu) return fail(gpu.error().message);
    render::RenderBenchDesc desc;
    desc.frames = int(*frames);
    auto runs = render::bench_render(*gpu->device, desc);
    if (!runs) return fail(runs.error().message);
    out["workload"] = "render";
    out["device"] = gpu->device->info().name;
    out["width"] = desc.width;
    out["height"] = desc.height;
    out["samples"] = desc.samples;
    out["shadow_size"] = desc.shadow_size;
    out["frames"] = desc.frames;
    nlohmann::json list = nlohmann::json::array();
    for (auto& r : *runs) {
        nlohmann::json j;
        j["strands"] = r.strands;
        j["vertices_per_strand"] = r.vertices_per_strand;
        j["model"] = r.model;
        nlohmann::json passes = nlohmann::json::object();
        for (auto& p : r.passes) passes[p.name] = p.ms;
        j["gpu_ms"] = passes;
        j["total_gpu_ms"] = r.total_ms;
        list.push_back(j);
    }
    out["runs"] = list;
    return 0;
}

}  // namespace tressel::cli
