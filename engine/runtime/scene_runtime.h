// One running scene: its imported meshes, grown grooms and collision fields (SceneContent), the
// simulation over them (on the GPU, or the CPU reference on request) and what the renderer draws. The
// editor and every CLI command (bake, render, groom, export, bench) go through it, so what the CLI bakes,
// renders and exports is what the editor shows.
//
//   auto rt = SceneRuntime::create(&device, {});         // or nullptr: grooms only (groom, export)
//   rt->apply(scene);                                     // import, grow, build fields, simulation, drawing
//   rt->apply(edited);                                    // redoes only what the edit touches: report()
//   rt->step(frames, &cmd);                               // or advance(elapsed_s, &cmd) at the fixed rate
//   rt->record_render(cmd, rt->frame_desc(scene.view));
//
// The editor splits apply() so that nothing slow runs on its UI thread: plan() and prepare_content()
// (scene_content.h) on a worker, then install() and sync() on the thread that owns the device.
//
// Threading: one thread (the device's) for every member; prepare_content() is the only part made for
// workers. GPU work is recorded into the caller's command buffer; the caller submits it and must let the
// previous submission finish before recording the next (the simulation's constants and the renderer's
// uniforms are written in place).
#pragma once

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "anim/anim.h"
#include "anim/gpu/skin_gpu.h"
#include "core/progress.h"
#include "core/result.h"
#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "render/renderer.h"
#include "runtime/rebuild_report.h"
#include "runtime/scene_content.h"
#include "scene/scene_types.h"
#include "sdf/gpu/sdf_gpu.h"
#include "sdf/sdf_check.h"
#include "sim/gpu/sim_gpu.h"
#include "sim/sag_free.h"
#include "sim/sim.h"

namespace tressel {
struct SimDensityGrid;  // sim/sim_metrics.h
}

namespace tressel::runtime {

// The renderer's debug colouring for the view's `colour_by`.
inline render::HairDebug hair_debug(HairColouring c) {
    switch (c) {
        case HairColouring::Guide: return render::HairDebug::Guide;
        case HairColouring::Stretch: return render::HairDebug::Stretch;
        case HairColouring::Depth: return render::HairDebug::Depth;
        case HairColouring::RootTip: return render::HairDebug::RootTip;
        case HairColouring::Problems: return render::HairDebug::Problems;
        case HairColouring::Shaded: break;
    }
    return render::HairDebug::None;
}

enum class SimBackend {
    Gpu,   // the GPU passes (engine/sim/gpu); positions stay on the GPU
    Cpu,   // the CPU reference step (engine/sim); positions are uploaded for drawing after each step
    None,  // the world is built at rest and nothing steps it (callers that time their own steps)
};
// Where collision fields are built. Auto: the GPU passes on a GPU (milliseconds, on the device's thread);
// the CPU reference on a CPU device, where the GPU passes are emulated and slower than the reference
// (default scene: 12.8 s against 8 s), and where the reference can run inside the worker's job so the
// editor's window never waits for a field.
enum class SdfBackend { Auto, Gpu, Cpu };

struct RuntimeOptions {
    SimBackend simulation = SimBackend::Gpu;
    // Fused (two dispatches a step) or Split (one per pass). Unset: Split on a CPU device, where the fused
    // step's workgroup barrier per swept vertex is slow (Rat Boy: 174 vs 537 ms a step), Fused elsewhere.
    std::optional<SimGpuMode> sim_mode;
    SdfBackend sdf = SdfBackend::Auto;
    uint32_t max_steps_per_record = 128;         // substeps one step() or advance() may record
    // Where the sag-free solve steps the world (SimBackend::Gpu): unset, the GPU passes on a GPU and the
    // CPU reference on a CPU device (guides only: default scene 11 s against 18 s on 2 cores).
    std::optional<bool> sag_free_on_gpu;
    // Interactive callers (the editor): an edit marks the rest state to solve again, and poll_rest_state()
    // solves it once edits have paused (kRestStateSettleS): on a GPU right there (half a second for the
    // default scene on an H100), on a CPU device on a worker thread with the CPU reference, the targets
    // taken over when it is done (the default scene's 11 s would freeze the window). Off (the CLI and
    // tests): solved within the call that needs it, deterministic.
    bool sag_free_async = false;
    uint32_t max_frames_per_advance = 4;         // advance() drops time beyond this many frames
    std::optional<render::RendererDesc> renderer;  // unset: nothing is drawn (bake, export, bench)
    // An edit whose simulation the device could not build (out of memory, a lost device) is tried again,
    // synced unchanged, only this long after the failure (seconds): the editor syncs every frame, and each
    // try builds two simulations (the edit's, then the scene before it again).
    double device_retry_s = 2.0;
};

struct RuntimeCounts {
    size_t guides = 0, guide_vertices = 0, follows = 0, follow_vertices = 0;
};

class SceneRuntime {
public:
    // `device` may be null: then only the CPU content is built (meshes, grooms, and fields with
    // SdfBackend::Cpu); simulation and drawing need a device.
    static Result<std::unique_ptr<SceneRuntime>> create(gpu::Device* device, const RuntimeOptions& options);
    ~SceneRuntime();
    SceneRuntime(const SceneRuntime&) = delete;
    SceneRuntime& operator=(const SceneRuntime&) = delete;

