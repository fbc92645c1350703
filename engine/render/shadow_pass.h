// Hair self-shadowing from the key light: deep opacity shadow maps (seed 002; Kim and Neumann 2001). Two
// render passes of its own, before the main target: the nearest hair depth from the key light, then the
// opacity layers behind it (shared/render.h kOpacityLayers) summed with additive blending. Strands are
// drawn as ribbons facing the light (shaders/render/hair.vert in its light pass). The maps are bound in
// set 0 (kRenderBindShadowDepth, kRenderBindOpacity0/1), where every later pipeline samples them
// (render_common.glsl hair_transmittance).
//
// With the compute rasterizer (RendererDesc::hair_renderer == ComputeRaster) the same maps are made by
// compute instead: segments splatted into the light's view at about a texel apart (nearest depth by
// atomic min, then each sample's optical depth into its layer), resolved into the same images
// (shaders/render/shadow_splat.comp, shadow_resolve.comp), so every shader samples them unchanged. The
// ribbons keep the fixed-function passes, which fill-bound translucent ribbons make the frame's largest cost.
//
// Timestamps: "shadow_depth", "shadow_opacity". Both passes always run, so the maps are defined; they
// stay empty when the frame has shadows off. A frame with FrameDesc::hair_moved false whose light, hair
// groups (buffers, counts, shading, bounds), meshes and shadow settings equal the last frame's keeps the
// last frame's maps and records nothing (an orbiting camera over paused hair: the key light is fixed in
// the world, so the maps do not depend on the camera).
#pragma once

#include <memory>

#include "render/render_pass.h"
#include "render/renderer.h"

namespace tressel::render {

class ShadowPass final : public RenderPassBase {
public:
    // Maps of desc.shadow_size texels square; left in SHADER_READ_ONLY_OPTIMAL.
    static Result<std::unique_ptr<ShadowPass>> create(const PassSetup& setup);

    Status record_offscreen(FrameContext& ctx) override;

    const gpu::Image& depth() const { return depth_.image(); }
    const gpu::Image& opacity(int i) const { return opacity_[i]; }  // i = 0: layers 0..3; 1: layers 4..7

private:
    // What the maps depend on, besides the hair's positions (FrameDesc::hair_moved).
    struct Inputs {
        struct Group {
            VkBuffer positions = VK_NULL_HANDLE;
            uint32_t strands = 0, vertices = 0;
            Shading shading;
            glm::vec3 lo{0.0f}, hi{0.0f};
            bool visible = false;
            bool operator==(const Group&) const = default;
        };
        Light key;
        bool shadows = false;
        double layer_m = 0.0;
        size_t meshes = 0;
        std::vector<Group> groups;
        bool operator==(const Inputs&) const = default;
    };
    static Inputs inputs_of(const FrameContext& ctx);

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
    gpu::Buffer depth_bits_, layers_, depth_out_;
    bool have_maps_ = false;   // the maps hold what last_ describes
    Inputs last_;
};

}  // namespace tressel::render
