#include "render/shadow_pass.h"

#include <algorithm>
#include <cmath>

#include "render/draws.h"
#include "render/render_resources.h"
#include "render/render_scene.h"
#include "render/renderer.h"
#include "shared/hair_raster.h"
#include "shared/render.h"

namespace tressel::render {

namespace {
constexpr VkFormat kOpacityFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
}  // namespace

Result<std::unique_ptr<ShadowPass>> ShadowPass::create(const PassSetup& setup) {
    gpu::Device& device = setup.device;
    std::unique_ptr<ShadowPass> p(new ShadowPass());
    p->size_ = setup.desc.shadow_size;

    auto dt = DepthTarget::create(device, p->size_, p->size_, VK_IMAGE_USAGE_TRANSFER_DST_BIT, "hair shadow depth");
    if (!dt) return dt.error();
    p->depth_ = std::move(*dt);
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
    d.render_pass = p->depth_.render_pass();
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

    for (auto& o_img : p->opacity_) {
        gpu::ImageDesc od;
        od.width = od.height = p->size_;
        od.format = kOpacityFormat;
        od.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                   VK_IMAGE_USAGE_STORAGE_BIT;
        od.name = "hair opacity layers";
        auto oi = device.create_image(od);
        if (!oi) return oi.error();
        o_img = std::move(*oi);
    }
    VkImageView oviews[] = {p->opacity_[0].view(), p->opacity_[1].view()};
    auto ofb = create_framebuffer(device, p->opacity_pass_.get(), oviews, p->size_, p->size_);
    if (!ofb) return ofb.error();
    p->opacity_fb_ = std::move(*ofb);
    if (setup.desc.hair_renderer == HairRenderer::ComputeRaster) TRESSEL_TRY(p->create_compute(setup));
    // Until the first frame, the maps must be in the layout the frame set declares.
    TRESSEL_TRY(device.run_sync([&](gpu::CommandBuffer& cmd) {
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

Status ShadowPass::create_compute(const PassSetup& setup) {
    gpu::Device& device = setup.device;
    compute_ = true;
    auto sl = DescriptorLayout::create(device, gpu_shared::kShadowSplatSetBindings, "shadow splat");
    if (!sl) return sl.error();
    splat_layout_ = std::move(*sl);
    static_assert(gpu_shared::kRenderSetShadowSplat == 3);
    VkDescriptorSetLayout sets[] = {setup.shared.frame.get(), setup.shared.strands.get(), setup.shared.hair_shading.get(),
                                    splat_layout_.get()};
    auto pl = create_pipeline_layout(device, sets, sizeof(gpu_shared::ShadowPush), VK_SHADER_STAGE_COMPUTE_BIT);
    if (!pl) return pl.error();
    splat_pipeline_layout_ = std::move(*pl);
    auto splat = create_compute_pipeline(device, "render/shadow_splat.comp", splat_pipeline_layout_.get());
    if (!splat) return splat.error();
    splat_pipe_ = std::move(*splat);
    auto resolve = create_compute_pipeline(device, "render/shadow_resolve.comp", splat_pipeline_layout_.get());
    if (!resolve) return resolve.error();
    resolve_pipe_ = std::move(*resolve);
    const VkDeviceSize texels = VkDeviceSize(size_) * size_;
    struct {
        gpu::Buffer* buffer;
        VkDeviceSize bytes;
        const char* name;
    } buffers[] = {{&depth_bits_, texels * 4, "shadow depth bits"},
                   {&layers_, texels * 4 * gpu_shared::kOpacityLayers, "shadow opacity layers"},
                   {&depth_out_, texels * 4, "shadow depth out"}};
    for (auto& b : buffers) {
        gpu::BufferDesc d;
        d.size = b.bytes;
        d.name = b.name;
        auto buf = device.create_buffer(d);
        if (!buf) return buf.error();
        *b.buffer = std::move(*buf);
    }
    auto set = splat_layout_.allocate();
    if (!set) return set.error();
    splat_set_ = std::move(*set);
    splat_set_.bind_buffer(gpu_shared::kShadowBindDepthBits, depth_bits_);
    splat_set_.bind_buffer(gpu_shared::kShadowBindLayers, layers_);
    splat_set_.bind_buffer(gpu_shared::kShadowBindDepthOut, depth_out_);
    splat_set_.bind_image(gpu_shared::kShadowBindOpacity0, opacity_[0], VK_IMAGE_LAYOUT_GENERAL);
    splat_set_.bind_image(gpu_shared::kShadowBindOpacity1, opacity_[1], VK_IMAGE_LAYOUT_GENERAL);
    return {};
}

Status ShadowPass::record_compute(FrameContext& ctx) {
    VkCommandBuffer c = ctx.cmd.handle();
    gpu::CommandBuffer& cmd = ctx.cmd;
    const VkPipelineLayout layout = splat_pipeline_layout_.get();
    gpu_shared::ShadowPush sp{};
    sp.size = size_;
    auto barrier = [&](VkPipelineStageFlags src, VkPipelineStageFlags dst) {
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = src == VK_PIPELINE_STAGE_ALL_COMMANDS_BIT
                               ? VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT
                               : VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = dst == VK_PIPELINE_STAGE_TRANSFER_BIT
                               ? VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT
                               : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        if (src == VK_PIPELINE_STAGE_TRANSFER_BIT) mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        if (src == VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(c, src, dst, 0, 1, &mb, 0, nullptr, 0, nullptr);
    };
    auto splat = [&](uint32_t mode) {
        vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, splat_pipe_.get());
        sp.mode = mode;
        if (!ctx.frame.shadows) return;
        uint64_t total = 0;
        for (auto& g : ctx.scene.hair())
            if (g->desc.visible && g->desc.shading.shadows) total += g->desc.strand_count;
        const double fraction = total > gpu_shared::kShadowStrandBudget
                                    ? double(gpu_shared::kShadowStrandBudget) / double(total)
                                    : 1.0;
        for (auto& g : ctx.scene.hair()) {
            const HairDesc& d = g->desc;
            if (!d.visible || !d.shading.shadows || d.strand_count == 0 || d.vertices_per_strand < 2) continue;
            VkDescriptorSet sets[] = {ctx.frame_set, g->strands.handle(), g->shading.handle(), splat_set_.handle()};
            vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 4, sets, 0, nullptr);
            gpu_shared::HairPush hp = ribbon_push(d, ctx.frame.debug, true, true);
            // A spread prefix of the strands when there are more than the budget, widened to keep the density.
            const uint32_t splatted =
                std::max(1u, uint32_t(std::min<double>(d.strand_count, std::ceil(d.strand_count * fraction))));
            const float widen = float(double(d.strand_count) / double(splatted));
            sp.vertices_per_strand = d.vertices_per_strand;
            sp.strand_count = splatted;
            sp.optical = -std::log(std::max(1.0f - std::clamp(hp.shadow_alpha, 0.0f, 0.999f), 1e-3f));
            sp.root_half_width_m = hp.root_half_width_m * widen;
            sp.tip_half_width_m = hp.tip_half_width_m * widen;
            vkCmdPushConstants(c, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(sp), &sp);
            auto ds = gpu::dispatch_size(cmd.device(), uint64_t(splatted) * d.vertices_per_strand, 64);
            vkCmdDispatch(c, ds.x, ds.y, ds.z);
        }
    };
    {
        auto span = ctx.time("shadow_depth");
        // Last frame's reads of the maps and buffers before this frame's writes.
        barrier(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
        vkCmdFillBuffer(c, depth_bits_.handle(), 0, VK_WHOLE_SIZE, 0x3f800000u);   // 1.0f: no hair
        vkCmdFillBuffer(c, layers_.handle(), 0, VK_WHOLE_SIZE, 0u);
        barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        splat(gpu_shared::kShadowSplatDepth);
        barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    }
    {
        auto span = ctx.time("shadow_opacity");
        splat(gpu_shared::kShadowSplatOpacity);
        barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        // The resolve writes the opacity images in place (GENERAL) and the depth into a buffer.
        for (auto& o : opacity_) transition_image(cmd, o, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
        vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, resolve_pipe_.get());
        VkDescriptorSet rs = splat_set_.handle();
        vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 3, 1, &rs, 0, nullptr);
        vkCmdPushConstants(c, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(sp), &sp);
        auto ds = gpu::dispatch_size(cmd.device(), uint64_t(size_) * size_, 64);
        vkCmdDispatch(c, ds.x, ds.y, ds.z);
        barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
        transition_image(cmd, depth_.image(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_ASPECT_DEPTH_BIT);
        VkBufferImageCopy r{};
        r.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        r.imageExtent = {size_, size_, 1};
        vkCmdCopyBufferToImage(c, depth_out_.handle(), depth_.image().handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
        transition_image(cmd, depth_.image(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         VK_IMAGE_ASPECT_DEPTH_BIT);
        for (auto& o : opacity_) transition_image(cmd, o, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }
    return {};
}

ShadowPass::Inputs ShadowPass::inputs_of(const FrameContext& ctx) {
    Inputs in;
    in.key = ctx.frame.lighting.key;
    in.shadows = ctx.frame.shadows;
    in.layer_m = ctx.frame.shadow_layer_m;
    in.meshes = ctx.scene.meshes().size();
    for (auto& g : ctx.scene.hair()) {
        const HairDesc& d = g->desc;
        in.groups.push_back({d.positions ? d.positions->handle() : VK_NULL_HANDLE, d.strand_count,
                             d.vertices_per_strand, d.shading, d.bounds_min_m, d.bounds_max_m, d.visible});
    }
    return in;
}

Status ShadowPass::record_offscreen(FrameContext& ctx) {
    Inputs in = inputs_of(ctx);
    if (!ctx.frame.hair_moved && have_maps_ && in == last_) {
        // The maps of the last frame still hold: the spans stay (with nothing in them) for the Stats panel.
        { auto span = ctx.time("shadow_depth"); }
        { auto span = ctx.time("shadow_opacity"); }
        return {};
    }
    last_ = std::move(in);
    have_maps_ = true;
    if (compute_) return record_compute(ctx);
    VkCommandBuffer c = ctx.cmd.handle();
    const bool shadows = ctx.frame.shadows;
    {
        auto span = ctx.time("shadow_depth");
        depth_.begin(ctx.cmd);
        if (shadows) draw_strands(ctx, depth_pipe_.get());
        depth_.end(ctx.cmd);
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