    // Makes `scene` the running scene, redoing only what differs from the current one (report() says
    // what). On error the previous scene stays running. Errors name the mesh, group or collision mesh.
    Status apply(const Scene& scene, Progress* progress = nullptr);

    // The steps of apply(), for callers that build content on a worker (the editor):
    ContentPlan plan(const Scene& scene) const { return plan_content(scene, content_.get()); }
    // Builds the content's missing fields (device thread), then makes it current: the simulation is
    // rebuilt at rest and the renderer refilled; report() starts with content->report. On error the
    // previous content stays.
    Status install(std::shared_ptr<SceneContent> content, Progress* progress = nullptr);
    // Applies what needs no new content: simulation, environment, motion, collider and margin values in
    // place (the simulation keeps running), shading, drawn meshes, colliders and the slice. A structural
    // simulation change (vertex count, SDF or collider lists, motion target) rebuilds the simulation at
    // rest. The scene must have the content's structure (plan(scene).any() is false).
    Status sync(const Scene& scene);

    // Whether prepare_content should build the fields (CPU reference) on the worker: the resolved backend.
    bool fields_on_worker() const { return sdf_ == SdfBackend::Cpu; }
    SdfBackend sdf_backend() const { return sdf_; }

    // What the last apply(), install() + sync() or sync() redid.
    const RebuildReport& report() const { return report_; }

    // Simulation. step() runs exactly `frames` frames (each environment.substeps steps); advance()
    // accumulates elapsed time and runs the whole frames due at the scene's rate (at most
    // max_frames_per_advance; the rest is dropped) and returns how many. GPU: recorded into `cmd`, or run
    // and waited for here when `cmd` is null; frames beyond what one record holds (max_steps_per_record
    // substeps) are run first, a record at a time, each waited for. `ts` (reset by the caller) takes the simulation's pass
    // times when `ts_capacity` has room for them.
    Status step(uint32_t frames, gpu::CommandBuffer* cmd = nullptr, gpu::TimestampQueries* ts = nullptr,
                uint32_t ts_capacity = 0);
    Result<uint32_t> advance(double elapsed_s, gpu::CommandBuffer* cmd = nullptr, gpu::TimestampQueries* ts = nullptr,
                             uint32_t ts_capacity = 0);
    Status reset_simulation();
    // Copies the GPU state into world() (positions of guides and follows) for metrics and dumps; the last
    // submission must have completed. No-op for the CPU backend.
    Status download();
    // A hair density slice follows the hair: when the slice shows hair density (view.slice_of) and the
    // simulation has stepped since the slice was made, reads the guides back (GPU path) and makes it again.
    // True when it was remade. The editor calls it a few times a second while the slice is on screen.
    Result<bool> refresh_density_slice();

    // Drawing: the frame of `view` (camera from the view, or framed on the meshes' bounds keeping its yaw,
    // pitch and field of view), the scene's lighting and the view's toggles.
    render::FrameDesc frame_desc(bool frame_on_meshes = false) const;
    void set_hair_visibility(bool guides, bool follows);
    // Records pending copies of simulated positions into the drawn buffers, then the renderer's frame, with
    // FrameDesc::hair_moved false when nothing moved the hair since the last recorded frame.
    Status record_render(gpu::CommandBuffer& cmd, const render::FrameDesc& frame, gpu::TimestampQueries* ts = nullptr);
    // A frame rendered, submitted and read back: sRGB RGBA8, top row first.
    Result<std::vector<uint8_t>> render_to_rgba(const render::FrameDesc& frame);
    Status resize(uint32_t width, uint32_t height);
    // |distance| at full slice colour (metres; 0 = the slice's largest), an editor setting.
    Status set_slice_range(double range_m);

