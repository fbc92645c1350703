// Draw calls that more than one pass records.
//   Strands as ribbons (shaders/render/hair.vert, one instance per strand, a triangle strip of 2 vertices
//   per strand vertex): the ribbon hair pass facing the camera, the shadow pass facing the key light.
//   Objects of set kRenderSetObject (meshes, lines, the slice): the mesh, slice and overlay passes and the
//   compute rasterizer's depth.
#pragma once

#include <vulkan/vulkan.h>

#include "render/render_pass.h"
#include "render/render_scene.h"
#include "render/renderer.h"
#include "shared/render.h"

namespace tressel::render {

// A hair group's push constants. `shadows`: the frame asks for hair shadows (the group's
// shading.shadows also has to); `light_pass`: drawing into the key light's shadow maps.
gpu_shared::HairPush ribbon_push(const HairDesc& desc, HairDebug debug, bool shadows, bool light_pass);

// Binds sets 0 (frame) and kRenderSetStrands, plus kRenderSetHairShading when `with_shading` (the
// pipeline layout has it), pushes `push` and draws the group's ribbons with the bound pipeline.
void draw_ribbons(VkCommandBuffer cmd, VkPipelineLayout layout, VkDescriptorSet frame_set, const HairGroupGpu& group,
                  const gpu_shared::HairPush& push, bool with_shading);

// Binds `pipeline`, sets 0 (frame) and kRenderSetObject (the mesh's), pushes `push` and draws the
// mesh's triangles.
void draw_mesh(VkCommandBuffer cmd, VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet frame_set,
               const MeshGpu& mesh, const gpu_shared::MeshPush& push);

// The same for line segments (pipeline: a line list); nothing when `lines` is empty.
void draw_lines(VkCommandBuffer cmd, VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet frame_set,
                const LinesGpu& lines);

// The SDF slice's quad (SliceGpu: 4 corners, a triangle strip) with `pipeline` (render/slice.vert).
void draw_slice_quad(VkCommandBuffer cmd, VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet frame_set,
                     const SliceGpu& slice);

// The opaque mesh pipeline (shaders/render/mesh.*) for the main target; the overlay pipelines derive
// from it.
GraphicsPipelineDesc mesh_pipeline_desc(const PassSetup& setup, VkPipelineLayout layout);

// Both pipeline layouts, for the passes that make pipelines drawing strands or objects.
Result<PipelineLayout> create_strand_pipeline_layout(gpu::Device& device, const SharedResources& shared,
                                                     bool with_shading);
Result<PipelineLayout> create_object_pipeline_layout(gpu::Device& device, const SharedResources& shared);

}  // namespace tressel::render
