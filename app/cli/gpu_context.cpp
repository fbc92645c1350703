#include "gpu_context.h"

#include <cstdio>

namespace tressel::cli {

Result<GpuContext> GpuContext::create(const std::string& preference) {
    gpu::DeviceDesc desc;
    desc.preference = preference;
    desc.on_validation_message = [](const gpu::ValidationMessage& m) {
        if (m.severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
            std::fprintf(stderr, "Vulkan validation: %s\n", m.text.c_str());
    };
    auto device = gpu::Device::create(desc);
    if (!device) return device.error();
    GpuContext ctx;
    ctx.device = std::move(*device);
    return ctx;
}

}  // namespace tressel::cli
