// tressel-cli render: headless renders of a scene to PNG, and `bench render` (GPU ms per render pass).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "cli_args.h"
#include "commands.h"
#include "core/file_io.h"
#include "gpu_context.h"
#include "render/render_bench.h"
#include "render/renderer.h"
#include "runtime/scene_runtime.h"
#include "scene/scene_io.h"
#include "sdf/sdf_slice.h"

namespace tressel::cli {

const char* const kRenderUsage =
    "usage: tressel-cli render <scene.json> --out shot.png [options]\n"
    "       tressel-cli render <scene.json> --turntable N --out DIR [options]\n\n"
    "Grows the scene's hair groups and renders the scene offscreen (meshes, hair, shadows) to a PNG.\n"
    "The camera keeps the scene view's yaw, pitch and field of view and is framed on the meshes' bounds\n"
    "unless --camera is given.\n\n"
    "  --frame N                  simulate N frames on the GPU first (0: the groomed rest pose)\n"
    "  --turntable N              N images around the character (yaw in steps of 360 / N from the view's, the\n"
    "                             pose held) into the folder --out as turntable_000.png ... (N in 1..3600)\n"
    "  --width W --height H       image size in pixels (default 1280 x 720)\n"
    "  --camera yaw,pitch,dist    orbit camera in degrees, degrees, metres around the view target\n"
    "  --shading kajiya_kay|marschner   shading model of every hair group\n"
    "  --debug guide|stretch|depth|root_tip|problems  hair debug colouring (depth: in the collision\n"
    "                             margin; problems: guides moved out of the scalp, degenerate guides)\n"
    "  --slice x|y|z:POS          show the first collision mesh's SDF slice at POS in [0, 1] across the grid\n"
    "  --slice-of field|hair_density  what the slice shows (default field); hair_density: the first hair\n"
    "                             group's density on its volume grid, as the hair is at the rendered frame\n"
    "  --no-shadows               disable hair self-shadowing\n"
    "  --samples N                MSAA samples (1, 2, 4, 8; default 4)\n"
    "  --renderer compute|ribbons hair renderer: the compute rasterizer (default) or fixed-function ribbons\n"
    "  --tile-kernel auto|shared|direct  compute rasterizer tile pass: shared memory (GPUs), texel reads\n"
    "                             without barriers (CPU drivers), or by device (default)\n"
    "  --lod off|BIAS             hair level of detail: off (every strand), or a bias (> 1 more detail; default 1)\n"
    "  --lod-fraction F           draw this fraction (0, 1] of each group's strands, widened to keep coverage\n"
    "  --device NAME              GPU (as TRESSEL_DEVICE)\n";

namespace {

Result<render::RasterTileKernel> parse_tile_kernel(const Args& args) {
    auto k = args.get("tile-kernel");
    if (!k || *k == "auto") return render::RasterTileKernel::Auto;
    if (*k == "shared") return render::RasterTileKernel::Shared;
    if (*k == "direct") return render::RasterTileKernel::Direct;
    return make_error(ErrorCode::InvalidArgument, "--tile-kernel must be auto, shared or direct, got '" + *k + "'");
}

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
                                   {"shading", true}, {"debug", true}, {"slice", true}, {"slice-of", true}, {"no-shadows", false},
                                   {"samples", true}, {"device", true}, {"renderer", true}, {"tile-kernel", true}, {"lod", true},
                                   {"lod-fraction", true}, {"turntable", true}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 1) return fail("render needs one scene file (see tressel-cli render --help)", 2);
    auto out = args->get("out");
    if (!out) return fail("render needs --out FILE.png (with --turntable, a folder)", 2);
    auto turntable = args->get_int("turntable", 0);
    if (!turntable || (args->has("turntable") && *turntable < 1) || *turntable > 3600) return fail("--turntable must be 1..3600 images", 2);
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

