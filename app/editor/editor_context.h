// Everything the editor's panels read and change, passed to each panel explicitly (no globals).
// Threading: the UI thread only. Workers never touch the context; they return a continuation (job_runner.h).
#pragma once

#include <array>
#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/diagnostics.h"
#include "core/progress.h"
#include "document.h"
#include "job_runner.h"
#include "gpu/timestamps.h"
#include "io/scene_meshes.h"
#include "render/camera.h"
#include "render/renderer.h"
#include "scene/scene_types.h"

namespace tressel::editor {

struct LogEntry {
    double time_s = 0.0;  // seconds since the editor started
    Diagnostic diagnostic;
};

// What panels, menus, shortcuts and scripts ask the application to do; handled once per frame on the
// UI thread, in order.
enum class Action {
    New, Open, Save, SaveAs, Regrow, RebuildSdf, Reset, Play, Pause, Step, Undo, Redo, FrameAll, ViewFront,
    ViewSide, ViewTop, Export, Recover, DiscardRecovery, Quit,
    Screenshot,     // path: the whole window as PNG, after this frame is drawn
    DumpPositions,  // path: the simulated positions as float32 xyz (the layout of `tressel-cli bake --dump`)
    Orbit,          // amount: degrees of yaw, as a drag in the viewport turns the camera
    Seek,           // amount: the simulation frame to show; earlier than the current one re-simulates from the start
    SaveStats,      // path: what the Stats panel shows, as JSON (scripts measure the editor with it)
    Cancel,         // the running job's Cancel button
    FindParameter,  // path: the text of the parameter search box ("" shows every parameter)
    ProbeSlice,     // amount, amount2: the point of the viewport (fractions of its width and height from its
                    // top left) whose SDF slice reading is shown; negative: the mouse again
    ResetLayout,    // every panel back to the default layout for the window's size, and open
    ShowLighting,   // the Shading panel's Lighting tab
    Turntable,      // path: a folder; amount: images around the character (yaw steps of 360 / N), one per frame
    PlaceWindow,    // path: a window's title; rect: its position and size in pixels (as a drag would)
    FrameSelected,  // the camera framed on the selected hair group (all hair when none is selected)
    SelectGroup,    // amount: the hair group to select (negative: none)
    ApplyFix,       // path: the code of an advice (EditorContext::advice): its first fix, as an undoable edit
    DismissAdvice,  // path: the code of an advice to hide until the content is built again
    Stroke,         // path: a brush stroke as JSON (script.h "stroke"), drawn over frames as the mouse draws it
    ReleaseGuides,  // amount: the hair group whose guides edited by hand are given back to growth (undoable)
    Part,           // path: a part line as JSON (script.h "part"): two viewport points on the scalp
};
struct Request {
    Action action;
    std::string path;    // Open / SaveAs / Export: the file
    std::string format;  // Export: tfx, hair, usda, gltf, preset
    bool include_follows = false;  // Export
    double amount = 0.0;           // Orbit: degrees
    double amount2 = 0.0;          // ProbeSlice: the second coordinate
    float rect[4] = {0, 0, 0, 0};  // PlaceWindow: x, y, width, height
};

// Per-frame statistics the Stats panel draws.
struct FrameStats {
    std::deque<std::vector<gpu::PassTime>> history;  // GPU ms per pass, newest last
    size_t strands = 0, vertices = 0, guides = 0, follows = 0;
    double sim_time_s = 0.0;
    uint64_t sim_steps = 0;
    double last_sdf_build_ms = 0.0;
    double last_groom_ms = 0.0;
    std::string last_rebuild;          // runtime::RebuildReport::summary() of the last content installed
    std::string rest_state;            // the sag-free rest state: "solving..." or the last solve's figures
    // The hair's health, measured on the simulated guides about once a second (a read back from the device):
    // segment stretch against the rest lengths, guide vertices inside a collision field (by the field the
    // hair collides with) and the deepest, at simulation time `at_s`.
    struct Health {
        bool valid = false;
        double max_stretch = 0.0, mean_stretch = 0.0, deepest_m = 0.0, at_s = 0.0;
        size_t inside = 0, non_finite = 0;
    } health;
    std::deque<double> frame_s;        // wall seconds of the recent display frames, newest last
    render::HairLodStats hair_lod;     // what the hair pass drew last frame
    uint32_t viewport_px[2] = {0, 0};  // the render target, pixels
    double viewport_scale = 1.0;       // of the viewport's size: < 1 while interactive
    bool interactive = false;          // the viewport is drawn coarser while the camera or the hair moves
    // Display frames per second over the recent frames (0 before two frames).
    double fps() const;
};

// What the Collision panel shows about a built field.
struct SdfInfo {
    int dims[3] = {0, 0, 0};
    double cell_size_m = 0.0;
    double build_ms = 0.0;
};

// The document (scene, undo, files) plus what the editor shows around it.
struct EditorContext : Document {
    std::vector<LogEntry> log;
    JobRunner jobs;
    std::optional<std::string> modal_error;    // shown in a modal until dismissed
    std::string param_error;                   // the last rejected parameter edit (shown under the panels)
    std::vector<Request> requests;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

