// VkResult -> typed Error. Device loss and out-of-memory become values with a clear message, never a crash.
#pragma once

#include <string>
#include <vulkan/vulkan.h>

#include "core/result.h"

namespace tressel::gpu {

const char* vk_result_name(VkResult r);

// `what` names the operation, e.g. "allocate 64 MiB of device-local memory for buffer 'sdf'".
Error vk_error(VkResult r, const std::string& what);

}  // namespace tressel::gpu

// Return a Result error from the enclosing function when a Vulkan call fails.
#define TRESSEL_VK_TRY(call, what)                                      \
    do {                                                                \
        VkResult tressel_vk_r_ = (call);                                \
        if (tressel_vk_r_ < 0) return ::tressel::gpu::vk_error(tressel_vk_r_, what); \
    } while (0)
