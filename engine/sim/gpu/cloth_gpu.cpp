#include "sim/gpu/cloth_gpu.h"

#include <algorithm>
#include <cstring>

#include "sim/cloth_tiles.h"
#include "sim/gpu/gpu_buffers.h"
#include "sim/gpu/sim_gpu.h"

namespace tressel {

static_assert(gpu_shared::kClothBindSdfFields == 13u, "sim/cloth_common.glsl binds the SDF fields at 13 before it can include shared/cloth.h");

namespace {

using sim_buffers::host_buffer;

// A soft body's drawn surface now as the draw pass writes it (MeshVertex: position, then a normal left zero).
std::vector<glm::vec4> drawn_surface(const ClothState& body, uint32_t count) {
    std::vector<glm::vec4> out(size_t(count) * 2, glm::vec4(0.0f));
    const std::vector<glm::vec4> surface = accessory_surface(body);
    for (size_t r = 0; r < surface.size() && r < count; ++r) out[2 * r] = surface[r];
    return out;
}

}  // namespace

Result<ClothGpu> ClothGpu::create(gpu::Device& device, const SimGpuPipelines& pipelines, const SimWorld& world, size_t index, uint32_t slots) {
    const ClothState& c = world.cloths[index];
    ClothGpu g;
    g.device_ = &device;
    g.pipelines_ = &pipelines;
    g.vertices_ = uint32_t(c.vertex_count());
    g.slots_ = slots;
    g.max_colliders_ = std::max<uint32_t>(1, uint32_t(c.collider_indices.size()));
    g.max_sdfs_ = std::max<uint32_t>(1, uint32_t(c.sdf_indices.size()));
    g.soft_ = c.soft_body;
    g.render_count_ = c.soft_body ? uint32_t(c.render_vertices.size()) : g.vertices_;
    std::vector<gpu_shared::SdfGridParams> grids;
    std::vector<float> fields;
    std::vector<uint32_t> offsets;
    for (uint32_t si : c.sdf_indices) {
        const SimSdfState& s = world.sdfs[si];
        grids.push_back(s.grid_params);
        offsets.push_back(uint32_t(fields.size()));
        fields.insert(fields.end(), s.grid->distance_m.begin(), s.grid->distance_m.end());
    }
    g.field_offsets_ = offsets;
    g.field_floats_ = uint32_t(fields.size());
    const std::string name = "cloth '" + c.name + "' ";
    // Tiles for the small steps (cloth_tile.comp) unless the cloth has none or more than one dispatch holds.
    ClothTiles tiles = pipelines.cloth_tile.valid() ? build_cloth_tiles(c) : ClothTiles{};
    if (tiles.tiles.size() > device.info().max_workgroup_count[0]) tiles = ClothTiles{};
    g.tiles_ = uint32_t(tiles.tiles.size());
    struct Up {
        gpu::Buffer* out;
        Result<gpu::Buffer> r;
    } ups[] = {{&g.pairs_[0][0], sim_buffers::device_buffer_or_stub(device, c.positions, name + "positions")},
               {&g.pairs_[0][1], sim_buffers::device_buffer_or_stub(device, c.prev_positions, name + "previous positions")},
               {&g.pairs_[1][0], sim_buffers::device_buffer_or_stub(device, c.positions, name + "prediction")},
               {&g.pairs_[1][1], sim_buffers::device_buffer_or_stub(device, c.prev_positions, name + "small step start")},
               {&g.vertex_data_, sim_buffers::device_buffer_or_stub(device, c.vertices, name + "vertices")},
               {&g.constraints_, sim_buffers::device_buffer_or_stub(device, c.constraints, name + "constraints")},
               {&g.adjacency_, sim_buffers::device_buffer_or_stub(device, c.adjacency, name + "adjacency")},
               {&g.triangles_, sim_buffers::device_buffer_or_stub(device, c.triangles, name + "triangles")},
               {&g.vertex_triangles_, sim_buffers::device_buffer_or_stub(device, c.vertex_triangles, name + "vertex triangles")},
               {&g.sdf_grids_, sim_buffers::device_buffer_or_stub(device, grids, name + "sdf grids")},
               {&g.sdf_fields_, sim_buffers::device_buffer_or_stub(device, fields, name + "sdf fields")},
               {&g.sdf_offsets_, sim_buffers::device_buffer_or_stub(device, offsets, name + "sdf offsets")},
               {&g.cluster_rest_, sim_buffers::device_buffer_or_stub(device, c.cluster_rest, name + "cluster rest centroids")},
               {&g.clusters_, sim_buffers::device_buffer_or_stub(device, c.clusters, name + "clusters")},
               {&g.render_vertices_, sim_buffers::device_buffer_or_stub(device, c.render_vertices, name + "render vertices")},
               {&g.tiles_data_[0], sim_buffers::device_buffer_or_stub(device, tiles.tiles, name + "tiles")},
               {&g.tiles_data_[1], sim_buffers::device_buffer_or_stub(device, tiles.vertices, name + "tile vertices")},
               {&g.tiles_data_[2], sim_buffers::device_buffer_or_stub(device, tiles.edges, name + "tile edges")},
               {&g.tiles_data_[3], sim_buffers::device_buffer_or_stub(device, tiles.bend, name + "tile bending groups")},
               {&g.tiles_data_[4], sim_buffers::device_buffer_or_stub(device, tiles.owned, name + "tile owned vertices")},
               {&g.bend_rest_, sim_buffers::device_buffer_or_stub(device, c.bend_rest, name + "bending rest")},
               {&g.bend_terms_, sim_buffers::device_buffer_or_stub(device, c.bend_terms, name + "bending terms")},
               {&g.frames_, sim_buffers::device_buffer_or_stub(device, std::vector<glm::vec4>(2 * size_t(g.vertices_), glm::vec4(0.0f)), name + "frames")},
               {&g.params_, host_buffer(device, VkDeviceSize(slots) * sizeof(gpu_shared::ClothStepParams), name + "params")},
               {&g.colliders_, host_buffer(device, VkDeviceSize(slots) * g.max_colliders_ * sizeof(gpu_shared::SimCollider), name + "colliders")},
               {&g.sdf_frames_, host_buffer(device, VkDeviceSize(slots) * g.max_sdfs_ * sizeof(gpu_shared::SimSdfFrame), name + "sdf frames")},
               {&g.pin_places_, host_buffer(device, VkDeviceSize(c.pins_on_skin ? slots * 2 * size_t(g.vertices_) : 1) * sizeof(glm::vec4), name + "pin places")}};
    for (auto& u : ups) {
        if (!u.r) return u.r.error();
        *u.out = std::move(*u.r);
    }
    for (uint32_t i = 0; i < 2; ++i) {
        auto set = device.create_descriptor_set(pipelines.cloth_substep);
        if (!set) return set.error();
        g.bind(*set, i, g.pairs_[1 - i][0], g.pairs_[1 - i][1]);
        g.sets_[i] = std::move(*set);
    }
    return g;
}

void ClothGpu::bind(gpu::DescriptorSet& s, uint32_t in_pair, gpu::Buffer& out_a, gpu::Buffer& out_b) {
    s.bind_buffer(gpu_shared::kClothBindParams, params_);
    s.bind_buffer(gpu_shared::kClothBindVertices, vertex_data_);
    s.bind_buffer(gpu_shared::kClothBindConstraints, constraints_);
    s.bind_buffer(gpu_shared::kClothBindAdjacency, adjacency_);
    s.bind_buffer(gpu_shared::kClothBindTriangles, triangles_);
    s.bind_buffer(gpu_shared::kClothBindVertexTriangles, vertex_triangles_);
    s.bind_buffer(gpu_shared::kClothBindInA, pairs_[in_pair][0]);
    s.bind_buffer(gpu_shared::kClothBindInB, pairs_[in_pair][1]);
    s.bind_buffer(gpu_shared::kClothBindOutA, out_a);
    s.bind_buffer(gpu_shared::kClothBindOutB, out_b);
    s.bind_buffer(gpu_shared::kClothBindColliders, colliders_);
    s.bind_buffer(gpu_shared::kClothBindSdfFrames, sdf_frames_);
    s.bind_buffer(gpu_shared::kClothBindSdfGrids, sdf_grids_);
    s.bind_buffer(gpu_shared::kClothBindSdfFields, sdf_fields_);
    s.bind_buffer(gpu_shared::kClothBindSdfOffsets, sdf_offsets_);
    s.bind_buffer(gpu_shared::kClothBindClusterRest, cluster_rest_);
    s.bind_buffer(gpu_shared::kClothBindClusters, clusters_);
    s.bind_buffer(gpu_shared::kClothBindRenderVertices, render_vertices_);
    for (uint32_t i = 0; i < 5; ++i) s.bind_buffer(gpu_shared::kClothBindTiles + i, tiles_data_[i]);
    s.bind_buffer(gpu_shared::kClothBindBendRest, bend_rest_);
    s.bind_buffer(gpu_shared::kClothBindBendTerms, bend_terms_);
    s.bind_buffer(gpu_shared::kClothBindFrames, frames_);
    s.bind_buffer(gpu_shared::kClothBindPinPlaces, pin_places_);
}

Status ClothGpu::set_draw_target(gpu::Buffer* mesh_vertices) {
    drawing_ = false;
    if (!mesh_vertices) return {};
    if (mesh_vertices->size() < VkDeviceSize(render_count_) * 2 * sizeof(glm::vec4))
        return make_error(ErrorCode::InvalidArgument, "accessory draw target holds fewer vertices than the accessory's " + std::to_string(render_count_));
    for (uint32_t i = 0; i < 2; ++i) {
        auto set = device_->create_descriptor_set(soft_ ? pipelines_->soft_draw : pipelines_->cloth_draw);
        if (!set) return set.error();
        bind(*set, i, *mesh_vertices, *mesh_vertices);
        draw_sets_[i] = std::move(*set);
    }
    drawing_ = true;
    return {};
}

Status ClothGpu::keep_surface(gpu::Device& device, const ClothState& body) {
    if (!soft_ || surface_set_.valid()) return {};
    auto buf = sim_buffers::device_buffer_or_stub(device, drawn_surface(body, render_count_), "soft body '" + body.name + "' surface");
    if (!buf) return buf.error();
    surface_ = std::move(*buf);
    auto set = device.create_descriptor_set(pipelines_->soft_draw);
    if (!set) return set.error();
    bind(*set, state_, surface_, surface_);
    surface_set_ = std::move(*set);
    return {};
}

void ClothGpu::record_draw(gpu::CommandBuffer& cmd) {
    if (!drawing_) return;
    gpu_shared::ClothPush push{};
    push.count = render_count_;
    push.max_colliders = max_colliders_;
    push.max_sdfs = max_sdfs_;
    const gpu::ComputePipeline& pipe = soft_ ? pipelines_->soft_draw : pipelines_->cloth_draw;
    const gpu::DispatchSize d = gpu::dispatch_size(*device_, render_count_, gpu_shared::kClothWorkgroupSize);
    cmd.bind(pipe, draw_sets_[state_]);
    cmd.push(pipe, push);
    cmd.dispatch(d.x, d.y, d.z);
    cmd.compute_barrier();
}

void ClothGpu::record_step(gpu::CommandBuffer& cmd, const StepFrame::Cloth& frame, uint32_t slot, gpu::TimestampQueries* ts) {
    std::memcpy(static_cast<gpu_shared::ClothStepParams*>(params_.mapped()) + slot, &frame.params, sizeof(frame.params));
    auto* col = static_cast<gpu_shared::SimCollider*>(colliders_.mapped()) + size_t(slot) * max_colliders_;
    for (size_t i = 0; i < frame.colliders.size(); ++i) col[i] = frame.colliders[i];
    auto* sf = static_cast<gpu_shared::SimSdfFrame*>(sdf_frames_.mapped()) + size_t(slot) * max_sdfs_;
    for (size_t i = 0; i < frame.sdf_frames.size(); ++i) sf[i] = frame.sdf_frames[i];
    if (frame.params.pin_places != 0u) {
        TRESSEL_ASSERT(frame.pin_places.size() == 2 * size_t(vertices_) && pin_places_.size() >= (size_t(slot) + 1) * frame.pin_places.size() * sizeof(glm::vec4),
                       "ClothGpu::record_step: pins on a skin need the cloth created with pins_on_skin and 2 places per vertex");
        std::memcpy(static_cast<glm::vec4*>(pin_places_.mapped()) + size_t(slot) * frame.pin_places.size(), frame.pin_places.data(),
                    frame.pin_places.size() * sizeof(glm::vec4));
    }

    gpu_shared::ClothPush push{};
    push.count = vertices_;
    push.slot = slot;
    push.max_colliders = max_colliders_;
    push.max_sdfs = max_sdfs_;
    // A pass reads the state's pair; those that write a pair (flip) leave the state in the other.
    auto pass = [&](const gpu::ComputePipeline& pipe, bool flip) {
        const gpu::DispatchSize d = gpu::dispatch_size(*device_, vertices_, gpu_shared::kClothWorkgroupSize);
        cmd.bind(pipe, sets_[state_]);
        cmd.push(pipe, push);
        cmd.dispatch(d.x, d.y, d.z);
        cmd.compute_barrier();
        if (flip) state_ = 1 - state_;
    };
    if (ts) ts->begin(cmd, soft_ ? "sim soft body" : "sim cloth");
    pass(pipelines_->cloth_predict, true);
    for (uint32_t s = 0; s < frame.params.substeps; ++s) {
        push.substep = s;
        if (soft_) {
            pass(pipelines_->soft_cluster, false);
            pass(pipelines_->soft_substep, true);
        } else if (tiles_ > 0) {
            cmd.bind(pipelines_->cloth_tile, sets_[state_]);
            cmd.push(pipelines_->cloth_tile, push);
            cmd.dispatch(tiles_, 1, 1);
            cmd.compute_barrier();
            state_ = 1 - state_;
        } else {
            pass(pipelines_->cloth_substep, true);
        }
    }
    if (soft_) pass(pipelines_->soft_cluster, false);
    if (surface_set_.valid()) {  // the drawn surface a field is built from (keep_surface); the draw pass reads the clusters only
        const gpu::DispatchSize d = gpu::dispatch_size(*device_, render_count_, gpu_shared::kClothWorkgroupSize);
        push.count = render_count_;
        cmd.bind(pipelines_->soft_draw, surface_set_);
        cmd.push(pipelines_->soft_draw, push);
        cmd.dispatch(d.x, d.y, d.z);
        cmd.compute_barrier();
    }
    if (ts) ts->end(cmd);
}

Status ClothGpu::download(gpu::Device& device, ClothState& cloth) const {
    const VkDeviceSize bytes = VkDeviceSize(vertices_) * sizeof(glm::vec4);
    TRESSEL_TRY(device.download(pairs_[state_][0], cloth.positions.data(), bytes));
    TRESSEL_TRY(device.download(pairs_[state_][1], cloth.prev_positions.data(), bytes));
    if (soft_) TRESSEL_TRY(device.download(clusters_, cloth.clusters.data(), cloth.clusters.size() * sizeof(glm::vec4)));
    return {};
}

Status ClothGpu::upload_state(gpu::Device& device, const ClothState& cloth) {
    const VkDeviceSize bytes = VkDeviceSize(vertices_) * sizeof(glm::vec4);
    TRESSEL_TRY(device.upload(pairs_[state_][0], cloth.positions.data(), bytes));
    TRESSEL_TRY(device.upload(pairs_[state_][1], cloth.prev_positions.data(), bytes));
    if (soft_) TRESSEL_TRY(device.upload(clusters_, cloth.clusters.data(), cloth.clusters.size() * sizeof(glm::vec4)));
    if (surface_set_.valid()) {
        const std::vector<glm::vec4> now = drawn_surface(cloth, render_count_);
        TRESSEL_TRY(device.upload(surface_, now.data(), now.size() * sizeof(glm::vec4)));
    }
    return {};
}


Status ClothGpu::record_field_copy(gpu::CommandBuffer& cmd, uint32_t index, const gpu::Buffer& distance) {
    if (index >= field_offsets_.size()) return make_error(ErrorCode::InvalidArgument, "ClothGpu::record_field_copy: the cloth has no field " + std::to_string(index));
    const uint32_t end = index + 1 < field_offsets_.size() ? field_offsets_[index + 1] : field_floats_;
    const uint32_t floats = end - field_offsets_[index];
    if ((VkDeviceSize(floats) * sizeof(float) + 15) / 16 * 16 > distance.size())
        return make_error(ErrorCode::InvalidArgument, "ClothGpu::record_field_copy: a field of the cloth changed size");
    auto it = field_copy_sets_.find(distance.handle());
    if (it == field_copy_sets_.end()) {
        auto set = device_->create_descriptor_set(pipelines_->field_copy);
        if (!set) return set.error();
        set->bind_buffer(gpu_shared::kSimFieldCopyBindSource, distance);
        set->bind_buffer(gpu_shared::kSimFieldCopyBindDestination, sdf_fields_);
        it = field_copy_sets_.emplace(distance.handle(), std::move(*set)).first;
    }
    gpu_shared::SimFieldCopyPush push{};
    push.count = floats;
    push.destination_offset = field_offsets_[index];
    cmd.bind(pipelines_->field_copy, it->second);
    cmd.push(pipelines_->field_copy, push);
    const gpu::DispatchSize d = gpu::dispatch_size(*device_, (uint64_t(floats) + 3) / 4, gpu_shared::kSimWorkgroupSize);
    cmd.dispatch(d.x, d.y, d.z);
    return {};
}

Status ClothGpu::upload_field(gpu::Device& device, uint32_t index, const std::vector<float>& distance) {
    if (index >= field_offsets_.size()) return make_error(ErrorCode::InvalidArgument, "ClothGpu::upload_field: the cloth has no field " + std::to_string(index));
    const uint32_t end = index + 1 < field_offsets_.size() ? field_offsets_[index + 1] : field_floats_;
    if (end - field_offsets_[index] != distance.size())
        return make_error(ErrorCode::InvalidArgument, "ClothGpu::upload_field: a field of the cloth changed size");
    return device.upload(sdf_fields_, distance.data(), distance.size() * sizeof(float), VkDeviceSize(field_offsets_[index]) * sizeof(float));
}

}  // namespace tressel
