#include "sim/gpu/sim_gpu.h"

#include <algorithm>
#include <cstring>

#include "shared/embedded_shaders.h"
#include "sim/gpu/gpu_buffers.h"
#include "shared/sim_gpu.h"
#include "shared/sim_volume.h"
#include "sim/sim_passes.h"

namespace tressel {

using gpu_shared::SimPush;

namespace {

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// Bytes of a hair volume grid of `nodes` per axis (16 for none: a stub to bind).
VkDeviceSize volume_grid_bytes(uint32_t nodes) {
    return std::max<VkDeviceSize>(VkDeviceSize(nodes) * nodes * nodes * gpu_shared::kSimVolumeNodeInts * sizeof(int32_t), 16);
}

Result<gpu::Buffer> volume_grid_buffer(gpu::Device& device, uint32_t nodes, const std::string& name) {
    return device.create_buffer({volume_grid_bytes(nodes), kStorage, gpu::MemoryIntent::DeviceLocal, name});
}

// The gradient grid: a vec4 per node, the same bytes as the sums' four ints.
Result<gpu::Buffer> volume_gradient_buffer(gpu::Device& device, uint32_t nodes, const std::string& name) {
    static_assert(gpu_shared::kSimVolumeNodeInts * sizeof(int32_t) == sizeof(glm::vec4));
    return volume_grid_buffer(device, nodes, name);
}

using sim_buffers::device_buffer;
using sim_buffers::host_buffer;

void bind_sets(SimGpuGroup& g) {
    for (uint32_t r = 0; r < 3; ++r) {
        gpu::DescriptorSet& s = g.sets[r];
        s.bind_buffer(gpu_shared::kSimBindParams, g.params);
        s.bind_buffer(gpu_shared::kSimBindPos, g.positions[r]);
        s.bind_buffer(gpu_shared::kSimBindPrev, g.positions[(r + 1) % 3]);
        s.bind_buffer(gpu_shared::kSimBindScratch, g.positions[(r + 2) % 3]);
        s.bind_buffer(gpu_shared::kSimBindRest, g.rest);
        s.bind_buffer(gpu_shared::kSimBindRestLengths, g.rest_lengths);
        s.bind_buffer(gpu_shared::kSimBindRefVectors, g.ref_vectors);
        s.bind_buffer(gpu_shared::kSimBindRestRootFrame, g.rest_root_frame);
        s.bind_buffer(gpu_shared::kSimBindStrandData, g.strand_data);
        s.bind_buffer(gpu_shared::kSimBindRoots, g.roots);
        s.bind_buffer(gpu_shared::kSimBindColliders, g.colliders);
        s.bind_buffer(gpu_shared::kSimBindSdfFrames, g.sdf_frames);
        s.bind_buffer(gpu_shared::kSimBindSdfGrids, g.sdf_grids);
        s.bind_buffer(gpu_shared::kSimBindSdfFields, g.sdf_fields);
        s.bind_buffer(gpu_shared::kSimBindFramesRest, g.frames_rest);
        s.bind_buffer(gpu_shared::kSimBindFramesWorld, g.frames_world);
        s.bind_buffer(gpu_shared::kSimBindFollowDesc, g.follow_desc);
        s.bind_buffer(gpu_shared::kSimBindFollowPos, g.follow_pos);
        s.bind_buffer(gpu_shared::kSimBindSdfOffsets, g.sdf_offsets);
        s.bind_buffer(gpu_shared::kSimBindPhaseClocks, g.phase_clocks);
        s.bind_buffer(gpu_shared::kSimBindContacts, g.contacts);
        s.bind_buffer(gpu_shared::kSimBindChainQ, g.chain_q);
        s.bind_buffer(gpu_shared::kSimBindChainT, g.chain_t);
        s.bind_buffer(gpu_shared::kSimBindChainRest, g.chain_rest);
        s.bind_buffer(gpu_shared::kSimBindVolumeGrid, g.volume_grid);
        s.bind_buffer(gpu_shared::kSimBindVolumeBounds, g.volume_bounds);
        s.bind_buffer(gpu_shared::kSimBindVolumeGradient, g.volume_gradient);
        s.bind_buffer(gpu_shared::kSimBindFollowCorrections, g.follow_corrections);
        s.bind_buffer(gpu_shared::kSimBindSdfExempt, g.sdf_exempt);
        s.bind_buffer(gpu_shared::kSimBindDepthGuides, g.depth_guides);
        s.bind_buffer(gpu_shared::kSimBindDepthFollows, g.depth_follows);
        s.bind_buffer(gpu_shared::kSimBindWork, g.work);
    }
    if (g.device_targets) {
        g.roots_set.bind_buffer(gpu_shared::kSimRootsBindTargets, *g.device_targets);
        g.roots_set.bind_buffer(gpu_shared::kSimRootsBindState, g.root_state);
        g.roots_set.bind_buffer(gpu_shared::kSimRootsBindRoots, g.roots);
    }
}

}  // namespace

Result<SimGpuPipelines> SimGpuPipelines::create(gpu::Device& device) {
    SimGpuPipelines p;
    std::vector<VkDescriptorType> bindings(gpu_shared::kSimBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    struct Item {
        gpu::ComputePipeline* out;
        const char* shader;
    } items[] = {{&p.strand_data, "sim/strand_data.comp"}, {&p.integrate, "sim/integrate.comp"},
                 {&p.global_shape, "sim/global_shape.comp"}, {&p.vsp, "sim/vsp.comp"},
                 {&p.local_shape, "sim/local_shape.comp"},  {&p.length, "sim/length.comp"},
                 {&p.clamp, "sim/clamp.comp"},              {&p.sdf_vertex, "sim/sdf_vertex.comp"},
                 {&p.sdf_midpoint, "sim/sdf_midpoint.comp"}, {&p.ftl, "sim/ftl.comp"},
                 {&p.chain_runs, "sim/chain_runs.comp"},    {&p.chain_vertices, "sim/chain_vertices.comp"},
                 {&p.follow, "sim/follow.comp"},
                 {&p.follow_sdf, "sim/follow_sdf.comp"},    {&p.follow_all, "sim/follow_all.comp"},
                 {&p.field_depth, "sim/field_depth.comp"},
                 {&p.volume_bounds, "sim/volume_bounds.comp"}, {&p.volume_splat, "sim/volume_splat.comp"},
                 {&p.volume_gradient, "sim/volume_gradient.comp"}};
    for (auto& it : items) {
        auto pipe = device.create_compute_pipeline({embedded_spirv(it.shader), bindings, sizeof(SimPush), it.shader});
        if (!pipe) return pipe.error();
        *it.out = std::move(*pipe);
    }
    {
        std::vector<VkDescriptorType> roots_bindings(gpu_shared::kSimRootsBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        auto pipe = device.create_compute_pipeline(
            {embedded_spirv("sim/roots.comp"), roots_bindings, sizeof(gpu_shared::SimRootsPush), "sim/roots.comp"});
        if (!pipe) return pipe.error();
        p.roots = std::move(*pipe);
        std::vector<VkDescriptorType> copy_bindings(gpu_shared::kSimFieldCopyBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        auto copy = device.create_compute_pipeline(
            {embedded_spirv("sim/field_copy.comp"), copy_bindings, sizeof(gpu_shared::SimFieldCopyPush), "sim/field_copy.comp"});
        if (!copy) return copy.error();
        p.field_copy = std::move(*copy);
        std::vector<VkDescriptorType> cloth_bindings(gpu_shared::kClothBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        struct ClothItem {
            gpu::ComputePipeline* out;
            const char* shader;
        } cloth_items[] = {{&p.cloth_predict, "sim/cloth_predict.comp"}, {&p.cloth_substep, "sim/cloth_substep.comp"},
                           {&p.cloth_tile, "sim/cloth_tile.comp"},
                           {&p.cloth_draw, "sim/cloth_draw.comp"}, {&p.soft_cluster, "sim/soft_cluster.comp"},
                           {&p.soft_substep, "sim/soft_substep.comp"}, {&p.soft_draw, "sim/soft_draw.comp"}};
        for (auto& it : cloth_items) {
            // The tiled small step needs its shared memory (shared/cloth.h); without it cloths take the per-vertex pass.
            if (it.out == &p.cloth_tile && (device.info().max_shared_memory_bytes < gpu_shared::kClothTileSharedBytes ||
                                            device.info().max_workgroup_invocations < gpu_shared::kClothTileThreads))
                continue;
            auto cp = device.create_compute_pipeline({embedded_spirv(it.shader), cloth_bindings, sizeof(gpu_shared::ClothPush), it.shader});
            if (!cp) return cp.error();
            *it.out = std::move(*cp);
        }
    }
    p.device_ = &device;
    p.cache_ = std::make_unique<Cache>();
    VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sub};
    vkGetPhysicalDeviceProperties2(device.physical_device(), &props);
    if ((sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && (sub.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT))
        p.subgroup_size_ = sub.subgroupSize;
    return p;
}

namespace {

static_assert(gpu_shared::kSimStrandsSharedBytesFixed == sizeof(gpu_shared::SimGroupParams) + sizeof(gpu_shared::SdfGridParams) +
                                                            sizeof(gpu_shared::SimSdfFrame) + 4 + 4 * gpu_shared::kSimPhaseCount,
              "strands.comp keeps one SimGroupParams, SdfGridParams and SimSdfFrame, the next batch and the phase counts in shared memory");

uint64_t strands_shared_bytes(uint32_t strands, uint32_t n) {
    return uint64_t(strands + 1) * n * gpu_shared::kSimStrandsSharedBytesPerVertex +
           uint64_t(strands) * gpu_shared::kSimStrandsSharedBytesPerStrand + gpu_shared::kSimStrandsSharedBytesFixed;
}

}  // namespace

uint32_t SimGpuPipelines::strands_per_workgroup(uint32_t n) const {
    uint32_t s = gpu_shared::kSimStrandsMaxPerWorkgroup;
    while (s > 1 && s > max_strands_per_workgroup_) s /= 2;
    const uint64_t limit = device_->info().max_shared_memory_bytes;
    while (s > 1 && strands_shared_bytes(s, n) > limit) s /= 2;
    return s;
}

bool SimGpuPipelines::takes_batches(uint32_t n) const { return n >= batches_min_vertices_; }

uint32_t SimGpuPipelines::strand_threads(uint32_t n) const {
    const uint32_t s = strands_per_workgroup(n);
    return std::max(s, std::min(max_strand_threads_, s * n));
}

bool SimGpuPipelines::integrates_ahead(uint32_t n) const {
    if (!takes_batches(n)) return false;
    const uint32_t threads = strand_threads(n);
    return subgroup_size_ != 0 && subgroup_size_ >= n && subgroup_size_ % n == 0 && threads % subgroup_size_ == 0;
}

Result<const gpu::ComputePipeline*> SimGpuPipelines::strands(uint32_t n, bool phase_clocks, bool chain) const {
    TRESSEL_ASSERT(cache_ != nullptr, "SimGpuPipelines::strands: pipelines not created");
    if (n < gpu_shared::kSimMinVerticesPerStrand || n > gpu_shared::kSimMaxVerticesPerStrand)
        return make_error(ErrorCode::InvalidArgument, "the GPU simulation takes " + std::to_string(gpu_shared::kSimMinVerticesPerStrand) +
                                                          " to " + std::to_string(gpu_shared::kSimMaxVerticesPerStrand) +
                                                          " vertices per strand, not " + std::to_string(n));
    if (sweep_items_ < 1 || sweep_items_ > gpu_shared::kSimSweepItemsMax)
        return make_error(ErrorCode::InvalidArgument, "the fused pass's sweeps take 1 to " + std::to_string(gpu_shared::kSimSweepItemsMax) +
                                                          " items per step, not " + std::to_string(sweep_items_));
    if (phase_clocks && (!device_->info().shader_clock || subgroup_size_ == 0))
        return make_error(ErrorCode::Unsupported, device_->info().name +
                                                      " offers no shader clock (VK_KHR_shader_clock) or no compute subgroup shuffles for phase cycle counts");
    std::lock_guard<std::mutex> lock(cache_->mutex);
    auto& slot = cache_->strands_by_n[n * 4 + (phase_clocks ? 1 : 0) + (chain ? 2 : 0)];
    if (!slot) {
        const uint32_t s = strands_per_workgroup(n);
        if (strands_shared_bytes(s, n) > device_->info().max_shared_memory_bytes)
            return make_error(ErrorCode::Unsupported, "the GPU's shared memory (" + std::to_string(device_->info().max_shared_memory_bytes) +
                                                          " bytes) cannot hold one strand of " + std::to_string(n) + " vertices");
        std::vector<VkDescriptorType> bindings(gpu_shared::kSimBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        const uint32_t threads = strand_threads(n);
        // Shuffles where a subgroup holds whole strands and the workgroup whole subgroups: the chain phase by
        // them, and the next batch's integration in registers (strands.comp, AHEAD).
        const bool whole = integrates_ahead(n);
        const uint32_t sub = subgroup_size_ != 0 ? subgroup_size_ : 32;
        // The contact-keeping sweep's threads (whole subgroups), then the next batch's set-up's.
        const uint32_t sweep_threads = (s + sub - 1) / sub * sub;
        if (threads < sweep_threads + s)
            return make_error(ErrorCode::Unsupported, "the fused strand pass needs " + std::to_string(sweep_threads + s) + " threads for " +
                                                          std::to_string(s) + " strands of " + std::to_string(n) + " vertices, not " +
                                                          std::to_string(threads));
        // The chain phase by shuffles needs only whole strands in a subgroup, not batches.
        const bool chain_shuffle = chain && subgroup_size_ != 0 && subgroup_size_ >= n && subgroup_size_ % n == 0 && threads % subgroup_size_ == 0;
        const char* shader = phase_clocks ? "sim/strands_phases.comp" : whole || chain_shuffle ? "sim/strands_shuffle.comp" : "sim/strands.comp";
        gpu::ComputePipelineDesc d{embedded_spirv(shader), bindings, sizeof(SimPush), std::string(shader) + " n=" + std::to_string(n)};
        d.specialization = {s, n, threads, chain ? 1u : 0u, chain_shuffle ? 1u : 0u, sub, whole ? 1u : 0u, takes_batches(n) ? 1u : 0u, sweep_items_};
        auto pipe = device_->create_compute_pipeline(d);
        if (!pipe) return pipe.error();
        slot = std::make_unique<gpu::ComputePipeline>(std::move(*pipe));
    }
    return static_cast<const gpu::ComputePipeline*>(slot.get());
}

Result<SimGpu> SimGpu::create(gpu::Device& device, const SimGpuPipelines& pipelines, const SimWorld& world,
                              uint32_t max_steps_per_record, SimGpuMode mode, bool phase_clocks) {
    TRESSEL_ASSERT(max_steps_per_record >= 1, "SimGpu::create: max_steps_per_record must be at least 1");
    if (phase_clocks && mode != SimGpuMode::Fused)
        return make_error(ErrorCode::InvalidArgument, "phase cycle counts are of the fused strand pass: create the simulation in Fused mode");
    SimGpu sim;
    sim.mode_ = mode;
    sim.phase_clocks_ = phase_clocks;
    sim.device_ = &device;
    sim.pipelines_ = &pipelines;
    sim.slots_ = max_steps_per_record;
    for (const SimGroupState& w : world.groups) {
        SimGpuGroup g;
        const std::string name = "sim '" + w.name + "' ";
        g.n = w.n;
        g.strands = w.strand_count;
        g.follows = uint32_t(w.follow_count());
        g.max_colliders = std::max<uint32_t>(1, uint32_t(w.collider_indices.size()));
        g.max_sdfs = std::max<uint32_t>(1, uint32_t(w.sdf_indices.size()));
        std::vector<gpu_shared::SdfGridParams> grids;
        std::vector<float> fields;
        for (uint32_t si : w.sdf_indices) {
            const SimSdfState& s = world.sdfs[si];
            grids.push_back(s.grid_params);
            g.field_offsets.push_back(uint32_t(fields.size()));
            fields.insert(fields.end(), s.grid->distance_m.begin(), s.grid->distance_m.end());
        }
        if (grids.empty()) grids.push_back({});
        std::vector<uint32_t> offsets = g.field_offsets;
        if (offsets.empty()) offsets.push_back(0);
        if (mode == SimGpuMode::Fused) {
            auto pipe = pipelines.strands(w.n, phase_clocks, w.params.chain_shape_matching);
            if (!pipe) return pipe.error();
            g.strands_pipeline = *pipe;
            g.strands_chain = w.params.chain_shape_matching;
            g.strands_per_workgroup = pipelines.strands_per_workgroup(w.n);
            g.strands_batches = pipelines.takes_batches(w.n);
        }
        const size_t workgroups = (size_t(g.strands) + g.strands_per_workgroup - 1) / g.strands_per_workgroup;
        std::vector<uint32_t> clocks(phase_clocks ? std::max<size_t>(workgroups, 1) * gpu_shared::kSimPhaseCount : 4, 0u);
        struct Up {
            gpu::Buffer* out;
            Result<gpu::Buffer> r;
        } ups[] = {{&g.positions[0], device_buffer(device, w.positions, name + "positions A")},
                   {&g.positions[1], device_buffer(device, w.prev_positions, name + "positions B")},
                   {&g.positions[2], device_buffer(device, w.positions, name + "positions C")},
                   {&g.rest, device_buffer(device, w.rest_positions_os, name + "rest")},
                   {&g.rest_lengths, device_buffer(device, w.rest_lengths_m, name + "rest lengths")},
                   {&g.ref_vectors, device_buffer(device, w.ref_vectors_m, name + "reference vectors")},
                   {&g.rest_root_frame, device_buffer(device, w.rest_root_frame_q, name + "root frames")},
                   {&g.strand_data, device_buffer(device, w.strand_data, name + "strand data")},
                   {&g.frames_rest, device_buffer(device, w.guide_frames_rest, name + "guide frames rest")},
                   {&g.frames_world, device_buffer(device, w.guide_frames, name + "guide frames")},
                   {&g.follow_desc, device_buffer(device, w.follow_descriptors, name + "follow descriptors")},
                   {&g.follow_pos, device_buffer(device, w.follow_positions, name + "follow positions")},
                   {&g.follow_corrections, device_buffer(device, w.follow_corrections.empty() ? std::vector<glm::vec4>(1, glm::vec4(0.0f)) : w.follow_corrections,
                                                         name + "follow corrections")},
                   {&g.sdf_exempt, device_buffer(device, w.sdf_exempt.size() == w.strand_count + w.follow_count()
                                                                   ? w.sdf_exempt
                                                                   : std::vector<uint32_t>(std::max<size_t>(w.strand_count + w.follow_count(), 1), 0u),
                                                 name + "sdf exemptions")},
                   {&g.sdf_grids, device_buffer(device, grids, name + "sdf grids")},
                   {&g.sdf_fields, device_buffer(device, fields, name + "sdf fields")},
                   {&g.sdf_offsets, device_buffer(device, offsets, name + "sdf offsets")},
                   {&g.phase_clocks, device_buffer(device, clocks, name + "phase clocks")},
                   {&g.contacts, device_buffer(device, w.contact_normals, name + "contact normals")},
                   {&g.chain_q, device_buffer(device, w.chain_q, name + "chain rotations")},
                   {&g.chain_t, device_buffer(device, w.chain_t, name + "chain translations")},
                   {&g.chain_rest, device_buffer(device, w.chain_rest(), name + "chain rest")},
                   {&g.volume_grid, volume_grid_buffer(device, w.params.volume ? uint32_t(w.params.volume_cells) + 1u : 0u, name + "volume grid")},
                   {&g.volume_gradient, volume_gradient_buffer(device, w.params.volume ? uint32_t(w.params.volume_cells) + 1u : 0u, name + "volume gradient")},
                   {&g.volume_bounds, device_buffer(device, std::vector<uint32_t>(gpu_shared::kSimVolumeBoundsUints, 0u), name + "volume bounds")},
                   {&g.params, host_buffer(device, sim.slots_ * sizeof(gpu_shared::SimGroupParams), name + "params")},
                   {&g.roots, host_buffer(device, sim.slots_ * 2 * sizeof(glm::mat4), name + "roots")},
                   {&g.colliders, host_buffer(device, sim.slots_ * g.max_colliders * sizeof(gpu_shared::SimCollider), name + "colliders")},
                   {&g.sdf_frames, host_buffer(device, (sim.slots_ + 1) * 2 * g.max_sdfs * sizeof(gpu_shared::SimSdfFrame), name + "sdf frames")},
                   {&g.depth_guides, device_buffer(device, std::vector<float>(std::max<size_t>(w.positions.size(), 1), 0.0f), name + "field depth")},
                   {&g.work, device_buffer(device, std::vector<uint32_t>(1, 0u), name + "work counter")},
                   {&g.depth_follows, device_buffer(device, std::vector<float>(std::max<size_t>(w.follow_positions.size(), 1), 0.0f), name + "follow field depth")}};
        for (auto& u : ups) {
            if (!u.r) return u.r.error();
            *u.out = std::move(*u.r);
        }
        g.volume_nodes_capacity = w.params.volume ? uint32_t(w.params.volume_cells) + 1u : 0u;
        for (auto& s : g.sets) {
            auto set = device.create_descriptor_set(pipelines.integrate);
            if (!set) return set.error();
            s = std::move(*set);
        }
        bind_sets(g);
        sim.groups_.push_back(std::move(g));
    }
    for (size_t ci = 0; ci < world.cloths.size(); ++ci) {
        auto cloth = ClothGpu::create(device, pipelines, world, ci, sim.slots_);
        if (!cloth) return cloth.error();
        sim.cloths_.push_back(std::move(*cloth));
    }
    if (!world.accessory_fields.empty()) {
        auto pipes = SdfGpuPipelines::create(device);
        if (!pipes) return pipes.error();
        sim.sdf_pipelines_ = std::make_unique<SdfGpuPipelines>(std::move(*pipes));
    }
    for (const SimAccessoryField& a : world.accessory_fields) {
        const ClothState& state = world.cloths[a.cloth];
        const std::string who = std::string("the hair's field of ") + (state.soft_body ? "soft body '" : "cloth '") + state.name + "'";
        SdfBuildDesc desc = a.desc;
        desc.mesh = &a.mesh;
        Diagnostics diag;
        auto field = build_sdf_gpu(device, *sim.sdf_pipelines_, desc, diag);
        if (!field) return make_error(field.error().code, who + ": " + field.error().message);
        AccessoryField f{a.cloth, a.sdf, std::move(*field), {}};
        ClothGpu& c = sim.cloths_[a.cloth];
        // A cloth's field is built from its positions (alternating between two buffers), a soft body's from
        // its drawn surface, rewritten after each of its steps.
        if (state.soft_body) TRESSEL_TRY(c.keep_surface(device, state));
        for (uint32_t pair = 0; pair < 2; ++pair) {
            auto refit = state.soft_body ? prepare_sdf_refit(device, *sim.sdf_pipelines_, f.field, c.surface(), c.render_count(), 2)
                                         : prepare_sdf_refit(device, *sim.sdf_pipelines_, f.field, c.positions_of_pair(pair), c.vertex_count());
            if (!refit) return make_error(refit.error().code, who + ": " + refit.error().message);
            f.refit[pair] = std::move(*refit);
        }
        sim.accessories_.push_back(std::move(f));
    }
    return sim;
}

Status SimGpu::record_accessory_fields(gpu::CommandBuffer& cmd, const SimWorld& world, gpu::TimestampQueries* ts) {
    if (accessories_.empty()) return {};
    if (ts) ts->begin(cmd, "sim accessory fields");
    for (AccessoryField& a : accessories_) {
        if (a.cloth >= world.cloths.size()) continue;  // out of the world for now (a sag-free solve)
        // Where begin_step placed the grid (it travels with the accessory's attach mesh).
        for (const SimAccessoryField& w : world.accessory_fields) {
            if (w.sdf != a.sdf || a.sdf >= world.sdfs.size()) continue;
            const glm::dvec3 origin = w.origin_m + glm::dvec3(world.sdfs[a.sdf].placement_m);
            if (origin != a.field.plan.grid.origin_m) record_sdf_place(cmd, a.field, origin);
        }
        record_sdf_refit(cmd, *sdf_pipelines_, a.field, a.refit[cloths_[a.cloth].state_pair()], nullptr);
        record_sdf_build(cmd, *sdf_pipelines_, a.field, nullptr);  // each pass ends with a barrier
        TRESSEL_TRY(record_sdf_field_copy(cmd, world, a.sdf, a.field.distance));
    }
    if (ts) ts->end(cmd);
    return {};
}

void SimGpu::record_field_depth(gpu::CommandBuffer& cmd, const SimWorld& world) {
    const gpu::ComputePipeline& pipe = pipelines_->field_depth;
    cmd.compute_barrier();  // the steps' last writes to the positions
    bool any = false;
    for (size_t gi = 0; gi < groups_.size() && gi < world.groups.size(); ++gi) {
        SimGpuGroup& g = groups_[gi];
        const SimGroupState& w = world.groups[gi];
        const uint32_t guide_vertices = g.strands * g.n, count = guide_vertices + g.follows * g.n;
        if (count == 0) continue;
        auto* sf = static_cast<gpu_shared::SimSdfFrame*>(g.sdf_frames.mapped()) + size_t(slots_) * 2 * g.max_sdfs;
        for (size_t i = 0; i < w.sdf_indices.size() && i < g.max_sdfs; ++i) sf[i] = sdf_frame_now(world.sdfs[w.sdf_indices[i]], 0.0);
        gpu_shared::SimPush push{};
        push.count = count;
        push.slot = slots_;
        push.sdf = uint32_t(std::min<size_t>(w.sdf_indices.size(), g.max_sdfs));
        push.max_sdfs = g.max_sdfs;
        push.pad1 = guide_vertices;
        push.parity = g.n;
        push.pad2 = g.strands;
        cmd.bind(pipe, g.sets[g.rotation % 3]);
        cmd.push(pipe, push);
        const gpu::DispatchSize d = gpu::dispatch_size(*device_, count, gpu_shared::kSimWorkgroupSize);
        cmd.dispatch(d.x, d.y, d.z);
        any = true;
    }
    if (!any) return;
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd.handle(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr,
                         0, nullptr);
}

Status SimGpu::record_steps(gpu::CommandBuffer& cmd, SimWorld& world, uint32_t steps, gpu::TimestampQueries* ts) {
    if (steps > slots_)
        return make_error(ErrorCode::InvalidArgument, "record_steps: " + std::to_string(steps) + " steps exceed the " +
                                                          std::to_string(slots_) + " slots this simulation was created with");
    follows_enabled_ = world.step_follows;
    // Skinned roots (one transform per strand) need a larger roots buffer: grow it before writing slots.
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
        SimGpuGroup& g = groups_[gi];
        // Per strand while the roots are skinned, and for the step after (its previous transforms are).
        const SimGroupState& w = world.groups[gi];
        const uint32_t need = w.external_root_targets.empty() && w.root_transforms.size() <= 1 && !g.device_targets ? 1u : g.strands;
        if (need > g.root_capacity) {
            auto roots = host_buffer(*device_, VkDeviceSize(slots_) * 2 * need * sizeof(glm::mat4), "sim roots");
            if (!roots) return roots.error();
            g.roots = std::move(*roots);
            g.root_capacity = need;
            bind_sets(g);
        }
        // Hair volume turned on, or its grid made finer, since the buffers were made.
        const uint32_t nodes = w.params.volume ? uint32_t(w.params.volume_cells) + 1u : 0u;
        if (nodes > g.volume_nodes_capacity) {
            auto grid = volume_grid_buffer(*device_, nodes, "sim '" + w.name + "' volume grid");
            if (!grid) return grid.error();
            auto gradient = volume_gradient_buffer(*device_, nodes, "sim '" + w.name + "' volume gradient");
            if (!gradient) return gradient.error();
            g.volume_grid = std::move(*grid);
            g.volume_gradient = std::move(*gradient);
            g.volume_nodes_capacity = nodes;
            bind_sets(g);
        }
    }
    for (uint32_t step = 0; step < steps; ++step) {
        const uint32_t substeps = uint32_t(std::max(1, world.environment.substeps));
        const uint32_t sub = uint32_t(world.clock.steps % substeps);
        const StepFrame frame = begin_step(world);
        TRESSEL_TRY(record_accessory_fields(cmd, world, ts));
        // Per-strand roots where the step's transforms or the previous step's are per strand (skinned now,
        // or the first step after skinning); one transform for every strand otherwise. Roots from the device
        // are per strand and written by the roots pass, not here.
        std::vector<bool> skinned(groups_.size()), device_roots(groups_.size());
        for (size_t gi = 0; gi < groups_.size(); ++gi) {
            device_roots[gi] = groups_[gi].device_targets && device_roots_enabled_;
            skinned[gi] = device_roots[gi] || world.groups[gi].root_transforms.size() > 1 || world.groups[gi].root_transforms_prev.size() > 1;
        }
        for (size_t gi = 0; gi < groups_.size(); ++gi) {
            const SimGroupState& w = world.groups[gi];
            if (!w.params.enabled) continue;
            SimGpuGroup& g = groups_[gi];
            const StepFrame::Group& fg = frame.groups[gi];
            // Constants of this slot. A slot of roots holds 2 x root_capacity transforms whatever this step
            // uses, so that steps of one record never overlap.
            std::memcpy(static_cast<gpu_shared::SimGroupParams*>(g.params.mapped()) + step, &fg.params, sizeof(fg.params));
            const uint32_t per = skinned[gi] ? g.strands : 1u;
            if (device_roots[gi]) {
                gpu_shared::SimRootsPush rp{};
                rp.strands = g.strands;
                rp.slot_offset = step * 2 * g.root_capacity;
                rp.t = 1.0f / float(substeps - sub);
                if (ts) ts->begin(cmd, "sim skinned roots");
                cmd.bind(pipelines_->roots, g.roots_set);
                cmd.push(pipelines_->roots, rp);
                const gpu::DispatchSize d = gpu::dispatch_size(*device_, g.strands, gpu_shared::kSimWorkgroupSize);
                cmd.dispatch(d.x, d.y, d.z);
                cmd.compute_barrier();
                if (ts) ts->end(cmd);
            } else {
                glm::mat4* roots = static_cast<glm::mat4*>(g.roots.mapped()) + size_t(step) * 2 * g.root_capacity;
                for (uint32_t s = 0; s < per; ++s) {
                    roots[s] = sim_passes::root_of(w.root_transforms, s);
                    roots[per + s] = sim_passes::root_of(w.root_transforms_prev, s);
                }
            }
            auto* col = static_cast<gpu_shared::SimCollider*>(g.colliders.mapped()) + size_t(step) * g.max_colliders;
            for (size_t c = 0; c < fg.colliders.size(); ++c) col[c] = fg.colliders[c];
            auto* sf = static_cast<gpu_shared::SimSdfFrame*>(g.sdf_frames.mapped()) + size_t(step) * 2 * g.max_sdfs;
            for (size_t i = 0; i < fg.sdf_frames.size(); ++i) {
                sf[i] = fg.sdf_frames[i];
                sf[g.max_sdfs + i] = fg.follow_sdf_frames[i];
            }

            if (fg.params.volume_nodes > 0u) record_volume(cmd, gi, fg.params.volume_nodes, w, step, skinned[gi], ts);
            if (mode_ == SimGpuMode::Split) record_split(cmd, gi, w, step, skinned[gi], ts);
        }
        if (mode_ == SimGpuMode::Fused) {
            // Chain shape matching turned on or off since the last step: the fused pass with or without it.
            for (size_t gi = 0; gi < groups_.size(); ++gi) {
                SimGpuGroup& g = groups_[gi];
                const bool chain = world.groups[gi].params.chain_shape_matching;
                if (chain == g.strands_chain) continue;
                auto pipe = pipelines_->strands(g.n, phase_clocks_, chain);
                if (!pipe) return pipe.error();
                g.strands_pipeline = *pipe;
                g.strands_chain = chain;
            }
            record_fused(cmd, world, step, skinned, ts);
        }
        for (size_t ci = 0; ci < cloths_.size() && ci < frame.cloths.size(); ++ci) cloths_[ci].record_step(cmd, frame.cloths[ci], step, ts);
        ++world.clock.steps;
    }
    return {};
}

SimPush SimGpu::base_push(const SimGpuGroup& g, const SimGroupState& w, uint32_t step, bool skinned) const {
    SimPush push{};
    push.slot = step;
    push.per_strand_roots = skinned ? 1u : 0u;
    push.root_slot_stride = 2 * g.root_capacity;
    push.max_colliders = g.max_colliders;
    push.max_sdfs = g.max_sdfs;
    push.has_frames = w.guide_frames_rest.size() >= g.strands ? 1u : 0u;
    return push;
}

void SimGpu::record_volume(gpu::CommandBuffer& cmd, size_t gi, uint32_t nodes, const SimGroupState& w, uint32_t step, bool skinned,
                           gpu::TimestampQueries* ts) {
    SimGpuGroup& g = groups_[gi];
    if (ts) ts->begin(cmd, "sim volume");
    cmd.fill(g.volume_bounds, 0xffffffffu, 0, 4 * sizeof(uint32_t));
    cmd.fill(g.volume_bounds, 0u, 4 * sizeof(uint32_t), 4 * sizeof(uint32_t));
    cmd.fill(g.volume_grid, 0u, 0, volume_grid_bytes(nodes));
    cmd.transfer_barrier();
    SimPush push = base_push(g, w, step, skinned);
    const gpu::DescriptorSet& set = g.sets[g.rotation % 3];
    // Bounds and splat run one invocation per strand, the gradient one per node.
    const uint32_t counts[3] = {g.strands, g.strands, nodes * nodes * nodes};
    const gpu::ComputePipeline* pipes[3] = {&pipelines_->volume_bounds, &pipelines_->volume_splat, &pipelines_->volume_gradient};
    for (int i = 0; i < 3; ++i) {
        push.count = counts[i];
        const gpu::DispatchSize d = gpu::dispatch_size(*device_, push.count, gpu_shared::kSimWorkgroupSize);
        cmd.bind(*pipes[i], set);
        cmd.push(*pipes[i], push);
        cmd.dispatch(d.x, d.y, d.z);
        cmd.compute_barrier();
    }
    if (ts) ts->end(cmd);
}

void SimGpu::record_split(gpu::CommandBuffer& cmd, size_t gi, const SimGroupState& w, uint32_t step, bool skinned,
                          gpu::TimestampQueries* ts) {
    const SimGpuPipelines& P = *pipelines_;
    SimGpuGroup& g = groups_[gi];
    SimPush push = base_push(g, w, step, skinned);
    const uint32_t vertices = g.strands * g.n;
    auto run = [&](const gpu::ComputePipeline& pipe, const char* name, uint32_t count, const gpu::DescriptorSet& set) {
        if (count == 0) return;
        if (ts) ts->begin(cmd, name);
        push.count = count;
        cmd.bind(pipe, set);
        cmd.push(pipe, push);
        gpu::DispatchSize d = gpu::dispatch_size(*device_, count, gpu_shared::kSimWorkgroupSize);
        cmd.dispatch(d.x, d.y, d.z);
        cmd.compute_barrier();
        if (ts) ts->end(cmd);
    };
    const gpu::DescriptorSet& before = g.sets[g.rotation % 3];
    run(P.strand_data, "sim strand data", g.strands, before);
    run(P.integrate, "sim integrate", vertices, before);
    g.rotation = (g.rotation + 2) % 3;  // current <- integrated, previous <- current (CPU: the swaps)
    const gpu::DescriptorSet& set = g.sets[g.rotation];
    run(P.global_shape, "sim global shape", vertices, set);
    run(P.vsp, "sim vsp", vertices, set);
    run(P.local_shape, "sim local shape", g.strands, set);
    run(P.length, "sim length + colliders", g.strands, set);
    if (w.params.chain_shape_matching) {  // the passes return at once where the span leaves no run
        run(P.chain_runs, "sim chain runs", vertices, set);
        run(P.chain_vertices, "sim chain vertices", vertices, set);
    }
    run(P.clamp, "sim clamp", vertices, set);
    for (uint32_t i = uint32_t(g.field_offsets.size()); i-- > 0;) {  // last to first, as sim::step_once runs
        push.sdf = i;
        push.field_offset = g.field_offsets[i];
        run(P.sdf_vertex, "sim sdf vertices", vertices, set);
        push.parity = 0;
        run(P.sdf_midpoint, "sim sdf midpoints", g.strands * (g.n - 1), set);
        push.parity = 1;
        run(P.sdf_midpoint, "sim sdf midpoints", g.strands * (g.n - 1), set);
    }
    run(P.ftl, "sim follow-the-leader + contacts", g.strands, set);
    if (!follows_enabled_) return;
    run(P.follow, "sim follow hairs", g.follows * g.n, set);
    for (uint32_t j = uint32_t(g.field_offsets.size()); j-- > 0;) {  // last to first, as sim_passes::follow_sdf_vertex runs
        push.sdf = j;
        push.field_offset = g.field_offsets[j];
        run(P.follow_sdf, "sim follow sdf", g.follows * g.n, set);
    }
}

void SimGpu::record_fused(gpu::CommandBuffer& cmd, const SimWorld& world, uint32_t step, const std::vector<bool>& skinned,
                          gpu::TimestampQueries* ts) {
    // Groups share no data: every group's strand pass may run at once, then every group's follow pass.
    // One round: for each enabled group with items, its pipeline over `count(g)` items in workgroups of
    // `per_workgroup(g)`; then a barrier, all of it inside one timestamp named `name`.
    // `max_workgroups(g)` (0: no cap): a pass whose workgroups take batches (strands.comp).
    auto no_cap = [](const SimGpuGroup&) { return 0u; };
    auto round = [&](const char* name, auto count, auto pipeline, auto per_workgroup, bool rotate, auto max_workgroups) {
        bool any = false;
        for (size_t gi = 0; gi < groups_.size(); ++gi) {
            const SimGroupState& w = world.groups[gi];
            SimGpuGroup& g = groups_[gi];
            const uint32_t items = count(g);
            if (!w.params.enabled || items == 0) continue;
            if (!any && ts) ts->begin(cmd, name);
            any = true;
            SimPush push = base_push(g, w, step, skinned[gi]);
            push.count = items;
            const gpu::ComputePipeline& pipe = pipeline(g);
            cmd.bind(pipe, g.sets[g.rotation % 3]);
            cmd.push(pipe, push);
            gpu::DispatchSize d = gpu::dispatch_size(*device_, items, per_workgroup(g));
            const uint32_t cap = max_workgroups(g);
            if (cap != 0) d = {std::min(gpu::div_round_up(items, per_workgroup(g)), cap), 1, 1};
            cmd.dispatch(d.x, d.y, d.z);
            if (rotate) g.rotation = (g.rotation + 2) % 3;  // current <- the new positions, previous <- the old current
        }
        if (!any) return false;
        cmd.compute_barrier();
        if (ts) ts->end(cmd);
        return true;
    };
    const bool stepped = round(
        "sim strand data", [](const SimGpuGroup& g) { return g.strands; },
        [&](const SimGpuGroup&) -> const gpu::ComputePipeline& { return pipelines_->strand_data; },
        [](const SimGpuGroup&) { return gpu_shared::kSimWorkgroupSize; }, false, no_cap);
    if (!stepped) return;
    round(
        "sim strands", [](const SimGpuGroup& g) { return g.strands; },
        [](const SimGpuGroup& g) -> const gpu::ComputePipeline& { return *g.strands_pipeline; },
        [](const SimGpuGroup& g) { return g.strands_per_workgroup; }, true,
        [this](const SimGpuGroup& g) { return g.strands_batches ? max_strand_workgroups_ : 0u; });
    round(
        "sim follow hairs", [this](const SimGpuGroup& g) { return follows_enabled_ ? g.follows * g.n : 0u; },
        [this](const SimGpuGroup&) -> const gpu::ComputePipeline& { return pipelines_->follow_all; },
        [](const SimGpuGroup&) { return gpu_shared::kSimWorkgroupSize; }, false, no_cap);
}

const char* sim_phase_name(uint32_t phase) {
    static const char* const names[gpu_shared::kSimPhaseCount] = {
        "staging in", "integration", "global shape + vsp", "sweeps", "chain shape matching", "sdf vertices", "sdf midpoints even",
        "sdf midpoints odd", "follow-the-leader + contacts", "staging out", "contact sweep lanes", "next batch lanes"};
    return phase < gpu_shared::kSimPhaseCount ? names[phase] : "?";
}

Result<std::vector<std::array<double, gpu_shared::kSimPhaseCount>>> SimGpu::phase_cycles(gpu::Device& device) const {
    if (!phase_clocks_) return make_error(ErrorCode::InvalidArgument, "phase_cycles: the simulation was created without phase clocks");
    std::vector<std::array<double, gpu_shared::kSimPhaseCount>> out;
    for (const SimGpuGroup& g : groups_) {
        const size_t workgroups = (size_t(g.strands) + g.strands_per_workgroup - 1) / g.strands_per_workgroup;
        std::vector<uint32_t> raw(workgroups * gpu_shared::kSimPhaseCount);
        if (!raw.empty()) TRESSEL_TRY(device.download(g.phase_clocks, raw.data(), raw.size() * sizeof(uint32_t)));
        std::array<double, gpu_shared::kSimPhaseCount> mean{};
        for (size_t w = 0; w < workgroups; ++w)
            for (uint32_t i = 0; i < gpu_shared::kSimPhaseCount; ++i) mean[i] += raw[w * gpu_shared::kSimPhaseCount + i];
        for (double& m : mean) m /= double(std::max<size_t>(workgroups, 1));
        out.push_back(mean);
    }
    return out;
}

Status SimGpu::download(gpu::Device& device, SimWorld& world) const {
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
        const SimGpuGroup& g = groups_[gi];
        SimGroupState& w = world.groups[gi];
        const VkDeviceSize bytes = w.positions.size() * sizeof(glm::vec4);
        TRESSEL_TRY(device.download(g.positions[g.rotation % 3], w.positions.data(), bytes));
        TRESSEL_TRY(device.download(g.positions[(g.rotation + 1) % 3], w.prev_positions.data(), bytes));
        TRESSEL_TRY(device.download(g.follow_pos, w.follow_positions.data(), w.follow_positions.size() * sizeof(glm::vec4)));
        TRESSEL_TRY(device.download(g.chain_q, w.chain_q.data(), w.chain_q.size() * sizeof(glm::vec4)));
        if (g.device_targets && device_roots_enabled_) {  // the roots as the device has them (metrics carry by them)
            w.root_transforms.resize(g.strands);
            TRESSEL_TRY(device.download(g.root_state, w.root_transforms.data(), VkDeviceSize(g.strands) * sizeof(glm::mat4)));
        }
    }
    for (size_t ci = 0; ci < cloths_.size() && ci < world.cloths.size(); ++ci) TRESSEL_TRY(cloths_[ci].download(device, world.cloths[ci]));
    return {};
}

Status SimGpu::upload_state(gpu::Device& device, const SimWorld& world) {
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
        SimGpuGroup& g = groups_[gi];
        const SimGroupState& w = world.groups[gi];
        const VkDeviceSize bytes = w.positions.size() * sizeof(glm::vec4);
        TRESSEL_TRY(device.upload(g.positions[g.rotation % 3], w.positions.data(), bytes));
        TRESSEL_TRY(device.upload(g.positions[(g.rotation + 1) % 3], w.prev_positions.data(), bytes));
        TRESSEL_TRY(device.upload(g.strand_data, w.strand_data.data(), w.strand_data.size() * sizeof(gpu_shared::SimStrandData)));
        TRESSEL_TRY(device.upload(g.chain_q, w.chain_q.data(), w.chain_q.size() * sizeof(glm::vec4)));
        TRESSEL_TRY(device.upload(g.follow_pos, w.follow_positions.data(), w.follow_positions.size() * sizeof(glm::vec4)));
    }
    for (size_t ci = 0; ci < cloths_.size() && ci < world.cloths.size(); ++ci) TRESSEL_TRY(cloths_[ci].upload_state(device, world.cloths[ci]));
    return {};
}

Status SimGpu::upload_sdf_field(gpu::Device& device, const SimWorld& world, uint32_t sdf) {
    if (sdf >= world.sdfs.size() || !world.sdfs[sdf].grid) return make_error(ErrorCode::InvalidArgument, "upload_sdf_field: no such field");
    const std::vector<float>& d = world.sdfs[sdf].grid->distance_m;
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
        const SimGroupState& w = world.groups[gi];
        for (size_t i = 0; i < w.sdf_indices.size() && i < groups_[gi].field_offsets.size(); ++i) {
            if (w.sdf_indices[i] != sdf) continue;
            const size_t end = i + 1 < groups_[gi].field_offsets.size() ? groups_[gi].field_offsets[i + 1] : groups_[gi].sdf_fields.size() / sizeof(float);
            if (end - groups_[gi].field_offsets[i] != d.size())
                return make_error(ErrorCode::InvalidArgument, "upload_sdf_field: the field of '" + world.sdfs[sdf].mesh + "' changed size");
            TRESSEL_TRY(device.upload(groups_[gi].sdf_fields, d.data(), d.size() * sizeof(float), VkDeviceSize(groups_[gi].field_offsets[i]) * sizeof(float)));
        }
    }
    for (size_t ci = 0; ci < cloths_.size() && ci < world.cloths.size(); ++ci) {
        const std::vector<uint32_t>& sdfs = world.cloths[ci].sdf_indices;
        for (uint32_t i = 0; i < uint32_t(sdfs.size()); ++i)
            if (sdfs[i] == sdf) TRESSEL_TRY(cloths_[ci].upload_field(device, i, d));
    }
    return {};
}

Status SimGpu::record_sdf_field_copy(gpu::CommandBuffer& cmd, const SimWorld& world, uint32_t sdf, const gpu::Buffer& distance) {
    if (sdf >= world.sdfs.size()) return make_error(ErrorCode::InvalidArgument, "record_sdf_field_copy: no such field");
    bool any = false;
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
        const SimGroupState& w = world.groups[gi];
        for (size_t i = 0; i < w.sdf_indices.size() && i < groups_[gi].field_offsets.size(); ++i) {
            if (w.sdf_indices[i] != sdf) continue;
            const size_t end = i + 1 < groups_[gi].field_offsets.size() ? groups_[gi].field_offsets[i + 1] : groups_[gi].sdf_fields.size() / sizeof(float);
            SimGpuGroup& g = groups_[gi];
            const uint32_t floats = uint32_t(end - g.field_offsets[i]);
            if ((VkDeviceSize(floats) * sizeof(float) + 15) / 16 * 16 > distance.size())
                return make_error(ErrorCode::InvalidArgument, "record_sdf_field_copy: the field of '" + world.sdfs[sdf].mesh + "' changed size");
            auto it = g.field_copy_sets.find(distance.handle());
            if (it == g.field_copy_sets.end()) {
                auto set = device_->create_descriptor_set(pipelines_->field_copy);
                if (!set) return set.error();
                set->bind_buffer(gpu_shared::kSimFieldCopyBindSource, distance);
                set->bind_buffer(gpu_shared::kSimFieldCopyBindDestination, g.sdf_fields);
                it = g.field_copy_sets.emplace(distance.handle(), std::move(*set)).first;
            }
            gpu_shared::SimFieldCopyPush push{};
            push.count = floats;
            push.destination_offset = g.field_offsets[i];
            cmd.bind(pipelines_->field_copy, it->second);
            cmd.push(pipelines_->field_copy, push);
            const gpu::DispatchSize d = gpu::dispatch_size(*device_, (uint64_t(floats) + 3) / 4, gpu_shared::kSimWorkgroupSize);
            cmd.dispatch(d.x, d.y, d.z);
            any = true;
        }
    }
    // Cloths and soft bodies keep their own copy of their fields: an animated body's must reach them too
    // (they collided with its bind pose while it walked).
    for (size_t ci = 0; ci < cloths_.size() && ci < world.cloths.size(); ++ci) {
        const std::vector<uint32_t>& sdfs = world.cloths[ci].sdf_indices;
        for (uint32_t i = 0; i < uint32_t(sdfs.size()); ++i) {
            if (sdfs[i] != sdf) continue;
            TRESSEL_TRY(cloths_[ci].record_field_copy(cmd, i, distance));
            any = true;
        }
    }
    if (any) cmd.compute_barrier();
    return {};
}

Status SimGpu::set_device_root_targets(gpu::Device& device, const SimWorld& world, size_t group, const gpu::Buffer* targets) {
    if (group >= groups_.size() || group >= world.groups.size())
        return make_error(ErrorCode::InvalidArgument, "set_device_root_targets: group " + std::to_string(group) + " does not exist");
    SimGpuGroup& g = groups_[group];
    if (!targets) {
        g.device_targets = nullptr;
        return {};
    }
    if (targets->size() < VkDeviceSize(g.strands) * sizeof(glm::mat4))
        return make_error(ErrorCode::InvalidArgument, "set_device_root_targets: hair group '" + world.groups[group].name + "' has " +
                                                          std::to_string(g.strands) + " strands; the targets buffer holds fewer transforms");
    std::vector<glm::mat4> reached(g.strands);
    for (uint32_t s = 0; s < g.strands; ++s) reached[s] = sim_passes::root_of(world.groups[group].root_transforms, s);
    auto state = device.create_buffer_with(std::span<const glm::mat4>(reached), 0, "sim '" + world.groups[group].name + "' roots reached");
    if (!state) return state.error();
    if (g.root_capacity < g.strands) {
        auto roots = host_buffer(device, VkDeviceSize(slots_) * 2 * g.strands * sizeof(glm::mat4), "sim roots");
        if (!roots) return roots.error();
        g.roots = std::move(*roots);
        g.root_capacity = g.strands;
    }
    if (!g.roots_set.valid()) {
        auto set = device.create_descriptor_set(pipelines_->roots);
        if (!set) return set.error();
        g.roots_set = std::move(*set);
    }
    g.root_state = std::move(*state);
    g.device_targets = targets;
    bind_sets(g);
    return {};
}

void SimGpu::record_snap_device_roots(gpu::CommandBuffer& cmd) {
    bool any = false;
    for (SimGpuGroup& g : groups_) {
        if (!g.device_targets) continue;
        cmd.copy(*g.device_targets, g.root_state, VkDeviceSize(g.strands) * sizeof(glm::mat4));
        any = true;
    }
    if (any) cmd.transfer_barrier();
}

Status SimGpu::upload_targets(gpu::Device& device, const SimWorld& world) {
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
        const SimGroupState& w = world.groups[gi];
        TRESSEL_TRY(device.upload(groups_[gi].rest, w.rest_positions_os.data(), w.rest_positions_os.size() * sizeof(glm::vec4)));
        TRESSEL_TRY(device.upload(groups_[gi].ref_vectors, w.ref_vectors_m.data(), w.ref_vectors_m.size() * sizeof(glm::vec4)));
        TRESSEL_TRY(device.upload(groups_[gi].chain_rest, w.chain_rest().data(), w.chain_rest().size() * sizeof(glm::vec4)));
    }
    return {};
}

}  // namespace tressel
