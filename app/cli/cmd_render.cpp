// tressel-cli render: headless renders of a scene to PNG, and `bench render` (GPU ms per render pass).
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "cli_args.h"
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
    "  --frame N                  simulation frame; only 0 (the groomed rest pose) until the simulation exists\n"
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
    if (*frame_no != 0)
        return fail("--frame " + std::to_string(*frame_no) +
                    ": frames after 0 need the hair simulation, which this build does not have yet; use --frame 0 "
                    "(the groomed rest pose)");
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
