#include "anim/gpu/skin_gpu.h"

#include <cstring>
#include <type_traits>

#include "shared/embedded_shaders.h"
#include "shared/skinning.h"

namespace tressel {

using namespace gpu_shared;

Result<SkinGpuPipeline> SkinGpuPipeline::create(gpu::Device& device) {
    SkinGpuPipeline p;
    std::vector<VkDescriptorType> bindings(kSkinBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    auto pipe = device.create_compute_pipeline({embedded_spirv("anim/skin.comp"), bindings, sizeof(SkinPush), "anim/skin.comp"});
    if (!pipe) return pipe.error();
    p.pipeline_ = std::move(*pipe);
    std::vector<VkDescriptorType> roots_bindings(kSkinRootsBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    auto roots = device.create_compute_pipeline({embedded_spirv("anim/roots.comp"), roots_bindings, sizeof(SkinRootsPush), "anim/roots.comp"});
    if (!roots) return roots.error();
    p.roots_ = std::move(*roots);
    return p;
}

Result<SkinnedMeshGpu> SkinnedMeshGpu::create(gpu::Device& device, const SkinGpuPipeline& pipeline, const Mesh& mesh, const SkinBind& bind,
                                              uint32_t joint_count) {
    const size_t n = mesh.positions.size();
    if (mesh.joints.size() != n || mesh.weights.size() != n)
        return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "' has no skinning weights to skin with");
    if (bind.positions.size() != n) return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "': the bind pose is of another mesh");
    if (n == 0 || n > UINT32_MAX / 2) return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "': no vertices to skin, or too many");
    SkinnedMeshGpu m;
    m.device_ = &device;
    m.vertices_ = uint32_t(n);
    m.joints_ = std::max(joint_count, 1u);
    m.has_normals_ = bind.normals.size() == n;
    std::vector<glm::vec4> pos(n), nrm(m.has_normals_ ? n : 1, glm::vec4(0.0f)), w(n);
    std::vector<glm::uvec4> idx(n);
    for (size_t v = 0; v < n; ++v) {
        pos[v] = glm::vec4(bind.positions[v], 1.0f);
        if (m.has_normals_) nrm[v] = glm::vec4(bind.normals[v], 0.0f);
        idx[v] = glm::uvec4(mesh.joints[v]);
        w[v] = mesh.weights[v];
        for (int k = 0; k < 4; ++k)
            if (w[v][k] != 0.0f && idx[v][k] >= joint_count)
                return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "': vertex " + std::to_string(v) + " uses joint " +
                                                                  std::to_string(idx[v][k]) + " but the skin has " + std::to_string(joint_count));
    }
    const std::string name = "skin '" + mesh.name + "' ";
    auto make = [&](const auto& data, const char* what) {
        using T = typename std::decay_t<decltype(data)>::value_type;
        return device.create_buffer_with(std::span<const T>(data), 0, name + what);
    };
    auto bp = make(pos, "bind positions");
    if (!bp) return bp.error();
    auto bn = make(nrm, "bind normals");
    if (!bn) return bn.error();
    auto ji = make(idx, "joints");
    if (!ji) return ji.error();
    auto wt = make(w, "weights");
    if (!wt) return wt.error();
    auto mats = device.create_buffer({VkDeviceSize(m.joints_) * sizeof(glm::mat4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                      gpu::MemoryIntent::Upload, name + "joint matrices"});
    if (!mats) return mats.error();
    auto op = device.create_buffer({VkDeviceSize(n) * sizeof(glm::vec4)});
    if (!op) return op.error();
    auto on = device.create_buffer({VkDeviceSize(m.has_normals_ ? n : 1) * sizeof(glm::vec4)});
    if (!on) return on.error();
    m.bind_pos_ = std::move(*bp);
    m.bind_nrm_ = std::move(*bn);
    m.joint_idx_ = std::move(*ji);
    m.weights_ = std::move(*wt);
    m.matrices_ = std::move(*mats);
    m.out_pos_ = std::move(*op);
    m.out_nrm_ = std::move(*on);
    std::vector<glm::mat4> identity(m.joints_, glm::mat4(1.0f));
    std::memcpy(m.matrices_.mapped(), identity.data(), identity.size() * sizeof(glm::mat4));
    auto set = device.create_descriptor_set(pipeline.pipeline());
    if (!set) return set.error();
    m.set_ = std::move(*set);
    m.set_.bind_buffer(kSkinBindPositions, m.bind_pos_);
    m.set_.bind_buffer(kSkinBindNormals, m.bind_nrm_);
    m.set_.bind_buffer(kSkinJoints, m.joint_idx_);
    m.set_.bind_buffer(kSkinWeights, m.weights_);
    m.set_.bind_buffer(kSkinMatrices, m.matrices_);
    m.set_.bind_buffer(kSkinOutPositions, m.out_pos_);
    m.set_.bind_buffer(kSkinOutNormals, m.out_nrm_);
    m.set_.bind_buffer(kSkinOutVertices, m.out_pos_);  // unused until set_vertex_output
    return m;
}

