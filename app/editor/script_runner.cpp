#include "script_runner.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace tressel::editor {

void ScriptRunner::fail(const std::string& message) {
    failure_ = "step " + std::to_string(index_) + ": " + message;
}

void ScriptRunner::tick(ScriptHost& host) {
    if (failure_ || index_ >= steps_.size()) return;
    if (!started_) started_ = std::chrono::steady_clock::now();
    if (frames_left_ > 0) {
        if (per_frame_) host.post(*per_frame_);
        if (--frames_left_ > 0) return;
        awaiting_ = true;
        if (steps_[index_].value("async", false)) {
            awaiting_ = false;
            ++index_;
            skip_wait_ = true;
        }
        return;
    }
    // Every step sees the result of the previous one, unless that one was "async" (it started work and the
    // script goes on while it runs: edits during a rebuild).
    if (host.busy() && !skip_wait_) return;
    skip_wait_ = false;
    if (awaiting_) {
        awaiting_ = false;
        auto error = host.take_error();
        if (error && !expect_error_ && !allow_error_) return fail(*error);
        if (!error && expect_error_) return fail("the step was expected to fail but succeeded");
        expect_error_ = false;
        allow_error_ = false;
        ++index_;
        if (index_ >= steps_.size()) return;
    }
    begin_step(host);
}

