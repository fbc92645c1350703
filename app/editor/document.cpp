#include "document.h"

#include "files.h"
#include "scene/scene_io.h"

namespace tressel::editor {

namespace fs = std::filesystem;

void Document::commit() {
    if (scene == committed) return;
    history.undo.push_back(std::move(committed));
    if (history.undo.size() > history.limit) history.undo.erase(history.undo.begin());
    history.redo.clear();
    committed = scene;
}

bool Document::undo() {
    commit();
    if (history.undo.empty()) return false;
    history.redo.push_back(std::move(scene));
    scene = std::move(history.undo.back());
    history.undo.pop_back();
    committed = scene;
    return true;
}

bool Document::redo() {
    commit();
    if (history.redo.empty()) return false;
    history.undo.push_back(std::move(scene));
    scene = std::move(history.redo.back());
    history.redo.pop_back();
    committed = scene;
    return true;
}

void Document::reset(Scene s, fs::path path, bool mark_saved) {
    scene = std::move(s);
    committed = scene;
    if (mark_saved) saved = scene;
    scene_path = std::move(path);
    history = {};
}

void Document::revert_to(const Scene& applied) {
    const auto origin = scene.origin;
    scene = applied;
    scene.origin = origin;
    committed = scene;
    if (!history.undo.empty() && history.undo.back() == scene) history.undo.pop_back();
}

Status Document::save_to(const fs::path& path, Diagnostics& warnings) {
    std::error_code ec;
    const fs::path abs = fs::absolute(path, ec);
    TRESSEL_TRY(validate_scene(scene));
    TRESSEL_TRY(save_scene(scene, abs));
    for (const MeshRef& m : scene.meshes)
        if (!m.path.empty() && fs::path(m.path).is_relative() && !fs::exists(abs.parent_path() / m.path, ec))
            warnings.warn("save", abs.string() + ": mesh '" + m.name + "' path '" + m.path +
                                         "' is relative and does not resolve from the new folder");
    saved = scene;
    scene_path = abs;
    discard_recovery();
    note_recent(abs, warnings);
    return {};
}

fs::path Document::recovery_path() const { return recovery_file(config_dir); }

bool Document::has_recovery() const {
    std::error_code ec;
    return fs::exists(recovery_path(), ec);
}

Result<bool> Document::autosave() {
    if (!dirty() || (autosaved_ && *autosaved_ == scene)) return false;
    TRESSEL_TRY(write_recovery(recovery_path(), scene, scene_path));
    autosaved_ = scene;
    return true;
}

Status Document::recover() {
    auto r = read_recovery(recovery_path());
    if (!r) return r.error();
    reset(r->scene, r->scene_path, false);
    // What was saved before the crash is what the recovered scene is compared with for "unsaved".
    Scene on_disk;
    if (!r->scene_path.empty())
        if (auto loaded = load_scene(r->scene_path)) on_disk = loaded->scene;
    saved = on_disk;
    autosaved_ = scene;
    return {};
}

void Document::discard_recovery() {
    std::error_code ec;
    fs::remove(recovery_path(), ec);
    autosaved_.reset();
}

void Document::on_clean_exit() {
    if (!dirty()) discard_recovery();
}

void Document::load_recent() { recent_files = load_recent_files(config_dir); }

void Document::note_recent(const fs::path& path, Diagnostics& warnings) {
    add_recent_file(recent_files, path);
    if (Status s = save_recent_files(config_dir, recent_files); !s) warnings.warn("files", s.error().message);
}

}  // namespace tressel::editor
