#include "render/graphics.h"

#include <array>
#include <cstring>

#include "gpu/vk_error.h"
#include "shared/embedded_shaders.h"

namespace tressel::render {

Result<SetLayout> create_set_layout(gpu::Device& device, std::span<const BindingDesc> bindings) {
    std::vector<VkDescriptorSetLayoutBinding> b(bindings.size());
    for (uint32_t i = 0; i < bindings.size(); ++i) {
        b[i].binding = i;
        b[i].descriptorType = bindings[i].type;
        b[i].descriptorCount = 1;
        b[i].stageFlags = bindings[i].stages;
    }
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.bindingCount = static_cast<uint32_t>(b.size());
    ci.pBindings = b.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateDescriptorSetLayout(device.device(), &ci, nullptr, &layout), "create a descriptor set layout");
    return SetLayout(device, layout);
}

Result<DescriptorLayout> DescriptorLayout::create(gpu::Device& device,
                                                  std::span<const gpu_shared::RenderBinding> table, std::string name) {
    std::vector<VkDescriptorSetLayoutBinding> b(table.size());
    for (size_t i = 0; i < table.size(); ++i) {
        TRESSEL_ASSERT(table[i].binding == i, "binding tables in shared/render_bindings.h list bindings 0, 1, 2, ... in order");
        b[i].binding = table[i].binding;
        b[i].descriptorType = table[i].type;
        b[i].descriptorCount = 1;
        b[i].stageFlags = table[i].stages;
    }
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.bindingCount = static_cast<uint32_t>(b.size());
    ci.pBindings = b.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateDescriptorSetLayout(device.device(), &ci, nullptr, &layout),
                   "create the descriptor set layout '" + name + "'");
    DescriptorLayout out;
    out.device_ = &device;
    out.layout_ = SetLayout(device, layout);
    out.table_ = table;
    out.name_ = std::move(name);
    return out;
}

Result<gpu::DescriptorSet> DescriptorLayout::allocate() const {
    TRESSEL_ASSERT(device_, "DescriptorLayout::allocate: the layout was never created (DescriptorLayout::create)");
    std::vector<VkDescriptorType> types;
    for (const auto& b : table_) types.push_back(b.type);
    return device_->create_descriptor_set(layout_.get(), std::move(types));
}

Result<Sampler> create_sampler(gpu::Device& device, VkFilter filter, VkSamplerAddressMode address) {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = ci.minFilter = filter;
    ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    ci.addressModeU = ci.addressModeV = ci.addressModeW = address;
    ci.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    ci.maxLod = 0.0f;
    VkSampler s = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateSampler(device.device(), &ci, nullptr, &s), "create a sampler");
    return Sampler(device, s);
}

