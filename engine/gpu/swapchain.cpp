#include "gpu/swapchain.h"

#include <algorithm>

#include "gpu/vk_error.h"

namespace tressel::gpu {

Swapchain& Swapchain::operator=(Swapchain&& o) noexcept {
    if (this != &o) {
        destroy();
        device_ = std::exchange(o.device_, nullptr);
        swapchain_ = std::exchange(o.swapchain_, VK_NULL_HANDLE);
        format_ = o.format_;
        extent_ = o.extent_;
        min_images_ = o.min_images_;
        transfer_src_ = o.transfer_src_;
        out_of_date_ = o.out_of_date_;
        images_ = std::move(o.images_);
        views_ = std::move(o.views_);
    }
    return *this;
}

void Swapchain::destroy() {
    if (!device_) return;
    // Swapchain images may be in use by the last frames: wait rather than track per-image serials.
    vkDeviceWaitIdle(device_->device());
    for (VkImageView v : views_) vkDestroyImageView(device_->device(), v, nullptr);
    views_.clear();
    images_.clear();
    if (swapchain_) vkDestroySwapchainKHR(device_->device(), swapchain_, nullptr);
    swapchain_ = VK_NULL_HANDLE;
    device_ = nullptr;
}

Result<Swapchain> Swapchain::create(Device& device, const SwapchainDesc& desc, VkSwapchainKHR old) {
    TRESSEL_ASSERT(device.surface() != VK_NULL_HANDLE, "Swapchain::create: the device was created without a surface");
    VkPhysicalDevice pd = device.physical_device();
    VkSurfaceKHR surface = device.surface();
    VkSurfaceCapabilitiesKHR caps;
    TRESSEL_VK_TRY(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(pd, surface, &caps), "query the window surface");
    uint32_t n = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &n, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(n);
    vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &n, formats.data());
    if (formats.empty()) return make_error(ErrorCode::Unsupported, "the window surface offers no pixel format");
    VkSurfaceFormatKHR fmt = formats[0];
    for (auto& f : formats)
        if ((f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) &&
            f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
            fmt = f;
            break;
        }
    uint32_t np = 0;
    vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &np, nullptr);
    std::vector<VkPresentModeKHR> modes(np);
    vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &np, modes.data());
    VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR;
    if (!desc.vsync)
        for (auto m : modes)
            if (m == VK_PRESENT_MODE_MAILBOX_KHR || m == VK_PRESENT_MODE_IMMEDIATE_KHR) mode = m;

    VkExtent2D extent = caps.currentExtent;
    if (extent.width == 0xffffffffu) {
        extent.width = std::clamp(desc.width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height = std::clamp(desc.height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    if (extent.width == 0 || extent.height == 0)
        return make_error(ErrorCode::Unsupported, "the window has zero size (minimised)");
    uint32_t count = std::max(caps.minImageCount + 1, 2u);
    if (caps.maxImageCount) count = std::min(count, caps.maxImageCount);

    Swapchain sc;
    sc.transfer_src_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    ci.surface = surface;
    ci.minImageCount = count;
    ci.imageFormat = fmt.format;
    ci.imageColorSpace = fmt.colorSpace;
    ci.imageExtent = extent;
    ci.imageArrayLayers = 1;
    ci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (sc.transfer_src_ ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
    ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ci.preTransform = caps.currentTransform;
    ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    ci.presentMode = mode;
    ci.clipped = VK_TRUE;
    ci.oldSwapchain = old;
    TRESSEL_VK_TRY(vkCreateSwapchainKHR(device.device(), &ci, nullptr, &sc.swapchain_), "create the swapchain");
    sc.device_ = &device;
    sc.format_ = fmt.format;
    sc.extent_ = extent;
    sc.min_images_ = count;
    uint32_t ni = 0;
    vkGetSwapchainImagesKHR(device.device(), sc.swapchain_, &ni, nullptr);
    sc.images_.resize(ni);
    vkGetSwapchainImagesKHR(device.device(), sc.swapchain_, &ni, sc.images_.data());
    for (VkImage img : sc.images_) {
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = img;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = fmt.format;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView v = VK_NULL_HANDLE;
        TRESSEL_VK_TRY(vkCreateImageView(device.device(), &vci, nullptr, &v), "create a swapchain image view");
        sc.views_.push_back(v);
    }
    return sc;
}

Result<uint32_t> Swapchain::acquire(VkSemaphore signal) {
    uint32_t index = 0;
    VkResult r = vkAcquireNextImageKHR(device_->device(), swapchain_, UINT64_MAX, signal, VK_NULL_HANDLE, &index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) {
        out_of_date_ = true;
        return make_error(ErrorCode::Unsupported, "the swapchain is out of date");
    }
    if (r == VK_SUBOPTIMAL_KHR) out_of_date_ = true;
    TRESSEL_VK_TRY(r, "acquire a swapchain image");
    return index;
}

Status Swapchain::present(uint32_t index, VkSemaphore wait) {
    VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &wait;
    pi.swapchainCount = 1;
    pi.pSwapchains = &swapchain_;
    pi.pImageIndices = &index;
    VkResult r = vkQueuePresentKHR(device_->queue(), &pi);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
        out_of_date_ = true;
        return {};
    }
    TRESSEL_VK_TRY(r, "present a frame");
    return {};
}

}  // namespace tressel::gpu
