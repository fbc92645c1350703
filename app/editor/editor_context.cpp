#include "editor_context.h"

#include <cstdio>

#include "scene/scene_io.h"

namespace tressel::editor {

void EditorContext::add_log(Severity severity, std::string where, std::string message) {
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    LogEntry e{t, Diagnostic{severity, std::move(where), std::move(message)}};
    std::fprintf(stderr, "[%7.2f] %s\n", t, format(e.diagnostic).c_str());
    log.push_back(std::move(e));
    // The Log panel shows the recent past; a long session must not grow without bound.
    constexpr size_t kMaxLog = 4000;
    if (log.size() > kMaxLog) log.erase(log.begin(), log.begin() + (log.size() - kMaxLog / 2));
}

void EditorContext::add_diagnostics(const Diagnostics& d) {
    for (auto& item : d.items) add_log(item.severity, item.where, item.message);
}

void EditorContext::report_error(const std::string& message) {
    add_log(Severity::Error, "", message);
    modal_error = message;
}

void EditorContext::reset_scene(Scene s, std::filesystem::path path, bool mark_saved) {
    reset(std::move(s), std::move(path), mark_saved);
    camera = render::OrbitCamera::from_view(scene.view);
    camera_view_ = scene.view;
}

namespace {

bool same_camera(const View& a, const View& b) {
    return a.target_m == b.target_m && a.yaw_deg == b.yaw_deg && a.pitch_deg == b.pitch_deg && a.distance_m == b.distance_m &&
           a.fov_deg == b.fov_deg;
}

void put_camera(View& v, const render::OrbitCamera& c) {
    v.target_m = c.target_m;
    v.yaw_deg = c.yaw_deg;
    v.pitch_deg = c.pitch_deg;
    v.distance_m = c.distance_m;
    v.fov_deg = c.fov_deg;
}

}  // namespace

void EditorContext::sync_camera() {
    if (same_camera(scene.view, camera_view_)) return;
    const render::OrbitCamera from = render::OrbitCamera::from_view(scene.view);
    camera.target_m = from.target_m;
    camera.yaw_deg = from.yaw_deg;
    camera.pitch_deg = from.pitch_deg;
    camera.distance_m = from.distance_m;
    camera.fov_deg = from.fov_deg;
    camera_view_ = scene.view;
}

void EditorContext::store_camera() {
    sync_camera();  // a view edit not yet taken wins over the camera
    put_camera(scene.view, camera);
    put_camera(committed.view, camera);
    for (Scene& s : history.undo) put_camera(s.view, camera);
    for (Scene& s : history.redo) put_camera(s.view, camera);
    camera_view_ = scene.view;
}

const nlohmann::json& EditorContext::scene_json() {
    if (!json_scene_ || !(*json_scene_ == scene)) {
        json_ = scene_to_json(scene);
        json_scene_ = scene;
    }
    return json_;
}

const nlohmann::json& EditorContext::default_json() {
    if (!default_json_) {
        Scene s;
        s.meshes.emplace_back();
        s.collision_meshes.emplace_back();
        s.colliders.emplace_back();
        s.hair_groups.emplace_back();
        s.accessories.emplace_back();
        default_json_ = scene_to_json(s);
    }
    return *default_json_;
}

double FrameStats::fps() const {
    if (frame_s.size() < 2) return 0.0;
    double total = 0.0;
    for (double s : frame_s) total += s;
    return total > 0.0 ? double(frame_s.size()) / total : 0.0;
}

}  // namespace tressel::editor
