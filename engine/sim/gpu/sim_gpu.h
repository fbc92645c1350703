// The hair simulation on the GPU: the passes of the CPU reference (engine/sim/sim_passes.h, README.md) as
// compute shaders (shaders/sim/*.comp) over the same shared formulas.
//
// Two ways to run a step (SimGpuMode): Fused (default) runs every guide pass of a group in one dispatch
// (strands.comp: a workgroup's strands in shared memory, the sweeps pipelined one lane per iteration) and the follow hairs with their SDF
// pushes in a second (follow_all.comp); groups do not wait for each other. Split runs one dispatch and
// one timestamp per pass, for profiling, and is the faster one on the CPU driver (lavapipe), where the fused
// step's barrier per swept vertex is costly. Both compute the same step (every pass stays within a strand).
//
//   auto pipelines = SimGpuPipelines::create(device);
//   auto sim = SimGpu::create(device, *pipelines, world);       // uploads the world's state (rest or current)
//   auto cmd = device.begin_commands();
//   sim->record_steps(*cmd, world, world.environment.substeps, &timestamps);  // advances world's clock
//   submit, wait; then (optionally) sim->download(device, world) for metrics or comparison.
//
// The CPU SimWorld stays the source of every per-step constant (begin_step: motion, colliders, SDF frames,
// root transforms), so the GPU and CPU steps read identical inputs. Positions live on the GPU; the
// renderer draws straight from guide_positions() and follow_positions().
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "sdf/gpu/sdf_gpu.h"
#include "shared/sim_gpu.h"
#include "shared/sim_roots.h"
#include "sim/gpu/cloth_gpu.h"
#include "sim/sim.h"

namespace tressel {

enum class SimGpuMode { Fused, Split };

// Name of phase i of the fused strand pass (gpu_shared::kSimPhaseCount): "staging in", "integration", ...
const char* sim_phase_name(uint32_t phase);

class SimGpuPipelines {
public:
    static Result<SimGpuPipelines> create(gpu::Device& device);
    // The fused strand pass for strands of n vertices: built on first use for each n (specialised on n and
    // on strands_per_workgroup(n)), then kept; safe to call from several threads. `phase_clocks`: the
    // variant that also records each phase's SM cycles (sim/strands_phases.comp; needs
    // DeviceInfo::shader_clock, and subgroup shuffles). `chain`: with the chain shape matching phase
    // (specialised out without it: its registers cost every other phase 2% at 4M guide vertices on an
    // H200), by subgroup shuffles where a subgroup holds whole strands (sim/strands_shuffle.comp).
    Result<const gpu::ComputePipeline*> strands(uint32_t n, bool phase_clocks = false, bool chain = false) const;
    // Whether the fused pass for strands of n vertices integrates each workgroup's next batch of strands in
    // registers during the current batch's follow-the-leader sweep (a subgroup holds whole strands and
    // has shuffles), rather than in a phase of its own.
    bool integrates_ahead(uint32_t n) const;
    // Whether the fused pass's workgroups for strands of n vertices take batches from the work counter,
    // reading the next during each batch's follow-the-leader sweep: from batches_min_vertices on (16 by
    // default: at 8 that sweep is short, and the loop cost the fur of Rat Boy's scene a third of its
    // workgroups per SM, 128 registers against 80). Tests lower it to reach the batch path on the CPU
    // driver's 8-lane subgroups; set it before the first strands() call.
    bool takes_batches(uint32_t n) const;
    void set_batches_min_vertices(uint32_t n) { batches_min_vertices_ = n; }
    // Threads per workgroup of the fused pass at most (kSimStrandsMaxThreads by default; a power of two
    // from 64 to the device's limit), for benchmarks; set it before the first strands() call.
    void set_max_strand_threads(uint32_t n) { max_strand_threads_ = n; }
    uint32_t strand_threads(uint32_t n) const;
    // Items each stage of the fused pass's pipelined sweeps takes per barrier step (1 by default, up to
    // kSimSweepItemsMax): fewer steps and barriers, each longer; the result is the same. For benchmarks;
    // set it before the first strands() call.
    void set_sweep_items(uint32_t n) { sweep_items_ = n; }
    uint32_t sweep_items() const { return sweep_items_; }
    // Strands per workgroup of the fused pass: up to kSimStrandsMaxPerWorkgroup (or the power of two at most
    // set_max_strands_per_workgroup's, for tests: fewer strands put the next batch's set-up on a subgroup of
    // its own on the CPU driver's 8-lane subgroups), halved while their staging would exceed the device's
    // shared memory. Set it before the first strands() call.
    uint32_t strands_per_workgroup(uint32_t n) const;
    void set_max_strands_per_workgroup(uint32_t n) { max_strands_per_workgroup_ = std::max<uint32_t>(n, 1); }

