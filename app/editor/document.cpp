#include "document.h"

#include "core/file_io.h"
#include "files.h"
#include "groom/guides_file.h"
#include "groom/scalp_paint.h"
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
    // Guides edited by hand first, each written atomically beside the scene (the scene names them): brush
    // work in memory is saved, a guides file the scene was read with goes along to a new folder.
    for (const HairGroup& g : scene.hair_groups) {
        if (g.growth.placement != Placement::Edited) continue;
        const fs::path rel(g.growth.guide_file);
        const fs::path to = rel.is_absolute() ? rel : abs.parent_path() / rel;
        if (g.growth.edited) {
            if (Status st = save_guides_file(to, g.growth.edited->guides, g.growth.edited->scalp_triangles); !st)
                return make_error(st.error().code, "hair group '" + g.name + "': " + st.error().message);
        } else if (!rel.is_absolute()) {
            const fs::path from = scene.resolve(g.growth.guide_file);
            if (fs::exists(from, ec) && !fs::equivalent(from, to, ec)) {
                auto bytes = read_file_bytes(from);
                if (!bytes) return bytes.error();
                TRESSEL_TRY(write_file_atomic(to, std::span<const uint8_t>(*bytes)));
            }
        }
    }
    // Scalp paint likewise.
    for (const HairGroup& g : scene.hair_groups) {
        if (g.scalp.paint.empty()) continue;
        const fs::path rel(g.scalp.paint);
        const fs::path to = rel.is_absolute() ? rel : abs.parent_path() / rel;
        if (g.scalp.painted) {
            if (Status st = save_paint_file(to, *g.scalp.painted); !st) return make_error(st.error().code, "hair group '" + g.name + "': " + st.error().message);
        } else if (!rel.is_absolute()) {
            const fs::path from = scene.resolve(g.scalp.paint);
            if (fs::exists(from, ec) && !fs::equivalent(from, to, ec)) {
                auto bytes = read_file_bytes(from);
                if (!bytes) return bytes.error();
                TRESSEL_TRY(write_file_atomic(to, std::span<const uint8_t>(*bytes)));
            }
        }
    }
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
