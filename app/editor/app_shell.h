// The editor's application shell: the GLFW window, the Vulkan device with its surface and swapchain, the
// UI render pass Dear ImGui draws in, and the frames (acquire, record, submit, present, screenshots). Every
// Vulkan object is an owning handle (render/graphics.h Owned, gpu::Swapchain), destroyed in member order
// after the device has finished with it; nothing is destroyed by a hand-written list.
//
//   auto shell = AppShell::create(options);
//   while (!shell->should_close()) {
//       shell->poll_events();  ... ImGui frame ...
//       auto frame = shell->begin_frame();           // empty after a swapchain rebuild: skip this frame
//       record the viewport into frame->cmd;
//       shell->finish_frame(std::move(*frame), presenter, screenshot_path);
//   }
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/device.h"
#include "gpu/swapchain.h"
#include "gpu/timestamps.h"
#include "render/graphics.h"

struct GLFWwindow;

namespace tressel::editor {

class ViewportPresenter;

struct ShellOptions {
    int width = 1600, height = 900;
    std::string device;        // as TRESSEL_DEVICE
    bool validation = false;   // force the validation layers on
    uint32_t sim_timestamp_capacity = 1024;
};

using Semaphore = render::Owned<VkSemaphore, vkDestroySemaphore>;
using DescriptorPool = render::Owned<VkDescriptorPool, vkDestroyDescriptorPool>;

class AppShell {
public:
    static Result<std::unique_ptr<AppShell>> create(const ShellOptions& options);
    ~AppShell();
    AppShell(const AppShell&) = delete;
    AppShell& operator=(const AppShell&) = delete;

    gpu::Device& device() { return *device_; }
    VkRenderPass ui_pass() const { return ui_pass_.get(); }
    GLFWwindow* window() const { return window_; }

    // Window events. `on_drop` gets dropped paths; `on_close` decides whether a close request (window
    // button, Ctrl+Q) closes the window now (false: the editor asks first).
    std::function<void(std::vector<std::string>)> on_drop;
    std::function<bool()> on_close;
    void poll_events();
    bool should_close() const;
    void close();                      // closes at the end of this frame, asking nobody
    bool minimised() const;
    void new_imgui_frame();            // backends' NewFrame, then ImGui::NewFrame

    struct Frame {
        gpu::CommandBuffer cmd;
        uint32_t image = 0;
        gpu::TimestampQueries* timestamps = nullptr;      // the renderer's (reset here)
        gpu::TimestampQueries* sim_timestamps = nullptr;  // the simulation's (reset here)
        uint32_t sim_timestamp_capacity = 0;
        std::vector<gpu::PassTime> last_times;             // what this slot measured the last time it ran
    };
    // Waits for the previous frame, acquires the next image and begins its command buffer. Empty when the
    // swapchain had to be rebuilt (skip drawing this frame).
    Result<std::optional<Frame>> begin_frame();
    // Records ImGui's draw data (with the viewport presenter's image) into the UI pass, submits, presents,
    // and writes `screenshot` (the whole window, PNG) when given; how that went goes to `screenshot_status`
    // (a failed screenshot is the script's or the user's problem, not the frame's).
    Status finish_frame(Frame frame, ViewportPresenter& presenter, const std::optional<std::filesystem::path>& screenshot,
                        Status* screenshot_status = nullptr);
    bool supports_screenshots() const { return swapchain_.supports_readback(); }

    // After a lost device (or a frame that failed half-way): destroys the device and everything made on it
    // and creates them again, keeping the window and the UI's state. Whatever the caller made on the old
    // device (the runtime, the viewport presenter) must be gone first; device() is a new object after.
    Status restart_gpu();

private:
    AppShell() = default;
    Status init(const ShellOptions& options);
    Status init_gpu();
    void destroy_gpu();
    Status create_swapchain();

    struct FrameSlot {
        Semaphore acquired, rendered;
        uint64_t serial = 0;
        std::optional<gpu::TimestampQueries> timestamps, sim_timestamps;
        bool timestamps_written = false;
    };

    // Destroyed bottom-up: ImGui and the Vulkan objects before the device, the device before the window.
    GLFWwindow* window_ = nullptr;
    bool glfw_ready_ = false;
    std::unique_ptr<gpu::Device> device_;
    gpu::Swapchain swapchain_;
    render::RenderPass ui_pass_;
    std::vector<render::Framebuffer> framebuffers_;
    DescriptorPool imgui_pool_;
    std::array<FrameSlot, 2> slots_;
    uint64_t frame_index_ = 0, last_serial_ = 0;
    uint32_t sim_timestamp_capacity_ = 1024;
    ShellOptions options_;
    bool imgui_ready_ = false, imgui_vulkan_ready_ = false, close_now_ = false;
};

// The window's pixels (BGRA or RGBA rows, top first) as a PNG file, written atomically.
Status write_screenshot_png(std::vector<uint8_t> pixels, uint32_t width, uint32_t height, bool bgr,
                            const std::filesystem::path& out);

}  // namespace tressel::editor
