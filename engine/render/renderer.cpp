#include "render/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>

#include "render/hair_pass.h"
#include "render/main_target.h"
#include "render/mesh_pass.h"
#include "render/overlay_pass.h"
#include "render/render_pass.h"
#include "render/render_resources.h"
#include "render/render_scene.h"
#include "render/shadow_pass.h"
#include "shared/render.h"

namespace tressel::render {

using gpu_shared::FrameUniforms;

namespace {
constexpr uint32_t kMaxExtent = 16384;
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

Renderer::Renderer() = default;
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
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    for (uint32_t s : {8u, 4u, 2u})
        if (s <= desc.samples && (counts & s)) {
            samples = static_cast<VkSampleCountFlagBits>(s);
            break;
        }

    auto shared = SharedResources::create(device);
    if (!shared) return shared.error();
    shared_ = std::move(*shared);
    scene_ = std::make_unique<RenderScene>(device, *shared_, desc.marschner_lut_size);
    auto target = MainTarget::create(device, samples, desc.width, desc.height);
    if (!target) return target.error();
    target_ = std::make_unique<MainTarget>(std::move(*target));

    gpu::BufferDesc ub;
    ub.size = sizeof(FrameUniforms);
    ub.usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    ub.intent = gpu::MemoryIntent::Constants;
    ub.name = "frame uniforms";
    auto ubo = device.create_buffer(ub);
    if (!ubo) return ubo.error();
    frame_ubo_ = std::move(*ubo);

