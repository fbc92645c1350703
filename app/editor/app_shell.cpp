#include "app_shell.h"

#include <cstdio>
#include <cstring>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>
#include <stb_image_write.h>

#include "core/file_io.h"
#include "gpu/vk_error.h"
#include "viewport.h"

namespace tressel::editor {

namespace fs = std::filesystem;

namespace {

void check_vk(VkResult r) {
    if (r < 0) std::fprintf(stderr, "Dear ImGui Vulkan backend: %s\n", gpu::vk_result_name(r));
}

void glfw_error(int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); }

AppShell* shell_of(GLFWwindow* window) { return static_cast<AppShell*>(glfwGetWindowUserPointer(window)); }

}  // namespace

Result<std::unique_ptr<AppShell>> AppShell::create(const ShellOptions& options) {
    std::unique_ptr<AppShell> shell(new AppShell());
    TRESSEL_TRY(shell->init(options));
    return shell;
}

Status AppShell::init(const ShellOptions& options) {
    sim_timestamp_capacity_ = options.sim_timestamp_capacity;
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) return make_error(ErrorCode::Unsupported, "cannot initialise GLFW (no display? set DISPLAY or use xvfb-run)");
    glfw_ready_ = true;
    if (!glfwVulkanSupported()) return make_error(ErrorCode::Unsupported, "GLFW found no Vulkan loader");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    window_ = glfwCreateWindow(options.width, options.height, "Tressel", nullptr, nullptr);
    if (!window_) return make_error(ErrorCode::Unsupported, "cannot create the editor window");
    glfwSetWindowUserPointer(window_, this);
    glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) {
        AppShell* shell = shell_of(w);
        if (shell->on_drop) shell->on_drop(std::vector<std::string>(paths, paths + count));
    });
    glfwSetWindowCloseCallback(window_, [](GLFWwindow* w) {
        AppShell* shell = shell_of(w);
        if (!shell->close_now_ && shell->on_close && !shell->on_close()) glfwSetWindowShouldClose(w, 0);
    });

    options_ = options;
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    imgui_ready_ = true;
    ImGui::GetIO().IniFilename = nullptr;  // the layout comes from code, not from a file beside the binary
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 0.0f;
    ImGui_ImplGlfw_InitForVulkan(window_, true);
    return init_gpu();
}

// The device and everything made on it: created at start, and again after a lost device (restart_gpu).
Status AppShell::init_gpu() {
    const ShellOptions& options = options_;
    gpu::DeviceDesc desc;
    desc.preference = options.device;
    if (options.validation) desc.validation = true;
    uint32_t n = 0;
    const char** exts = glfwGetRequiredInstanceExtensions(&n);
    for (uint32_t i = 0; i < n; ++i) desc.instance_extensions.push_back(exts[i]);
    GLFWwindow* window = window_;
    desc.create_surface = [window](VkInstance instance, VkSurfaceKHR* surface) {
        return glfwCreateWindowSurface(instance, window, nullptr, surface);
    };
    desc.on_validation_message = [](const gpu::ValidationMessage& m) {
        if (m.severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) std::fprintf(stderr, "Vulkan validation: %s\n", m.text.c_str());
    };
    auto device = gpu::Device::create(desc);
    if (!device) return device.error();
    device_ = std::move(*device);
    TRESSEL_TRY(create_swapchain());

    VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 64};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dpci.maxSets = 64;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &pool_size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateDescriptorPool(device_->device(), &dpci, nullptr, &pool), "create the UI descriptor pool");
    imgui_pool_ = DescriptorPool(*device_, pool);

    for (FrameSlot& slot : slots_) {
        VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore a = VK_NULL_HANDLE, r = VK_NULL_HANDLE;
        TRESSEL_VK_TRY(vkCreateSemaphore(device_->device(), &sci, nullptr, &a), "create a semaphore");
        slot.acquired = Semaphore(*device_, a);
        TRESSEL_VK_TRY(vkCreateSemaphore(device_->device(), &sci, nullptr, &r), "create a semaphore");
        slot.rendered = Semaphore(*device_, r);
        auto ts = gpu::TimestampQueries::create(*device_, 16);
        if (!ts) return ts.error();
        slot.timestamps.emplace(std::move(*ts));
        auto sts = gpu::TimestampQueries::create(*device_, sim_timestamp_capacity_);
        if (!sts) return sts.error();
        slot.sim_timestamps.emplace(std::move(*sts));
    }

    ImGui_ImplVulkan_InitInfo ii{};
    ii.Instance = device_->instance();
    ii.PhysicalDevice = device_->physical_device();
    ii.Device = device_->device();
    ii.QueueFamily = device_->queue_family();
    ii.Queue = device_->queue();
    ii.DescriptorPool = imgui_pool_.get();
    ii.MinImageCount = swapchain_.min_image_count();
    ii.ImageCount = swapchain_.image_count();
    ii.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    ii.CheckVkResultFn = check_vk;
    ImGui_ImplVulkan_Init(&ii, ui_pass_.get());
    imgui_vulkan_ready_ = true;
    TRESSEL_TRY(device_->run_sync([](gpu::CommandBuffer& cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd.handle()); }));
    ImGui_ImplVulkan_DestroyFontUploadObjects();
    return {};
}