void ScriptRunner::begin_step(ScriptHost& host) {
    const nlohmann::json& s = steps_[index_];
    (void)host.take_error();  // a step answers only for what it causes
    awaiting_ = true;
    expect_error_ = s.value("expect_error", false);
    allow_error_ = s.value("allow_error", false);
    if (s.contains("open")) {
        host.post(Request{Action::Open, s["open"].get<std::string>()});
    } else if (s.contains("set")) {
        const std::string path = s["set"].get<std::string>();
        nlohmann::json value = s.contains("value") ? s["value"] : nlohmann::json();
        if (s.contains("value_special")) {  // what JSON text cannot spell
            const std::string sp = s["value_special"].get<std::string>();
            const double inf = std::numeric_limits<double>::infinity();
            value = sp == "nan" ? std::numeric_limits<double>::quiet_NaN() : sp == "-inf" ? -inf : inf;
        }
        Status st = host.set_value(path, value);
        if (s.value("expect_refused", false)) {
            // A refused value must be refused, and the message must name the parameter's JSON path.
            if (st) return fail("set " + path + ": the value " + value.dump() + " was expected to be refused but was accepted");
            if (st.error().message.find(path) == std::string::npos)
                return fail("set " + path + ": the refusal does not name the parameter's JSON path: " + st.error().message);
        } else if (!st && !allow_error_) {
            return fail(st.error().message.find(path) == std::string::npos ? "set " + path + ": " + st.error().message : st.error().message);
        }
        // With "allow_error", a value the scene refuses for another parameter's sake (a placement of "file"
        // with no guide file) is reported and left out, as the editor does.
    } else if (s.contains("inject_gpu_fault")) {
        if (Status st = host.inject_gpu_fault(s["inject_gpu_fault"].get<std::string>()); !st) return fail(st.error().message);
        // The failure belongs to the step that meets it: the next one begins in this same frame.
        awaiting_ = false;
        if (++index_ < steps_.size()) begin_step(host);
        return;
    } else if (s.contains("stop_after_seconds")) {
        // A soak's clock: past this many seconds since the script began, the rest of the script is skipped
        // and the editor quits.
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - *started_).count();
        if (elapsed >= s["stop_after_seconds"].get<double>()) {
            host.post(Request{Action::Quit});
            index_ = steps_.size();
            awaiting_ = false;
            return;
        }
    } else if (s.contains("play") || s.contains("frames") || s.contains("orbit")) {
        per_frame_.reset();
        if (s.contains("play")) {
            per_frame_ = Request{Action::Step};
            frames_left_ = s["play"].get<uint64_t>();
        } else if (s.contains("orbit")) {
            // A drag turning the camera by "degrees" (default 360) over N frames.
            frames_left_ = s["orbit"].get<uint64_t>();
            Request r{Action::Orbit};
            r.amount = s.value("degrees", 360.0) / double(std::max<uint64_t>(frames_left_, 1));
            per_frame_ = r;
        } else {
            frames_left_ = s["frames"].get<uint64_t>();
        }
        if (frames_left_ > 0) tick(host);  // the first frame is this one
    } else if (s.contains("action")) {
        static const std::pair<const char*, Action> map[] = {
            {"regrow", Action::Regrow},       {"rebuild_sdf", Action::RebuildSdf}, {"reset", Action::Reset},
            {"undo", Action::Undo},           {"redo", Action::Redo},              {"save", Action::Save},
            {"recover", Action::Recover},     {"frame_all", Action::FrameAll},     {"view_front", Action::ViewFront},
            {"view_side", Action::ViewSide},  {"view_top", Action::ViewTop},       {"play", Action::Play},
            {"pause", Action::Pause},         {"step", Action::Step},              {"new", Action::New},
            {"cancel", Action::Cancel},       {"reset_layout", Action::ResetLayout}, {"show_lighting", Action::ShowLighting},
            {"frame_selected", Action::FrameSelected}};
        const std::string a = s["action"].get<std::string>();
        if (a == "save" && !host.has_file()) return fail("save: the scene has no file yet; use {\"save\": path}");
        for (const auto& [name, action] : map)
            if (a == name) host.post(Request{action});
    } else if (s.contains("seek")) {
        Request r{Action::Seek};
        r.amount = double(s["seek"].get<uint64_t>());
        host.post(r);
    } else if (s.contains("screenshot")) {
        host.post(Request{Action::Screenshot, s["screenshot"].get<std::string>()});
    } else if (s.contains("save")) {
        host.post(Request{Action::SaveAs, s["save"].get<std::string>()});
    } else if (s.contains("stats")) {
        host.post(Request{Action::SaveStats, s["stats"].get<std::string>()});
    } else if (s.contains("dump")) {
        host.post(Request{Action::DumpPositions, s["dump"].get<std::string>()});
    } else if (s.contains("export")) {
        host.post(Request{Action::Export, s["export"].get<std::string>(), s["format"].get<std::string>(), s.value("follows", false)});
    } else if (s.contains("probe_slice")) {
        // [x, y]: fractions of the viewport from its top left; null: back to the mouse.
        Request r{Action::ProbeSlice};
        r.amount = s["probe_slice"].is_null() ? -1.0 : s["probe_slice"][0].get<double>();
        r.amount2 = s["probe_slice"].is_null() ? -1.0 : s["probe_slice"][1].get<double>();
        host.post(r);
    } else if (s.contains("select_group")) {
        Request r{Action::SelectGroup};
        r.amount = double(s["select_group"].get<int>());
        host.post(r);
    } else if (s.contains("stroke")) {
        host.post(Request{Action::Stroke, s["stroke"].dump()});
    } else if (s.contains("part")) {
        host.post(Request{Action::Part, s["part"].dump()});
    } else if (s.contains("release_guides")) {
        Request r{Action::ReleaseGuides};
        r.amount = double(s["release_guides"].get<int>());
        host.post(r);
    } else if (s.contains("apply_fix")) {
        host.post(Request{Action::ApplyFix, s["apply_fix"].get<std::string>()});
    } else if (s.contains("turntable")) {
        Request r{Action::Turntable, s["turntable"].get<std::string>()};
        r.amount = double(s["count"].get<int>());
        host.post(r);
    } else if (s.contains("place_window")) {
        Request r{Action::PlaceWindow, s["place_window"].get<std::string>()};
        for (int i = 0; i < 4; ++i) r.rect[i] = s["rect"][i].get<float>();
        host.post(r);
    } else if (s.contains("find_parameter")) {
        host.post(Request{Action::FindParameter, s["find_parameter"].get<std::string>()});
    } else if (s.contains("quit")) {
        host.post(Request{Action::Quit});
    } else if (s.contains("expect_busy")) {
        if (host.busy() != s["expect_busy"].get<bool>())
            return fail(host.busy() ? "the editor was expected to be idle, but work is running" : "the editor was expected to be busy with work, but it is idle");
    }
    if (s.value("async", false) && frames_left_ == 0) {
        // Go on without waiting for the work this step started; its errors count against the next step.
        awaiting_ = false;
        ++index_;
        skip_wait_ = true;
    }
}

}  // namespace tressel::editor
