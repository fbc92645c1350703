// The editor application: a GLFW window, the Vulkan device with its swapchain, Dear ImGui, the live
// scene in a viewport and the panels around it. Owns the EditorContext the panels work on.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "editor_context.h"
#include "files.h"
#include "gpu/device.h"
#include "gpu/swapchain.h"
#include "gpu/timestamps.h"
#include "runtime/scene_runtime.h"
#include "panels.h"
#include "viewport.h"

struct GLFWwindow;

namespace tressel::editor {

struct EditorOptions {
    std::filesystem::path scene;   // opened at start (empty: none)
    std::filesystem::path script;  // steps to run (script.h); empty: interactive
    std::string device;            // as TRESSEL_DEVICE
    bool validation = false;       // force the validation layers on
    bool recover = false;          // open the recovery file instead of `scene`
    uint64_t max_frames = 0;       // quit after this many frames (0 = run until closed)
    double autosave_seconds = 60.0;  // recovery file interval, seconds (> 0)
    int width = 1600, height = 900;
};

class EditorApp {
public:
    explicit EditorApp(EditorOptions options);
    ~EditorApp();
    // Returns the process exit code: 0, 1 (could not start or the GPU failed), 3 (validation errors
    // were reported), 4 (the scene or a mesh failed to load in a non-scripted run), 5 (a script step failed).
    int run();

private:
    Status init();
    Status create_swapchain();
    void destroy_framebuffers();

    // Files
    void open_path(const std::filesystem::path& path, bool from_script = false);
    void open_scene(const std::filesystem::path& path, bool from_script);
    Status save_to(const std::filesystem::path& path);
    void new_scene();
    Status recover();
    void autosave();
    void note_recent(const std::filesystem::path& path);

    // Content and jobs
    void poll_job();
    void start_content_job(runtime::ContentPlan plan, const std::string& title);
    void install_content(std::shared_ptr<runtime::SceneContent> content);
    void update_content();
    void start_export(const Request& r);

    void handle_requests();
    void handle_shortcuts();
    void run_script();
    void script_fail(const std::string& message);

    void draw_ui();
    void draw_viewport(float x, float y, float w, float h);
    void draw_modals();
    Status render_frame();
    Status write_screenshot(const std::vector<uint8_t>& bgra, uint32_t w, uint32_t h, bool bgr, const std::filesystem::path& out);
    void shutdown();

    struct FrameSlot {
        VkSemaphore acquired = VK_NULL_HANDLE;
        VkSemaphore rendered = VK_NULL_HANDLE;
        uint64_t serial = 0;
        // optional: TimestampQueries' move assignment into a used object is unsafe (it destroys its own
        // name list first), so slots are only ever emplaced into and reset.
        std::optional<gpu::TimestampQueries> timestamps, sim_timestamps;
        bool timestamps_written = false;
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
    uint64_t last_serial_ = 0;

    std::unique_ptr<runtime::SceneRuntime> live_;
    std::unique_ptr<ViewportPresenter> presenter_;
    const gpu::Image* presented_image_ = nullptr;
    VkImage presented_handle_ = VK_NULL_HANDLE;
    ImVec2 viewport_min_{0, 0}, viewport_max_{0, 0};
    uint32_t sim_frames_this_frame_ = 0;     // exact frames (scripts, Step)
    double sim_elapsed_this_frame_s_ = 0.0;  // playing: wall time for the runtime's fixed-rate advance
    bool step_once_ = false;
    bool content_failed_ = false;      // the last build failed for the current scene: wait for another change
    Scene failed_scene_;
    uint32_t timestamp_capacity_ = 1024;

    // Files and dialogs
    std::filesystem::path config_dir_;
    FileDialog file_dialog_;
    enum class DialogPurpose { None, Open, SaveAs } dialog_purpose_ = DialogPurpose::None;
    bool confirm_close_ = false, offer_recovery_ = false, quit_now_ = false;
    std::vector<std::string> dropped_;
    double last_autosave_s_ = 0.0;
    std::optional<Scene> autosaved_;

    // Scripted runs
    std::vector<nlohmann::json> script_;
    size_t script_index_ = 0;
    uint64_t script_wait_frames_ = 0;
    bool script_playing_ = false;
    bool script_expect_error_ = false;
    size_t script_errors_at_open_ = 0;
    bool script_waiting_open_ = false;
    bool script_check_job_ = false;
    int exit_code_ = 0;
    std::optional<std::filesystem::path> screenshot_;
    bool load_failed_ = false;

    friend void drop_callback(GLFWwindow*, int, const char**);
    friend void close_callback(GLFWwindow*);
};

}  // namespace tressel::editor
