#include "render/shadow_pass.h"

#include "render/draws.h"
#include "render/render_resources.h"
#include "render/render_scene.h"
#include "render/renderer.h"

namespace tressel::render {

namespace {
constexpr VkFormat kOpacityFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
}  // namespace

Result<std::unique_ptr<ShadowPass>> ShadowPass::create(const PassSetup& setup) {
    gpu::Device& device = setup.device;
    std::unique_ptr<ShadowPass> p(new ShadowPass());
    p->size_ = setup.desc.shadow_size;

    AttachmentSpec depth{kDepthFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    auto dp = create_render_pass(device, {}, &depth, {});
    if (!dp) return dp.error();
    p->depth_pass_ = std::move(*dp);
    AttachmentSpec op{kOpacityFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    AttachmentSpec ops[] = {op, op};
    auto opp = create_render_pass(device, ops, nullptr, {});
    if (!opp) return opp.error();
    p->opacity_pass_ = std::move(*opp);

    auto layout = create_strand_pipeline_layout(device, setup.shared, /*with_shading=*/false);
    if (!layout) return layout.error();
    p->layout_ = std::move(*layout);
    GraphicsPipelineDesc d;
    d.vertex_shader = "render/hair.vert";
    d.fragment_shader = "";
    d.layout = p->layout_.get();
    d.render_pass = p->depth_pass_.get();
    d.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    d.color_attachments = 0;
    d.name = "hair shadow depth";
    auto dpipe = create_graphics_pipeline(device, d);
    if (!dpipe) return dpipe.error();
    p->depth_pipe_ = std::move(*dpipe);
    GraphicsPipelineDesc o = d;
    o.fragment_shader = "render/hair_opacity.frag";
    o.render_pass = p->opacity_pass_.get();
    o.color_attachments = 2;
    o.depth_test = o.depth_write = false;
    o.blend = Blend::Additive;
    o.name = "hair opacity";
    auto opipe = create_graphics_pipeline(device, o);
    if (!opipe) return opipe.error();
    p->opacity_pipe_ = std::move(*opipe);

    gpu::ImageDesc sd;
    sd.width = sd.height = p->size_;
    sd.format = kDepthFormat;
    sd.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    sd.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    sd.name = "hair shadow depth";
    auto sdi = device.create_image(sd);
    if (!sdi) return sdi.error();
    p->depth_ = std::move(*sdi);
    for (auto& o_img : p->opacity_) {
        gpu::ImageDesc od;
        od.width = od.height = p->size_;
        od.format = kOpacityFormat;
        od.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
        od.name = "hair opacity layers";
        auto oi = device.create_image(od);
        if (!oi) return oi.error();
        o_img = std::move(*oi);
    }
    VkImageView dviews[] = {p->depth_.view()};
    auto dfb = create_framebuffer(device, p->depth_pass_.get(), dviews, p->size_, p->size_);
    if (!dfb) return dfb.error();
    p->depth_fb_ = std::move(*dfb);
    VkImageView oviews[] = {p->opacity_[0].view(), p->opacity_[1].view()};
    auto ofb = create_framebuffer(device, p->opacity_pass_.get(), oviews, p->size_, p->size_);
    if (!ofb) return ofb.error();
    p->opacity_fb_ = std::move(*ofb);
    // Until the first frame, the maps must be in the layout the frame set declares.
    TRESSEL_TRY(device.run_sync([&](gpu::CommandBuffer& cmd) {
        transition_image(cmd, p->depth_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         VK_IMAGE_ASPECT_DEPTH_BIT);
        for (auto& o_img : p->opacity_)
            transition_image(cmd, o_img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }));
    return p;
}

void ShadowPass::draw_strands(FrameContext& ctx, VkPipeline pipeline) const {
    VkCommandBuffer c = ctx.cmd.handle();
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    for (auto& g : ctx.scene.hair()) {
        if (!g->desc.visible || !g->desc.shading.shadows) continue;
        auto push = ribbon_push(g->desc, ctx.frame.debug, ctx.frame.shadows, /*light_pass=*/true);
        draw_ribbons(c, layout_.get(), ctx.frame_set, *g, push, /*with_shading=*/false);
    }
}

Status ShadowPass::record_offscreen(FrameContext& ctx) {
    VkCommandBuffer c = ctx.cmd.handle();
    const bool shadows = ctx.frame.shadows;
    {
        auto span = ctx.time("shadow_depth");
        VkClearValue clear{};
        clear.depthStencil = {1.0f, 0};
        VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        bi.renderPass = depth_pass_.get();
        bi.framebuffer = depth_fb_.get();
        bi.renderArea = {{0, 0}, {size_, size_}};
        bi.clearValueCount = 1;
        bi.pClearValues = &clear;
        vkCmdBeginRenderPass(c, &bi, VK_SUBPASS_CONTENTS_INLINE);
        set_viewport(c, size_, size_);
        if (shadows) draw_strands(ctx, depth_pipe_.get());
        vkCmdEndRenderPass(c);
    }
    {
        auto span = ctx.time("shadow_opacity");
        VkClearValue clear[2]{};
        VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        bi.renderPass = opacity_pass_.get();
        bi.framebuffer = opacity_fb_.get();
        bi.renderArea = {{0, 0}, {size_, size_}};
        bi.clearValueCount = 2;
        bi.pClearValues = clear;
        vkCmdBeginRenderPass(c, &bi, VK_SUBPASS_CONTENTS_INLINE);
        set_viewport(c, size_, size_);
        if (shadows) draw_strands(ctx, opacity_pipe_.get());
        vkCmdEndRenderPass(c);
    }
    return {};
}

}  // namespace tressel::render
