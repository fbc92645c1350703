// The editor's parts without a window: the document (undo, save, recovery, recent files), the job runner
// and the script runner (which may only post the requests a click posts).
#include <gtest/gtest.h>

#include <cmath>

#include <atomic>
#include <chrono>
#include <thread>

#include "document.h"
#include "job_runner.h"
#include "scene/scene_io.h"
#include "script_runner.h"
#include "test_paths.h"

namespace tressel::editor {
namespace {

namespace fs = std::filesystem;

Scene default_scene() {
    auto loaded = load_scene(test::source("presets/scenes/default.json"));
    EXPECT_TRUE(loaded.ok());
    return loaded.ok() ? loaded->scene : Scene{};
}

TEST(Document, ASliderDragIsOneUndoStep) {
    Document doc;
    const Scene original = default_scene();
    doc.reset(original, {}, true);
    // A drag: the value changes every frame while the widget is held; the editor commits on release.
    for (int frame = 1; frame <= 20; ++frame) doc.scene.hair_groups[0].simulation.local_stiffness = 0.6 - 0.01 * frame;
    doc.commit();
    const Scene dragged = doc.scene;
    doc.scene.collision_meshes[0].margin_m = 0.01;
    doc.commit();
    doc.commit();  // nothing changed: no step
    EXPECT_EQ(doc.history.undo.size(), 2u);
    ASSERT_TRUE(doc.undo());
    EXPECT_TRUE(doc.scene == dragged);
    ASSERT_TRUE(doc.undo());
    EXPECT_TRUE(doc.scene == original) << "one undo takes back the whole drag";
    EXPECT_FALSE(doc.undo());
    ASSERT_TRUE(doc.redo());
    ASSERT_TRUE(doc.redo());
    EXPECT_DOUBLE_EQ(doc.scene.collision_meshes[0].margin_m, 0.01);
    EXPECT_FALSE(doc.redo());
    // An edit after an undo drops the redo branch.
    ASSERT_TRUE(doc.undo());
    doc.scene.hair_groups[0].growth.guides = 100;
    doc.commit();
    EXPECT_FALSE(doc.redo());
    EXPECT_TRUE(doc.dirty());
}

TEST(Document, RevertDropsTheStepOfAnEditThatCouldNotBeApplied) {
    Document doc;
    const Scene original = default_scene();
    doc.reset(original, {}, true);
    doc.scene.hair_groups[0].scalp.mesh = "nowhere";
    doc.commit();
    doc.revert_to(original);
    EXPECT_TRUE(doc.scene == original);
    EXPECT_TRUE(doc.history.undo.empty());
}

TEST(Document, SaveAutosaveRecoverRoundTrip) {
    const fs::path dir = test::scratch_dir("document_files");
    Document doc;
    doc.config_dir = dir / "config";
    doc.reset(default_scene(), {}, true);
    doc.scene.hair_groups[0].simulation.damping = 0.2;
    doc.commit();
    Diagnostics warnings;
    ASSERT_TRUE(doc.save_to(dir / "saved.json", warnings).ok());
    EXPECT_FALSE(doc.dirty());
    EXPECT_EQ(doc.scene_path, fs::absolute(dir / "saved.json"));
    auto reread = load_scene(dir / "saved.json");
    ASSERT_TRUE(reread.ok()) << reread.error().describe();
    EXPECT_DOUBLE_EQ(reread->scene.hair_groups[0].simulation.damping, 0.2);
    ASSERT_FALSE(doc.recent_files.empty());
    EXPECT_EQ(fs::path(doc.recent_files.front()), fs::absolute(dir / "saved.json").lexically_normal());
    Document other;
    other.config_dir = doc.config_dir;
    other.load_recent();
    EXPECT_EQ(other.recent_files, doc.recent_files) << "the recent list is kept in the config folder";

    // Nothing unsaved: no recovery file. An edit: one, written once.
    auto wrote = doc.autosave();
    ASSERT_TRUE(wrote.ok());
    EXPECT_FALSE(*wrote);
    doc.scene.hair_groups[0].growth.guides = 1234;
    doc.commit();
    wrote = doc.autosave();
    ASSERT_TRUE(wrote.ok());
    EXPECT_TRUE(*wrote);
    wrote = doc.autosave();
    EXPECT_FALSE(*wrote) << "the same scene is not written twice";
    EXPECT_TRUE(doc.has_recovery());

    // After a crash: the recovered document holds the edit, knows its file, and shows the edit as unsaved.
    Document after;
    after.config_dir = doc.config_dir;
    ASSERT_TRUE(after.has_recovery());
    ASSERT_TRUE(after.recover().ok());
    EXPECT_EQ(after.scene.hair_groups[0].growth.guides, 1234);
    EXPECT_EQ(after.scene_path, doc.scene_path);
    EXPECT_TRUE(after.dirty());
    EXPECT_DOUBLE_EQ(after.saved.hair_groups[0].simulation.damping, 0.2) << "saved = the file on disk";
    // Saving clears the recovery file; a clean exit with nothing unsaved leaves none.
    ASSERT_TRUE(after.save_to(after.scene_path, warnings).ok());
    EXPECT_FALSE(after.has_recovery());
    after.on_clean_exit();
    EXPECT_FALSE(after.has_recovery());

    // A save that cannot be written fails with the path and leaves the old file as it was.
    const auto before = load_scene(dir / "saved.json");
    doc.scene.hair_groups[0].simulation.damping = 0.5;
    Status bad = doc.save_to(dir / "no_such_folder" / "x.json", warnings);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("no_such_folder"), std::string::npos) << bad.error().message;
    EXPECT_TRUE(load_scene(dir / "saved.json")->scene == before->scene);
}

TEST(JobRunner, RunsOneJobAtATimeAndFinishesOnTheCallersThread) {
    JobRunner jobs;
    std::atomic<bool> release{false};
    bool finished = false;
    const auto caller = std::this_thread::get_id();
    std::thread::id worker, continuation;
    ASSERT_TRUE(jobs.start("work", [&](Progress& p) -> std::function<void()> {
        worker = std::this_thread::get_id();
        while (!release && !p.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        p.set(1.0f, "done");
        return [&] {
            finished = true;
            continuation = std::this_thread::get_id();
        };
    }));
    EXPECT_TRUE(jobs.busy());
    EXPECT_EQ(jobs.current()->title, "work");
    EXPECT_FALSE(jobs.start("second", [](Progress&) { return std::function<void()>(); })) << "one job at a time";
    EXPECT_FALSE(jobs.poll());
    release = true;
    while (!jobs.poll()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_TRUE(finished);
    EXPECT_FALSE(jobs.busy());
    EXPECT_NE(worker, caller);
    EXPECT_EQ(continuation, caller);
    // Cancel: the worker sees it through its Progress.
    ASSERT_TRUE(jobs.start("cancelled", [](Progress& p) -> std::function<void()> {
        while (!p.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return {};
    }));
    jobs.cancel();
    while (!jobs.poll()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// A host that records what the script asks for; busy for a few frames after each request, like a job.
class FakeHost : public ScriptHost {
public:
    std::vector<Request> posted;
    std::vector<std::pair<std::string, nlohmann::json>> sets;
    int busy_frames = 0;
    int open_frames = 3;  // how long an open keeps the host busy
    std::optional<std::string> error;
    bool file = false;

    bool busy() const override { return busy_frames > 0; }
    void post(Request r) override {
        if (r.action == Action::Open) busy_frames = open_frames;  // opening runs as a job
        posted.push_back(std::move(r));
    }
    std::vector<std::string> faults;
    Status set_value(const std::string& path, const nlohmann::json& value) override {
        if (path == "bad") return make_error(ErrorCode::InvalidArgument, "no parameter 'bad'");
        // A validation that names the path, and one (under "mute.") that does not.
        if (value.is_number() && !(std::isfinite(value.get<double>()) && value.get<double>() <= 1.0))
            return make_error(ErrorCode::InvalidArgument, (path.rfind("mute.", 0) == 0 ? std::string("value") : path) + " must be in [0, 1]");
        sets.emplace_back(path, value);
        return {};
    }
    std::optional<std::string> take_error() override { return std::exchange(error, std::nullopt); }
    bool has_file() const override { return file; }
    Status inject_gpu_fault(const std::string& kind) override {
        if (kind != "device_lost") return make_error(ErrorCode::InvalidArgument, "unknown fault '" + kind + "'");
        faults.push_back(kind);
        return {};
    }
    void frame() {  // what the editor's frame does after the runner's tick
        if (busy_frames > 0) --busy_frames;
    }
};

std::vector<Action> actions(const FakeHost& h) {
    std::vector<Action> a;
    for (const Request& r : h.posted) a.push_back(r.action);
    return a;
}

void run(ScriptRunner& runner, FakeHost& host, int max_frames = 100) {
    for (int i = 0; i < max_frames && !runner.finished() && !runner.failure(); ++i) {
        runner.tick(host);
        host.frame();
    }
}

TEST(ScriptRunner, PostsTheRequestsAClickPosts) {
    ScriptRunner runner(nlohmann::json::parse(R"([
        {"open": "a.json"},
        {"set": "hair_groups[0].simulation.damping", "value": 0.3},
        {"play": 3},
        {"action": "undo"},
        {"screenshot": "s.png"},
        {"dump": "p.f32"},
        {"save": "b.json"},
        {"export": "x.tfx", "format": "tfx", "follows": true},
        {"quit": true}
    ])").get<std::vector<nlohmann::json>>());
    FakeHost host;
    runner.tick(host);
    EXPECT_EQ(actions(host), std::vector<Action>{Action::Open});
    EXPECT_EQ(host.posted[0].path, "a.json");
    // While the open runs, the next step waits.
    host.frame();
    runner.tick(host);
    EXPECT_TRUE(host.sets.empty());
    run(runner, host);
    ASSERT_TRUE(runner.finished()) << runner.failure().value_or("");
    ASSERT_EQ(host.sets.size(), 1u);
    EXPECT_EQ(host.sets[0].first, "hair_groups[0].simulation.damping");
    const std::vector<Action> expected{Action::Open, Action::Step, Action::Step, Action::Step, Action::Undo, Action::Screenshot,
                                       Action::DumpPositions, Action::SaveAs, Action::Export, Action::Quit};
    EXPECT_EQ(actions(host), expected) << "play N is N Step clicks, one per frame";
    EXPECT_EQ(host.posted[8].format, "tfx");
    EXPECT_TRUE(host.posted[8].include_follows);
}

TEST(ScriptRunner, AsyncStepsGoOnWhileTheWorkRuns) {
    ScriptRunner runner(nlohmann::json::parse(R"([
        {"open": "a.json", "async": true},
        {"expect_busy": true, "async": true},
        {"set": "hair_groups[0].shading.root_color", "value": [1, 0, 0], "async": true},
        {"frames": 2, "async": true},
        {"expect_busy": true},
        {"expect_busy": false}
    ])").get<std::vector<nlohmann::json>>());
    FakeHost host;
    host.open_frames = 10;
    runner.tick(host);  // posts the open: busy for ten frames
    host.frame();
    runner.tick(host);  // expect_busy, then ...
    host.frame();
    runner.tick(host);  // ... the edit, while still busy
    EXPECT_EQ(host.sets.size(), 1u) << "the edit is made while the open runs";
    run(runner, host);
    EXPECT_TRUE(runner.finished()) << runner.failure().value_or("");
    // Without async, a step waits: expect_busy after a plain open sees the editor idle.
    ScriptRunner waits(nlohmann::json::parse(R"([{"open": "a.json"}, {"expect_busy": true}])").get<std::vector<nlohmann::json>>());
    FakeHost idle;
    run(waits, idle);
    ASSERT_TRUE(waits.failure());
    EXPECT_NE(waits.failure()->find("expected to be busy"), std::string::npos) << *waits.failure();
}

TEST(ScriptRunner, AStepFailsOnTheErrorItCausesUnlessItExpectsOne) {
    {
        ScriptRunner runner(nlohmann::json::parse(R"([{"open": "broken.json"}, {"quit": true}])").get<std::vector<nlohmann::json>>());
        FakeHost host;
        runner.tick(host);
        host.error = "broken.json: line 3: not JSON";
        run(runner, host);
        ASSERT_TRUE(runner.failure());
        EXPECT_NE(runner.failure()->find("step 0: broken.json"), std::string::npos) << *runner.failure();
        EXPECT_EQ(actions(host), std::vector<Action>{Action::Open}) << "nothing after a failed step";
    }
    {
        ScriptRunner runner(nlohmann::json::parse(R"([{"open": "broken.json", "expect_error": true}, {"quit": true}])")
                                .get<std::vector<nlohmann::json>>());
        FakeHost host;
        runner.tick(host);
        host.error = "broken";
        run(runner, host);
        EXPECT_TRUE(runner.finished()) << runner.failure().value_or("");
    }
    {
        ScriptRunner runner(nlohmann::json::parse(R"([{"open": "fine.json", "expect_error": true}])").get<std::vector<nlohmann::json>>());
        FakeHost host;
        run(runner, host);
        ASSERT_TRUE(runner.failure());
        EXPECT_NE(runner.failure()->find("expected to fail"), std::string::npos);
    }
    {
        ScriptRunner runner(nlohmann::json::parse(R"([{"set": "bad", "value": 1}])").get<std::vector<nlohmann::json>>());
        FakeHost host;
        run(runner, host);
        ASSERT_TRUE(runner.failure());
        EXPECT_NE(runner.failure()->find("no parameter 'bad'"), std::string::npos);
    }
    {
        ScriptRunner runner(nlohmann::json::parse(R"([{"action": "save"}])").get<std::vector<nlohmann::json>>());
        FakeHost host;
        run(runner, host);
        ASSERT_TRUE(runner.failure()) << "saving a scene without a file needs a path in a script";
        EXPECT_TRUE(host.posted.empty());
    }
}

TEST(ScriptRunner, RefusedValuesMustBeRefusedWithTheirJsonPath) {
    {
        ScriptRunner runner(nlohmann::json::parse(R"([
            {"set": "a.b", "value": 2, "expect_refused": true},
            {"set": "a.b", "value_special": "nan", "expect_refused": true},
            {"set": "a.b", "value_special": "-inf", "expect_refused": true},
            {"set": "a.b", "value": 0.5},
            {"inject_gpu_fault": "device_lost"},
            {"quit": true}
        ])").get<std::vector<nlohmann::json>>());
        FakeHost host;
        run(runner, host);
        EXPECT_TRUE(runner.finished()) << runner.failure().value_or("");
        ASSERT_EQ(host.sets.size(), 1u) << "only the accepted value reaches the scene";
        EXPECT_EQ(host.faults, std::vector<std::string>{"device_lost"});
    }
    {  // accepted where a refusal was expected
        ScriptRunner runner(nlohmann::json::parse(R"([{"set": "a.b", "value": 0.5, "expect_refused": true}])").get<std::vector<nlohmann::json>>());
        FakeHost host;
        run(runner, host);
        ASSERT_TRUE(runner.failure());
        EXPECT_NE(runner.failure()->find("expected to be refused"), std::string::npos) << *runner.failure();
    }
    {  // refused without saying which parameter
        ScriptRunner runner(nlohmann::json::parse(R"([{"set": "mute.b", "value_special": "inf", "expect_refused": true}])").get<std::vector<nlohmann::json>>());
        FakeHost host;
        run(runner, host);
        ASSERT_TRUE(runner.failure());
        EXPECT_NE(runner.failure()->find("does not name the parameter's JSON path"), std::string::npos) << *runner.failure();
    }
    {  // an unknown fault kind fails the step
        ScriptRunner runner(nlohmann::json::parse(R"([{"inject_gpu_fault": "gremlins"}])").get<std::vector<nlohmann::json>>());
        FakeHost host;
        run(runner, host);
        ASSERT_TRUE(runner.failure());
        EXPECT_NE(runner.failure()->find("gremlins"), std::string::npos);
    }
}

TEST(ScriptRunner, StopAfterSecondsSkipsTheRestAndQuits) {
    ScriptRunner runner(nlohmann::json::parse(R"([
        {"stop_after_seconds": 100},
        {"action": "regrow"},
        {"stop_after_seconds": 0},
        {"action": "undo"},
        {"action": "redo"}
    ])").get<std::vector<nlohmann::json>>());
    FakeHost host;
    run(runner, host);
    EXPECT_TRUE(runner.finished()) << runner.failure().value_or("");
    EXPECT_EQ(actions(host), (std::vector<Action>{Action::Regrow, Action::Quit})) << "the first clock had time left, the second none";
}

}  // namespace
}  // namespace tressel::editor
