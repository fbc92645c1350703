// Hair self-shadowing from the key light: deep opacity shadow maps (seed 002; Kim and Neumann 2001). Two
// render passes of its own, before the main target: the nearest hair depth from the key light, then the
// opacity layers behind it (shared/render.h kOpacityLayers) summed with additive blending. Strands are
// drawn as ribbons facing the light (shaders/render/hair.vert in its light pass). The maps are bound in
// set 0 (kRenderBindShadowDepth, kRenderBindOpacity0/1), where every later pipeline samples them
// (render_common.glsl hair_transmittance).
//
// With the compute rasterizer (RendererDesc::hair_renderer == ComputeRaster) the same maps are made by
// compute instead: segments splatted into the light's view at about a texel apart (nearest depth by
// atomic min, then each sample's optical depth into its layer), resolved and copied into the same images
// (shaders/render/shadow_splat.comp, shadow_resolve.comp), so every shader samples them unchanged. The
// ribbons keep the fixed-function passes, which fill-bound translucent ribbons make the frame's largest cost.
//
// Timestamps: "shadow_depth", "shadow_opacity". Both passes always run, so the maps are defined; they
// stay empty when the frame has shadows off.
#pragma once

#include <memory>

#include "render/render_pass.h"

namespace tressel::render {

class ShadowPass final : public RenderPassBase {
public:
    // Maps of desc.shadow_size texels square; left in SHADER_READ_ONLY_OPTIMAL.
    static Result<std::unique_ptr<ShadowPass>> create(const PassSetup& setup);

    Status record_offscreen(FrameContext& ctx) override;

    const gpu::Image& depth() const { return depth_.image(); }
    const gpu::Image& opacity(int i) const { return opacity_[i]; }  // i = 0: layers 0..3; 1: layers 4..7

private:
    ShadowPass() = default;
    void draw_strands(FrameContext& ctx, VkPipeline pipeline) const;
    Status create_compute(const PassSetup& setup);
    Status record_compute(FrameContext& ctx);

    uint32_t size_ = 0;
    DepthTarget depth_;
    gpu::Image opacity_[2];
    RenderPass opacity_pass_;
    Framebuffer opacity_fb_;
    PipelineLayout layout_;
    Pipeline depth_pipe_, opacity_pipe_;
    // Compute splatting (the compute rasterizer's renderer).
    bool compute_ = false;
    DescriptorLayout splat_layout_;
    gpu::DescriptorSet splat_set_;
    PipelineLayout splat_pipeline_layout_;
    Pipeline splat_pipe_, resolve_pipe_;
    gpu::Buffer depth_bits_, layers_, depth_out_, opacity_out_;
};

}  // namespace tressel::render
