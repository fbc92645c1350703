#include "editor_context.h"

#include <cstdio>

#include "scene/scene_io.h"

namespace tressel::editor {

void EditorContext::add_log(Severity severity, std::string where, std::string message) {
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    LogEntry e{t, Diagnostic{severity, std::move(where), std::move(message)}};
    std::fprintf(stderr, "[%7.2f] %s\n", t, format(e.diagnostic).c_str());
    log.push_back(std::move(e));
}

void EditorContext::add_diagnostics(const Diagnostics& d) {
    for (auto& item : d.items) add_log(item.severity, item.where, item.message);
}

void EditorContext::report_error(const std::string& message) {
    add_log(Severity::Error, "", message);
    modal_error = message;
}

void EditorContext::commit() {
    if (scene == committed) return;
    history.undo.push_back(std::move(committed));
    if (history.undo.size() > history.limit) history.undo.erase(history.undo.begin());
    history.redo.clear();
    committed = scene;
}

bool EditorContext::undo() {
    commit();
    if (history.undo.empty()) return false;
    history.redo.push_back(std::move(scene));
    scene = std::move(history.undo.back());
    history.undo.pop_back();
    committed = scene;
    return true;
}

bool EditorContext::redo() {
    commit();
    if (history.redo.empty()) return false;
    history.undo.push_back(std::move(scene));
    scene = std::move(history.redo.back());
    history.redo.pop_back();
    committed = scene;
    return true;
}

void EditorContext::reset_scene(Scene s, std::filesystem::path path, bool mark_saved) {
    scene = std::move(s);
    committed = scene;
    if (mark_saved) saved = scene;
    scene_path = std::move(path);
    history = {};
    camera = render::OrbitCamera::from_view(scene.view);
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
        default_json_ = scene_to_json(s);
    }
    return *default_json_;
}

}  // namespace tressel::editor