    gpu::ComputePipeline strand_data, integrate, global_shape, vsp, local_shape, length, clamp, sdf_vertex,
        sdf_midpoint, ftl, chain_runs, chain_vertices, follow, follow_sdf, follow_all, volume_bounds, volume_splat,
        volume_gradient, field_depth;
    gpu::ComputePipeline roots;  // sim/roots.comp: skinned roots from the device (a layout of its own)
    gpu::ComputePipeline field_copy;  // sim/field_copy.comp: a rebuilt field into a group's fields
    gpu::ComputePipeline cloth_predict, cloth_substep, cloth_tile, cloth_draw;  // cloth accessories (cloth_gpu.h; a layout of their own)
    gpu::ComputePipeline soft_cluster, soft_substep, soft_draw;     // soft-body accessories (the cloths' layout)

private:
    struct Cache {
        std::mutex mutex;
        std::map<uint32_t, std::unique_ptr<gpu::ComputePipeline>> strands_by_n;
    };
    gpu::Device* device_ = nullptr;
    std::unique_ptr<Cache> cache_;
    uint32_t subgroup_size_ = 0;       // compute subgroups with shuffles (0: none): the chain phase's shuffles
    uint32_t batches_min_vertices_ = 16;
    uint32_t max_strand_threads_ = gpu_shared::kSimStrandsMaxThreads;
    uint32_t sweep_items_ = 1;
    uint32_t max_strands_per_workgroup_ = gpu_shared::kSimStrandsMaxPerWorkgroup;
};

struct SimGpuGroup {
    uint32_t n = 0, strands = 0, follows = 0;
    uint32_t max_colliders = 1, max_sdfs = 1;
    uint32_t root_capacity = 1;        // root transforms per slot and per time (1: rigid; strands: skinned)
    std::vector<uint32_t> field_offsets;  // per SDF of the group, first float in `sdf_fields`
    const gpu::ComputePipeline* strands_pipeline = nullptr;  // fused mode
    bool strands_chain = false;        // strands_pipeline has the chain shape matching phase
    uint32_t strands_per_workgroup = 1;
    bool strands_batches = false;      // the fused pass's workgroups take batches (SimGpuPipelines::takes_batches)
    gpu::Buffer positions[3];          // rotating: current, previous, integration output
    gpu::Buffer rest, rest_lengths, ref_vectors, rest_root_frame, strand_data, frames_rest, frames_world;
    gpu::Buffer sdf_exempt;  // uint per strand (SimGroupState::sdf_exempt; zeros when it is empty)
    gpu::Buffer follow_desc, follow_pos, sdf_grids, sdf_fields, sdf_offsets;
    gpu::Buffer follow_corrections;    // vec4 per corrected follow and vertex (SimGroupState::follow_corrections; a stub without)
    gpu::Buffer params, roots, colliders, sdf_frames;  // host-visible, one slot per substep of a record
                                       // (sdf_frames: one more, for record_field_depth)
    gpu::Buffer depth_guides, depth_follows;  // float per vertex: record_field_depth's output
    gpu::Buffer contacts;              // vec4 per vertex: the step's SDF contact normals (split passes)
    gpu::Buffer chain_q;               // vec4 per vertex slot: chain shape matching rotations (kept across steps)
    gpu::Buffer chain_rest;            // vec4 per vertex: the runs' rest shape (the groom; SimGroupState::chain_rest)
    gpu::Buffer chain_t;               // vec4 per vertex slot: their goal translations (split passes)
    gpu::Buffer phase_clocks;          // kSimPhaseCount cycle counts per batch of strands of the fused pass (a stub without)
    gpu::Buffer work;                  // the fused pass's work counter (kSimBindWork)
    gpu::Buffer volume_grid;           // hair volume: int x kSimVolumeNodeInts per node (a stub while volume is off)
    gpu::Buffer volume_bounds;         // hair volume: the hair's bounds at the step's start (kSimVolumeBoundsUints)
    gpu::Buffer volume_gradient;       // hair volume: vec4 per node, the overdensity gradient (a stub while off)
    uint32_t volume_nodes_capacity = 0;  // nodes per axis volume_grid can hold
    gpu::DescriptorSet sets[3];        // set r: positions[r] current, [r+1] previous, [r+2] output
    uint32_t rotation = 0;
    // Skinned roots from the device (set_device_root_targets): the targets the caller writes, the transform
    // each root has reached, and the set of the roots pass.
    const gpu::Buffer* device_targets = nullptr;
    gpu::Buffer root_state;
    gpu::DescriptorSet roots_set;
    // record_sdf_field_copy's sets, per source buffer (a field rebuilt on the device).
    std::map<VkBuffer, gpu::DescriptorSet> field_copy_sets;
};

class SimGpu {
public:
    // `max_steps_per_record`: the most substeps one record_steps call may record (slots of constants).
    // `phase_clocks` (Fused only, DeviceInfo::shader_clock): runs the strand pass variant that records the
    // SM cycles of each of its phases (phase_cycles()); it computes the same step.
    static Result<SimGpu> create(gpu::Device& device, const SimGpuPipelines& pipelines, const SimWorld& world,
                                 uint32_t max_steps_per_record = 16, SimGpuMode mode = SimGpuMode::Fused,
                                 bool phase_clocks = false);

