// The editor application: a GLFW window, the Vulkan device with its swapchain, Dear ImGui, and the
// panels around the scene. Owns the EditorContext the panels work on.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "editor_context.h"
#include "gpu/device.h"
#include "gpu/swapchain.h"
#include "panels.h"

struct GLFWwindow;

namespace tressel::editor {

struct EditorOptions {
    std::filesystem::path scene;   // opened at start (empty: none)
    std::string device;            // as TRESSEL_DEVICE
    bool validation = false;       // force the validation layers on
    uint64_t max_frames = 0;       // quit after this many frames (0 = run until closed)
    int width = 1600, height = 900;
};

class EditorApp {
public:
    explicit EditorApp(EditorOptions options);
    ~EditorApp();
    // Returns the process exit code: 0, 1 (could not start or the GPU failed), 3 (validation errors
    // were reported), 4 (the scene or a mesh failed to load).
    int run();

private:
    Status init();
    Status create_swapchain();
    void destroy_framebuffers();
    void open_scene(const std::filesystem::path& path);
    void poll_job();
    void draw_ui();
    Status render_frame();
    void shutdown();

    struct FrameSlot {
        VkSemaphore acquired = VK_NULL_HANDLE;
        VkSemaphore rendered = VK_NULL_HANDLE;
        uint64_t serial = 0;
    };

    EditorOptions options_;
    EditorContext ctx_;
    std::vector<std::unique_ptr<Panel>> panels_;
    GLFWwindow* window_ = nullptr;
    bool glfw_ready_ = false, imgui_ready_ = false, imgui_vulkan_ready_ = false;
    std::unique_ptr<gpu::Device> device_;
    gpu::Swapchain swapchain_;
    VkRenderPass render_pass_ = VK_NULL_HANDLE;
    std::vector<VkFramebuffer> framebuffers_;
    VkDescriptorPool imgui_pool_ = VK_NULL_HANDLE;
    std::array<FrameSlot, 2> frames_{};
    uint64_t frame_index_ = 0;
};

}  // namespace tressel::editor