Status SkinnedMeshGpu::set_vertex_output(const gpu::Buffer* vertices) {
    if (!vertices) {
        has_vertices_ = false;
        set_.bind_buffer(kSkinOutVertices, out_pos_);
        return {};
    }
    if (vertices->size() < VkDeviceSize(vertices_) * 2 * sizeof(glm::vec4))
        return make_error(ErrorCode::InvalidArgument, "skinning: the drawn mesh's vertex buffer holds fewer vertices than the mesh");
    set_.bind_buffer(kSkinOutVertices, *vertices);
    has_vertices_ = true;
    return {};
}

Status SkinnedMeshGpu::set_joints(std::span<const glm::mat4> joints) {
    if (joints.size() != joints_ && !(joints_ == 1 && joints.empty()))
        return make_error(ErrorCode::InvalidArgument, "skinning: " + std::to_string(joints.size()) + " joint matrices for a skin of " +
                                                          std::to_string(joints_));
    std::memcpy(matrices_.mapped(), joints.data(), joints.size() * sizeof(glm::mat4));
    return {};
}

void SkinnedMeshGpu::record(gpu::CommandBuffer& cmd, const SkinGpuPipeline& pipeline) {
    cmd.bind(pipeline.pipeline(), set_);
    cmd.push(pipeline.pipeline(), SkinPush{vertices_, joints_, has_normals_ ? 1u : 0u, has_vertices_ ? 1u : 0u});
    const gpu::DispatchSize d = gpu::dispatch_size(*device_, vertices_, kSkinWorkgroupSize);
    cmd.dispatch(d.x, d.y, d.z);
    cmd.compute_barrier();
}

Result<SkinnedRootsGpu> SkinnedRootsGpu::create(gpu::Device& device, const SkinGpuPipeline& pipeline, const Mesh& bind,
                                                std::span<const ScalpAttachment> roots, const gpu::Buffer& skinned,
                                                uint32_t skinned_vertices) {
    if (skinned_vertices < bind.positions.size() || skinned.size() < VkDeviceSize(bind.positions.size()) * sizeof(glm::vec4))
        return make_error(ErrorCode::InvalidArgument, "mesh '" + bind.name + "': the skinned positions hold fewer vertices than the mesh");
    std::vector<glm::uvec4> tri(std::max<size_t>(roots.size(), 1), glm::uvec4(0u));
    std::vector<glm::vec4> bary(tri.size(), glm::vec4(0.0f));
    std::vector<glm::mat4> inverse(tri.size(), glm::mat4(1.0f));
    for (size_t r = 0; r < roots.size(); ++r) {
        const ScalpAttachment& a = roots[r];
        auto c = root_corners(bind, a, r);
        if (!c) return c.error();
        const uint32_t i0 = c->x, i1 = c->y, i2 = c->z;
        tri[r] = glm::uvec4(i0, i1, i2, 0u);
        bary[r] = glm::vec4(a.barycentric, 0.0f);
        const glm::mat4 rest = skin_triangle_frame(bind.positions[i0], bind.positions[i1], bind.positions[i2], a.barycentric);
        inverse[r] = glm::mat4(glm::inverse(glm::dmat4(rest)));
    }
    SkinnedRootsGpu out;
    out.roots_ = uint32_t(roots.size());
    const std::string name = "roots on '" + bind.name + "' ";
    auto t = device.create_buffer_with(std::span<const glm::uvec4>(tri), 0, name + "triangles");
    if (!t) return t.error();
    auto b = device.create_buffer_with(std::span<const glm::vec4>(bary), 0, name + "barycentrics");
    if (!b) return b.error();
    auto i = device.create_buffer_with(std::span<const glm::mat4>(inverse), 0, name + "inverse bind frames");
    if (!i) return i.error();
    auto targets = device.create_buffer_with(std::span<const glm::mat4>(std::vector<glm::mat4>(tri.size(), glm::mat4(1.0f))), 0, name + "targets");
    if (!targets) return targets.error();
    out.triangles_ = std::move(*t);
    out.bary_ = std::move(*b);
    out.inverse_bind_ = std::move(*i);
    out.targets_ = std::move(*targets);
    auto set = device.create_descriptor_set(pipeline.roots_pipeline());
    if (!set) return set.error();
    out.set_ = std::move(*set);
    out.set_.bind_buffer(kSkinRootsBindPositions, skinned);
    out.set_.bind_buffer(kSkinRootsBindTriangles, out.triangles_);
    out.set_.bind_buffer(kSkinRootsBindBary, out.bary_);
    out.set_.bind_buffer(kSkinRootsBindInvBind, out.inverse_bind_);
    out.set_.bind_buffer(kSkinRootsBindTargets, out.targets_);
    return out;
}

void SkinnedRootsGpu::record(gpu::CommandBuffer& cmd, const SkinGpuPipeline& pipeline) const {
    if (roots_ == 0) return;
    SkinRootsPush push{};
    push.roots = roots_;
    cmd.bind(pipeline.roots_pipeline(), set_);
    cmd.push(pipeline.roots_pipeline(), push);
    const gpu::DispatchSize d = gpu::dispatch_size(cmd.device(), roots_, kSkinWorkgroupSize);
    cmd.dispatch(d.x, d.y, d.z);
    cmd.compute_barrier();
}

}  // namespace tressel
