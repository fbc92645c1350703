#include "gpu/vk_error.h"

namespace tressel::gpu {

const char* vk_result_name(VkResult r) {
    switch (r) {
#define CASE(x) \
    case x: return #x;
        CASE(VK_SUCCESS)
        CASE(VK_NOT_READY)
        CASE(VK_TIMEOUT)
        CASE(VK_INCOMPLETE)
        CASE(VK_SUBOPTIMAL_KHR)
        CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
        CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        CASE(VK_ERROR_INITIALIZATION_FAILED)
        CASE(VK_ERROR_DEVICE_LOST)
        CASE(VK_ERROR_MEMORY_MAP_FAILED)
        CASE(VK_ERROR_LAYER_NOT_PRESENT)
        CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
        CASE(VK_ERROR_FEATURE_NOT_PRESENT)
        CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
        CASE(VK_ERROR_TOO_MANY_OBJECTS)
        CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
        CASE(VK_ERROR_FRAGMENTED_POOL)
        CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
        CASE(VK_ERROR_SURFACE_LOST_KHR)
        CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        CASE(VK_ERROR_OUT_OF_DATE_KHR)
        CASE(VK_ERROR_VALIDATION_FAILED_EXT)
#undef CASE
        default: return "VkResult(unknown)";
    }
}

Error vk_error(VkResult r, const std::string& what) {
    std::string msg = "cannot " + what + ": " + vk_result_name(r);
    switch (r) {
        case VK_ERROR_DEVICE_LOST:
            return make_error(ErrorCode::DeviceLost,
                              msg + ". The GPU was lost (driver reset, hang or removal); restart the GPU work or the application");
        case VK_ERROR_OUT_OF_DEVICE_MEMORY:
            return make_error(ErrorCode::OutOfMemory, msg + ". The GPU is out of memory; reduce cell counts, strand counts or resolution");
        case VK_ERROR_OUT_OF_POOL_MEMORY:
        case VK_ERROR_FRAGMENTED_POOL:
            return make_error(ErrorCode::OutOfMemory, msg + ". The GPU has no room for more descriptor sets; close other GPU programs or reduce the scene");
        case VK_ERROR_OUT_OF_HOST_MEMORY:
            return make_error(ErrorCode::OutOfMemory, msg + ". The system is out of memory");
        default: return make_error(ErrorCode::Gpu, msg);
    }
}

}  // namespace tressel::gpu
