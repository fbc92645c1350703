// A swapchain on the device's surface (the window system is the app's business: the engine only sees a
// VkSurfaceKHR). Recreated by the caller when acquire/present report it out of date or the size changes.
#pragma once

#include <vector>

#include "gpu/device.h"

namespace tressel::gpu {

struct SwapchainDesc {
    uint32_t width = 0, height = 0;  // framebuffer size in pixels
    bool vsync = true;
};

class Swapchain {
public:
    static Result<Swapchain> create(Device& device, const SwapchainDesc& desc, VkSwapchainKHR old = VK_NULL_HANDLE);
    Swapchain() = default;
    Swapchain(Swapchain&& o) noexcept { *this = std::move(o); }
    Swapchain& operator=(Swapchain&& o) noexcept;
    ~Swapchain() { destroy(); }

    VkSwapchainKHR handle() const { return swapchain_; }
    VkFormat format() const { return format_; }
    VkExtent2D extent() const { return extent_; }
    uint32_t image_count() const { return static_cast<uint32_t>(images_.size()); }
    uint32_t min_image_count() const { return min_images_; }
    VkImage image(uint32_t i) const { return images_[i]; }
    VkImageView view(uint32_t i) const { return views_[i]; }
    bool supports_readback() const { return transfer_src_; }

    // Returns the image index; VK_ERROR_OUT_OF_DATE_KHR comes back as an Error with code Unsupported
    // and `out_of_date()` true: recreate and try again.
    Result<uint32_t> acquire(VkSemaphore signal);
    Status present(uint32_t index, VkSemaphore wait);
    bool out_of_date() const { return out_of_date_; }
    void destroy();

private:
    Device* device_ = nullptr;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent2D extent_{0, 0};
    uint32_t min_images_ = 2;
    bool transfer_src_ = false;
    bool out_of_date_ = false;
    std::vector<VkImage> images_;
    std::vector<VkImageView> views_;
};

}  // namespace tressel::gpu
