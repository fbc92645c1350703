#include "render/main_target.h"

#include <vector>

#include "render/render_resources.h"

namespace tressel::render {

Result<MainTarget> MainTarget::create(gpu::Device& device, VkSampleCountFlagBits samples, uint32_t width,
                                      uint32_t height) {
    MainTarget t;
    t.device_ = &device;
    t.samples_ = samples;
    std::vector<AttachmentSpec> colors, resolves;
    AttachmentSpec depth{kDepthFormat, samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                         VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    if (samples > VK_SAMPLE_COUNT_1_BIT) {
        colors.push_back({kColorFormat, samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
        resolves.push_back({kColorFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                            VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
    } else {
        colors.push_back({kColorFormat, samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
    }
    auto pass = create_render_pass(device, colors, &depth, resolves);
    if (!pass) return pass.error();
    t.pass_ = std::move(*pass);
    TRESSEL_TRY(t.resize(width, height));
    return t;
}

Status MainTarget::resize(uint32_t width, uint32_t height) {
    gpu::Device& dev = *device_;
    width_ = width;
    height_ = height;
    gpu::ImageDesc rd;
    rd.width = width_;
    rd.height = height_;
    rd.format = kColorFormat;
    rd.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    rd.name = "render target";
    auto resolved = dev.create_image(rd);
    if (!resolved) return resolved.error();
    resolved_ = std::move(*resolved);
    if (samples_ > VK_SAMPLE_COUNT_1_BIT) {
        gpu::ImageDesc cd = rd;
        cd.samples = samples_;
        cd.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
        cd.name = "render target (msaa)";
        auto c = dev.create_image(cd);
        if (!c) return c.error();
        color_msaa_ = std::move(*c);
    } else {
        color_msaa_ = gpu::Image();
    }
    gpu::ImageDesc dd = rd;
    dd.samples = samples_;
    dd.format = kDepthFormat;
    dd.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
    dd.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    dd.name = "render depth";
    auto d = dev.create_image(dd);
    if (!d) return d.error();
    depth_ = std::move(*d);
    std::vector<VkImageView> views;
    if (samples_ > VK_SAMPLE_COUNT_1_BIT) views = {color_msaa_.view(), depth_.view(), resolved_.view()};
    else views = {resolved_.view(), depth_.view()};
    auto fb = create_framebuffer(dev, pass_.get(), views, width_, height_);
    if (!fb) return fb.error();
    framebuffer_ = std::move(*fb);
    gpu::BufferDesc bd;
    bd.size = VkDeviceSize(width_) * height_ * 4;
    bd.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bd.intent = gpu::MemoryIntent::Readback;
    bd.name = "render readback";
    auto rb = dev.create_buffer(bd);
    if (!rb) return rb.error();
    readback_ = std::move(*rb);
    return {};
}

void MainTarget::begin(gpu::CommandBuffer& cmd, glm::vec3 background) const {
    VkClearValue clear[3]{};
    clear[0].color = {{background.r, background.g, background.b, 1.0f}};
    clear[1].depthStencil = {1.0f, 0};
    clear[2].color = clear[0].color;
    VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    bi.renderPass = pass_.get();
    bi.framebuffer = framebuffer_.get();
    bi.renderArea = {{0, 0}, {width_, height_}};
    bi.clearValueCount = samples_ > VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
    bi.pClearValues = clear;
    vkCmdBeginRenderPass(cmd.handle(), &bi, VK_SUBPASS_CONTENTS_INLINE);
    set_viewport(cmd.handle(), width_, height_);
}

void MainTarget::end(gpu::CommandBuffer& cmd) const { vkCmdEndRenderPass(cmd.handle()); }

}  // namespace tressel::render
