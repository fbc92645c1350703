#include "render/render_bench.h"

#include <algorithm>
#include <map>

#include "gpu/warm_up.h"
#include "render/hair_data.h"
#include "render/renderer.h"

namespace tressel::render {

namespace {

Result<RenderBenchRun> run_one(gpu::Device& device, Renderer& renderer, gpu::TimestampQueries& ts, const FrameDesc& frame,
                               int frames, double warm_up_seconds) {
    // A frame whose buffers grew (the compute rasterizer's tile lists) is redrawn before timing.
    if (auto first = renderer.render_to_rgba(frame); !first) return first.error();
    std::map<std::string, std::vector<double>> samples;
    std::vector<std::string> order;
    auto render_once = [&]() -> Result<std::vector<gpu::PassTime>> {
        auto cmd = device.begin_commands();
        if (!cmd) return cmd.error();
        TRESSEL_TRY(renderer.record(*cmd, frame, &ts));
        auto serial = device.submit(std::move(*cmd));
        if (!serial) return serial.error();
        TRESSEL_TRY(device.wait(*serial));
        return ts.read();
    };
    Status warm = gpu::warm_up([&]() -> Status {
        auto passes = render_once();
        if (!passes) return passes.error();
        return {};
    }, warm_up_seconds);
    if (!warm) return warm.error();
    for (int f = 0; f < frames; ++f) {
        auto passes = render_once();
        if (!passes) return passes.error();
        for (auto& p : *passes) {
            if (!samples.count(p.name)) order.push_back(p.name);
            samples[p.name].push_back(p.ms);
        }
    }
    RenderBenchRun run;
    for (auto& name : order) {
        auto& v = samples[name];
        std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
        run.passes.push_back({name, v[v.size() / 2]});
        run.total_ms += v[v.size() / 2];
    }
    run.lod = renderer.hair_lod();
    return run;
}

}  // namespace

const char* renderer_name(HairRenderer renderer) {
    return renderer == HairRenderer::Ribbons ? "ribbons" : "compute";
}

Result<RenderBenchRun> bench_render_frame(gpu::Device& device, Renderer& renderer, const FrameDesc& frame, int frames,
                                          double warm_up_seconds) {
    if (device.info().timestamp_valid_bits == 0)
        return make_error(ErrorCode::Unsupported, "render benchmark: the device's queue has no timestamps");
    auto ts = gpu::TimestampQueries::create(device, 16);
    if (!ts) return ts.error();
    return run_one(device, renderer, *ts, frame, frames, warm_up_seconds);
}

Result<std::vector<RenderBenchRun>> bench_render(gpu::Device& device, const RenderBenchDesc& desc) {
    if (device.info().timestamp_valid_bits == 0)
        return make_error(ErrorCode::Unsupported, "render benchmark: the device's queue has no timestamps");
    if (desc.frames < 1) return make_error(ErrorCode::InvalidArgument, "render benchmark: frames must be >= 1");
    auto ts = gpu::TimestampQueries::create(device, 16);
    if (!ts) return ts.error();
    std::vector<RenderBenchRun> runs;
    for (HairRenderer which : desc.renderers) {
        auto renderer = Renderer::create(device, {desc.width, desc.height, desc.samples, desc.shadow_size, 64, which,
                                                  desc.tile_kernel});
        if (!renderer) return renderer.error();
        // A head-sized sphere under the hair.
        Collider head{"head", ColliderType::Sphere, glm::dvec3(0.0), glm::dvec3(0.0), 0.095, 0.0, ""};
        auto head_id = (*renderer)->add_mesh(make_collider_mesh(head, 64), MeshStyle::Opaque);
        if (!head_id) return head_id.error();
        for (size_t i = 0; i < desc.strand_counts.size(); ++i) {
            uint32_t count = desc.strand_counts[i];
            RenderStrands strands = synthetic_strands(count, desc.vertices_per_strand, glm::vec3(0.0f), 0.1f, 0.3f);
            auto buffers = upload_strands(device, strands, "bench hair");
            if (!buffers) return buffers.error();
            (*renderer)->clear_hair();
            Shading shading;
            shading.fiber_radius_m = 0.0004;
            auto id = (*renderer)->add_hair(buffers->desc(shading));
            if (!id) return id.error();
            FrameDesc frame;
            frame.camera.target_m = glm::dvec3(0.0, -0.05, 0.0);
            frame.camera.distance_m = 0.9;
            frame.camera.yaw_deg = 30.0;
            frame.camera.pitch_deg = 10.0;
            frame.show_grid = false;
            std::vector<ShadingModel> models{ShadingModel::KajiyaKay};
            if (i == 0) models.push_back(ShadingModel::Marschner);
            for (ShadingModel m : models) {
                shading.model = m;
                (*renderer)->set_hair_shading(*id, shading);
                auto run = run_one(device, **renderer, *ts, frame, desc.frames, desc.warm_up_seconds);
                if (!run) return run.error();
                run->strands = count;
                run->vertices_per_strand = desc.vertices_per_strand;
                run->model = m == ShadingModel::Marschner ? "marschner" : "kajiya_kay";
                run->renderer = renderer_name(which);
                runs.push_back(std::move(*run));
            }
            (*renderer)->clear_hair();
            TRESSEL_TRY(device.wait_idle());
        }
    }
    return runs;
}

}  // namespace tressel::render
