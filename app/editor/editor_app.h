// The editor: the parts put together. The application shell (app_shell.h) owns the window, the device and
// the frames; the document (document.h) the scene, its history and files; the job runner (job_runner.h)
// the work that must not freeze the window; the scene runtime (engine/runtime) what the viewport shows;
// the script runner (script_runner.h) posts the requests a click posts; the panels (panels.h) draw the
// parameters. This file turns requests into work and lays the windows out.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app_shell.h"
#include "brush_tool.h"
#include "editor_context.h"
#include "files.h"
#include "panels.h"
#include "runtime/scene_runtime.h"
#include "script_runner.h"
#include "viewport.h"

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

class EditorApp final : private ScriptHost {
public:
    explicit EditorApp(EditorOptions options);
    ~EditorApp() override;
    // Returns the process exit code: 0, 1 (could not start or the GPU failed), 3 (validation errors
    // were reported), 4 (the scene or a mesh failed to load in a non-scripted run), 5 (a script step failed).
    int run();

private:
    Status init();
    // The runtime and the viewport presenter, made on the shell's device (at start and after a restart).
    Status create_gpu_parts();
    // After a lost device or a frame that failed half-way: the device and everything on it made again,
    // the scene's CPU content installed on it, the document untouched. False when the GPU cannot be
    // brought back (the caller quits; the recovery file holds the scene).
    bool restart_gpu(const std::string& why);

    // Files
    void open_path(const std::filesystem::path& path);
    void open_scene(const std::filesystem::path& path);
    void save_to(const std::filesystem::path& path);
    void new_scene();
    Status recover();
    void autosave();

    // Content and jobs
    void start_content_job(runtime::ContentPlan plan, const std::string& title);
    void content_failed(const Scene& scene, const std::string& message, bool cancelled);
    void update_content();
    void start_export(const Request& r);
    void dump_positions(const std::filesystem::path& path);
    // The viewport's frame description (camera, lighting, overlays, colouring) at full quality.
    render::FrameDesc viewport_frame() const;
    // "Capture turntable": one image per drawn frame, the pose held, the camera's yaw in steps of 360 / N.
    struct Turntable {
        std::filesystem::path dir;
        int count = 0, next = 0;
        double yaw0_deg = 0.0;
    };
    std::optional<Turntable> turntable_;
    nlohmann::json last_turntable_;          // what the last capture wrote (stats)
    bool turntable_dialog_ = false;
    int turntable_count_ = 36;
    std::string turntable_dir_;
    void capture_turntable_image();
    void draw_turntable_dialog();
    void draw_status_bar(ImVec2 pos, ImVec2 size);
    // The window layout: remembered per window size in the config folder (layout_WxH.ini), restored at
    // start; Window > Reset layout puts every panel back where the code places it.
    std::filesystem::path layout_file_;
    bool layout_reset_ = false;
    std::optional<Request> place_window_;
    void save_layout();
    // Advice: set from each content installed; the cost advice is added once a content has drawn
    // kCostFrames still frames slower than kLiveFrameMs.
    void install_advice(const runtime::SceneContent& content);
    void check_hair_cost();
    void apply_fix(const std::string& code);
    void draw_advice(ImVec2 pos, float width);
    uint64_t content_frame_ = 0;       // frames_drawn_ when the content was installed
    bool cost_checked_ = false;
    static constexpr double kLiveFrameMs = 100.0;
    static constexpr uint64_t kCostFrames = 12;
    void save_stats(const std::filesystem::path& path);

    void handle_requests();
    void handle_shortcuts();

    void draw_ui();
    void draw_viewport(float x, float y, float w, float h);
    void draw_modals();
    void update_stats();
    Status render_frame();

    // ScriptHost: what a script may do is what a click does.
    bool busy() const override;
    void post(Request request) override { ctx_.requests.push_back(std::move(request)); }
    Status set_value(const std::string& path, const nlohmann::json& value) override;
    std::optional<std::string> take_error() override;
    bool has_file() const override { return !ctx_.scene_path.empty(); }
    Status inject_gpu_fault(const std::string& kind) override;

