// Descriptor sets of the renderer's pipelines (engine/render, shaders/render). Each set has a number, and
// each of its bindings a number, as constants that GLSL and C++ both read; beside them C++ gets the set's
// table of (binding, descriptor type, shader stages), from which engine/render makes the set's layout and
// allocates its descriptor sets. A binding's number, type and stages are written once, here.
//
// Tables are dense and in binding order (entry i is binding i: gpu::DescriptorSet looks types up by
// binding number); a static_assert checks it. Stages are those whose shaders read the binding; a shader
// using a binding from another stage is a validation error, so widen the stages here when that changes.
#ifndef TRESSEL_SHARED_RENDER_BINDINGS_H
#define TRESSEL_SHARED_RENDER_BINDINGS_H
#include "shared/common.h"

#ifdef __cplusplus
#include <cstddef>
#include <vulkan/vulkan.h>
namespace tressel::gpu_shared {
struct RenderBinding {
    uint32_t binding;
    VkDescriptorType type;
    VkShaderStageFlags stages;
};
inline constexpr VkDescriptorType kUniformBuffer = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
inline constexpr VkDescriptorType kStorageBuffer = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
inline constexpr VkDescriptorType kSampledTexture = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
inline constexpr VkDescriptorType kTexelBuffer = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
inline constexpr VkDescriptorType kStorageImage = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
inline constexpr VkShaderStageFlags kVertexStage = VK_SHADER_STAGE_VERTEX_BIT;
inline constexpr VkShaderStageFlags kFragmentStage = VK_SHADER_STAGE_FRAGMENT_BIT;
inline constexpr VkShaderStageFlags kGraphicsStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
inline constexpr VkShaderStageFlags kComputeStage = VK_SHADER_STAGE_COMPUTE_BIT;
template <size_t N>
constexpr bool bindings_are_dense(const RenderBinding (&table)[N]) {
    for (size_t i = 0; i < N; ++i)
        if (table[i].binding != i) return false;
    return true;
}
}  // namespace tressel::gpu_shared
#endif

TRESSEL_SHARED_BEGIN

// Set 0 of every graphics pipeline (and of the compute hair rasterizer's, shared/hair_raster.h): the frame uniforms and the key light's shadow maps (render_common.glsl).
TRESSEL_CONST(uint, kRenderSetFrame, 0u);
TRESSEL_CONST(uint, kRenderBindFrame, 0u);        // uniform buffer: FrameUniforms (shared/render.h)
TRESSEL_CONST(uint, kRenderBindShadowDepth, 1u);  // sampler2D: nearest hair depth from the key light
TRESSEL_CONST(uint, kRenderBindOpacity0, 2u);     // sampler2D: opacity layers 0..3
TRESSEL_CONST(uint, kRenderBindOpacity1, 3u);     // sampler2D: opacity layers 4..7
#ifdef __cplusplus
inline constexpr RenderBinding kFrameSetBindings[] = {
    {kRenderBindFrame, kUniformBuffer, kGraphicsStages | kComputeStage},
    {kRenderBindShadowDepth, kSampledTexture, kFragmentStage | kComputeStage},
    {kRenderBindOpacity0, kSampledTexture, kFragmentStage | kComputeStage},
    {kRenderBindOpacity1, kSampledTexture, kFragmentStage | kComputeStage},
};
static_assert(bindings_are_dense(kFrameSetBindings));
#endif

// Set 1 of the pipelines that draw strands (ribbons, shadow maps, the compute rasterizer's vertex pass): one hair group's strand buffers, the
// simulation's output contract (render/renderer.h HairDesc).
TRESSEL_CONST(uint, kRenderSetStrands, 1u);
TRESSEL_CONST(uint, kHairBindPositions, 0u);      // vec4 per vertex, strand-major, xyz metres (world)
TRESSEL_CONST(uint, kHairBindStrandInfo, 1u);     // uvec2 per strand: x seed, y guide id
TRESSEL_CONST(uint, kHairBindRestLength, 2u);     // float per vertex: rest length of segment k -> k+1 (m)
TRESSEL_CONST(uint, kHairBindDepth, 3u);          // float per vertex: collision depth (m, > 0 inside)
#ifdef __cplusplus
inline constexpr RenderBinding kStrandSetBindings[] = {
    {kHairBindPositions, kStorageBuffer, kVertexStage | kComputeStage},
    {kHairBindStrandInfo, kStorageBuffer, kVertexStage | kComputeStage},
    {kHairBindRestLength, kStorageBuffer, kVertexStage | kComputeStage},
    {kHairBindDepth, kStorageBuffer, kVertexStage | kComputeStage},
};
static_assert(bindings_are_dense(kStrandSetBindings));
#endif

// Set 2 of the pipelines that shade hair: one hair group's Marschner lookup textures (render/marschner.h;
// 1 x 1 white placeholders while the group is shaded Kajiya-Kay).
TRESSEL_CONST(uint, kRenderSetHairShading, 2u);
TRESSEL_CONST(uint, kHairShadingBindLutM, 0u);    // sampler2D: Marschner M_R, M_TT, M_TRT, cos(theta_d)
TRESSEL_CONST(uint, kHairShadingBindLutN, 1u);    // sampler2D: Marschner N_TT rgb, N_R
TRESSEL_CONST(uint, kHairShadingBindLutTrt, 2u);  // sampler2D: Marschner N_TRT rgb
#ifdef __cplusplus
inline constexpr RenderBinding kHairShadingSetBindings[] = {
    {kHairShadingBindLutM, kSampledTexture, kFragmentStage | kComputeStage},
    {kHairShadingBindLutN, kSampledTexture, kFragmentStage | kComputeStage},
    {kHairShadingBindLutTrt, kSampledTexture, kFragmentStage | kComputeStage},
};
static_assert(bindings_are_dense(kHairShadingSetBindings));
#endif

// Set 1 of the mesh, overlay, line and slice pipelines: one drawn object.
TRESSEL_CONST(uint, kRenderSetObject, 1u);
TRESSEL_CONST(uint, kObjectBindVertices, 0u);     // MeshVertex per vertex (world space)
TRESSEL_CONST(uint, kObjectBindTexture, 1u);      // sampler2D: the SDF slice's colour image (others: 1 x 1 white)
#ifdef __cplusplus
inline constexpr RenderBinding kObjectSetBindings[] = {
    {kObjectBindVertices, kStorageBuffer, kVertexStage},
    {kObjectBindTexture, kSampledTexture, kFragmentStage},
};
static_assert(bindings_are_dense(kObjectSetBindings));
#endif

TRESSEL_SHARED_END
#endif