    const Scene& scene() const { return scene_; }
    const SceneContent* content() const { return content_.get(); }
    std::shared_ptr<const SceneContent> shared_content() const { return content_; }
    SimWorld* world() { return world_ ? &*world_ : nullptr; }
    const SimWorld* world() const { return world_ ? &*world_ : nullptr; }
    // The distances of the world's field `sdf` as the simulation collides with them now: an animated body's
    // field rebuilt on the GPU is read back from the device; any other is the world's grid.
    Result<SdfGrid> current_field(uint32_t sdf);
    // The scene mesh `name` posed as the playing clip has it at the simulation's current time, when it is
    // the animated mesh of a skeletal clip; nullopt for any other mesh (they stand as loaded).
    std::optional<Mesh> animated_mesh_now(const std::string& name);
    // What a skeletal clip plays (the editor's timeline); nullopt without one.
    struct PlaybackInfo {
        std::string mesh, clip;
        std::vector<std::string> clips;   // every clip of the animated mesh's file, in file order
        double clip_duration_s = 0.0;
        double clip_time_s = 0.0;         // the clip time shown now (before wrapping or clamping)
        double blend_in_s = 0.0;          // simulation time blending from the bind pose into the first frame
        double start_s = 0.0, speed = 1.0;
        bool loop = true;
    };
    std::optional<PlaybackInfo> playback_info() const;
    // Frames stepped since the simulation was built or reset.
    uint64_t frames_stepped() const;
    const SimGpu* sim_gpu() const { return sim_ ? &*sim_ : nullptr; }
    render::Renderer* renderer() { return renderer_.get(); }
    gpu::Device* device() const { return device_; }
    const RuntimeOptions& options() const { return options_; }
    // Scene index of each simulated hair group (world().groups[i] is hair_groups[sim_group_scene_index[i]]).
    const std::vector<size_t>& sim_group_scene_index() const { return group_of_sim_; }
    // With sag_free_async: solves the rest state if an edit asked for it and edits have paused, or takes
    // over a worker's finished solve. Call once a frame before recording the simulation's steps (step()
    // and advance() call it first). rest_state_pending(): a solve is waiting or running. A new world's
    // solve runs on the worker while nothing steps; the first step waits for it, so the hair steps from
    // the same rest state as the CLI's.
    Status poll_rest_state();
    bool rest_state_pending() const { return rest_pending_ || rest_job_.has_value(); }
    static constexpr double kRestStateSettleS = 0.3;
    // The last sag-free solve (build, or an edit of what the rest state hangs on) and its wall time.
    const SagFreeReport& sag_free_report() const { return sag_free_; }
    double sag_free_ms() const { return sag_free_ms_; }
    // Bounds of everything a view should frame: the meshes grown by the longest strand.
    render::SceneBounds bounds() const;
    // The hair of scene group `group` (guides and follows) as the world last held it (the rest pose before
    // the first step, on the GPU path the last download()); empty for a group with no hair.
    render::SceneBounds hair_bounds(size_t group) const;
    RuntimeCounts counts() const;

private:
    SceneRuntime() = default;
    Status build_sdfs(SceneContent& content, Progress* progress);
    Status build_simulation(const Scene& scene);
    Status build_hair_drawing(const Scene& scene);
    // The world's cloths from the scene's enabled accessories (cloth_of_accessory_), at rest.
    Status build_cloths(const Scene& scene);
    // Solves the groups' sag-free targets (sag_free.h) on the simulation's backend, the running state kept:
    // now, or with sag_free_async when poll_rest_state() finds edits paused. `building`: a new world.
    Status solve_rest_state(bool building);
    Status populate_meshes(const Scene& scene, double t_s);
    Status update_slice(const Scene& scene);
    void expand_hair_bounds();