    render::HairRenderer hair_renderer = render::HairRenderer::ComputeRaster;
    if (auto r = args->get("renderer")) {
        if (*r == "compute") hair_renderer = render::HairRenderer::ComputeRaster;
        else if (*r == "ribbons") hair_renderer = render::HairRenderer::Ribbons;
        else return fail("--renderer must be compute or ribbons, got '" + *r + "'", 2);
    }
    auto kernel = parse_tile_kernel(*args);
    if (!kernel) return fail(kernel.error().message, 2);
    bool lod = true;
    double lod_bias = 1.0, lod_fraction = 0.0;
    if (auto l = args->get("lod")) {
        if (*l == "off") {
            lod = false;
        } else {
            auto v = parse_list(*l, 1, "lod");
            if (!v || !((*v)[0] >= 0.05 && (*v)[0] <= 20.0)) return fail("--lod must be off or a bias in [0.05, 20]", 2);
            lod_bias = (*v)[0];
        }
    }
    if (auto l = args->get("lod-fraction")) {
        auto v = parse_list(*l, 1, "lod-fraction");
        if (!v || !((*v)[0] > 0.0 && (*v)[0] <= 1.0)) return fail("--lod-fraction must be in (0, 1]", 2);
        lod_fraction = (*v)[0];
    }
    std::optional<ShadingModel> shading_override;
    if (auto s = args->get("shading")) {
        if (*s == "kajiya_kay") shading_override = ShadingModel::KajiyaKay;
        else if (*s == "marschner") shading_override = ShadingModel::Marschner;
        else return fail("--shading must be kajiya_kay or marschner, got '" + *s + "'", 2);
    }
    std::optional<render::HairDebug> debug;  // without --debug, the scene's view.colour_by
    if (auto d = args->get("debug")) {
        if (*d == "guide") debug = render::HairDebug::Guide;
        else if (*d == "stretch") debug = render::HairDebug::Stretch;
        else if (*d == "depth") debug = render::HairDebug::Depth;
        else if (*d == "root_tip") debug = render::HairDebug::RootTip;
        else if (*d == "problems") debug = render::HairDebug::Problems;
        else return fail("--debug must be guide, stretch, depth, root_tip or problems, got '" + *d + "'", 2);
    }
    std::optional<SliceAxis> slice_axis;
    double slice_position = 0.5;
    if (auto s = args->get("slice")) {
        auto colon = s->find(':');
        std::string axis = s->substr(0, colon);
        if (axis == "x") slice_axis = SliceAxis::X;
        else if (axis == "y") slice_axis = SliceAxis::Y;
        else if (axis == "z") slice_axis = SliceAxis::Z;
        else return fail("--slice must be x|y|z:POS, got '" + *s + "'", 2);
        if (colon != std::string::npos) {
            auto pos = parse_list(s->substr(colon + 1), 1, "slice");
            if (!pos) return fail(pos.error().message, 2);
            if ((*pos)[0] < 0.0 || (*pos)[0] > 1.0) return fail("--slice: POS must be in [0, 1]", 2);
            slice_position = (*pos)[0];
        }
    }
    std::optional<SliceSource> slice_of;
    if (auto s = args->get("slice-of")) {
        if (*s == "field") slice_of = SliceSource::Field;
        else if (*s == "hair_density") slice_of = SliceSource::HairDensity;
        else return fail("--slice-of must be field or hair_density, got '" + *s + "'", 2);
        if (!slice_axis) return fail("--slice-of needs --slice x|y|z:POS", 2);
    }
    std::optional<std::vector<double>> camera;
    if (auto c = args->get("camera")) {
        auto v = parse_list(*c, 3, "camera");
        if (!v) return fail(v.error().message, 2);
        if (!((*v)[2] > 0.0)) return fail("--camera: the distance must be > 0 metres", 2);
        camera = *v;
    }