    // Records `steps` substeps for every enabled group, taking each step's constants from begin_step(world)
    // and advancing world.clock as step_once does. The constants are written to host-visible memory now:
    // the previous submission of this SimGpu must have completed. Pass times go to `ts` when given (its
    // reset() is the caller's): per pass in Split mode, "sim strand data", "sim strands" and "sim follow hairs" (all groups
    // together) in Fused mode. InvalidArgument when steps exceeds the slots.
    Status record_steps(gpu::CommandBuffer& cmd, SimWorld& world, uint32_t steps, gpu::TimestampQueries* ts);

    // Skinned roots of `group` read from the device: `targets` (mat4 per strand, kept alive by the caller)
    // holds each root's transform at the end of the next frame, written on the GPU before that frame's
    // steps are submitted (the skinned scalp's roots pass); each substep blends toward it as the CPU step
    // blends set_root_transforms' targets, with no per-strand host upload. The transform reached starts at
    // the world's current root transforms. nullptr returns the group to the world's transforms.
    Status set_device_root_targets(gpu::Device& device, const SimWorld& world, size_t group, const gpu::Buffer* targets);
    // Off: every group takes the world's root transforms (a sag-free solve at the bind pose), the transforms
    // reached on the device kept for when it is on again.
    void set_device_roots_enabled(bool on) { device_roots_enabled_ = on; }
    // The most workgroups the fused strand pass is dispatched with for a group whose workgroups take
    // batches (SimGpuPipelines::takes_batches; gpu_shared::kSimStrandsMaxWorkgroups unless set; at least
    // 1): each takes batches of strands until none is left, so 1 runs every batch in one workgroup.
    void set_max_strand_workgroups(uint32_t n) { max_strand_workgroups_ = std::max<uint32_t>(n, 1); }
    // Records copies making every device-rooted group's reached transforms its targets (a reset).
    void record_snap_device_roots(gpu::CommandBuffer& cmd);

    // Copies current / previous guide positions and follow positions into the world's groups (CPU layout),
    // and the root transforms of groups rooted on the device.
    Status download(gpu::Device& device, SimWorld& world) const;
    // Per group: the SM cycles each phase of the fused strand pass (gpu_shared::kSimPhaseCount, named by
    // sim_phase_name) took in the last recorded step, averaged over the group's batches of strands. Needs a
    // simulation created with phase_clocks; the last submission must have completed.
    Result<std::vector<std::array<double, gpu_shared::kSimPhaseCount>>> phase_cycles(gpu::Device& device) const;
    // Uploads the world's current positions (e.g. after reset_to_rest(world)).
    Status upload_state(gpu::Device& device, const SimWorld& world);
    // Uploads the distances of world.sdfs[sdf] into every group that collides with it: a field rebuilt in
    // place (an animated body's, on a grid of the same size). InvalidArgument when its size changed.
    Status upload_sdf_field(gpu::Device& device, const SimWorld& world, uint32_t sdf);
    // The same from a field built on the GPU (`distance`: float per cell of world.sdfs[sdf]'s grid, padded to
    // whole 16 bytes; a buffer that lives as long as this SimGpu): records its copy into every group that
    // collides with it (a compute pass), and a barrier before the steps that read it.
    Status record_sdf_field_copy(gpu::CommandBuffer& cmd, const SimWorld& world, uint32_t sdf, const gpu::Buffer& distance);
    // Uploads the groups' shape targets (rest_positions_os, ref_vectors_m), e.g. after a sag-free solve.
    Status upload_targets(gpu::Device& device, const SimWorld& world);

