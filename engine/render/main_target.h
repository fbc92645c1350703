// The main target every pass's record_main() draws into: MSAA colour and depth, resolved into the sRGB
// image that the editor shows (Renderer::color_image()) and headless callers read back.
#pragma once

#include <cstdint>

#include <glm/glm.hpp>

#include "core/result.h"
#include "gpu/device.h"
#include "render/graphics.h"

namespace tressel::render {

class MainTarget {
public:
    // The render pass for `samples` (1, 2, 4 or 8) and images of width x height pixels.
    static Result<MainTarget> create(gpu::Device& device, VkSampleCountFlagBits samples, uint32_t width,
                                     uint32_t height);
    MainTarget() = default;

    // New images and framebuffer (the render pass, hence every pipeline, stays). Sizes checked by the caller.
    Status resize(uint32_t width, uint32_t height);

    // Begins the render pass: colour cleared to `background` (linear RGB, alpha 1), depth to 1; viewport
    // and scissor over the whole target.
    void begin(gpu::CommandBuffer& cmd, glm::vec3 background) const;
    // Ends it: the resolved image is in SHADER_READ_ONLY_OPTIMAL.
    void end(gpu::CommandBuffer& cmd) const;

    VkRenderPass render_pass() const { return pass_.get(); }
    VkSampleCountFlagBits samples() const { return samples_; }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }
    const gpu::Image& resolved() const { return resolved_; }
    // Host-visible, width x height x 4 bytes: where render_to_rgba copies the resolved image.
    const gpu::Buffer& readback() const { return readback_; }
    gpu::Buffer& readback() { return readback_; }

private:
    gpu::Device* device_ = nullptr;
    VkSampleCountFlagBits samples_ = VK_SAMPLE_COUNT_1_BIT;
    uint32_t width_ = 0, height_ = 0;
    RenderPass pass_;
    gpu::Image color_msaa_, depth_, resolved_;
    Framebuffer framebuffer_;
    gpu::Buffer readback_;
};

}  // namespace tressel::render
