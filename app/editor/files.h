// Editor files outside the scene: the recent-files list and the crash-recovery file (both in the user's
// config folder), and an ImGui file browser.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "scene/scene_types.h"

namespace tressel::editor {

// $XDG_CONFIG_HOME/tressel, else $HOME/.config/tressel (created on first write).
std::filesystem::path config_dir();

// recent.json: {"recent": ["/abs/scene.json", ...]}, newest first. A missing or unreadable file is an
// empty list (the list is a convenience; a broken one must not stop the editor).
std::vector<std::string> load_recent_files(const std::filesystem::path& dir);
Status save_recent_files(const std::filesystem::path& dir, const std::vector<std::string>& files);
void add_recent_file(std::vector<std::string>& files, const std::filesystem::path& file, size_t limit = 10);

// recovery.json: the scene document with the file it came from and the folder its relative paths
// resolve against, written atomically by autosave and removed after a save or a clean exit.
std::filesystem::path recovery_file(const std::filesystem::path& dir);
Status write_recovery(const std::filesystem::path& file, const Scene& scene, const std::filesystem::path& scene_path);
struct Recovered {
    Scene scene;
    std::filesystem::path scene_path;  // the file the scene was edited from ("" = never saved)
};
// Errors name the recovery file and the problem (Parse, or the scene's validation message).
Result<Recovered> read_recovery(const std::filesystem::path& file);

// A modal file browser drawn with ImGui. open() shows it; draw() returns the chosen path once.
class FileDialog {
public:
    enum class Mode { Open, Save };
    void open(std::string title, Mode mode, std::vector<std::string> extensions, std::filesystem::path start = {});
    std::optional<std::filesystem::path> draw();
    bool visible() const { return visible_; }

private:
    void refresh();
    std::string title_;
    Mode mode_ = Mode::Open;
    std::vector<std::string> extensions_;  // ".json", ".fbx"...; empty = every file
    std::filesystem::path dir_;
    std::vector<std::filesystem::directory_entry> entries_;
    std::string name_;
    std::string error_;
    bool visible_ = false, opening_ = false;
};

}  // namespace tressel::editor