    // Records, after the steps recorded so far, how deep each guide and follow vertex lies in the group's
    // collision margins (sim/field_depth.comp, gpu_shared::sim_sdf_margin_depth; the CPU reference is
    // field_depths in sim.h) into field_depth(group, follows), and a barrier before vertex and compute
    // shaders read them. The fields' frames are the world's now, written to host-visible memory as
    // record_steps writes its constants.
    void record_field_depth(gpu::CommandBuffer& cmd, const SimWorld& world);
    const gpu::Buffer& field_depth(size_t group, bool follows) const {
        return follows ? groups_[group].depth_follows : groups_[group].depth_guides;
    }

    const gpu::Buffer& guide_positions(size_t group) const { return groups_[group].positions[groups_[group].rotation % 3]; }
    const gpu::Buffer& follow_positions(size_t group) const { return groups_[group].follow_pos; }
    // Cloth accessories, one per world cloth, stepped after the hair in each step.
    const gpu::Buffer& cloth_positions(size_t cloth) const { return cloths_[cloth].positions(); }
    size_t cloth_count() const { return cloths_.size(); }
    // Cloth `cloth` drawn into `mesh_vertices` (ClothGpu::set_draw_target) by record_cloth_draws.
    Status set_cloth_draw_target(size_t cloth, gpu::Buffer* mesh_vertices) { return cloths_[cloth].set_draw_target(mesh_vertices); }
    void record_cloth_draws(gpu::CommandBuffer& cmd) {
        for (ClothGpu& c : cloths_) c.record_draw(cmd);
    }
    size_t group_count() const { return groups_.size(); }
    const SimGpuGroup& group(size_t i) const { return groups_[i]; }
    SimGpuMode mode() const { return mode_; }

private:
    bool device_roots_enabled_ = true;
    gpu_shared::SimPush base_push(const SimGpuGroup& g, const SimGroupState& w, uint32_t step, bool skinned) const;
    void record_split(gpu::CommandBuffer& cmd, size_t gi, const SimGroupState& w, uint32_t step, bool skinned,
                      gpu::TimestampQueries* ts);
    // Hair volume (shared/sim_volume.h): clears group gi's grid and bounds, then its bounds and splat
    // passes over the positions at the step's start, when the step's constants have volume_nodes > 0.
    void record_volume(gpu::CommandBuffer& cmd, size_t gi, uint32_t nodes, const SimGroupState& w, uint32_t step, bool skinned,
                       gpu::TimestampQueries* ts);
    void record_fused(gpu::CommandBuffer& cmd, const SimWorld& world, uint32_t step, const std::vector<bool>& skinned,
                      gpu::TimestampQueries* ts);

    gpu::Device* device_ = nullptr;
    const SimGpuPipelines* pipelines_ = nullptr;
    uint32_t slots_ = 0;
    SimGpuMode mode_ = SimGpuMode::Fused;
    bool phase_clocks_ = false;
    bool follows_enabled_ = true;      // SimWorld::step_follows of the steps being recorded
    uint32_t max_strand_workgroups_ = gpu_shared::kSimStrandsMaxWorkgroups;
    std::vector<SimGpuGroup> groups_;
    std::vector<ClothGpu> cloths_;
    // Hair against cloths (SimWorld::accessory_fields): each shell field built on the device from its
    // cloth's positions at the start of every step (refit, band, finalize: sdf/gpu) and copied into the
    // groups' fields. One refit set per buffer the cloth's positions alternate between.
    struct AccessoryField {
        uint32_t cloth = 0, sdf = 0;
        SdfGpuField field;
        SdfRefitGpu refit[2];
    };
    std::unique_ptr<SdfGpuPipelines> sdf_pipelines_;
    std::vector<AccessoryField> accessories_;
    Status record_accessory_fields(gpu::CommandBuffer& cmd, const SimWorld& world, gpu::TimestampQueries* ts);
};

}  // namespace tressel
