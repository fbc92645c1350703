// The hair simulation on the GPU: the passes of the CPU reference (engine/sim/sim_passes.h, README.md) as
// compute shaders (shaders/sim/*.comp) over the same shared formulas, one timestamp per pass.
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

#include <vector>

#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "sim/sim.h"

namespace tressel {

class SimGpuPipelines {
public:
    static Result<SimGpuPipelines> create(gpu::Device& device);
    gpu::ComputePipeline strand_data, integrate, global_shape, vsp, local_shape, length, clamp, sdf_vertex,
        sdf_midpoint, follow, follow_sdf;
};

struct SimGpuGroup {
    uint32_t n = 0, strands = 0, follows = 0;
    uint32_t max_colliders = 1, max_sdfs = 1;
    uint32_t root_capacity = 1;        // root transforms per slot and per time (1: rigid; strands: skinned)
    std::vector<uint32_t> field_offsets;  // per SDF of the group, first float in `sdf_fields`
    gpu::Buffer positions[3];          // rotating: current, previous, integration output
    gpu::Buffer rest, rest_lengths, ref_vectors, rest_root_frame, strand_data, frames_rest, frames_world;
    gpu::Buffer follow_desc, follow_pos, sdf_grids, sdf_fields;
    gpu::Buffer params, roots, colliders, sdf_frames;  // host-visible, one slot per substep of a record
    gpu::DescriptorSet sets[3];        // set r: positions[r] current, [r+1] previous, [r+2] output
    uint32_t rotation = 0;
};

class SimGpu {
public:
    // `max_steps_per_record`: the most substeps one record_steps call may record (slots of constants).
    static Result<SimGpu> create(gpu::Device& device, const SimGpuPipelines& pipelines, const SimWorld& world,
                                 uint32_t max_steps_per_record = 16);

    // Records `steps` substeps for every enabled group, taking each step's constants from begin_step(world)
    // and advancing world.clock as step_once does. The constants are written to host-visible memory now:
    // the previous submission of this SimGpu must have completed. Pass times go to `ts` when given (its
    // reset() is the caller's). InvalidArgument when steps exceeds the slots.
    Status record_steps(gpu::CommandBuffer& cmd, SimWorld& world, uint32_t steps, gpu::TimestampQueries* ts);

    // Copies current / previous guide positions and follow positions into the world's groups (CPU layout).
    Status download(gpu::Device& device, SimWorld& world) const;
    // Uploads the world's current positions (e.g. after reset_to_rest(world)).
    Status upload_state(gpu::Device& device, const SimWorld& world);

    const gpu::Buffer& guide_positions(size_t group) const { return groups_[group].positions[groups_[group].rotation % 3]; }
    const gpu::Buffer& follow_positions(size_t group) const { return groups_[group].follow_pos; }
    size_t group_count() const { return groups_.size(); }
    const SimGpuGroup& group(size_t i) const { return groups_[i]; }

private:
    gpu::Device* device_ = nullptr;
    const SimGpuPipelines* pipelines_ = nullptr;
    uint32_t slots_ = 0;
    std::vector<SimGpuGroup> groups_;
};

}  // namespace tressel