    gpu::Device* device_ = nullptr;
    RuntimeOptions options_;
    SdfBackend sdf_ = SdfBackend::Gpu;   // options_.sdf resolved for the device
    std::unique_ptr<render::Renderer> renderer_;
    std::optional<SimGpuPipelines> sim_pipelines_;
    std::optional<SdfGpuPipelines> sdf_pipelines_;
    std::shared_ptr<const SceneContent> content_;
    Scene scene_;                        // the scene the simulation and the drawing reflect
    // The last scene whose simulation could not be built for a fault of its own (not the device's), and why:
    // synced again unchanged (the editor syncs every frame), it is refused again at once instead of building
    // two simulations a frame.
    std::optional<std::pair<Scene, Status>> refused_;
    // The last scene whose simulation the device failed to build, why, and when (options_.device_retry_s).
    struct DeviceRefusal {
        Scene scene;
        Status status;
        std::chrono::steady_clock::time_point at;
    };
    std::optional<DeviceRefusal> device_refused_;
    std::optional<SimWorld> world_;
    std::optional<SimGpu> sim_;
    std::vector<size_t> group_of_sim_;
    std::vector<int> cloth_of_accessory_;  // per scene accessory: its world cloth, -1 when not simulated
    RebuildReport report_;
    SagFreeReport sag_free_;
    double sag_free_ms_ = 0.0;
    // sag_free_async: a solve asked for (when), and the worker's solve on a copy of the world.
    bool rest_pending_ = false;
    bool rest_blocks_step_ = false;      // a new world's solve is deferred: the first step waits for it (as the CLI's does)
    std::chrono::steady_clock::time_point rest_pending_since_{};
    uint64_t world_generation_ = 0;      // bumped whenever the world is rebuilt or its rest state asked for again
    struct RestJob {
        std::shared_ptr<SimWorld> world;
        std::shared_ptr<const SceneContent> content;  // keeps the fields the copy points at alive
        std::shared_ptr<Progress> progress;
        std::future<Result<SagFreeReport>> result;
        uint64_t generation = 0;
        std::chrono::steady_clock::time_point started{};
    };
    std::optional<RestJob> rest_job_;
    // Skeletal animation (motion.type animation): the animated mesh's clip, skinned on the CPU each frame;
    // it is drawn posed and its hair groups' roots follow it (SimWorld::root_driver). Collision fields do
    // not follow it yet, and scene files asking for it are still refused at load.
    struct Playback {
        std::string mesh;                   // the animated scene mesh
        const SceneMesh* scene_mesh = nullptr;
        const ImportedScene* file = nullptr;  // whose nodes and clips move it: its own, or its meshes[].skeleton's
        const Skin* skin = nullptr;           // its file's skin, or own_skin
        Skin own_skin;                        // its bones found by name in meshes[].skeleton's file
        std::unique_ptr<ClipSampler> clip;
        glm::dmat4 to_scene{1.0};           // the import's unit and axis conversion, then the mesh's transform
        SkinBind bind;
        std::vector<glm::vec3> posed, posed_normals;
        std::vector<glm::mat4> joints;      // the skin's joint matrices of the pose at posed_t
        double posed_t = -1.0;
        // Simulation time spent blending from the bind pose (where the hair was grown) into the clip's
        // first frame; the clip plays from its start after it.
        static constexpr double kBlendInS = 0.5;
        double start_s = 0.0, speed = 1.0;  // motion.animation_start_s, animation_speed
        bool loop = true;                   // motion.animation_loop
        // The clip time shown at simulation time t_s (after the blend-in).
        double clip_time_s(double t_s) const { return start_s + speed * std::max(0.0, t_s - kBlendInS); }
        // The nodes' local transforms at simulation time t_s: the blend-in from the rest pose, then the clip.
        std::vector<NodeTransform> local_pose(double t_s) const;
        // Colliders and accessories on a joint (Collider::attach_joint, Accessory::attach_joint): scene index
        // (of the collider or the accessory), node, inverse of the node's rest world transform; the nodes'
        // world transforms at joint_world_t.
        struct JointAttachment {
            size_t index = 0;
            int node = 0;
            glm::dmat4 inverse_rest{1.0};
        };
        std::vector<JointAttachment> joint_colliders, joint_accessories;
        // Accessories pinned to the skin (attached to the animated mesh, no attach_joint): each pinned vertex
        // carried by the skinned triangle nearest it at rest, in the frame anim::root_transforms gives a
        // strand's root, so a scarf's pins follow a bending neck as its skin does. Only the corners of those
        // triangles are skinned: `corners` is a mesh of them (rest positions, joints and weights, the pins'
        // triangles re-indexed) and `bind` its bind pose.
        struct SkinPins {
            size_t cloth = 0;                   // world cloth
            size_t vertex_count = 0;            // its vertices
            Mesh corners;
            SkinBind bind;
            std::vector<ScalpAttachment> at;    // per pin, its triangle of `corners` and its closest point's barycentric
            std::vector<uint32_t> vertex;       // per pin, the cloth vertex
            size_t representative = 0;          // the pin (nearest the pins' centre) whose transform the cloth as a whole follows
            // Per pin, its transforms at two times: a step asks for its start and its end, each more than
            // once (the cloth as a whole, then every pin), and the next step starts where this one ends.
            std::vector<glm::mat4> transforms[2];
            double transforms_t[2] = {-1.0, -1.0};
            uint32_t oldest = 0;
        };
        std::vector<SkinPins> skin_pins;
        // The transforms of `pins`' pins at t_s (rest -> world): one of its two cached times, filled first.
        Result<const std::vector<glm::mat4>*> skin_pins_at(SkinPins& pins, double t_s);
        std::vector<glm::dmat4> joint_world;
        double joint_world_t = -1.0;
        // A joint's motion from the rest pose at t_s, in scene space (rest -> world).
        glm::mat4 joint_motion(int node, const glm::dmat4& inverse_rest, double t_s);
        // Where the mesh lies in a pose without skinning it (posed_bounds): the grids of its fields are
        // placed around each pose, and bind_centre is the centre of the bind pose's box.
        JointBounds joint_boxes;
        glm::dvec3 bind_centre{0.0};
        // The centre of the box of the pose whose joint matrices are `pose_joints`.
        glm::dvec3 pose_centre(std::span<const glm::mat4> pose_joints) const;
        // Collision fields of the animated mesh, rebuilt from its pose before every frame on a grid placed
        // around that pose: the cells and the cell count of a grid sized for the largest pose the clip
        // takes (every pose's box, sampled 25 times), moved by whole cells with the pose's centre, so a body
        // that walks across the scene keeps its cells as fine as one standing still. `bind` is the field of
        // the bind pose (its grid centred on the bind pose's box), for the sag-free solve (the rest state
        // is the bind pose's); the simulation samples every pose's field through that grid moved by the
        // pose's placement (SimSdfState::placement_m).
        struct Field {
            uint32_t sdf = 0;                       // index into the world's fields
            SdfBuildDesc desc;                      // its mesh set per build, fixed_grid set (the bind pose's grid)
            // The grid's origin for a pose centred at `centre`: the bind pose's moved by whole cells.
            glm::dvec3 origin_for(glm::dvec3 centre, glm::dvec3 bind_centre) const;
            std::unique_ptr<SdfGrid> bind, posed;
            double posed_t = -1.0;
            // GPU simulation: the field rebuilt on the device from the skinned positions (refit, build, copy
            // into the simulation's field), with no host copy of the pose or the grid.
            std::optional<SdfGpuField> gpu;
            std::optional<SdfRefitGpu> refit;
        };
        std::vector<Field> fields;
        Mesh posed_mesh;                            // the animated mesh posed, for the field builds
        std::optional<SkinnedMeshGpu> skinned;      // the GPU path's skinning of the animated mesh
        // The GPU path's roots: per simulation group grown on the animated mesh, its roots' targets from the
        // skinned scalp, read by the simulation from the device (SimGpu::set_device_root_targets).
        std::vector<std::pair<size_t, std::unique_ptr<SkinnedRootsGpu>>> device_roots;
        std::vector<bool> device_rooted;            // per simulation group
        double gpu_posed_t = -1.0;                  // the time the GPU path last posed the body at
        std::vector<uint32_t> draws;                // the renderer's meshes drawing the animated mesh
        glm::vec3 clip_min{0.0f}, clip_max{0.0f};   // bounds of every pose of the clip
    };
    std::unique_ptr<Playback> playback_;
    Status build_playback(const Scene& scene);
    // The GPU path of the animated fields (skinning, refit, build on the device) once the GPU simulation
    // exists; fields stay on CPU builds where it does not or the device cannot build fields.
    Status build_playback_gpu();
    std::optional<SkinGpuPipeline> skin_pipeline_;
    Status pose_at(double t_s);
    void drive_roots(SimWorld& world, double t_s);
    bool collider_at(size_t index, double t_s, glm::mat4& out);  // SimWorld::collider_driver
    bool cloth_at(size_t cloth, double t_s, glm::mat4& out);     // SimWorld::cloth_driver
    bool cloth_pins_at(size_t cloth, double t_s, std::vector<glm::mat4>& out);  // SimWorld::cloth_pin_driver
    // Binds the pins of world cloth `cloth` (accessory `who`) to the animated mesh's skin (Playback::SkinPins).
    Status pin_to_skin(size_t cloth, const std::string& who);
    // The animated mesh's fields posed at t_s (or at the bind pose), given to the world and the GPU step.
    Status pose_fields(double t_s, bool bind_pose = false);
    Status solve_rest_state_now();
    Status finish_rest_state();
    Status start_rest_job();
    Status take_rest_targets(const SimWorld& solved);