    // Viewport state that is not part of the scene. The camera and the scene's view (target, yaw, pitch,
    // distance, fov) are kept together by sync_camera and store_camera.
    render::OrbitCamera camera;
    bool playing = false;
    double slice_range_m = 0.0;                // |distance| at full slice colour (metres); 0 = the slice's largest
    bool content_ready = false;                // meshes, grooms and simulation match the scene's structure
    FrameStats stats;
    uint64_t gpu_bytes = 0, upload_bytes = 0, readback_bytes = 0;
    // Imported meshes, in scene.meshes order, for the panels' reports (owned by the live scene).
    const std::vector<SceneMesh>* meshes = nullptr;
    std::vector<SdfInfo> sdf_info;             // per collision mesh of the content on screen
    // What the last export wrote, for the Export panel: the files (absolute) with their sizes, the strands
    // and vertices, and the export's warnings.
    struct ExportResult {
        bool valid = false, ok = false;
        std::string format, error;
        std::vector<std::pair<std::string, uint64_t>> files;
        size_t guides = 0, follows = 0, vertices = 0;
        std::vector<std::string> warnings;
    } last_export;
    // The SDF slice on screen, for the Collision panel: its plane in world units and the grid's extent.
    struct SliceInfo {
        bool valid = false;
        int axis = 2, index = 0, cells = 0;
        double plane_m = 0.0, grid_lo_m = 0.0, grid_hi_m = 0.0, cell_size_m = 0.0;
    } slice_info;
    // The parameter panels: the search box's text (a parameter is shown when its display name or its JSON
    // key contains it, case ignored) and what the last frame drew, for the layout check and scripts
    // (`stats` writes it): each parameter's panel, JSON key, display name and whether its widget or label
    // ran past its window's right edge.
    std::string param_filter;
    bool select_lighting_tab = false;
    int selected_group = -1;           // the hair group selected in the Groom panel (frame selected), -1 none
    // Diagnostics with a one-click fix (DiagnosticFix): the content's (SceneContent::advice) and the
    // editor's own (the hair costing more than this GPU draws live), shown over the viewport.
    std::vector<Diagnostic> advice;  // the Shading panel opens its Lighting tab on its next draw
    // Each window's position and size as last drawn (x, y, width, height in pixels), for `stats`.
    std::map<std::string, std::array<float, 4>> window_rects;
    struct DrawnParam {
        std::string panel, key, label;
        bool clipped = false;  // runs past the window's right edge
        bool below = false;    // below the window's bottom edge: seen only after scrolling
    };
    std::vector<DrawnParam> drawn_params;
    std::string drawing_panel;                 // the panel being drawn (Panel::draw_window)
    std::string last_param_group;              // the last group heading drawn in this section of the panel
    // The timeline: the frame on screen and, for a skeletal clip, what it plays.
    struct Timeline {
        uint64_t frame = 0;                    // simulation frames since the last reset
        double rate_hz = 60.0;
        bool animated = false;                 // a skeletal clip plays
        std::vector<std::string> clips;
        std::string clip;
        double clip_duration_s = 0.0, clip_time_s = 0.0, blend_in_s = 0.0, start_s = 0.0, speed = 1.0;
        bool loop = true;
        std::optional<uint64_t> seek_target;   // frames still to simulate to reach a sought frame
        uint64_t seek_from = 0;
    } timeline;

    void add_log(Severity severity, std::string where, std::string message);
    void add_diagnostics(const Diagnostics& d);
    void report_error(const std::string& message);  // log + modal
    void request(Action a, std::string path = {}) { requests.push_back(Request{a, std::move(path), {}, false}); }

    // Document::reset, and the camera moved to the scene's view.
    void reset_scene(Scene s, std::filesystem::path path, bool mark_saved);
    // A change of the view's camera keys since the last sync (a panel, a script, undo, a recovered scene)
    // moves the camera there; orbiting, panning and zooming move only the camera.
    void sync_camera();
    // The camera written into the view (before a save, so the scene reopens as the artist left it). Not
    // an edit: the committed scene and the undo history take the same view, so an undo does not move
    // the camera back and the scene is not marked changed by looking around.
    void store_camera();

    // scene_to_json(scene), recomputed when the scene changed since the last call.
    const nlohmann::json& scene_json();
    // The document of a scene holding one default element in every array: the defaults the parameter
    // tables do not carry (vectors, enums, strings) are read from it for tooltips.
    const nlohmann::json& default_json();

private:
    View camera_view_;                         // the view the camera last took or gave (sync_camera)
    std::optional<Scene> json_scene_;
    nlohmann::json json_;
    std::optional<nlohmann::json> default_json_;
};

}  // namespace tressel::editor
