// Cloth accessories on the GPU: the passes of the CPU reference (engine/sim/cloth.h) as compute shaders
// (shaders/sim/cloth_predict.comp, cloth_substep.comp) over the same shared formulas (shaders/shared/
// cloth.h). One step of the world is a predict pass and one pass per small step, each reading one pair of
// buffers and writing the other: params.iterations + 1 dispatches. SimGpu owns one per world cloth and
// records them after the hair in each step, from the same StepFrame the CPU step uses.
// A soft body (soft_body.h) is a ClothGpu too: per small step a cluster pass (soft_cluster.comp) before
// its particle pass (soft_substep.comp), and one more cluster pass at the step's end: 2 x iterations + 2
// dispatches; its draw pass (soft_draw.comp) writes its render mesh from the clusters.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "shared/cloth.h"
#include "sim/sim.h"

namespace tressel {

class SimGpuPipelines;

class ClothGpu {
public:
    // Uploads world.cloths[cloth] (its state as it is now) and copies the fields of the SDFs it collides
    // with; `slots`: the most steps one record may hold.
    static Result<ClothGpu> create(gpu::Device& device, const SimGpuPipelines& pipelines, const SimWorld& world, size_t cloth, uint32_t slots);

    // Records one step: the step's constants into slot `slot` (host-visible: the previous submission must
    // have completed), then the predict pass and the small steps, with a barrier after each.
    void record_step(gpu::CommandBuffer& cmd, const StepFrame::Cloth& frame, uint32_t slot, gpu::TimestampQueries* ts);

    // Where record_draw writes the renderer's MeshVertex per vertex (position, normal): a mesh's vertex
    // buffer (Renderer::mesh_vertices) drawn with cloth_mesh()'s triangles; nullptr stops drawing.
    Status set_draw_target(gpu::Buffer* mesh_vertices);
    // Records the draw pass (the positions now into the target) with a barrier after it; nothing without a target.
    void record_draw(gpu::CommandBuffer& cmd);
    // A soft body's drawn surface kept on the device for a field built from it (hair against a soft body):
    // a buffer of MeshVertex per render vertex (position, normal: 2 vec4), filled now from `body` and
    // rewritten at the end of every recorded step. Nothing for a cloth (its positions are its surface).
    Status keep_surface(gpu::Device& device, const ClothState& body);
    const gpu::Buffer& surface() const { return surface_; }
    uint32_t render_count() const { return render_count_; }

    Status download(gpu::Device& device, ClothState& cloth) const;
    Status upload_state(gpu::Device& device, const ClothState& cloth);
    // Positions now (vec4 per welded vertex, w = inverse mass).
    const gpu::Buffer& positions() const { return pairs_[state_][0]; }
    // The two buffers the positions alternate between from step to step, and which holds them now (after
    // the steps recorded so far): what a field rebuilt from the cloth binds (SimGpu's hair against cloths).
    const gpu::Buffer& positions_of_pair(uint32_t pair) const { return pairs_[pair][0]; }
    uint32_t state_pair() const { return state_; }
    uint32_t vertex_count() const { return vertices_; }

    // The cloth's `index`-th field (ClothState::sdf_indices) changed: an animated body's field, rebuilt on
    // the device each frame (record_field_copy, a compute copy into the cloth's own copy of its fields) or
    // on the host (upload_field). InvalidArgument when its size changed.
    Status record_field_copy(gpu::CommandBuffer& cmd, uint32_t index, const gpu::Buffer& distance);
    Status upload_field(gpu::Device& device, uint32_t index, const std::vector<float>& distance);

private:
    // Binds set `s`: reading pair `in_pair`, writing out_a / out_b, the rest of the cloth's buffers.
    void bind(gpu::DescriptorSet& s, uint32_t in_pair, gpu::Buffer& out_a, gpu::Buffer& out_b);

    gpu::Device* device_ = nullptr;
    const SimGpuPipelines* pipelines_ = nullptr;
    uint32_t vertices_ = 0, slots_ = 0, max_colliders_ = 1, max_sdfs_ = 1;
    gpu::Buffer pairs_[2][2];          // [pair][0: positions / prediction, 1: previous / start]
    uint32_t state_ = 0;               // the pair holding the state between steps
    gpu::Buffer params_, colliders_, sdf_frames_;  // host-visible, per slot
    gpu::Buffer pin_places_;           // pins on a skin: host-visible, per slot 2 vec4 per vertex (a stub otherwise)
    gpu::Buffer vertex_data_, constraints_, adjacency_, triangles_, vertex_triangles_, sdf_grids_, sdf_fields_, sdf_offsets_;
    gpu::Buffer cluster_rest_, clusters_, render_vertices_;  // soft bodies (stubs for a cloth)
    gpu::Buffer tiles_data_[5];        // ClothTiles at kClothBindTiles.. (stubs without tiles)
    gpu::Buffer bend_rest_, bend_terms_;  // the bending stencils (stubs for a soft body)
    gpu::Buffer frames_;               // per vertex and step: its normal and bending target (the predict pass writes them)
    uint32_t tiles_ = 0;               // workgroups of a tiled small step; 0: the per-vertex pass
    bool soft_ = false;
    uint32_t render_count_ = 0;        // vertices the draw pass writes (a soft body's render mesh; else the cloth's)
    gpu::DescriptorSet sets_[2];       // set i reads pair i and writes pair 1 - i
    gpu::DescriptorSet draw_sets_[2];  // set i reads pair i and writes the draw target
    gpu::Buffer surface_;              // keep_surface: a soft body's drawn surface after each step
    std::vector<uint32_t> field_offsets_;  // per field of the cloth, its first float in sdf_fields_
    uint32_t field_floats_ = 0;            // floats in sdf_fields_
    std::map<VkBuffer, gpu::DescriptorSet> field_copy_sets_;  // record_field_copy's, per source buffer
    gpu::DescriptorSet surface_set_;   // the draw pass into surface_
    bool drawing_ = false;
};

}  // namespace tressel