    EditorOptions options_;
    EditorContext ctx_;
    std::vector<std::unique_ptr<Panel>> panels_;
    std::unique_ptr<AppShell> shell_;
    std::unique_ptr<runtime::SceneRuntime> live_;
    std::unique_ptr<ViewportPresenter> presenter_;
    const gpu::Image* presented_image_ = nullptr;
    VkImage presented_handle_ = VK_NULL_HANDLE;
    ImVec2 viewport_min_{0, 0}, viewport_max_{0, 0};
    // The slice probe: what the SDF slice shows under the mouse, or under a point a script placed (a
    // fraction of the viewport, kept until the script moves or clears it).
    std::optional<runtime::SceneRuntime::SliceProbe> slice_probe_;
    std::optional<ImVec2> scripted_probe_;
    // When the hair's health (Stats) was last measured, and at which simulation step.
    std::chrono::steady_clock::time_point last_health_{};
    std::chrono::steady_clock::time_point last_density_slice_{};
    uint64_t health_steps_ = UINT64_MAX;
    void draw_slice_overlays(ImVec2 pos, ImVec2 size, bool hovered, bool dragging);
    // Grooming brushes (brush_tool.h): the toolbar over the viewport, strokes drawn with the left button
    // (Alt + left still orbits), F / Shift+F adjust the radius / strength as in Blender's sculpt mode.
    BrushTool brush_;
    struct ScriptedStroke {
        std::vector<glm::vec2> points;  // viewport pixels
        size_t next = 0;
    };
    std::optional<ScriptedStroke> scripted_stroke_;
    enum class BrushAdjust { None, Radius, Strength } brush_adjust_ = BrushAdjust::None;
    ImVec2 adjust_anchor_{0, 0};
    float adjust_before_ = 0.0f;
    void draw_brush_toolbar();
    // One tool at a time: a guide brush, a paint layer, the part tool, or none of them (the camera).
    void choose_tool(std::optional<BrushType> brush, std::optional<PaintLayer> paint, bool part);
    void handle_brush_input(ImVec2 pos, ImVec2 size, bool hovered);
    Status begin_stroke(glm::vec2 at, bool invert);
    void finish_stroke();
    void start_scripted_stroke(const std::string& spec);
    void release_guides(int group);
    // The part tool: a line drawn on the scalp becomes the selected group's parting (growth.part).
    bool part_tool_ = false;
    std::optional<glm::vec2> part_from_;
    std::vector<glm::vec2> part_path_;
    // A straight line drawn with the part tool is a plane parting (growth.part); a curved one is painted
    // into the comb map along the curve (groom/scalp_paint.h paint_part_curve).
    void apply_part_path(const std::vector<glm::vec2>& path);
    // The group the part tool acts on, its content and its scalp, or why there is none (no group, guides
    // from a file or edited by hand, no scalp mesh).
    struct PartTarget {
        int group = -1;
        const runtime::SceneContent* content = nullptr;
        BrushTarget target;
    };
    Result<PartTarget> part_target() const;
    BrushView brush_view() const;
    void apply_part(glm::vec2 from, glm::vec2 to);
    uint32_t sim_frames_this_frame_ = 0;     // exact frames (Step, scripts)
    double sim_elapsed_this_frame_s_ = 0.0;  // playing: wall time for the runtime's fixed-rate advance
    bool step_once_ = false;
    // Seeking (the timeline's scrub bar): frames simulated per drawn frame on the way to the sought one,
    // so the window keeps drawing and shows the progress.
    static constexpr uint64_t kSeekFramesPerDraw = 4;
    void seek(uint64_t frame);
    // Interactive quality (CPU devices): the viewport is drawn at half size and with coarser hair while
    // the camera or the hair moves, and refined once both have been still for kRefineAfterS.
    render::OrbitCamera last_camera_;
    uint64_t still_frames_ = 0;
    std::chrono::steady_clock::time_point last_motion_{};
    bool content_failed_ = false;            // the last build failed for the current scene: wait for another change
    Scene failed_scene_;
    // The document the runtime last refused to sync, and why: reported once, not every frame it stays so.
    std::optional<std::pair<Scene, std::string>> sync_refused_;

    // Files and dialogs
    FileDialog file_dialog_;
    enum class DialogPurpose { None, Open, SaveAs } dialog_purpose_ = DialogPurpose::None;
    bool confirm_close_ = false, offer_recovery_ = false, quit_now_ = false;
    std::vector<std::string> dropped_;
    double last_autosave_s_ = 0.0;
    uint64_t frames_drawn_ = 0;             // frames drawn since start (stats)
    int gpu_restarts_ = 0;                 // restart_gpu calls within 10 s of each other
    double last_gpu_restart_s_ = -1e9;

    std::optional<ScriptRunner> script_;
    std::optional<std::filesystem::path> screenshot_;
    int exit_code_ = 0;
    bool load_failed_ = false;
};

}  // namespace tressel::editor
