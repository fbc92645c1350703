#include "render/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>

#include "gpu/vk_error.h"
#include "shared/render.h"

namespace tressel::render {

using gpu_shared::FrameUniforms;
using gpu_shared::HairPush;
using gpu_shared::MeshPush;
using gpu_shared::MeshVertex;

struct HairGroupGpu {
    HairDesc desc;
    gpu::DescriptorSet strands;   // set kRenderSetStrands
    gpu::DescriptorSet shading;   // set kRenderSetHairShading
    gpu::Image lut_m, lut_n, lut_trt;
    std::optional<MarschnerParams> lut_params;
};

namespace {

constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkFormat kOpacityFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
constexpr uint32_t kMaxExtent = 16384;

struct AttachmentSpec {
    VkFormat format;
    VkSampleCountFlagBits samples;
    VkAttachmentLoadOp load;
    VkAttachmentStoreOp store;
    VkImageLayout final_layout;
};

// One subpass: colour attachments, an optional depth attachment and optional resolve attachments (one
// per colour attachment), with dependencies that order it after and before any earlier / later use.
Result<RenderPass> make_render_pass(gpu::Device& device, const std::vector<AttachmentSpec>& colors,
                                    const AttachmentSpec* depth, const std::vector<AttachmentSpec>& resolves) {
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
    deps[1].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
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

void set_viewport(VkCommandBuffer cmd, uint32_t w, uint32_t h) {
    VkViewport vp{0.0f, 0.0f, float(w), float(h), 0.0f, 1.0f};
    VkRect2D sc{{0, 0}, {w, h}};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &sc);
}

Result<gpu::Image> upload_rgba_f16(gpu::Device& device, const std::vector<glm::vec4>& texels, int size,
                                   const std::string& name) {
    std::vector<uint16_t> half(texels.size() * 4);
    for (size_t i = 0; i < texels.size(); ++i)
        for (int c = 0; c < 4; ++c) half[i * 4 + c] = glm::packHalf1x16(texels[i][c]);
    return upload_texture(device, VK_FORMAT_R16G16B16A16_SFLOAT, uint32_t(size), uint32_t(size), half.data(),
                          half.size() * 2, name);
}

}  // namespace

glm::vec3 toward_light(const Light& light) {
    glm::dvec3 d = -light.direction;
    double len = glm::length(d);
    return len > 0.0 ? glm::vec3(d / len) : glm::vec3(0.0f, 1.0f, 0.0f);
}

Result<std::unique_ptr<Renderer>> Renderer::create(gpu::Device& device, const RendererDesc& desc) {
    std::unique_ptr<Renderer> r(new Renderer());
    TRESSEL_TRY(r->init(device, desc));
    return r;
}

Renderer::~Renderer() = default;

Status Renderer::init(gpu::Device& device, const RendererDesc& desc) {
    device_ = &device;
    desc_ = desc;
    if (desc.width == 0 || desc.height == 0 || desc.width > kMaxExtent || desc.height > kMaxExtent)
        return make_error(ErrorCode::InvalidArgument, "renderer: width and height must be in [1, 16384] pixels");
    if (desc.shadow_size < 16 || desc.shadow_size > 8192)
        return make_error(ErrorCode::InvalidArgument, "renderer: shadow_size must be in [16, 8192] texels");
    if (desc.marschner_lut_size < 8 || desc.marschner_lut_size > 512)
        return make_error(ErrorCode::InvalidArgument, "renderer: marschner_lut_size must be in [8, 512]");

    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(device.physical_device(), &props);
    VkSampleCountFlags counts =
        props.limits.framebufferColorSampleCounts & props.limits.framebufferDepthSampleCounts;
    samples_ = 1;
    for (uint32_t s : {8u, 4u, 2u})
        if (s <= desc.samples && (counts & s)) {
            samples_ = s;
            break;
        }
    VkPhysicalDeviceFeatures features;
    vkGetPhysicalDeviceFeatures(device.physical_device(), &features);
    wireframe_supported_ = features.fillModeNonSolid == VK_TRUE;
    auto samples = static_cast<VkSampleCountFlagBits>(samples_);

    auto lin = create_sampler(device, VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
    if (!lin) return lin.error();
    linear_clamp_ = std::move(*lin);
    auto near = create_sampler(device, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
    if (!near) return near.error();
    nearest_clamp_ = std::move(*near);

    auto fl = DescriptorLayout::create(device, gpu_shared::kFrameSetBindings, "frame");
    if (!fl) return fl.error();
    frame_layout_ = std::move(*fl);
    auto sl = DescriptorLayout::create(device, gpu_shared::kStrandSetBindings, "strands");
    if (!sl) return sl.error();
    strand_layout_ = std::move(*sl);
    auto hl = DescriptorLayout::create(device, gpu_shared::kHairShadingSetBindings, "hair shading");
    if (!hl) return hl.error();
    hair_shading_layout_ = std::move(*hl);
    auto ol = DescriptorLayout::create(device, gpu_shared::kObjectSetBindings, "object");
    if (!ol) return ol.error();
    object_layout_ = std::move(*ol);
    static_assert(gpu_shared::kRenderSetFrame == 0 && gpu_shared::kRenderSetStrands == 1 &&
                  gpu_shared::kRenderSetHairShading == 2 && gpu_shared::kRenderSetObject == 1);
    VkDescriptorSetLayout hair_sets[] = {frame_layout_.get(), strand_layout_.get(), hair_shading_layout_.get()};
    auto hpl = create_pipeline_layout(device, hair_sets, sizeof(HairPush));
    if (!hpl) return hpl.error();
    hair_pl_ = std::move(*hpl);
    VkDescriptorSetLayout object_sets[] = {frame_layout_.get(), object_layout_.get()};
    auto opl = create_pipeline_layout(device, object_sets, sizeof(MeshPush));
    if (!opl) return opl.error();
    object_pl_ = std::move(*opl);

    // Render passes.
    {
        std::vector<AttachmentSpec> colors, resolves;
        AttachmentSpec depth{kDepthFormat, samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                             VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
        if (samples_ > 1) {
            colors.push_back({kColorFormat, samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
            resolves.push_back({kColorFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
        } else {
            colors.push_back({kColorFormat, samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
        }
        auto p = make_render_pass(device, colors, &depth, resolves);
        if (!p) return p.error();
        main_pass_ = std::move(*p);
        AttachmentSpec sdepth{kDepthFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                              VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        auto sp = make_render_pass(device, {}, &sdepth, {});
        if (!sp) return sp.error();
        shadow_depth_pass_ = std::move(*sp);
        AttachmentSpec op{kOpacityFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                          VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        auto opp = make_render_pass(device, {op, op}, nullptr, {});
        if (!opp) return opp.error();
        opacity_pass_ = std::move(*opp);
    }

    // Pipelines.
    auto make = [&](Pipeline& out, GraphicsPipelineDesc d) -> Status {
        auto p = create_graphics_pipeline(device, d);
        if (!p) return p.error();
        out = std::move(*p);
        return {};
    };
    GraphicsPipelineDesc hair;
    hair.vertex_shader = "render/hair.vert";
    hair.fragment_shader = "render/hair.frag";
    hair.layout = hair_pl_.get();
    hair.render_pass = main_pass_.get();
    hair.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    hair.samples = samples;
    hair.alpha_to_coverage = samples_ > 1;
    hair.blend = samples_ > 1 ? Blend::None : Blend::Alpha;
    hair.name = "hair";
    TRESSEL_TRY(make(hair_pipe_, hair));
    GraphicsPipelineDesc hd = hair;
    hd.fragment_shader = "";
    hd.render_pass = shadow_depth_pass_.get();
    hd.color_attachments = 0;
    hd.samples = VK_SAMPLE_COUNT_1_BIT;
    hd.alpha_to_coverage = false;
    hd.blend = Blend::None;
    hd.name = "hair shadow depth";
    TRESSEL_TRY(make(hair_depth_pipe_, hd));
    GraphicsPipelineDesc ho = hd;
    ho.fragment_shader = "render/hair_opacity.frag";
    ho.render_pass = opacity_pass_.get();
    ho.color_attachments = 2;
    ho.depth_test = ho.depth_write = false;
    ho.blend = Blend::Additive;
    ho.name = "hair opacity";
    TRESSEL_TRY(make(hair_opacity_pipe_, ho));
    GraphicsPipelineDesc mesh;
    mesh.vertex_shader = "render/mesh.vert";
    mesh.fragment_shader = "render/mesh.frag";
    mesh.layout = object_pl_.get();
    mesh.render_pass = main_pass_.get();
    mesh.samples = samples;
    mesh.name = "mesh";
    TRESSEL_TRY(make(mesh_pipe_, mesh));
    GraphicsPipelineDesc overlay = mesh;
    overlay.blend = Blend::Alpha;
    overlay.depth_write = false;
    overlay.depth_bias_slope = 1.0f;
    overlay.name = "overlay";
    TRESSEL_TRY(make(overlay_pipe_, overlay));
    if (wireframe_supported_) {
        GraphicsPipelineDesc wire = mesh;
        wire.polygon_mode = VK_POLYGON_MODE_LINE;
        wire.depth_write = false;
        wire.depth_bias_slope = 1.0f;
        wire.name = "wireframe";
        TRESSEL_TRY(make(wire_pipe_, wire));
    }
    GraphicsPipelineDesc line = mesh;
    line.vertex_shader = "render/line.vert";
    line.fragment_shader = "render/line.frag";
    line.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    line.blend = Blend::Alpha;
    line.depth_write = false;
    line.name = "lines";
    TRESSEL_TRY(make(line_pipe_, line));
    GraphicsPipelineDesc slice = mesh;
    slice.vertex_shader = "render/slice.vert";
    slice.fragment_shader = "render/slice.frag";
    slice.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    slice.blend = Blend::Alpha;
    slice.depth_test = false;   // the cross-section shows through the mesh it cuts
    slice.depth_write = false;
    slice.name = "sdf slice";
    TRESSEL_TRY(make(slice_pipe_, slice));

    // Frame uniforms, dummies, shadow targets (fixed size) and the frame set.
    gpu::BufferDesc ub;
    ub.size = sizeof(FrameUniforms);
    ub.usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    ub.intent = gpu::MemoryIntent::Constants;
    ub.name = "frame uniforms";
    auto ubo = device.create_buffer(ub);
    if (!ubo) return ubo.error();
    frame_ubo_ = std::move(*ubo);
    auto dummy = device.create_buffer({16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                       gpu::MemoryIntent::DeviceLocal, "render dummy"});
    if (!dummy) return dummy.error();
    dummy_buffer_ = std::move(*dummy);
    TRESSEL_TRY(device.run_sync([&](gpu::CommandBuffer& cmd) { cmd.fill(dummy_buffer_, 0u); }));
    const uint8_t white[4] = {255, 255, 255, 255};
    auto tex = upload_texture(device, kColorFormat, 1, 1, white, 4, "render dummy texture");
    if (!tex) return tex.error();
    dummy_texture_ = std::move(*tex);

    gpu::ImageDesc sd;
    sd.width = sd.height = desc.shadow_size;
    sd.format = kDepthFormat;
    sd.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    sd.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    sd.name = "hair shadow depth";
    auto sdi = device.create_image(sd);
    if (!sdi) return sdi.error();
    shadow_depth_ = std::move(*sdi);
    for (int i = 0; i < 2; ++i) {
        gpu::ImageDesc od;
        od.width = od.height = desc.shadow_size;
        od.format = kOpacityFormat;
        od.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
        od.name = "hair opacity layers";
        auto oi = device.create_image(od);
        if (!oi) return oi.error();
        opacity_[i] = std::move(*oi);
    }
    VkImageView sviews[] = {shadow_depth_.view()};
    auto sfb = create_framebuffer(device, shadow_depth_pass_.get(), sviews, desc.shadow_size, desc.shadow_size);
    if (!sfb) return sfb.error();
    shadow_depth_fb_ = std::move(*sfb);
    VkImageView oviews[] = {opacity_[0].view(), opacity_[1].view()};
    auto ofb = create_framebuffer(device, opacity_pass_.get(), oviews, desc.shadow_size, desc.shadow_size);
    if (!ofb) return ofb.error();
    opacity_fb_ = std::move(*ofb);
    // Until the first frame, the shadow images must be in the layout the frame set declares.
    TRESSEL_TRY(device.run_sync([&](gpu::CommandBuffer& cmd) {
        transition_image(cmd, shadow_depth_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         VK_IMAGE_ASPECT_DEPTH_BIT);
        for (auto& o : opacity_)
            transition_image(cmd, o, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }));

    auto fs = frame_layout_.allocate();
    if (!fs) return fs.error();
    frame_set_ = std::move(*fs);
    frame_set_.bind_buffer(gpu_shared::kRenderBindFrame, frame_ubo_);
    frame_set_.bind_image(gpu_shared::kRenderBindShadowDepth, shadow_depth_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          nearest_clamp_.get());
    frame_set_.bind_image(gpu_shared::kRenderBindOpacity0, opacity_[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          linear_clamp_.get());
    frame_set_.bind_image(gpu_shared::kRenderBindOpacity1, opacity_[1], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          linear_clamp_.get());

    width_ = desc.width;
    height_ = desc.height;
    return create_targets();
}

Status Renderer::create_targets() {
    gpu::Device& dev = *device_;
    auto samples = static_cast<VkSampleCountFlagBits>(samples_);
    gpu::ImageDesc rd;
    rd.width = width_;
    rd.height = height_;
    rd.format = kColorFormat;
    rd.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    rd.name = "render target";
    auto resolved = dev.create_image(rd);
    if (!resolved) return resolved.error();
    resolved_ = std::move(*resolved);
    std::vector<VkImageView> views;
    if (samples_ > 1) {
        gpu::ImageDesc cd = rd;
        cd.samples = samples;
        cd.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
        cd.name = "render target (msaa)";
        auto c = dev.create_image(cd);
        if (!c) return c.error();
        color_msaa_ = std::move(*c);
    } else {
        color_msaa_ = gpu::Image();
    }
    gpu::ImageDesc dd = rd;
    dd.samples = samples;
    dd.format = kDepthFormat;
    dd.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
    dd.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    dd.name = "render depth";
    auto d = dev.create_image(dd);
    if (!d) return d.error();
    depth_msaa_ = std::move(*d);
    if (samples_ > 1) views = {color_msaa_.view(), depth_msaa_.view(), resolved_.view()};
    else views = {resolved_.view(), depth_msaa_.view()};
    auto fb = create_framebuffer(dev, main_pass_.get(), views, width_, height_);
    if (!fb) return fb.error();
    main_fb_ = std::move(*fb);
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

Status Renderer::resize(uint32_t width, uint32_t height) {
    if (width == 0 || height == 0 || width > kMaxExtent || height > kMaxExtent)
        return make_error(ErrorCode::InvalidArgument, "renderer resize: width and height must be in [1, 16384] pixels, got " +
                                                          std::to_string(width) + " x " + std::to_string(height));
    if (width == width_ && height == height_) return {};
    width_ = width;
    height_ = height;
    return create_targets();
}

// ---------------------------------------------------------------------------------------------------
// Scene content

Result<uint32_t> Renderer::add_mesh(const Mesh& mesh_ws, MeshStyle style, glm::vec3 color) {
    if (mesh_ws.positions.empty() || mesh_ws.indices.empty())
        return make_error(ErrorCode::InvalidArgument, "renderer: mesh '" + mesh_ws.name + "' has no triangles");
    std::vector<glm::vec3> normals = mesh_ws.normals;
    if (normals.size() != mesh_ws.positions.size()) {
        normals.assign(mesh_ws.positions.size(), glm::vec3(0.0f));
        for (size_t t = 0; t + 2 < mesh_ws.indices.size(); t += 3) {
            uint32_t a = mesh_ws.indices[t], b = mesh_ws.indices[t + 1], c = mesh_ws.indices[t + 2];
            glm::vec3 n = glm::cross(mesh_ws.positions[b] - mesh_ws.positions[a], mesh_ws.positions[c] - mesh_ws.positions[a]);
            normals[a] += n;
            normals[b] += n;
            normals[c] += n;
        }
    }
    MeshGpu m;
    std::vector<MeshVertex> verts(mesh_ws.positions.size());
    for (size_t i = 0; i < verts.size(); ++i) {
        glm::vec3 n = normals[i];
        float len = glm::length(n);
        verts[i].position_ws = glm::vec4(mesh_ws.positions[i], 1.0f);
        verts[i].normal_ws = glm::vec4(len > 0.0f ? n / len : glm::vec3(0.0f, 1.0f, 0.0f), 0.0f);
        m.min_m = i ? glm::min(m.min_m, mesh_ws.positions[i]) : mesh_ws.positions[i];
        m.max_m = i ? glm::max(m.max_m, mesh_ws.positions[i]) : mesh_ws.positions[i];
    }
    for (uint32_t idx : mesh_ws.indices)
        if (idx >= verts.size())
            return make_error(ErrorCode::InvalidArgument, "renderer: mesh '" + mesh_ws.name + "' has an index out of range");
    auto vb = device_->create_buffer_with(std::span<const MeshVertex>(verts), 0, "mesh vertices " + mesh_ws.name);
    if (!vb) return vb.error();
    auto ib = device_->create_buffer_with(std::span<const uint32_t>(mesh_ws.indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                          "mesh indices " + mesh_ws.name);
    if (!ib) return ib.error();
    m.vertices = std::move(*vb);
    m.indices = std::move(*ib);
    m.index_count = static_cast<uint32_t>(mesh_ws.indices.size());
    m.style = style;
    if (color == glm::vec3(0.0f)) {
        color = style == MeshStyle::Opaque             ? glm::vec3(0.5f, 0.42f, 0.38f)
                : style == MeshStyle::CollisionOverlay ? glm::vec3(0.2f, 0.75f, 0.9f)
                                                       : glm::vec3(1.0f, 0.55f, 0.15f);
    }
    m.color = color;
    auto set = object_layout_.allocate();
    if (!set) return set.error();
    m.set = std::move(*set);
    m.set.bind_buffer(gpu_shared::kObjectBindVertices, m.vertices);
    m.set.bind_image(gpu_shared::kObjectBindTexture, dummy_texture_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     linear_clamp_.get());
    meshes_.push_back(std::move(m));
    return static_cast<uint32_t>(meshes_.size() - 1);
}

void Renderer::clear_meshes() { meshes_.clear(); }

Status Renderer::set_grid(glm::vec3 centre_m, double half_extent_m, double spacing_m) {
    if (!(half_extent_m > 0.0) || !(spacing_m > 0.0) || half_extent_m / spacing_m > 1000.0)
        return make_error(ErrorCode::InvalidArgument,
                          "renderer grid: half extent and spacing must be > 0 with at most 1000 lines per side");
    std::vector<MeshVertex> lines;
    int n = static_cast<int>(std::floor(half_extent_m / spacing_m));
    float h = float(n * spacing_m);
    for (int i = -n; i <= n; ++i) {
        float o = float(i * spacing_m);
        glm::vec4 c = i == 0 ? glm::vec4(0.45f, 0.45f, 0.5f, 0.9f) : glm::vec4(0.3f, 0.3f, 0.33f, 0.6f);
        lines.push_back({glm::vec4(centre_m + glm::vec3(o, 0.0f, -h), 1.0f), c});
        lines.push_back({glm::vec4(centre_m + glm::vec3(o, 0.0f, h), 1.0f), c});
        lines.push_back({glm::vec4(centre_m + glm::vec3(-h, 0.0f, o), 1.0f), c});
        lines.push_back({glm::vec4(centre_m + glm::vec3(h, 0.0f, o), 1.0f), c});
    }
    auto vb = device_->create_buffer_with(std::span<const MeshVertex>(lines), 0, "grid lines");
    if (!vb) return vb.error();
    auto set = object_layout_.allocate();
    if (!set) return set.error();
    grid_.vertices = std::move(*vb);
    grid_.count = static_cast<uint32_t>(lines.size());
    grid_.set = std::move(*set);
    grid_.set.bind_buffer(gpu_shared::kObjectBindVertices, grid_.vertices);
    grid_.set.bind_image(gpu_shared::kObjectBindTexture, dummy_texture_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         linear_clamp_.get());
    return {};
}

Result<uint32_t> Renderer::add_hair(const HairDesc& desc) {
    if (!desc.positions || !desc.strand_info)
        return make_error(ErrorCode::InvalidArgument, "renderer: a hair group needs a positions and a strand_info buffer");
    if (desc.vertices_per_strand < 2 || desc.strand_count == 0)
        return make_error(ErrorCode::InvalidArgument,
                          "renderer: a hair group needs at least one strand of at least 2 vertices");
    VkDeviceSize verts = VkDeviceSize(desc.strand_count) * desc.vertices_per_strand;
    if (desc.positions->size() < verts * 16)
        return make_error(ErrorCode::InvalidArgument, "renderer: positions buffer '" + desc.positions->name() +
                                                          "' is smaller than strand_count x vertices_per_strand vec4");
    if (desc.strand_info->size() < VkDeviceSize(desc.strand_count) * 8)
        return make_error(ErrorCode::InvalidArgument, "renderer: strand_info buffer is smaller than strand_count uvec2");
    if (desc.rest_lengths && desc.rest_lengths->size() < verts * 4)
        return make_error(ErrorCode::InvalidArgument, "renderer: rest_lengths buffer is smaller than one float per vertex");
    if (desc.collision_depth && desc.collision_depth->size() < verts * 4)
        return make_error(ErrorCode::InvalidArgument, "renderer: collision_depth buffer is smaller than one float per vertex");
    auto g = std::make_unique<HairGroupGpu>();
    g->desc = desc;
    auto strands = strand_layout_.allocate();
    if (!strands) return strands.error();
    g->strands = std::move(*strands);
    g->strands.bind_buffer(gpu_shared::kHairBindPositions, *desc.positions);
    g->strands.bind_buffer(gpu_shared::kHairBindStrandInfo, *desc.strand_info);
    g->strands.bind_buffer(gpu_shared::kHairBindRestLength, desc.rest_lengths ? *desc.rest_lengths : dummy_buffer_);
    g->strands.bind_buffer(gpu_shared::kHairBindDepth, desc.collision_depth ? *desc.collision_depth : dummy_buffer_);
    auto shading = hair_shading_layout_.allocate();
    if (!shading) return shading.error();
    g->shading = std::move(*shading);
    for (uint32_t b : {gpu_shared::kHairShadingBindLutM, gpu_shared::kHairShadingBindLutN, gpu_shared::kHairShadingBindLutTrt})
        g->shading.bind_image(b, dummy_texture_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, linear_clamp_.get());
    hair_.push_back(std::move(g));
    return static_cast<uint32_t>(hair_.size() - 1);
}

void Renderer::set_hair_shading(uint32_t index, const Shading& shading) {
    TRESSEL_ASSERT(index < hair_.size(), "set_hair_shading: index must come from add_hair");
    hair_[index]->desc.shading = shading;
}

void Renderer::set_hair_visible(uint32_t index, bool visible) {
    TRESSEL_ASSERT(index < hair_.size(), "set_hair_visible: index must come from add_hair");
    hair_[index]->desc.visible = visible;
}

void Renderer::set_hair_bounds(uint32_t index, glm::vec3 min_m, glm::vec3 max_m) {
    TRESSEL_ASSERT(index < hair_.size(), "set_hair_bounds: index must come from add_hair");
    hair_[index]->desc.bounds_min_m = min_m;
    hair_[index]->desc.bounds_max_m = max_m;
}

void Renderer::clear_hair() { hair_.clear(); }

Status Renderer::update_luts(HairGroupGpu& g) {
    if (g.desc.shading.model != ShadingModel::Marschner) return {};
    MarschnerParams p = MarschnerParams::from(g.desc.shading);
    if (g.lut_params && *g.lut_params == p) return {};
    MarschnerLuts luts = compute_marschner_luts(p, desc_.marschner_lut_size);
    ++lut_computations_;
    auto m = upload_rgba_f16(*device_, luts.m, luts.size, "marschner M");
    if (!m) return m.error();
    auto n = upload_rgba_f16(*device_, luts.n, luts.size, "marschner N");
    if (!n) return n.error();
    auto t = upload_rgba_f16(*device_, luts.trt, luts.size, "marschner N_TRT");
    if (!t) return t.error();
    // A fresh set: the previous one may still be referenced by a frame in flight.
    auto set = hair_shading_layout_.allocate();
    if (!set) return set.error();
    g.lut_m = std::move(*m);
    g.lut_n = std::move(*n);
    g.lut_trt = std::move(*t);
    g.shading = std::move(*set);
    g.shading.bind_image(gpu_shared::kHairShadingBindLutM, g.lut_m, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         linear_clamp_.get());
    g.shading.bind_image(gpu_shared::kHairShadingBindLutN, g.lut_n, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         linear_clamp_.get());
    g.shading.bind_image(gpu_shared::kHairShadingBindLutTrt, g.lut_trt, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         linear_clamp_.get());
    g.lut_params = p;
    return {};
}

Status Renderer::set_slice(const SliceView& slice) {
    if (slice.width_px <= 0 || slice.height_px <= 0 ||
        slice.rgba.size() != size_t(slice.width_px) * size_t(slice.height_px) * 4)
        return make_error(ErrorCode::InvalidArgument, "renderer: the slice image is empty or its size does not match");
    auto tex = upload_texture(*device_, VK_FORMAT_R8G8B8A8_SRGB, uint32_t(slice.width_px), uint32_t(slice.height_px),
                              slice.rgba.data(), slice.rgba.size(), "sdf slice");
    if (!tex) return tex.error();
    // Image row 0 is the top (v max): texture t = 0 at the top corners.
    std::vector<MeshVertex> quad = {
        {glm::vec4(slice.corners_m[0], 1.0f), glm::vec4(0.0f, 1.0f, 0.0f, 0.0f)},
        {glm::vec4(slice.corners_m[1], 1.0f), glm::vec4(1.0f, 1.0f, 0.0f, 0.0f)},
        {glm::vec4(slice.corners_m[2], 1.0f), glm::vec4(0.0f, 0.0f, 0.0f, 0.0f)},
        {glm::vec4(slice.corners_m[3], 1.0f), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f)},
    };
    auto vb = device_->create_buffer_with(std::span<const MeshVertex>(quad), 0, "sdf slice quad");
    if (!vb) return vb.error();
    auto set = object_layout_.allocate();
    if (!set) return set.error();
    slice_.texture = std::move(*tex);
    slice_.vertices = std::move(*vb);
    slice_.set = std::move(*set);
    slice_.set.bind_buffer(gpu_shared::kObjectBindVertices, slice_.vertices);
    slice_.set.bind_image(gpu_shared::kObjectBindTexture, slice_.texture, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          linear_clamp_.get());
    slice_.valid = true;
    // The grid's bounds box: 12 edges.
    glm::vec3 lo = slice.grid_min_m, hi = slice.grid_max_m;
    std::vector<MeshVertex> box;
    glm::vec4 c(0.95f, 0.85f, 0.3f, 0.9f);
    auto corner = [&](int i) { return glm::vec4(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z, 1.0f); };
    for (int i = 0; i < 8; ++i)
        for (int bit : {1, 2, 4})
            if (!(i & bit)) {
                box.push_back({corner(i), c});
                box.push_back({corner(i | bit), c});
            }
    auto bb = device_->create_buffer_with(std::span<const MeshVertex>(box), 0, "sdf bounds box");
    if (!bb) return bb.error();
    auto bset = object_layout_.allocate();
    if (!bset) return bset.error();
    slice_box_.vertices = std::move(*bb);
    slice_box_.count = static_cast<uint32_t>(box.size());
    slice_box_.set = std::move(*bset);
    slice_box_.set.bind_buffer(gpu_shared::kObjectBindVertices, slice_box_.vertices);
    slice_box_.set.bind_image(gpu_shared::kObjectBindTexture, dummy_texture_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                              linear_clamp_.get());
    return {};
}

void Renderer::clear_slice() {
    slice_ = SliceGpu();
    slice_box_ = LinesGpu();
}

// ---------------------------------------------------------------------------------------------------
// Frame

Status Renderer::update_frame_uniforms(const FrameDesc& frame) {
    FrameUniforms u{};
    double aspect = double(width_) / double(height_);
    u.view_proj = frame.camera.view_projection(aspect);
    u.eye_ws = glm::vec3(frame.camera.eye_m());
    glm::vec3 key = toward_light(frame.lighting.key), fill = toward_light(frame.lighting.fill);
    u.key_color = glm::vec3(frame.lighting.key.color * frame.lighting.key.intensity);
    u.fill_dir_ws = fill;
    u.fill_color = glm::vec3(frame.lighting.fill.color * frame.lighting.fill.intensity);
    u.ambient = glm::vec3(frame.lighting.ambient);
    u.viewport_px = glm::vec2(float(width_), float(height_));
    u.inv_viewport_px = glm::vec2(1.0f / float(width_), 1.0f / float(height_));

    // The key light's orthographic box around the visible hair (falls back to the meshes).
    SceneBounds hb, all;
    for (auto& g : hair_)
        if (g->desc.visible) {
            hb.add(g->desc.bounds_min_m);
            hb.add(g->desc.bounds_max_m);
        }
    for (auto& m : meshes_)
        if (m.style == MeshStyle::Opaque) {
            all.add(m.min_m);
            all.add(m.max_m);
        }
    if (!hb.empty()) {
        all.add(hb.min_m);
        all.add(hb.max_m);
    }
    bool shadows = frame.shadows && !hb.empty();
    if (all.empty()) all.add(glm::vec3(-1.0f)), all.add(glm::vec3(1.0f));
    glm::vec3 centre = 0.5f * (all.min_m + all.max_m);
    float radius = std::max(0.5f * glm::length(all.max_m - all.min_m), 1e-3f);
    glm::vec3 up = std::abs(key.y) < 0.99f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
    glm::mat4 lview = glm::lookAtRH(centre + key * (2.0f * radius), centre, up);
    glm::mat4 lproj = glm::orthoRH_ZO(-radius, radius, -radius, radius, radius, 3.0f * radius);
    light_view_proj_ = lproj * lview;
    u.light_view_proj = light_view_proj_;
    u.key_dir_ws = key;
    u.shadows = shadows ? 1u : 0u;
    double layer_m = frame.shadow_layer_m > 0.0 ? frame.shadow_layer_m
                                                : (hb.empty() ? 0.01 : glm::length(hb.max_m - hb.min_m) / 40.0);
    u.opacity_layer = float(layer_m / (2.0 * radius));
    std::memcpy(frame_ubo_.mapped(), &u, sizeof(u));
    return {};
}

namespace {

HairPush hair_push(const HairDesc& d, HairDebug debug, bool shadows, bool light_pass) {
    const Shading& s = d.shading;
    HairPush p{};
    p.root_color = glm::vec3(s.root_color);
    p.opacity = float(std::clamp(s.opacity, 0.0, 1.0));
    p.tip_color = glm::vec3(s.tip_color);
    p.tip_percentage = float(std::clamp(s.tip_percentage, 0.0, 1.0));
    p.kd = float(s.kd);
    p.ks1 = float(s.ks1);
    p.ex1 = float(s.ex1);
    p.ks2 = float(s.ks2);
    p.ex2 = float(s.ex2);
    p.spec_shift = float(s.spec_shift);
    p.color_variation = float(s.color_variation);
    p.brightness_variation = float(s.brightness_variation);
    p.root_half_width_m = float(s.fiber_radius_m);
    p.tip_half_width_m = s.thin_tip ? p.root_half_width_m * float(s.fiber_ratio) : p.root_half_width_m;
    p.shadow_alpha = float(s.shadow_alpha);
    p.lut_scale = 1.0f;
    p.vertices_per_strand = d.vertices_per_strand;
    p.strand_count = d.strand_count;
    p.model = s.model == ShadingModel::Marschner ? gpu_shared::kHairModelMarschner : gpu_shared::kHairModelKajiyaKay;
    p.debug_mode = debug == HairDebug::Guide     ? gpu_shared::kHairDebugGuide
                   : debug == HairDebug::Stretch ? gpu_shared::kHairDebugStretch
                   : debug == HairDebug::Depth   ? gpu_shared::kHairDebugDepth
                                                 : gpu_shared::kHairDebugNone;
    p.shadows = shadows && s.shadows ? 1u : 0u;
    p.has_rest_lengths = d.rest_lengths ? 1u : 0u;
    p.has_collision_depth = d.collision_depth ? 1u : 0u;
    p.light_pass = light_pass ? 1u : 0u;
    return p;
}

}  // namespace

Status Renderer::record(gpu::CommandBuffer& cmd, const FrameDesc& frame, gpu::TimestampQueries* ts) {
    for (auto& g : hair_)
        if (g->desc.visible) TRESSEL_TRY(update_luts(*g));
    TRESSEL_TRY(update_frame_uniforms(frame));
    VkCommandBuffer c = cmd.handle();
    if (ts) ts->reset(cmd);
    // Strand buffers written by compute passes (the simulation) before this frame.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    bool shadows = frame.shadows;
    VkDescriptorSet fset = frame_set_.handle();

    auto draw_hair = [&](VkPipeline pipe, bool light_pass) {
        vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
        for (auto& g : hair_) {
            if (!g->desc.visible || (light_pass && !g->desc.shading.shadows)) continue;
            VkDescriptorSet sets[] = {fset, g->strands.handle(), g->shading.handle()};
            vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, hair_pl_.get(), 0, light_pass ? 2 : 3, sets, 0,
                                    nullptr);
            HairPush p = hair_push(g->desc, frame.debug, shadows, light_pass);
            vkCmdPushConstants(c, hair_pl_.get(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                               sizeof(p), &p);
            vkCmdDraw(c, 2 * g->desc.vertices_per_strand, g->desc.strand_count, 0, 0);
        }
    };

    // Shadow passes (always run, so the maps are defined; empty when shadows are off).
    const uint32_t ss = desc_.shadow_size;
    {
        if (ts) ts->begin(cmd, "shadow_depth");
        VkClearValue clear{};
        clear.depthStencil = {1.0f, 0};
        VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        bi.renderPass = shadow_depth_pass_.get();
        bi.framebuffer = shadow_depth_fb_.get();
        bi.renderArea = {{0, 0}, {ss, ss}};
        bi.clearValueCount = 1;
        bi.pClearValues = &clear;
        vkCmdBeginRenderPass(c, &bi, VK_SUBPASS_CONTENTS_INLINE);
        set_viewport(c, ss, ss);
        if (shadows) draw_hair(hair_depth_pipe_.get(), true);
        vkCmdEndRenderPass(c);
        if (ts) ts->end(cmd);
    }
    {
        if (ts) ts->begin(cmd, "shadow_opacity");
        VkClearValue clear[2]{};
        VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        bi.renderPass = opacity_pass_.get();
        bi.framebuffer = opacity_fb_.get();
        bi.renderArea = {{0, 0}, {ss, ss}};
        bi.clearValueCount = 2;
        bi.pClearValues = clear;
        vkCmdBeginRenderPass(c, &bi, VK_SUBPASS_CONTENTS_INLINE);
        set_viewport(c, ss, ss);
        if (shadows) draw_hair(hair_opacity_pipe_.get(), true);
        vkCmdEndRenderPass(c);
        if (ts) ts->end(cmd);
    }

    // Main pass.
    VkClearValue clear[3]{};
    clear[0].color = {{frame.background.r, frame.background.g, frame.background.b, 1.0f}};
    clear[1].depthStencil = {1.0f, 0};
    clear[2].color = clear[0].color;
    VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    bi.renderPass = main_pass_.get();
    bi.framebuffer = main_fb_.get();
    bi.renderArea = {{0, 0}, {width_, height_}};
    bi.clearValueCount = samples_ > 1 ? 3 : 2;
    bi.pClearValues = clear;
    vkCmdBeginRenderPass(c, &bi, VK_SUBPASS_CONTENTS_INLINE);
    set_viewport(c, width_, height_);

    auto draw_mesh = [&](const MeshGpu& m, VkPipeline pipe, MeshPush push) {
        vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
        VkDescriptorSet sets[] = {fset, m.set.handle()};
        vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, object_pl_.get(), 0, 2, sets, 0, nullptr);
        vkCmdPushConstants(c, object_pl_.get(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(push), &push);
        vkCmdBindIndexBuffer(c, m.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
        vkCmdDrawIndexed(c, m.index_count, 1, 0, 0, 0);
    };
    auto draw_lines = [&](const LinesGpu& l) {
        if (!l.count) return;
        vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, line_pipe_.get());
        VkDescriptorSet sets[] = {fset, l.set.handle()};
        vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, object_pl_.get(), 0, 2, sets, 0, nullptr);
        MeshPush push{};
        vkCmdPushConstants(c, object_pl_.get(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(push), &push);
        vkCmdDraw(c, l.count, 1, 0, 0);
    };

    if (ts) ts->begin(cmd, "meshes");
    for (auto& m : meshes_)
        if (m.style == MeshStyle::Opaque)
            draw_mesh(m, mesh_pipe_.get(), {m.color, 1.0f, 1.0f, shadows ? 1u : 0u, 0u, 0u});
    if (ts) ts->end(cmd);
    if (ts) ts->begin(cmd, "hair");
    draw_hair(hair_pipe_.get(), false);
    if (ts) ts->end(cmd);
    if (ts) ts->begin(cmd, "overlays");
    if (frame.show_grid) draw_lines(grid_);
    if (frame.wireframe && wire_pipe_.valid())
        for (auto& m : meshes_)
            if (m.style == MeshStyle::Opaque)
                draw_mesh(m, wire_pipe_.get(), {glm::vec3(0.1f, 0.1f, 0.12f), 1.0f, 0.0f, 0u, 1u, 0u});
    if (frame.show_slice && slice_.valid) {
        vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, slice_pipe_.get());
        VkDescriptorSet sets[] = {fset, slice_.set.handle()};
        vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, object_pl_.get(), 0, 2, sets, 0, nullptr);
        MeshPush push{};
        vkCmdPushConstants(c, object_pl_.get(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(push), &push);
        vkCmdDraw(c, 4, 1, 0, 0);
        draw_lines(slice_box_);
    }
    for (auto& m : meshes_) {
        if (m.style == MeshStyle::CollisionOverlay && frame.show_collision)
            draw_mesh(m, overlay_pipe_.get(), {m.color, 0.22f, 1.5f, 0u, 0u, 0u});
        if (m.style == MeshStyle::Collider && frame.show_colliders)
            draw_mesh(m, overlay_pipe_.get(), {m.color, 0.35f, 1.0f, 0u, 0u, 0u});
    }
    if (ts) ts->end(cmd);
    vkCmdEndRenderPass(c);
    return {};
}

Result<std::vector<uint8_t>> Renderer::render_to_rgba(const FrameDesc& frame) {
    auto cmd = device_->begin_commands();
    if (!cmd) return cmd.error();
    TRESSEL_TRY(record(*cmd, frame));
    transition_image(*cmd, resolved_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    copy_image_to_buffer(*cmd, resolved_, readback_);
    transition_image(*cmd, resolved_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    auto serial = device_->submit(std::move(*cmd));
    if (!serial) return serial.error();
    TRESSEL_TRY(device_->wait(*serial));
    std::vector<uint8_t> out(size_t(width_) * height_ * 4);
    std::memcpy(out.data(), readback_.mapped(), out.size());
    return out;
}

// ---------------------------------------------------------------------------------------------------

Mesh make_collider_mesh(const Collider& collider, int segments) {
    segments = std::max(segments, 6);
    Mesh m;
    m.name = collider.name;
    const double pi = std::numbers::pi;
    glm::dvec3 p0 = collider.p0_m;
    glm::dvec3 p1 = collider.type == ColliderType::Capsule ? collider.p1_m : collider.p0_m;
    glm::dvec3 axis = p1 - p0;
    double len = glm::length(axis);
    glm::dvec3 z = len > 1e-9 ? axis / len : glm::dvec3(0.0, 1.0, 0.0);
    glm::dvec3 x = glm::normalize(glm::cross(std::abs(z.y) < 0.9 ? glm::dvec3(0, 1, 0) : glm::dvec3(1, 0, 0), z));
    glm::dvec3 y = glm::cross(z, x);
    // Rings from the bottom pole (around p0) to the top pole (around p1): the lower hemisphere is centred on
    // p0, the upper on p1, so a sphere is the case p0 == p1.
    int rings = segments / 2;
    double r = collider.radius_m;
    for (int i = 0; i <= rings; ++i) {
        double theta = -pi / 2 + pi * i / rings;
        glm::dvec3 centre = i <= rings / 2 ? p0 : p1;
        for (int j = 0; j <= segments; ++j) {
            double phi = 2.0 * pi * j / segments;
            glm::dvec3 n = std::cos(theta) * (std::cos(phi) * x + std::sin(phi) * y) + std::sin(theta) * z;
            m.positions.push_back(glm::vec3(centre + r * n));
            m.normals.push_back(glm::vec3(n));
        }
    }
    uint32_t row = uint32_t(segments + 1);
    for (int i = 0; i < rings; ++i)
        for (int j = 0; j < segments; ++j) {
            uint32_t a = uint32_t(i) * row + uint32_t(j), b = a + 1, cc = a + row, d = cc + 1;
            m.indices.insert(m.indices.end(), {a, b, d, a, d, cc});
        }
    return m;
}

}  // namespace tressel::render
