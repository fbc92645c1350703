// Everything the editor's panels read and change, passed to each panel explicitly (no globals).
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/progress.h"
#include "io/scene_meshes.h"
#include "scene/scene_types.h"

namespace tressel::editor {

struct LogEntry {
    double time_s = 0.0;  // seconds since the editor started
    Diagnostic diagnostic;
};

// A long operation on a worker thread: the UI polls `progress` and draws a bar with a Cancel button.
// `finish` runs on the UI thread once the worker is done, so only the UI thread touches the context.
struct Job {
    std::string title;
    std::shared_ptr<Progress> progress = std::make_shared<Progress>();
    std::future<std::function<void()>> result;  // the worker returns the UI-thread continuation
};

struct EditorContext {
    Scene scene;
    std::filesystem::path scene_path;          // empty for an unsaved scene
    std::vector<SceneMesh> meshes;             // imported meshes of `scene`, same order as scene.meshes
    bool dirty = false;
    std::vector<LogEntry> log;
    std::optional<Job> job;
    std::optional<std::string> modal_error;    // shown in a modal until dismissed
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

    void add_log(Severity severity, std::string where, std::string message);
    void add_diagnostics(const Diagnostics& d);
    void report_error(const std::string& message);  // log + modal
};

}  // namespace tressel::editor