    auto loaded = load_scene(args->positionals()[0]);
    if (!loaded) return fail(loaded.error().message);
    for (auto& d : loaded->diagnostics.items) std::fprintf(stderr, "%s\n", format(d).c_str());
    // The options are edits of the scene's own view and shading, applied before it runs.
    Scene scene = loaded->scene;
    if (shading_override)
        for (HairGroup& g : scene.hair_groups) g.shading.model = *shading_override;
    scene.view.show_slice = slice_axis.has_value();
    if (slice_axis) {
        scene.view.slice_axis = *slice_axis;
        scene.view.slice_position = slice_position;
        if (slice_of) scene.view.slice_of = *slice_of;
    }
    auto gpu = GpuContext::create(args->get_or("device", ""));
    if (!gpu) return fail(gpu.error().message);
    gpu::Device& dev = *gpu->device;
    runtime::RuntimeOptions options;
    options.renderer = render::RendererDesc{uint32_t(*width), uint32_t(*height), uint32_t(*samples), 2048, 64, hair_renderer, *kernel};
    auto rt = runtime::SceneRuntime::create(&dev, options);
    if (!rt) return fail(rt.error().message);
    if (Status st = (*rt)->apply(scene); !st) return fail(st.error().message);
    for (int f = 0; f < *frame_no; ++f)
        if (Status st = (*rt)->step(1); !st) return fail(st.error().message);
    if (auto refreshed = (*rt)->refresh_density_slice(); !refreshed) return fail(refreshed.error().message);
    render::FrameDesc frame = (*rt)->frame_desc(/*frame_on_meshes=*/!camera);
    if (debug) frame.debug = *debug;
    if (args->has("no-shadows")) frame.shadows = false;
    frame.hair_lod = lod;
    frame.hair_lod_bias = lod_bias;
    frame.hair_lod_fraction = lod_fraction;
    if (camera) {
        frame.camera.yaw_deg = (*camera)[0];
        frame.camera.pitch_deg = (*camera)[1];
        frame.camera.distance_m = (*camera)[2];
    }
    // One image, or a turntable: the same pose from yaw steps of 360 / N, each image written atomically.
    const int images = *turntable > 0 ? int(*turntable) : 1;
    const double yaw0 = frame.camera.yaw_deg;
    if (*turntable > 0) {
        std::error_code ec;
        std::filesystem::create_directories(*out, ec);
        if (ec) return fail("--out " + *out + ": cannot make the folder (" + ec.message() + ")");
    }
    for (int i = 0; i < images; ++i) {
        frame.camera.yaw_deg = yaw0 + 360.0 * double(i) / double(images);
        auto pixels = (*rt)->render_to_rgba(frame);
        if (!pixels) return fail(pixels.error().message);
        auto png = encode_png_rgba(*pixels, *width, *height);
        if (!png) return fail(png.error().message);
        char name[32];
        std::snprintf(name, sizeof(name), "turntable_%03d.png", i);
        const std::filesystem::path path = *turntable > 0 ? std::filesystem::path(*out) / name : std::filesystem::path(*out);
        auto st = write_file_atomic(path, std::span<const uint8_t>(*png));
        if (!st) return fail(st.error().message);
    }
    rt->reset();
    (void)dev.wait_idle();
    if (gpu->validation_errors() > 0)
        return fail(std::to_string(gpu->validation_errors()) + " Vulkan validation error(s) during the render");
    if (*turntable > 0)
        std::printf("wrote %d turntable images into %s (%lld x %lld)\n", images, out->c_str(), *width, *height);
    else
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
    if (auto size = args.get("size")) {
        unsigned w = 0, h = 0;
        if (std::sscanf(size->c_str(), "%ux%u", &w, &h) != 2 || w < 16 || h < 16 || w > 8192 || h > 8192)
            return fail("--size takes WxH in pixels, 16 to 8192 each", 2);
        desc.width = w;
        desc.height = h;
    }
    if (auto c = args.get("counts")) {
        desc.strand_counts.clear();
        std::stringstream ss(*c);
        std::string item;
        while (std::getline(ss, item, ',')) {
            char* end = nullptr;
            unsigned long v = std::strtoul(item.c_str(), &end, 10);
            if (item.empty() || *end || v < 1 || v > 4'000'000) return fail("--counts takes strand counts in [1, 4000000]", 2);
            desc.strand_counts.push_back(uint32_t(v));
        }
    }
    if (auto r = args.get("renderers")) {
        desc.renderers.clear();
        std::stringstream ss(*r);
        std::string item;
        while (std::getline(ss, item, ',')) {
            if (item == "compute") desc.renderers.push_back(render::HairRenderer::ComputeRaster);
            else if (item == "ribbons") desc.renderers.push_back(render::HairRenderer::Ribbons);
            else return fail("--renderers takes compute and/or ribbons, got '" + item + "'", 2);
        }
    }
    auto kernel = parse_tile_kernel(args);
    if (!kernel) return fail(kernel.error().message, 2);
    desc.tile_kernel = *kernel;
    auto runs = render::bench_render(*gpu->device, desc);
    if (!runs) return fail(runs.error().message);
    // The scene, framed as `render` frames it, by each renderer.
    if (auto scene_path = args.get("scene")) {
        auto loaded = load_scene(*scene_path);
        if (!loaded) return fail(loaded.error().message);
        for (render::HairRenderer which : desc.renderers) {
            runtime::RuntimeOptions options;
            options.renderer = render::RendererDesc{desc.width, desc.height, desc.samples, desc.shadow_size, 64, which,
                                                       desc.tile_kernel};
            auto rt = runtime::SceneRuntime::create(gpu->device.get(), options);
            if (!rt) return fail(rt.error().message);
            if (Status st = (*rt)->apply(loaded->scene); !st) return fail(st.error().message);
            render::FrameDesc frame = (*rt)->frame_desc(/*frame_on_meshes=*/true);
            auto run = render::bench_render_frame(*gpu->device, *(*rt)->renderer(), frame, desc.frames,
                                                  desc.warm_up_seconds);
            if (!run) return fail(run.error().message);
            run->renderer = render::renderer_name(which);
            run->model = loaded->scene.hair_groups.empty() ? "" : "scene";
            run->strands = uint32_t(run->lod.strands_total);
            run->vertices_per_strand = run->lod.vertices_total;
            runs->push_back(std::move(*run));
            (*rt).reset();
            (void)gpu->device->wait_idle();
        }
    }
    out["workload"] = "render";
    out["device"] = gpu->device->info().name;
    out["width"] = desc.width;
    out["height"] = desc.height;
    out["samples"] = desc.samples;
    out["shadow_size"] = desc.shadow_size;
    out["frames"] = desc.frames;
    out["tile_kernel"] = args.get_or("tile-kernel", "auto");
    nlohmann::json list = nlohmann::json::array();
    for (auto& r : *runs) {
        nlohmann::json j;
        j["renderer"] = r.renderer;
        j["strands"] = r.strands;
        j["vertices_per_strand"] = r.vertices_per_strand;
        j["model"] = r.model;
        j["lod"] = {{"strands_drawn", r.lod.strands_drawn},
                    {"vertices_per_strand_drawn", r.lod.vertices_per_strand},
                    {"width_scale", r.lod.width_scale},
                    {"segments", r.lod.segments},
                    {"tile_entries", r.lod.tile_entries}};
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
