// The document the editor edits: the scene, its undo history, the file it lives in, the recent-files
// list and the crash-recovery file. No window, no GPU: tests drive it directly (tests/editor).
//
// Undo: every change to `scene` becomes one step when commit() is called. The editor calls it once no
// widget is held, so a slider drag (one widget active over many frames) is one step; scripts and file
// drops commit at once. Comparing with the last committed scene, instead of instrumenting each widget,
// covers combos, colour pickers and text fields the same way and cannot miss one.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "scene/scene_types.h"

namespace tressel::editor {

struct History {
    std::vector<Scene> undo, redo;
    size_t limit = 200;
};

struct Document {
    Scene scene;
    Scene committed;                           // the scene as of the last undo step
    Scene saved;                               // the scene as last opened or saved (dirty = scene != saved)
    std::filesystem::path scene_path;          // absolute; empty for a scene never saved
    History history;
    std::vector<std::string> recent_files;     // newest first
    std::filesystem::path config_dir;          // recent.json and recovery.json live here (files.h)

    bool dirty() const { return !(scene == saved); }

    // Records the difference between `scene` and `committed` as one undo step (no-op when equal).
    void commit();
    bool undo();
    bool redo();
    // Replaces the whole scene and clears the history (open / new / recover).
    void reset(Scene s, std::filesystem::path path, bool mark_saved);
    // Takes back an edit that could not be applied: `scene` returns to `applied` (the scene running),
    // keeping the scene's folder, and the undo step that edit made is dropped.
    void revert_to(const Scene& applied);

    // Validates and writes the scene atomically to `path` (made absolute), which becomes the document's
    // file; removes the recovery file and notes the file in the recent list. Paths inside the scene are
    // saved as written; `warnings` says which relative mesh paths no longer resolve from the new folder.
    Status save_to(const std::filesystem::path& path, Diagnostics& warnings);

    // The recovery file (files.h) of this config folder.
    std::filesystem::path recovery_path() const;
    bool has_recovery() const;
    // Writes the recovery file when the scene has unsaved changes not written yet; returns whether it did.
    Result<bool> autosave();
    // Replaces the document with the recovery file's scene; `saved` is the scene's file on disk (or an
    // empty scene), so the recovered edits show as unsaved.
    Status recover();
    void discard_recovery();
    // After a clean exit: no recovery file unless the user left unsaved changes.
    void on_clean_exit();

    void load_recent();
    void note_recent(const std::filesystem::path& path, Diagnostics& warnings);

private:
    std::optional<Scene> autosaved_;           // what the recovery file holds
};

}  // namespace tressel::editor
