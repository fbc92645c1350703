#include "render/draws.h"

#include <algorithm>

#include "render/render_resources.h"

namespace tressel::render {

using gpu_shared::HairPush;
using gpu_shared::MeshPush;

namespace {
constexpr VkShaderStageFlags kPushStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
}  // namespace

HairPush ribbon_push(const HairDesc& d, HairDebug debug, bool shadows, bool light_pass) {
    const Shading& s = d.shading;
    HairPush p{};
    p.root_color = glm::vec3(s.root_color);
    p.opacity = float(std::clamp(s.opacity, 0.0, 1.0));
    p.tip_color = glm::vec3(s.tip_color);
    p.tip_percentage = float(std::clamp(s.tip_percentage, 0.0, 1.0));
    p.kd = float(s.kd);
    p.ks1 = float(s.ks1);
    p.ex1 = float(s.ex1);
    p.ks2 = float(s.ks2);
    p.ex2 = float(s.ex2);
    p.spec_shift = float(s.spec_shift);
    p.color_variation = float(s.color_variation);
    p.brightness_variation = float(s.brightness_variation);
    p.root_half_width_m = float(s.fiber_radius_m);
    p.tip_half_width_m = s.thin_tip ? p.root_half_width_m * float(s.fiber_ratio) : p.root_half_width_m;
    p.shadow_alpha = float(s.shadow_alpha);
    p.lut_scale = 1.0f;
    p.vertices_per_strand = d.vertices_per_strand;
    p.strand_count = d.strand_count;
    p.model = s.model == ShadingModel::Marschner ? gpu_shared::kHairModelMarschner : gpu_shared::kHairModelKajiyaKay;
    p.debug_mode = debug == HairDebug::Guide     ? gpu_shared::kHairDebugGuide
                   : debug == HairDebug::Stretch ? gpu_shared::kHairDebugStretch
                   : debug == HairDebug::Depth   ? gpu_shared::kHairDebugDepth
                   : debug == HairDebug::RootTip ? gpu_shared::kHairDebugRootTip
                   : debug == HairDebug::Problems ? gpu_shared::kHairDebugProblems
                                                 : gpu_shared::kHairDebugNone;
    p.shadows = shadows && s.shadows ? 1u : 0u;
    p.has_rest_lengths = d.rest_lengths ? 1u : 0u;
    p.has_collision_depth = d.collision_depth ? 1u : 0u;
    p.light_pass = light_pass ? 1u : 0u;
    return p;
}

void draw_ribbons(VkCommandBuffer cmd, VkPipelineLayout layout, VkDescriptorSet frame_set, const HairGroupGpu& group,
                  const HairPush& push, bool with_shading) {
    static_assert(gpu_shared::kRenderSetFrame == 0 && gpu_shared::kRenderSetStrands == 1 &&
                  gpu_shared::kRenderSetHairShading == 2);
    VkDescriptorSet sets[] = {frame_set, group.strands.handle(), group.shading.handle()};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, with_shading ? 3 : 2, sets, 0, nullptr);
    vkCmdPushConstants(cmd, layout, kPushStages, 0, sizeof(push), &push);
    vkCmdDraw(cmd, 2 * group.desc.vertices_per_strand, group.desc.strand_count, 0, 0);
}

void draw_mesh(VkCommandBuffer cmd, VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet frame_set,
               const MeshGpu& mesh, const MeshPush& push) {
    static_assert(gpu_shared::kRenderSetFrame == 0 && gpu_shared::kRenderSetObject == 1);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkDescriptorSet sets[] = {frame_set, mesh.set.handle()};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, sets, 0, nullptr);
    vkCmdPushConstants(cmd, layout, kPushStages, 0, sizeof(push), &push);
    vkCmdBindIndexBuffer(cmd, mesh.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, mesh.index_count, 1, 0, 0, 0);
}

void draw_lines(VkCommandBuffer cmd, VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet frame_set,
                const LinesGpu& lines) {
    if (!lines.count) return;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkDescriptorSet sets[] = {frame_set, lines.set.handle()};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, sets, 0, nullptr);
    MeshPush push{};
    vkCmdPushConstants(cmd, layout, kPushStages, 0, sizeof(push), &push);
    vkCmdDraw(cmd, lines.count, 1, 0, 0);
}

void draw_slice_quad(VkCommandBuffer c, VkPipeline pipe, VkPipelineLayout layout, VkDescriptorSet frame_set,
                     const SliceGpu& slice) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    VkDescriptorSet sets[] = {frame_set, slice.set.handle()};
    vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, sets, 0, nullptr);
    MeshPush push{};
    vkCmdPushConstants(c, layout, kPushStages, 0, sizeof(push), &push);
    vkCmdDraw(c, 4, 1, 0, 0);
}

GraphicsPipelineDesc mesh_pipeline_desc(const PassSetup& setup, VkPipelineLayout layout) {
    GraphicsPipelineDesc d;
    d.vertex_shader = "render/mesh.vert";
    d.fragment_shader = "render/mesh.frag";
    d.layout = layout;
    d.render_pass = setup.main_pass;
    d.samples = setup.samples;
    d.name = "mesh";
    return d;
}

Result<PipelineLayout> create_strand_pipeline_layout(gpu::Device& device, const SharedResources& shared,
                                                     bool with_shading) {
    VkDescriptorSetLayout sets[] = {shared.frame.get(), shared.strands.get(), shared.hair_shading.get()};
    return create_pipeline_layout(device, std::span<const VkDescriptorSetLayout>(sets, with_shading ? 3 : 2),
                                  sizeof(HairPush));
}

Result<PipelineLayout> create_object_pipeline_layout(gpu::Device& device, const SharedResources& shared) {
    VkDescriptorSetLayout sets[] = {shared.frame.get(), shared.object.get()};
    return create_pipeline_layout(device, sets, sizeof(MeshPush));
}

}  // namespace tressel::render