    struct HairDraw {
        gpu::Buffer guide_positions;     // copy of the simulation's current guide buffer (a stable binding)
        gpu::Buffer guide_info, follow_info;
        std::optional<uint32_t> guides_index, follows_index;  // renderer hair indices
        glm::vec3 rest_min{0.0f}, rest_max{0.0f};              // bounds of the rest pose (guides and follows)
        float reach_m = 0.0f;                                  // how far a strand may swing from its rest
        float longest_m = 0.0f;                                // the longest guide's rest length
    };
    std::vector<HairDraw> hair_;
    bool copy_pending_ = true;
    bool hair_moved_ = false;            // bounds grown by each strand's reach once the hair has moved
    double meshes_time_s_ = -1.0;        // simulation time the moving meshes were drawn at
    double slice_range_m_ = 0.0;
    double accumulator_s_ = 0.0;         // advance(): time not yet simulated
    struct SliceKey {
        SliceAxis axis;
        double position, margin, range;
        size_t mesh;
        const SdfGrid* grid;
        double pose_t = -1.0;  // an animated body's field: the time it is posed at (-1: the still field)
        // A hair density slice: the simulation group it shows and the state it was made from.
        bool density = false;
        size_t group = 0;
        uint64_t world = 0;    // world_generation_
        uint64_t steps = 0, downloads = 0;
        bool operator==(const SliceKey&) const = default;
    };
    Status update_density_slice(const Scene& scene);
    std::shared_ptr<const SimDensityGrid> density_grid_;  // what a density slice shows, for its probe
    uint64_t downloads_ = 0;             // download() calls, so a density slice knows when the host hair moved
    std::optional<SliceKey> slice_key_;
    render::SliceView slice_;            // what the renderer was last given
    std::shared_ptr<const SdfGrid> slice_grid_;  // the field it shows (the posed copy for an animated body)
    std::string slice_mesh_;
    // The still field's diagnosis and its mesh's problem edges (sdf/sdf_check.h), kept for the grid and
    // mesh they were made from: a full pass over the field, not redone as the slice moves.
    std::shared_ptr<const SdfFieldCheck> field_check_;
    const SdfGrid* field_check_grid_ = nullptr;
    std::shared_ptr<const MeshEdgeProblems> edge_problems_;
    const Mesh* edge_problems_mesh_ = nullptr;
public:
    // The SDF slice on screen (empty without one) and, for an animated body, the time its field is posed at
    // (-1 for a still field).
    const render::SliceView& slice() const { return slice_; }
    double slice_pose_time() const { return slice_key_ ? slice_key_->pose_t : -1.0; }

