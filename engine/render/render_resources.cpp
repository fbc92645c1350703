#include "render/render_resources.h"

#include "shared/render_bindings.h"

namespace tressel::render {

Result<std::unique_ptr<SharedResources>> SharedResources::create(gpu::Device& device) {
    auto r = std::make_unique<SharedResources>();
    auto lin = create_sampler(device, VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
    if (!lin) return lin.error();
    r->linear_clamp = std::move(*lin);
    auto near = create_sampler(device, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
    if (!near) return near.error();
    r->nearest_clamp = std::move(*near);

    auto frame = DescriptorLayout::create(device, gpu_shared::kFrameSetBindings, "frame");
    if (!frame) return frame.error();
    r->frame = std::move(*frame);
    auto strands = DescriptorLayout::create(device, gpu_shared::kStrandSetBindings, "strands");
    if (!strands) return strands.error();
    r->strands = std::move(*strands);
    auto shading = DescriptorLayout::create(device, gpu_shared::kHairShadingSetBindings, "hair shading");
    if (!shading) return shading.error();
    r->hair_shading = std::move(*shading);
    auto object = DescriptorLayout::create(device, gpu_shared::kObjectSetBindings, "object");
    if (!object) return object.error();
    r->object = std::move(*object);

    auto dummy = device.create_buffer({16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                       gpu::MemoryIntent::DeviceLocal, "render placeholder buffer"});
    if (!dummy) return dummy.error();
    r->placeholder_buffer = std::move(*dummy);
    TRESSEL_TRY(device.run_sync([&](gpu::CommandBuffer& cmd) { cmd.fill(r->placeholder_buffer, 0u); }));
    const uint8_t white[4] = {255, 255, 255, 255};
    auto tex = upload_texture(device, kColorFormat, 1, 1, white, 4, "render placeholder texture");
    if (!tex) return tex.error();
    r->placeholder_texture = std::move(*tex);
    return r;
}

}  // namespace tressel::render
