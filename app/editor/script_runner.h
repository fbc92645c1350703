// Runs a script (script.h) by posting, frame after frame, the same requests the menus, buttons and
// shortcuts post, and editing parameters the way a widget does; it never reaches into the editor
// otherwise, so a scripted session exercises exactly what an artist's clicks do. Tests drive it with a
// fake host (tests/editor/editor_parts_test.cpp).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "editor_context.h"

namespace tressel::editor {

// What the runner needs from the editor.
class ScriptHost {
public:
    virtual ~ScriptHost() = default;
    // A job runs, or the scene has edits its content does not reflect yet: the step is not finished.
    virtual bool busy() const = 0;
    // The same requests a click posts (handled once per frame, in order).
    virtual void post(Request request) = 0;
    // A parameter edit as a widget makes it, then committed as one undo step.
    virtual Status set_value(const std::string& path, const nlohmann::json& value) = 0;
    // The error the editor reported since the last call (its modal message), cleared.
    virtual std::optional<std::string> take_error() = 0;
    // Whether the scene has a file to save to (the "save" action needs one in a script).
    virtual bool has_file() const = 0;
    // Makes the GPU's next call of a kind fail once ("buffer_memory", "image_memory", "descriptor_pool",
    // "device_lost": gpu::Device::inject_fault); an unknown kind is an error.
    virtual Status inject_gpu_fault(const std::string& kind) = 0;
};

class ScriptRunner {
public:
    explicit ScriptRunner(std::vector<nlohmann::json> steps) : steps_(std::move(steps)) {}

    // Called once per drawn frame, before the editor handles its requests.
    void tick(ScriptHost& host);
    bool finished() const { return index_ >= steps_.size() && !failure_; }
    const std::optional<std::string>& failure() const { return failure_; }  // "step N: message"
    size_t step_index() const { return index_; }
    bool empty() const { return steps_.empty(); }

private:
    void fail(const std::string& message);
    void begin_step(ScriptHost& host);

    std::vector<nlohmann::json> steps_;
    size_t index_ = 0;
    bool awaiting_ = false;        // the step's requests are posted; finished once the host is idle
    bool expect_error_ = false;
    bool allow_error_ = false;     // "allow_error": the step passes whether or not the editor reports an error
    uint64_t frames_left_ = 0;     // "play" / "frames": frames still to draw
    std::optional<Request> per_frame_;  // "play": a Step request per frame; "orbit": an Orbit request
    bool skip_wait_ = false;       // the previous step was "async": begin the next one even while busy
    std::optional<std::string> failure_;
    std::optional<std::chrono::steady_clock::time_point> started_;  // the first tick: "stop_after_seconds"
};

}  // namespace tressel::editor