Result<RenderPass> create_render_pass(gpu::Device& device, std::span<const AttachmentSpec> colors,
                                      const AttachmentSpec* depth, std::span<const AttachmentSpec> resolves) {
    std::vector<VkAttachmentDescription> att;
    std::vector<VkAttachmentReference> color_refs, resolve_refs;
    VkAttachmentReference depth_ref{};
    auto add = [&](const AttachmentSpec& s) {
        VkAttachmentDescription d{};
        d.format = s.format;
        d.samples = s.samples;
        d.loadOp = s.load;
        d.storeOp = s.store;
        d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        d.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        d.finalLayout = s.final_layout;
        att.push_back(d);
        return static_cast<uint32_t>(att.size() - 1);
    };
    for (auto& c : colors) color_refs.push_back({add(c), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
    if (depth) depth_ref = {add(*depth), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    for (auto& r : resolves) resolve_refs.push_back({add(r), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
    VkSubpassDescription sub{};
    sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    sub.colorAttachmentCount = static_cast<uint32_t>(color_refs.size());
    sub.pColorAttachments = color_refs.data();
    sub.pResolveAttachments = resolve_refs.empty() ? nullptr : resolve_refs.data();
    sub.pDepthStencilAttachment = depth ? &depth_ref : nullptr;
    const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                        VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                        VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    const VkAccessFlags access = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                                 VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                 VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    VkSubpassDependency deps[2]{};
    deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    deps[0].dstSubpass = 0;
    deps[0].srcStageMask = stages | VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                            VK_ACCESS_TRANSFER_WRITE_BIT;
    deps[0].dstStageMask = stages;
    deps[0].dstAccessMask = access;
    deps[1].srcSubpass = 0;
    deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    deps[1].dstStageMask =
        VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[1].dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    ci.attachmentCount = static_cast<uint32_t>(att.size());
    ci.pAttachments = att.data();
    ci.subpassCount = 1;
    ci.pSubpasses = &sub;
    ci.dependencyCount = 2;
    ci.pDependencies = deps;
    VkRenderPass pass = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateRenderPass(device.device(), &ci, nullptr, &pass), "create a render pass");
    return RenderPass(device, pass);
}

Result<DepthTarget> DepthTarget::create(gpu::Device& device, uint32_t width, uint32_t height,
                                        VkImageUsageFlags extra_usage, std::string name) {
    DepthTarget t;
    t.device_ = &device;
    t.usage_ = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | extra_usage;
    t.name_ = std::move(name);
    AttachmentSpec depth{VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                         VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    auto pass = create_render_pass(device, {}, &depth, {});
    if (!pass) return pass.error();
    t.pass_ = std::move(*pass);
    TRESSEL_TRY(t.resize(width, height));
    return t;
}

Status DepthTarget::resize(uint32_t width, uint32_t height) {
    gpu::ImageDesc id;
    id.width = width;
    id.height = height;
    id.format = VK_FORMAT_D32_SFLOAT;
    id.usage = usage_;
    id.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    id.name = name_;
    auto image = device_->create_image(id);
    if (!image) return image.error();
    VkImageView views[] = {image->view()};
    auto fb = create_framebuffer(*device_, pass_.get(), views, width, height);
    if (!fb) return fb.error();
    image_ = std::move(*image);
    framebuffer_ = std::move(*fb);
    width_ = width;
    height_ = height;
    return device_->run_sync([&](gpu::CommandBuffer& cmd) {
        transition_image(cmd, image_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         VK_IMAGE_ASPECT_DEPTH_BIT);
    });
}

void DepthTarget::begin(gpu::CommandBuffer& cmd) const {
    VkClearValue clear{};
    clear.depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    bi.renderPass = pass_.get();
    bi.framebuffer = framebuffer_.get();
    bi.renderArea = {{0, 0}, {width_, height_}};
    bi.clearValueCount = 1;
    bi.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd.handle(), &bi, VK_SUBPASS_CONTENTS_INLINE);
    set_viewport(cmd.handle(), width_, height_);
}

void DepthTarget::end(gpu::CommandBuffer& cmd) const { vkCmdEndRenderPass(cmd.handle()); }

void set_viewport(VkCommandBuffer cmd, uint32_t w, uint32_t h) {
    VkViewport vp{0.0f, 0.0f, float(w), float(h), 0.0f, 1.0f};
    VkRect2D sc{{0, 0}, {w, h}};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &sc);
}

Result<Framebuffer> create_framebuffer(gpu::Device& device, VkRenderPass pass, std::span<const VkImageView> views,
                                       uint32_t width, uint32_t height) {
    VkFramebufferCreateInfo ci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    ci.renderPass = pass;
    ci.attachmentCount = static_cast<uint32_t>(views.size());
    ci.pAttachments = views.data();
    ci.width = width;
    ci.height = height;
    ci.layers = 1;
    VkFramebuffer fb = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateFramebuffer(device.device(), &ci, nullptr, &fb), "create a framebuffer");
    return Framebuffer(device, fb);
}

Result<PipelineLayout> create_pipeline_layout(gpu::Device& device, std::span<const VkDescriptorSetLayout> sets,
                                              uint32_t push_bytes, VkShaderStageFlags push_stages) {
    VkPushConstantRange range{push_stages, 0, push_bytes};
    VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ci.setLayoutCount = static_cast<uint32_t>(sets.size());
    ci.pSetLayouts = sets.data();
    ci.pushConstantRangeCount = push_bytes ? 1 : 0;
    ci.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreatePipelineLayout(device.device(), &ci, nullptr, &layout), "create a pipeline layout");
    return PipelineLayout(device, layout);
}

namespace {

struct ShaderModule {
    VkDevice device = VK_NULL_HANDLE;
    VkShaderModule module = VK_NULL_HANDLE;
    ~ShaderModule() {
        if (module) vkDestroyShaderModule(device, module, nullptr);
    }
};

Status load_module(VkDevice device, const std::string& name, ShaderModule& out) {
    auto spirv = embedded_spirv(name);
    if (spirv.empty())
        return make_error(ErrorCode::NotFound, "shader '" + name + "' is not compiled into this binary (shaders/CMakeLists.txt)");
    VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = spirv.size_bytes();
    ci.pCode = spirv.data();
    out.device = device;
    TRESSEL_VK_TRY(vkCreateShaderModule(device, &ci, nullptr, &out.module), "create shader module " + name);
    return {};
}

}  // namespace

Result<Pipeline> create_graphics_pipeline(gpu::Device& device, const GraphicsPipelineDesc& desc) {
    ShaderModule vs, fs;
    TRESSEL_TRY(load_module(device.device(), desc.vertex_shader, vs));
    std::vector<VkPipelineShaderStageCreateInfo> stages;
    VkPipelineShaderStageCreateInfo st{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    st.stage = VK_SHADER_STAGE_VERTEX_BIT;
    st.module = vs.module;
    st.pName = "main";
    stages.push_back(st);
    if (!desc.fragment_shader.empty()) {
        TRESSEL_TRY(load_module(device.device(), desc.fragment_shader, fs));
        st.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
        st.module = fs.module;
        stages.push_back(st);
    }

    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = desc.topology;
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = 1;
    vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = desc.polygon_mode;
    rs.cullMode = desc.cull;
    rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    rs.lineWidth = 1.0f;
    if (desc.depth_bias_slope > 0.0f) {
        rs.depthBiasEnable = VK_TRUE;
        rs.depthBiasConstantFactor = -1.0f;
        rs.depthBiasSlopeFactor = -desc.depth_bias_slope;
    }
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = desc.samples;
    ms.alphaToCoverageEnable = desc.alpha_to_coverage ? VK_TRUE : VK_FALSE;
    VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.depthTestEnable = desc.depth_test;
    ds.depthWriteEnable = desc.depth_write;
    ds.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    std::vector<VkPipelineColorBlendAttachmentState> blends(desc.color_attachments);
    for (auto& b : blends) {
        b = {};
        b.colorWriteMask = desc.color_write ? 0xfu : 0u;
        if (desc.blend == Blend::Alpha) {
            b.blendEnable = VK_TRUE;
            b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
            b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
            b.colorBlendOp = VK_BLEND_OP_ADD;
            b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
            b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
            b.alphaBlendOp = VK_BLEND_OP_ADD;
        } else if (desc.blend == Blend::Premultiplied) {
            b.blendEnable = VK_TRUE;
            b.srcColorBlendFactor = b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
            b.dstColorBlendFactor = b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
            b.colorBlendOp = b.alphaBlendOp = VK_BLEND_OP_ADD;
        } else if (desc.blend == Blend::Additive) {
            b.blendEnable = VK_TRUE;
            b.srcColorBlendFactor = b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
            b.srcAlphaBlendFactor = b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
            b.colorBlendOp = b.alphaBlendOp = VK_BLEND_OP_ADD;
        }
    }
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = desc.color_attachments;
    cb.pAttachments = blends.data();
    std::array<VkDynamicState, 2> dyn{VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dy.dynamicStateCount = static_cast<uint32_t>(dyn.size());
    dy.pDynamicStates = dyn.data();

    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    ci.stageCount = static_cast<uint32_t>(stages.size());
    ci.pStages = stages.data();
    ci.pVertexInputState = &vi;
    ci.pInputAssemblyState = &ia;
    ci.pViewportState = &vp;
    ci.pRasterizationState = &rs;
    ci.pMultisampleState = &ms;
    ci.pDepthStencilState = &ds;
    ci.pColorBlendState = &cb;
    ci.pDynamicState = &dy;
    ci.layout = desc.layout;
    ci.renderPass = desc.render_pass;
    VkPipeline p = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateGraphicsPipelines(device.device(), VK_NULL_HANDLE, 1, &ci, nullptr, &p),
                   "create graphics pipeline '" + desc.name + "'");
    return Pipeline(device, p);
}

void transition_image(gpu::CommandBuffer& cmd, const gpu::Image& image, VkImageLayout from, VkImageLayout to,
                      VkImageAspectFlags aspect) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image.handle();
    b.subresourceRange = {aspect, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd.handle(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                         nullptr, 0, nullptr, 1, &b);
}

void copy_image_to_buffer(gpu::CommandBuffer& cmd, const gpu::Image& image, gpu::Buffer& buffer) {
    VkBufferImageCopy r{};
    r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    r.imageExtent = image.extent();
    vkCmdCopyImageToBuffer(cmd.handle(), image.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer.handle(), 1, &r);
}

void copy_buffer_to_image(gpu::CommandBuffer& cmd, const gpu::Buffer& buffer, const gpu::Image& image) {
    VkBufferImageCopy r{};
    r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    r.imageExtent = image.extent();
    vkCmdCopyBufferToImage(cmd.handle(), buffer.handle(), image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
}

Result<gpu::Image> upload_texture(gpu::Device& device, VkFormat format, uint32_t width, uint32_t height,
                                  const void* pixels, size_t bytes, const std::string& name) {
    gpu::ImageDesc id;
    id.width = width;
    id.height = height;
    id.format = format;
    id.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    id.name = name;
    auto image = device.create_image(id);
    if (!image) return image.error();
    gpu::BufferDesc bd;
    bd.size = bytes;
    bd.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    bd.intent = gpu::MemoryIntent::Upload;
    bd.name = name + " staging";
    auto staging = device.create_buffer(bd);
    if (!staging) return staging.error();
    std::memcpy(staging->mapped(), pixels, bytes);
    TRESSEL_TRY(device.run_sync([&](gpu::CommandBuffer& cmd) {
        transition_image(cmd, *image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        copy_buffer_to_image(cmd, *staging, *image);
        transition_image(cmd, *image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }));
    return image;
}

Result<Pipeline> create_compute_pipeline(gpu::Device& device, const std::string& shader, VkPipelineLayout layout) {
    ShaderModule cs;
    TRESSEL_TRY(load_module(device.device(), shader, cs));
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = cs.module;
    ci.stage.pName = "main";
    ci.layout = layout;
    VkPipeline pipe = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateComputePipelines(device.device(), VK_NULL_HANDLE, 1, &ci, nullptr, &pipe),
                   "create compute pipeline " + shader);
    return Pipeline(device, pipe);
}

}  // namespace tressel::render
