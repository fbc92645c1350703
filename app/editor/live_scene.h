// The scene as the viewport shows it: imported meshes, grown grooms and SDFs (built on a worker from a
// Scene copy), the live GPU simulation and the renderer drawing straight from its buffers.
//
// Threading: build_content() is a pure function of its arguments and runs on a worker; every member
// function runs on the UI thread, which owns the device and its queue (Vulkan queues are not
// thread-safe, so the simulation and renders are recorded into the UI thread's frame).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "core/diagnostics.h"
#include "core/progress.h"
#include "core/result.h"
#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "groom/grow.h"
#include "io/scene_meshes.h"
#include "render/renderer.h"
#include "scene/scene_types.h"
#include "sdf/sdf.h"
#include "sdf/gpu/sdf_gpu.h"
#include "sim/gpu/sim_gpu.h"
#include "sim/sim.h"

namespace tressel::editor {

// CPU products of a scene, shared (immutable) between the UI thread and the worker building the next one.
struct SceneContent {
    Scene scene;                                              // what it was built from
    std::shared_ptr<const std::vector<SceneMesh>> meshes;     // scene.meshes order
    std::vector<std::shared_ptr<const GroomResult>> grooms;   // per hair group; null when the group is hidden
    std::vector<std::shared_ptr<const SdfGrid>> sdfs;         // per collision mesh; null until built on the GPU
    std::vector<double> sdf_build_ms;                         // per collision mesh, GPU time of the build passes
    double groom_ms = 0.0;                                    // wall clock of the last regrow
    Diagnostics diagnostics;
};

// Which CPU products must be rebuilt for `scene`, given the content on screen (null: everything).
struct ContentPlan {
    bool meshes = true, grooms = true, sdfs = true;
    bool any() const { return meshes || grooms || sdfs; }
};
ContentPlan plan_content(const Scene& scene, const SceneContent* current);

// Builds what `plan` asks for on the CPU and reuses the rest from `previous` (may be null when the plan
// asks for everything). SDFs to rebuild are left null for LiveScene::build_sdfs (GPU, UI thread). Errors
// name the mesh, hair group or collision mesh; Cancelled when progress asks for it.
Result<std::shared_ptr<SceneContent>> build_content(const Scene& scene, ContentPlan plan,
                                                          std::shared_ptr<const SceneContent> previous,
                                                          Progress* progress);

struct ViewportFlags {
    bool guides = true, follows = true, collision = false, colliders = true, slice = false, grid = true;
};

class LiveScene {
public:
    static Result<std::unique_ptr<LiveScene>> create(gpu::Device& device, uint32_t width, uint32_t height);
    ~LiveScene();

    // Builds the content's missing SDFs with the GPU passes (engine/sdf/gpu) and reads them back for the
    // simulation's CPU-side frames. Errors name the collision mesh.
    Status build_sdfs(SceneContent& content);

    // Makes `content` current: builds the simulation world and its GPU state (at rest) and fills the
    // renderer. On error the previous content stays.
    Status install(std::shared_ptr<const SceneContent> content, const Scene& scene);
    const SceneContent* content() const { return content_.get(); }
    std::shared_ptr<const SceneContent> shared_content() const { return content_; }

    // Applies changes of `scene` that need no worker: simulation, environment, motion, collider and
    // margin values in place (the simulation keeps running), shading, colliders and the slice.
    // Structural simulation changes (vertex count, SDF or collider lists) rebuild the simulation at rest.
    // `slice_range_m`: |distance| at full slice colour, metres (0 = the slice's largest).
    Status sync(const Scene& scene, double slice_range_m = 0.0);

    // Records `sim_frames` simulation frames (each environment.substeps steps), then the render.
    // `sim_ts` (optional, reset by the caller) holds `sim_ts_capacity` passes: the simulation's passes
    // are timed only when they fit. `render_ts` (optional) is the renderer's (it resets it itself).
    Status record(gpu::CommandBuffer& cmd, const render::FrameDesc& frame, uint32_t sim_frames,
                  gpu::TimestampQueries* sim_ts, uint32_t sim_ts_capacity, gpu::TimestampQueries* render_ts);
    Status reset_simulation();
    void set_hair_visibility(bool guides, bool follows);
    Status resize(uint32_t width, uint32_t height);

    render::Renderer& renderer() { return *renderer_; }
    const SimWorld* world() const { return world_ ? &*world_ : nullptr; }
    render::SceneBounds bounds() const;
    size_t guide_count() const, follow_count() const, vertex_count() const;

private:
    LiveScene() = default;
    Status build_simulation(const Scene& scene);
    Status populate_meshes(const Scene& scene, double t_s);
    Status update_slice(const Scene& scene);
    double slice_range_m_ = 0.0;

    gpu::Device* device_ = nullptr;
    std::unique_ptr<render::Renderer> renderer_;
    std::optional<SimGpuPipelines> pipelines_;
    std::optional<SdfGpuPipelines> sdf_pipelines_;
    std::shared_ptr<const SceneContent> content_;
    std::optional<SimWorld> world_;
    std::optional<SimGpu> sim_;
    Scene synced_;                       // the scene the simulation and renderer reflect
    std::vector<size_t> group_of_sim_;   // scene hair group index of each simulated group
    struct HairDraw {
        gpu::Buffer guide_positions;     // copy of the simulation's current guide buffer (stable binding)
        gpu::Buffer guide_info, follow_info;
        std::optional<uint32_t> guides_index, follows_index;  // renderer hair indices
    };
    std::vector<HairDraw> hair_;
    bool copy_pending_ = true;
    double meshes_time_s_ = -1.0;        // simulation time the moving meshes were drawn at
    struct SliceKey {
        SliceAxis axis;
        double position, margin, range;
        size_t mesh;
        const SdfGrid* grid;
        bool operator==(const SliceKey&) const = default;
    };
    std::optional<SliceKey> slice_key_;
};

}  // namespace tressel::editor