    // The passes in recording order (README.md): shadow maps, opaque meshes, the SDF slice, hair, overlays. The shadow
    // maps are in the frame set, which every pass binds.
    const PassSetup setup{device, desc_, *shared_, target_->render_pass(), samples};
    auto shadow = ShadowPass::create(setup);
    if (!shadow) return shadow.error();
    auto fs = shared_->frame.allocate();
    if (!fs) return fs.error();
    frame_set_ = std::move(*fs);
    frame_set_.bind_buffer(gpu_shared::kRenderBindFrame, frame_ubo_);
    frame_set_.bind_image(gpu_shared::kRenderBindShadowDepth, (*shadow)->depth(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          shared_->nearest_clamp.get());
    frame_set_.bind_image(gpu_shared::kRenderBindOpacity0, (*shadow)->opacity(0), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          shared_->linear_clamp.get());
    frame_set_.bind_image(gpu_shared::kRenderBindOpacity1, (*shadow)->opacity(1), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          shared_->linear_clamp.get());
    passes_.push_back(std::move(*shadow));
    auto meshes = MeshPass::create(setup);
    if (!meshes) return meshes.error();
    passes_.push_back(std::move(*meshes));
    auto slice = SlicePass::create(setup);
    if (!slice) return slice.error();
    passes_.push_back(std::move(*slice));
    auto hair = create_hair_pass(setup);
    if (!hair) return hair.error();
    hair_pass_ = hair->get();
    passes_.push_back(std::move(*hair));
    auto overlays = OverlayPass::create(setup);
    if (!overlays) return overlays.error();
    passes_.push_back(std::move(*overlays));
    return {};
}

Status Renderer::resize(uint32_t width, uint32_t height) {
    if (width == 0 || height == 0 || width > kMaxExtent || height > kMaxExtent)
        return make_error(ErrorCode::InvalidArgument, "renderer resize: width and height must be in [1, 16384] pixels, got " +
                                                          std::to_string(width) + " x " + std::to_string(height));
    if (width == target_->width() && height == target_->height()) return {};
    return target_->resize(width, height);
}

uint32_t Renderer::width() const { return target_->width(); }
uint32_t Renderer::height() const { return target_->height(); }
uint32_t Renderer::samples() const { return uint32_t(target_->samples()); }
const gpu::Image& Renderer::color_image() const { return target_->resolved(); }

// ---------------------------------------------------------------------------------------------------
// Scene content

Result<uint32_t> Renderer::add_mesh(const Mesh& mesh_ws, MeshStyle style, glm::vec3 color) {
    return scene_->add_mesh(mesh_ws, style, color);
}

void Renderer::clear_meshes() { scene_->clear_meshes(); }

gpu::Buffer* Renderer::mesh_vertices(uint32_t index) { return scene_->mesh_vertices(index); }

void Renderer::set_mesh_bounds(uint32_t index, glm::vec3 min_m, glm::vec3 max_m) { scene_->set_mesh_bounds(index, min_m, max_m); }

Status Renderer::set_grid(glm::vec3 centre_m, double half_extent_m, double spacing_m) {
    return scene_->set_grid(centre_m, half_extent_m, spacing_m);
}

Result<uint32_t> Renderer::add_hair(const HairDesc& desc) { return scene_->add_hair(desc); }

void Renderer::set_hair_shading(uint32_t index, const Shading& shading) {
    scene_->hair_group(index).desc.shading = shading;
}

void Renderer::set_hair_visible(uint32_t index, bool visible) { scene_->hair_group(index).desc.visible = visible; }

void Renderer::set_hair_bounds(uint32_t index, glm::vec3 min_m, glm::vec3 max_m) {
    HairDesc& d = scene_->hair_group(index).desc;
    d.bounds_min_m = min_m;
    d.bounds_max_m = max_m;
}

size_t Renderer::hair_count() const { return scene_->hair().size(); }
void Renderer::clear_hair() { scene_->clear_hair(); }
uint64_t Renderer::lut_computations() const { return scene_->lut_computations(); }
HairLodStats Renderer::hair_lod() const { return hair_pass_->lod_stats(); }

Status Renderer::set_slice(const SliceView& slice) { return scene_->set_slice(slice); }
void Renderer::clear_slice() { scene_->clear_slice(); }

// ---------------------------------------------------------------------------------------------------
// Frame

Status Renderer::update_frame_uniforms(const FrameDesc& frame) {
    const uint32_t width = target_->width(), height = target_->height();
    FrameUniforms u{};
    double aspect = double(width) / double(height);
    u.view_proj = frame.camera.view_projection(aspect);
    u.eye_ws = glm::vec3(frame.camera.eye_m());
    glm::vec3 key = toward_light(frame.lighting.key), fill = toward_light(frame.lighting.fill);
    u.key_color = glm::vec3(frame.lighting.key.color * frame.lighting.key.intensity);
    u.fill_dir_ws = fill;
    u.fill_color = glm::vec3(frame.lighting.fill.color * frame.lighting.fill.intensity);
    u.ambient = glm::vec3(frame.lighting.ambient);
    u.viewport_px = glm::vec2(float(width), float(height));
    u.inv_viewport_px = glm::vec2(1.0f / float(width), 1.0f / float(height));

    // The key light's orthographic box around the visible hair (falls back to the meshes).
    SceneBounds hb, all;
    for (auto& g : scene_->hair())
        if (g->desc.visible) {
            hb.add(g->desc.bounds_min_m);
            hb.add(g->desc.bounds_max_m);
        }
    for (auto& m : scene_->meshes())
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
    u.light_view_proj = lproj * lview;
    u.key_dir_ws = key;
    u.shadows = shadows ? 1u : 0u;
    double layer_m = frame.shadow_layer_m > 0.0 ? frame.shadow_layer_m
                                                : (hb.empty() ? 0.01 : glm::length(hb.max_m - hb.min_m) / 40.0);
    u.opacity_layer = float(layer_m / (2.0 * radius));
    std::memcpy(frame_ubo_.mapped(), &u, sizeof(u));
    return {};
}

Status Renderer::record(gpu::CommandBuffer& cmd, const FrameDesc& frame, gpu::TimestampQueries* ts) {
    TRESSEL_TRY(scene_->update_luts());
    TRESSEL_TRY(update_frame_uniforms(frame));
    VkCommandBuffer c = cmd.handle();
    if (ts) ts->reset(cmd);
    // Strand buffers written by compute passes (the simulation) before this frame, read by vertex shaders
    // (ribbons, shadow maps) and compute shaders (the compute rasterizer).
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                         nullptr, 0, nullptr);

    FrameContext ctx{cmd, frame, *scene_, frame_set_.handle(), target_->width(), target_->height(), ts};
    for (auto& pass : passes_) TRESSEL_TRY(pass->record_offscreen(ctx));
    target_->begin(cmd, frame.background);
    Status drawn;
    for (auto& pass : passes_)
        if (!(drawn = pass->record_main(ctx))) break;
    target_->end(cmd);
    return drawn;
}

Result<std::vector<uint8_t>> Renderer::render_to_rgba(const FrameDesc& frame) {
    // A hair pass whose buffers were sized by an estimate may ask for the frame again, once.
    for (int attempt = 0; attempt < 2; ++attempt) {
        auto cmd = device_->begin_commands();
        if (!cmd) return cmd.error();
        TRESSEL_TRY(record(*cmd, frame));
        const gpu::Image& resolved = target_->resolved();
        transition_image(*cmd, resolved, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        copy_image_to_buffer(*cmd, resolved, target_->readback());
        transition_image(*cmd, resolved, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        auto serial = device_->submit(std::move(*cmd));
        if (!serial) return serial.error();
        TRESSEL_TRY(device_->wait(*serial));
        if (!hair_pass_->needs_another_frame()) break;
    }
    std::vector<uint8_t> out(size_t(target_->width()) * target_->height() * 4);
    std::memcpy(out.data(), target_->readback().mapped(), out.size());
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
