// Graphics-pipeline pieces the renderer needs on top of engine/gpu/device.h: owning handles for render
// passes, framebuffers, samplers, descriptor set layouts and graphics pipelines (destroyed through the
// device's deferred destruction and counted in Device::live_objects()), pipeline creation from embedded
// SPIR-V, and image layout transitions / image -> buffer copies.
//
// Every pipeline pulls its vertices from storage buffers (no vertex input state) and uses dynamic
// viewport and scissor.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpu/device.h"
#include "shared/render_bindings.h"

namespace tressel::render {

// A Vulkan handle destroyed by `Destroy` once the GPU is done with it.
template <class T, void (*Destroy)(VkDevice, T, const VkAllocationCallbacks*)>
class Owned {
public:
    Owned() = default;
    Owned(gpu::Device& device, T handle) : device_(&device), handle_(handle) { device.note_object(+1); }
    Owned(Owned&& o) noexcept { *this = std::move(o); }
    Owned& operator=(Owned&& o) noexcept {
        if (this != &o) {
            release();
            device_ = std::exchange(o.device_, nullptr);
            handle_ = std::exchange(o.handle_, T(VK_NULL_HANDLE));
        }
        return *this;
    }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    ~Owned() { release(); }
    T get() const { return handle_; }
    bool valid() const { return handle_ != T(VK_NULL_HANDLE); }
    void release() {
        if (!device_) return;
        VkDevice d = device_->device();
        T h = handle_;
        device_->retire([d, h] { Destroy(d, h, nullptr); });
        device_ = nullptr;
        handle_ = T(VK_NULL_HANDLE);
    }

private:
    gpu::Device* device_ = nullptr;
    T handle_ = T(VK_NULL_HANDLE);
};

using RenderPass = Owned<VkRenderPass, vkDestroyRenderPass>;
using Framebuffer = Owned<VkFramebuffer, vkDestroyFramebuffer>;
using Sampler = Owned<VkSampler, vkDestroySampler>;
using SetLayout = Owned<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using PipelineLayout = Owned<VkPipelineLayout, vkDestroyPipelineLayout>;
using Pipeline = Owned<VkPipeline, vkDestroyPipeline>;

struct BindingDesc {
    VkDescriptorType type;
    VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
};

Result<SetLayout> create_set_layout(gpu::Device& device, std::span<const BindingDesc> bindings);

// A descriptor set layout made from one of the binding tables of shared/render_bindings.h, which it keeps
// to allocate its sets with the types those bindings declare.
class DescriptorLayout {
public:
    static Result<DescriptorLayout> create(gpu::Device& device, std::span<const gpu_shared::RenderBinding> table,
                                           std::string name);
    DescriptorLayout() = default;
    VkDescriptorSetLayout get() const { return layout_.get(); }
    // A new set of this layout, nothing bound yet.
    Result<gpu::DescriptorSet> allocate() const;

private:
    gpu::Device* device_ = nullptr;
    SetLayout layout_;
    std::span<const gpu_shared::RenderBinding> table_;
    std::string name_;
};
Result<Sampler> create_sampler(gpu::Device& device, VkFilter filter, VkSamplerAddressMode address);
// One attachment of a single-subpass render pass; it starts UNDEFINED (its contents are not kept).
struct AttachmentSpec {
    VkFormat format;
    VkSampleCountFlagBits samples;
    VkAttachmentLoadOp load;
    VkAttachmentStoreOp store;
    VkImageLayout final_layout;
};

// One subpass: colour attachments, an optional depth attachment and optional resolve attachments (one
// per colour attachment), with dependencies that order it after and before any earlier / later use.
Result<RenderPass> create_render_pass(gpu::Device& device, std::span<const AttachmentSpec> colors,
                                      const AttachmentSpec* depth, std::span<const AttachmentSpec> resolves);

// A single-sample D32 depth image with its depth-only render pass and framebuffer: cleared to 1 at
// begin(), left in SHADER_READ_ONLY_OPTIMAL at end() for sampling (the key light's hair depth, the compute
// rasterizer's mesh depth). The image starts in SHADER_READ_ONLY_OPTIMAL too.
class DepthTarget {
public:
    static Result<DepthTarget> create(gpu::Device& device, uint32_t width, uint32_t height,
                                      VkImageUsageFlags extra_usage, std::string name);
    DepthTarget() = default;
    // A new image and framebuffer of width x height (the render pass, hence pipelines made for it, stays).
    Status resize(uint32_t width, uint32_t height);
    // Begins the render pass with the viewport over the whole image.
    void begin(gpu::CommandBuffer& cmd) const;
    void end(gpu::CommandBuffer& cmd) const;
    VkRenderPass render_pass() const { return pass_.get(); }
    const gpu::Image& image() const { return image_; }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }

private:
    gpu::Device* device_ = nullptr;
    VkImageUsageFlags usage_ = 0;
    std::string name_;
    uint32_t width_ = 0, height_ = 0;
    RenderPass pass_;
    gpu::Image image_;
    Framebuffer framebuffer_;
};