    // What the slice shows under a ray (the camera's through a point of the viewport): where the ray meets the
    // slice's plane inside the grid's box, the field's signed distance there (trilinear: the value the
    // colours show), and the nearest cell with its own distance. Empty without a slice, or where the ray
    // misses the plane inside the box.
    struct SliceProbe {
        std::string mesh;                    // the collision mesh whose field it is
        glm::dvec3 point_m{0.0};
        double distance_m = 0.0;             // NaN where a cell around the point has no distance
        glm::ivec3 cell{0};
        double cell_distance_m = 0.0;        // NaN where that cell has none
        double cell_size_m = 0.0, margin_m = -1.0;
        uint8_t mark = 0;                    // SdfCellMark of that cell (sdf/sdf_check.h); 0 unchecked
        // A hair density slice instead: `mesh` is then the hair group, `cell` the nearest node of its volume
        // grid, and the reading hairs per square centimetre (bilinear between the plane's nodes), with the
        // group's volume_density.
        bool density = false;
        double density_per_cm2 = 0.0, target_per_cm2 = 0.0;
    };
    std::optional<SliceProbe> probe_slice(glm::dvec3 origin_m, glm::dvec3 direction) const;
};

// The simulated positions of every group, float32 little-endian xyz: per group its guide vertices then
// its follow vertices, strand-major (the layout of `bake --dump`). Reads world positions: call download()
// first on the GPU backend.
std::vector<uint8_t> positions_f32(const SimWorld& world);

}  // namespace tressel::runtime
