// GPU linear blend skinning (anim/skin.comp): one mesh's bind pose, joints and weights on the device, its
// skinned positions and normals written by one dispatch from the joint matrices of the frame. The CPU
// reference is anim::skin_mesh (the same formula, shaders/shared/skinning.h).
//
//   auto pipe = SkinGpuPipeline::create(device);
//   auto mesh = SkinnedMeshGpu::create(device, *pipe, imported_mesh, bind, joint_count);
//   mesh->set_joints(joint_matrices(skin, world));      // host-visible: the last submission must be done
//   mesh->record(cmd, *pipe);                             // then read positions() / normals()
#pragma once

#include <span>

#include "anim/anim.h"
#include "gpu/device.h"

namespace tressel {

class SkinGpuPipeline {
public:
    static Result<SkinGpuPipeline> create(gpu::Device& device);
    const gpu::ComputePipeline& pipeline() const { return pipeline_; }
    const gpu::ComputePipeline& roots_pipeline() const { return roots_; }  // anim/roots.comp

private:
    gpu::ComputePipeline pipeline_, roots_;
};

class SkinnedMeshGpu {
public:
    // InvalidArgument when the mesh has no skinning attributes, `bind` is of another mesh, or a joint index
    // with a non-zero weight is not below joint_count.
    static Result<SkinnedMeshGpu> create(gpu::Device& device, const SkinGpuPipeline& pipeline, const Mesh& mesh, const SkinBind& bind,
                                         uint32_t joint_count);

    // The frame's joint matrices (joint_count of them), written to host-visible memory now.
    Status set_joints(std::span<const glm::mat4> joints);
    // Records the skinning dispatch and a compute barrier after it.
    void record(gpu::CommandBuffer& cmd, const SkinGpuPipeline& pipeline);
    // Also write the skinned mesh into `vertices` (the renderer's MeshVertex buffer of this mesh: position w
    // 1, normal w 0, one per vertex), or stop (nullptr). Not while a recorded skinning is pending.
    Status set_vertex_output(const gpu::Buffer* vertices);

    uint32_t vertex_count() const { return vertices_; }
    const gpu::Buffer& positions() const { return out_pos_; }  // vec4 per vertex, w = 1
    const gpu::Buffer& normals() const { return out_nrm_; }    // vec4 per vertex, w = 0 (a stub without normals)
    bool has_normals() const { return has_normals_; }

private:
    gpu::Device* device_ = nullptr;
    uint32_t vertices_ = 0, joints_ = 0;
    bool has_normals_ = false;
    bool has_vertices_ = false;
    gpu::Buffer bind_pos_, bind_nrm_, joint_idx_, weights_, matrices_, out_pos_, out_nrm_;
    gpu::DescriptorSet set_;
};

// Strand roots on a skinned scalp, on the device (anim/roots.comp): per root, the transform carrying it
// from the bind pose (the mesh the groom was grown on) to the pose the skinning pass wrote; the CPU
// reference is anim::root_transforms. The targets are what SimGpu::set_device_root_targets reads.
//
//   auto roots = SkinnedRootsGpu::create(device, *pipe, scalp_mesh, groom.guides.roots, skinned.positions(), n);
//   skinned.record(cmd, *pipe); roots->record(cmd, *pipe);   // then the simulation's steps
class SkinnedRootsGpu {
public:
    // `bind`: the scalp mesh in its bind pose (its indices and positions); `skinned`: a device buffer of
    // vec4 per vertex of it. InvalidArgument when a root's triangle is not in the mesh or the buffer is
    // smaller than the mesh.
    static Result<SkinnedRootsGpu> create(gpu::Device& device, const SkinGpuPipeline& pipeline, const Mesh& bind,
                                          std::span<const ScalpAttachment> roots, const gpu::Buffer& skinned, uint32_t skinned_vertices);
    // Records the roots dispatch and a compute barrier after it.
    void record(gpu::CommandBuffer& cmd, const SkinGpuPipeline& pipeline) const;
    const gpu::Buffer& targets() const { return targets_; }  // mat4 per root
    uint32_t root_count() const { return roots_; }

private:
    uint32_t roots_ = 0;
    gpu::Buffer triangles_, bary_, inverse_bind_, targets_;
    gpu::DescriptorSet set_;
};

}  // namespace tressel