// Viewport and scissor over [0, width) x [0, height) pixels (every pipeline has them dynamic).
void set_viewport(VkCommandBuffer cmd, uint32_t width, uint32_t height);

Result<Framebuffer> create_framebuffer(gpu::Device& device, VkRenderPass pass, std::span<const VkImageView> views,
                                       uint32_t width, uint32_t height);

enum class Blend { None, Alpha, Additive, Premultiplied };   // Premultiplied: src + dst (1 - src alpha)

struct GraphicsPipelineDesc {
    std::string vertex_shader;       // name under shaders/, e.g. "render/mesh.vert"
    std::string fragment_shader;     // "" = no fragment stage (depth only)
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkRenderPass render_pass = VK_NULL_HANDLE;
    uint32_t color_attachments = 1;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
    VkCullModeFlags cull = VK_CULL_MODE_NONE;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    bool alpha_to_coverage = false;
    bool depth_test = true, depth_write = true;
    float depth_bias_slope = 0.0f;   // > 0 enables depth bias (translucent overlays and wireframes)
    Blend blend = Blend::None;
    bool color_write = true;         // false: depth only in a pass with colour attachments
    std::string name;
};

Result<Pipeline> create_graphics_pipeline(gpu::Device& device, const GraphicsPipelineDesc& desc);

Result<PipelineLayout> create_pipeline_layout(gpu::Device& device, std::span<const VkDescriptorSetLayout> sets,
                                              uint32_t push_bytes,
                                              VkShaderStageFlags push_stages = VK_SHADER_STAGE_VERTEX_BIT |
                                                                               VK_SHADER_STAGE_FRAGMENT_BIT);

// A compute pipeline from the embedded shader `shader` (e.g. "render/raster_tiles.comp") with `layout`
// (the renderer's own set layouts, unlike gpu::ComputePipeline's single set).
Result<Pipeline> create_compute_pipeline(gpu::Device& device, const std::string& shader, VkPipelineLayout layout);

// Full-subresource layout transition of a colour image with a conservative (all commands) barrier.
void transition_image(gpu::CommandBuffer& cmd, const gpu::Image& image, VkImageLayout from, VkImageLayout to,
                      VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT);
// Copies a 2D colour image (in TRANSFER_SRC_OPTIMAL) into a tightly packed buffer.
void copy_image_to_buffer(gpu::CommandBuffer& cmd, const gpu::Image& image, gpu::Buffer& buffer);
// Copies a tightly packed buffer into a 2D colour image (in TRANSFER_DST_OPTIMAL).
void copy_buffer_to_image(gpu::CommandBuffer& cmd, const gpu::Buffer& buffer, const gpu::Image& image);

// Uploads RGBA pixels (bytes_per_pixel x width x height) into a new sampled image, left in
// SHADER_READ_ONLY_OPTIMAL.
Result<gpu::Image> upload_texture(gpu::Device& device, VkFormat format, uint32_t width, uint32_t height,
                                  const void* pixels, size_t bytes, const std::string& name);

}  // namespace tressel::render