void AppShell::destroy_gpu() {
    if (device_) (void)device_->wait_idle();
    if (imgui_vulkan_ready_) ImGui_ImplVulkan_Shutdown();
    imgui_vulkan_ready_ = false;
    // The owning handles go before the device, and the device (with the window's surface) before the window.
    for (FrameSlot& slot : slots_) slot = FrameSlot{};
    imgui_pool_ = {};
    framebuffers_.clear();
    ui_pass_ = {};
    swapchain_.destroy();
    device_.reset();
    frame_index_ = 0;
    last_serial_ = 0;
}

Status AppShell::restart_gpu() {
    destroy_gpu();
    return init_gpu();
}

AppShell::~AppShell() {
    destroy_gpu();
    if (imgui_ready_) {
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    if (window_) glfwDestroyWindow(window_);
    if (glfw_ready_) glfwTerminate();
}

Status AppShell::create_swapchain() {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    auto sc = gpu::Swapchain::create(*device_, {static_cast<uint32_t>(w), static_cast<uint32_t>(h), true}, swapchain_.handle());
    if (!sc) return sc.error();
    if (!framebuffers_.empty()) TRESSEL_TRY(device_->wait_idle());
    framebuffers_.clear();
    swapchain_ = std::move(*sc);
    if (!ui_pass_.valid()) {
        // Cleared and presented; the generic pass's dependencies also order it before a screenshot's copy.
        const render::AttachmentSpec color{swapchain_.format(), VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                           VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
        auto pass = render::create_render_pass(*device_, std::span<const render::AttachmentSpec>(&color, 1), nullptr, {});
        if (!pass) return pass.error();
        ui_pass_ = std::move(*pass);
    }
    for (uint32_t i = 0; i < swapchain_.image_count(); ++i) {
        VkImageView view = swapchain_.view(i);
        auto fb = render::create_framebuffer(*device_, ui_pass_.get(), std::span<const VkImageView>(&view, 1),
                                             swapchain_.extent().width, swapchain_.extent().height);
        if (!fb) return fb.error();
        framebuffers_.push_back(std::move(*fb));
    }
    if (imgui_vulkan_ready_) ImGui_ImplVulkan_SetMinImageCount(swapchain_.min_image_count());
    return {};
}

void AppShell::poll_events() { glfwPollEvents(); }

bool AppShell::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void AppShell::close() {
    close_now_ = true;
    glfwSetWindowShouldClose(window_, 1);
}

bool AppShell::minimised() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    return w == 0 || h == 0;
}

void AppShell::new_imgui_frame() {
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

Result<std::optional<AppShell::Frame>> AppShell::begin_frame() {
    FrameSlot& slot = slots_[frame_index_ % slots_.size()];
    // The renderer and the simulation write their constants in place: the previous frame must be done.
    if (last_serial_) TRESSEL_TRY(device_->wait(last_serial_));
    Frame frame;
    if (slot.timestamps_written) {
        auto sim_times = slot.sim_timestamps->read();
        auto times = slot.timestamps->read();
        if (!times) return times.error();
        if (sim_times) frame.last_times = std::move(*sim_times);
        frame.last_times.insert(frame.last_times.end(), times->begin(), times->end());
        slot.timestamps_written = false;
    }
    if (swapchain_.out_of_date()) {
        TRESSEL_TRY(create_swapchain());
        return std::optional<Frame>();
    }
    auto index = swapchain_.acquire(slot.acquired.get());
    if (!index) {
        if (swapchain_.out_of_date()) {
            TRESSEL_TRY(create_swapchain());
            return std::optional<Frame>();
        }
        return index.error();
    }
    auto cmd = device_->begin_commands();
    if (!cmd) return cmd.error();
    frame.cmd = std::move(*cmd);
    frame.image = *index;
    if (slot.timestamps->supported()) {
        frame.timestamps = &*slot.timestamps;
        frame.timestamps->reset(frame.cmd);
    }
    if (slot.sim_timestamps->supported()) {
        frame.sim_timestamps = &*slot.sim_timestamps;
        frame.sim_timestamps->reset(frame.cmd);
        frame.sim_timestamp_capacity = sim_timestamp_capacity_;
    }
    return std::optional<Frame>(std::move(frame));
}

Status AppShell::finish_frame(Frame frame, ViewportPresenter& presenter, const std::optional<fs::path>& screenshot,
                              Status* screenshot_status) {
    FrameSlot& slot = slots_[frame_index_ % slots_.size()];
    slot.timestamps_written = frame.timestamps != nullptr;
    VkCommandBuffer cmd = frame.cmd.handle();
    presenter.begin_frame(cmd, swapchain_.extent());
    VkClearValue clear{};
    clear.color = {{0.09f, 0.10f, 0.12f, 1.0f}};
    VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rpbi.renderPass = ui_pass_.get();
    rpbi.framebuffer = framebuffers_[frame.image].get();
    rpbi.renderArea.extent = swapchain_.extent();
    rpbi.clearValueCount = 1;
    rpbi.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
    ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
    vkCmdEndRenderPass(cmd);
    presenter.begin_frame(VK_NULL_HANDLE, {0, 0});

    // Screenshot: the finished swapchain image, copied out before it is presented.
    gpu::Buffer readback;
    const VkExtent2D ext = swapchain_.extent();
    const bool shot = screenshot && swapchain_.supports_readback();
    if (shot) {
        gpu::BufferDesc bd;
        bd.size = VkDeviceSize(ext.width) * ext.height * 4;
        bd.intent = gpu::MemoryIntent::Readback;
        bd.name = "screenshot";
        auto b = device_->create_buffer(bd);
        if (!b) return b.error();
        readback = std::move(*b);
        VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        ib.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        ib.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        ib.oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        ib.image = swapchain_.image(frame.image);
        ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &ib);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {ext.width, ext.height, 1};
        vkCmdCopyImageToBuffer(cmd, ib.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.handle(), 1, &region);
        ib.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        ib.dstAccessMask = 0;
        ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        ib.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0, nullptr, 1, &ib);
    }

    gpu::SubmitDesc submit;
    submit.wait_semaphores = {slot.acquired.get()};
    submit.wait_stages = {VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT};
    submit.signal_semaphores = {slot.rendered.get()};
    auto serial = device_->submit(std::move(frame.cmd), submit);
    if (!serial) return serial.error();
    slot.serial = *serial;
    last_serial_ = *serial;
    ++frame_index_;
    Status presented = swapchain_.present(frame.image, slot.rendered.get());
    Status shot_status;
    if (screenshot && !shot)
        shot_status = make_error(ErrorCode::Unsupported, "screenshot: this window system does not allow reading the window back");
    if (shot) {
        TRESSEL_TRY(device_->wait(*serial));
        std::vector<uint8_t> pixels(size_t(ext.width) * ext.height * 4);
        std::memcpy(pixels.data(), readback.mapped(), pixels.size());
        const bool bgr = swapchain_.format() == VK_FORMAT_B8G8R8A8_UNORM || swapchain_.format() == VK_FORMAT_B8G8R8A8_SRGB;
        shot_status = write_screenshot_png(std::move(pixels), ext.width, ext.height, bgr, *screenshot);
    }
    if (screenshot_status) *screenshot_status = shot_status;
    if (!presented && swapchain_.out_of_date()) return create_swapchain();
    return presented;
}

Status write_screenshot_png(std::vector<uint8_t> rgba, uint32_t w, uint32_t h, bool bgr, const fs::path& out) {
    for (size_t i = 0; i < rgba.size(); i += 4) {
        if (bgr) std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255;
    }
    std::vector<uint8_t> png;
    auto sink = [](void* ctx, void* data, int size) {
        auto* v = static_cast<std::vector<uint8_t>*>(ctx);
        v->insert(v->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
    };
    if (!stbi_write_png_to_func(sink, &png, int(w), int(h), 4, rgba.data(), int(w * 4)))
        return make_error(ErrorCode::Io, out.string() + ": PNG encoding failed");
    std::error_code ec;
    if (out.has_parent_path()) fs::create_directories(out.parent_path(), ec);
    return write_file_atomic(out, std::span<const uint8_t>(png));
}

}  // namespace tressel::editor
