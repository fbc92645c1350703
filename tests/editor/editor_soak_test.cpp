// The editor soaked: a scripted session of random edits of every scene parameter (in range, at the bounds,
// and out of range, NaN or infinite through the script), regrows, field rebuilds, play, reset, seek, undo and
// redo, save and reopen, broken files opened, for TRESSEL_SOAK_SECONDS (60 in the test suite; the 10-minute
// run is `TRESSEL_SOAK_SECONDS=600 ctest -R Editor.Soak`, README "Tests"). Bars: no crash, no
// validation error, every refused value refused with its parameter's JSON path, and resident and GPU memory
// at each reopening of the scene back within 5% of where they were after the first minute (a quarter of the
// run when it is shorter).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "run_process.h"
#include "scene/params.h"
#include "scene/scene_io.h"
#include "test_paths.h"

namespace tressel::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Parameters whose upper bound costs minutes of CPU-driver time (counts of strands, cells, vertices,
// iterations): random values stay below these, and the bound itself is set, left to start its work for a
// few frames, cancelled and undone (so Cancel is soaked too).
const std::map<std::string, double>& soak_caps() {
    static const std::map<std::string, double> caps{
        {"collision_meshes[].cells_x", 112},           {"hair_groups[].growth.guides", 3000},
        {"hair_groups[].growth.density_per_cm2", 6},  {"hair_groups[].growth.vertices_per_strand", 32},
        {"hair_groups[].follow.per_guide", 24},        {"hair_groups[].follow.count", 90000},
        {"hair_groups[].follow.density_per_cm2", 60},  {"hair_groups[].follow.subdivisions", 3},
        {"hair_groups[].render.factor", 4},            {"hair_groups[].simulation.gpu_vertices_per_strand", 32},
        {"hair_groups[].simulation.local_iterations", 8}, {"hair_groups[].simulation.length_iterations", 8},
        {"hair_groups[].simulation.volume_cells", 64}, {"simulation.substeps", 6},
        {"hair_groups[].growth.length", 1.0},          {"simulation.sim_rate_hz", 240},
    };
    return caps;
}

std::string concrete(std::string_view table_path) {  // "hair_groups[].simulation" -> "hair_groups[0].simulation"
    std::string s(table_path), out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '[' && i + 1 < s.size() && s[i + 1] == ']') {
            out += "[0]";
            ++i;
        } else {
            out += s[i];
        }
    }
    return out;
}

json::json_pointer pointer_of(const std::string& path) {  // "a[0].b" -> "/a/0/b"
    std::string p = "/";
    for (char c : path) p += c == '.' || c == '[' ? '/' : c == ']' ? '\0' : c;
    p.erase(std::remove(p.begin(), p.end(), '\0'), p.end());
    return json::json_pointer(p);
}

struct Param {
    std::string table, path;  // "hair_groups[].simulation", "hair_groups[0].simulation.damping"
    const ParamDecl* decl;
};

class SoakScript {
public:
    SoakScript(uint32_t seed, std::vector<Param> params, fs::path scene, fs::path dir)
        : rng_(seed), params_(std::move(params)), scene_(std::move(scene)), dir_(std::move(dir)) {}

    json build(double seconds, int cycles) {
        json steps = json::array();
        // Idle frames: the scene drawn with nothing else happening keeps no memory per frame. (Mesa's CPU
        // driver kept 1.4 MB a frame while it compiled the compute rasterizer's vertex pass again at every
        // dispatch; shared/dispatch.h, OPAQUE_ZERO.)
        steps.push_back({{"open", scene_.string()}});
        steps.push_back({{"frames", 10}});
        steps.push_back({{"stats", (dir_ / "idle_0.json").string()}});
        steps.push_back({{"frames", 40}});
        steps.push_back({{"stats", (dir_ / "idle_1.json").string()}});
        for (int c = 0; c < cycles; ++c) {
            // The first cycles always run (a memory comparison needs checkpoints however slow the machine).
            if (c >= kMinCycles) steps.push_back({{"stop_after_seconds", seconds}});
            // A checkpoint: the scene as opened, a few frames played, then what the editor holds.
            steps.push_back({{"open", scene_.string()}});
            steps.push_back({{"play", 4}});
            steps.push_back({{"stats", (dir_ / ("checkpoint_" + std::to_string(c) + ".json")).string()}});
            for (int k = 0; k < 10; ++k) random_step(steps, c);
            // Saved with the cycle's edits and opened again.
            steps.push_back({{"save", (dir_ / "resaved.json").string()}, {"allow_error", true}});
            steps.push_back({{"open", (dir_ / "resaved.json").string()}, {"allow_error", true}});
            steps.push_back({{"play", 2}, {"allow_error", true}});
        }
        steps.push_back({{"quit", true}});
        return steps;
    }
    int refusals = 0;
    static constexpr int kMinCycles = 4;

private:
    double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng_); }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

    void random_step(json& steps, int cycle) {
        const int r = pick(100);
        if (r < 45) return edit(steps, false);
        if (r < 65) return edit(steps, true);
        if (r < 90) {
            static const char* actions[] = {"regrow", "rebuild_sdf", "reset", "undo", "undo", "redo", "frame_all", "view_side",
                                            "view_top", "view_front", "play", "pause", "step"};
            const std::string a = actions[pick(int(std::size(actions)))];
            steps.push_back({{"action", a}, {"allow_error", true}});
            if (a == "play") steps.push_back({{"frames", 1 + pick(6)}});
            if (a == "play") steps.push_back({{"action", "pause"}});
            return;
        }
        if (r < 94) return steps.push_back({{"play", 1 + pick(8)}, {"allow_error", true}});
        if (r < 96) return steps.push_back({{"seek", pick(6)}, {"allow_error", true}});
        if (r < 98) return steps.push_back({{"orbit", 3}, {"degrees", uniform(-90, 90)}});
        static const char* broken[] = {"negative/LeePerrySmith_mangled.glb", "negative/Lucy100k_mangled.ply",
                                       "negative/mangled_header_hang.ply", "negative/mutated_segv.ply"};
        steps.push_back({{"open", testdata(broken[(cycle + pick(4)) % 4]).string()}, {"expect_error", true}});
    }

    void edit(json& steps, bool refused) {
        const Param& p = params_[size_t(pick(int(params_.size())))];
        const ParamDecl& d = *p.decl;
        const std::string key = std::string(p.table) + "." + std::string(d.key);
        const auto cap = soak_caps().find(key);
        const double hi = cap != soak_caps().end() ? std::min(d.max, cap->second) : d.max;
        json step{{"set", p.path}};
        if (refused) {
            ++refusals;
            step["expect_refused"] = true;
            switch (d.type) {
                case ParamType::Float:
                case ParamType::Int: {
                    const int how = pick(4);
                    const double span = std::max(1.0, d.max - d.min);
                    if (how == 0) step["value_special"] = "nan";
                    else if (how == 1) step["value_special"] = pick(2) ? "inf" : "-inf";
                    else if (how == 2) step["value"] = d.max + span * uniform(0.01, 2.0) + (d.type == ParamType::Int ? 1 : 0);
                    else step["value"] = d.min - span * uniform(0.01, 2.0) - (d.type == ParamType::Int ? 1 : 0);
                    break;
                }
                case ParamType::Vec3: step["value"] = json::array({d.min, d.max + std::max(1.0, d.max - d.min), d.min}); break;
                case ParamType::Bool: step["value"] = "yes"; break;
                case ParamType::Enum: step["value"] = "not_a_" + std::string(d.key); break;
                default: step["value"] = json::object({{"hostile", true}}); break;
            }
            steps.push_back(step);
            return;
        }
        step["allow_error"] = true;  // a valid value may still fail to build (an empty scalp region): reported, not a failure
        switch (d.type) {
            case ParamType::Float:
            case ParamType::Int: {
                const int how = pick(5);
                const bool at_heavy_max = how == 1 && hi < d.max;
                double v = how == 0 ? d.min : how == 1 ? d.max : uniform(d.min, hi);
                if (d.type == ParamType::Int) v = std::round(v);
                step["value"] = v;
                if (at_heavy_max) {
                    // The bound of a costly count: started, cancelled, undone.
                    step["async"] = true;
                    steps.push_back(step);
                    steps.push_back({{"frames", 3}, {"async", true}});
                    steps.push_back({{"action", "cancel"}, {"allow_error", true}});
                    steps.push_back({{"action", "undo"}, {"allow_error", true}});
                    return;
                }
                break;
            }
            case ParamType::Vec3: {
                json a = json::array();
                for (int i = 0; i < 3; ++i) a.push_back(pick(4) == 0 ? (pick(2) ? d.min : hi) : uniform(d.min, hi));
                step["value"] = a;
                break;
            }
            case ParamType::Bool: step["value"] = pick(2) == 1; break;
            case ParamType::Enum: {
                std::vector<std::string> values;
                std::string all(d.enum_values);
                for (size_t b = 0, e; b <= all.size(); b = e + 1) {
                    e = all.find('|', b);
                    if (e == std::string::npos) e = all.size();
                    values.push_back(all.substr(b, e - b));
                }
                step["value"] = values[size_t(pick(int(values.size())))];
                break;
            }
            default: return;
        }
        steps.push_back(step);
    }

    std::mt19937 rng_;
    std::vector<Param> params_;
    fs::path scene_, dir_;
};

double soak_seconds() {
    const char* s = std::getenv("TRESSEL_SOAK_SECONDS");
    return s && std::atof(s) > 0 ? std::atof(s) : 60.0;
}

TEST(Editor, SoakRandomEditsKeepMemoryFlatAndRefuseBadValuesByPath) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X server (the test command runs under xvfb-run)";
    const double seconds = soak_seconds();
    fs::path dir = scratch_dir("editor_soak");
    // The shipped default scene, its mesh path made absolute so the copy can live anywhere. On the CPU
    // driver it draws at 2 to 3 frames a second at full density: the minute in the suite uses it with
    // 300 guides, 600 follows and a 24-cell field (as the other editor tests do), so that a minute holds
    // several cycles; TRESSEL_SOAK_SCENE=default soaks it as shipped.
    auto doc = read_json_file(source("presets/scenes/default.json"));
    ASSERT_TRUE(doc);
    json j = *doc;
    j["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    const char* which = std::getenv("TRESSEL_SOAK_SCENE");
    if (!which || std::string(which) != "default") {
        j["collision_meshes"][0]["cells_x"] = 24;
        j["hair_groups"][0]["growth"]["guides"] = 300;
        j["hair_groups"][0]["follow"]["count"] = 600;
    }
    const fs::path scene = dir / "default.json";
    std::ofstream(scene) << j.dump(2);
    auto loaded = load_scene(scene);
    ASSERT_TRUE(loaded) << loaded.error().message;
    const json full = scene_to_json(loaded->scene);

    // Every declared parameter the scene holds (numbers, switches, choices, vectors).
    std::vector<Param> params;
    for (const ParamTable& t : scene_param_tables()) {
        const std::string base = concrete(t.path);
        for (const ParamDecl& d : t.decls) {
            if (d.type == ParamType::String || d.type == ParamType::Path || d.type == ParamType::StringList) continue;
            if (d.key == "version") continue;  // the format's version: refused by design, not a parameter to soak
            const std::string path = base.empty() ? std::string(d.key) : base + "." + std::string(d.key);
            if (full.contains(pointer_of(path))) params.push_back({std::string(t.path), path, &d});
        }
    }
    ASSERT_GT(params.size(), 80u) << "the default scene holds most parameters";

    SoakScript gen(20261127u, params, scene, dir);
    const json steps = gen.build(seconds, int(seconds / 4) + 8);
    const fs::path script = dir / "soak.json";
    std::ofstream(script) << steps.dump(1);
    const std::string cmd = "XDG_CONFIG_HOME=" + quote((dir / "config").string()) + " " + quote(TRESSEL_EDITOR) +
                            " --validation --size 960x540 --no-scene --script " + quote(script.string());
    auto r = run_process(cmd);
    // The log is long: keep it beside the scratch files, show its end.
    std::ofstream(dir / "editor.log") << r.err;
    const std::string tail = r.err.substr(r.err.size() > 6000 ? r.err.size() - 6000 : 0);
    ASSERT_EQ(r.exit_code, 0) << tail;
    EXPECT_NE(r.err.find(" 0 validation errors"), std::string::npos) << tail;
    EXPECT_GT(gen.refusals, 0);

    // Memory at each checkpoint (the scene reopened and played 4 frames).
    struct Point { double t; double resident, gpu, objects, frames; };
    auto point = [](const json& s) {
        const json& m = s["memory"];
        return Point{s["elapsed_s"].get<double>(), m["resident_bytes"].get<double>(), m["gpu_bytes"].get<double>(),
                     m["gpu_objects"].get<double>(), s["frames_drawn"].get<double>()};
    };
    auto idle0 = read_json_file(dir / "idle_0.json"), idle1 = read_json_file(dir / "idle_1.json");
    ASSERT_TRUE(idle0 && idle1);
    const Point i0 = point(*idle0), i1 = point(*idle1);
    const double idle_per_frame = (i1.resident - i0.resident) / std::max(1.0, i1.frames - i0.frames);
    std::vector<Point> points;
    for (int c = 0;; ++c) {
        auto s = read_json_file(dir / ("checkpoint_" + std::to_string(c) + ".json"));
        if (!s) break;
        points.push_back(point(*s));
        EXPECT_EQ((*s)["validation_errors"].get<int>(), 0);
    }
    ASSERT_GE(points.size(), size_t(SoakScript::kMinCycles)) << "every cycle begins with a checkpoint";
    // The reference: the first checkpoint after a quarter of the run (a minute at most), and never the first
    // one (before it, buffers that keep their high-water capacity have not met the edits yet) nor the last.
    const double settle = std::min(60.0, seconds / 4.0);
    size_t ref = 1;
    while (ref + 2 < points.size() && points[ref].t < settle) ++ref;
    const Point& last = points.back();
    std::string table;
    char line[200];
    for (const Point& p : points) {
        std::snprintf(line, sizeof(line), "  t %6.1f s, frame %5.0f: resident %7.1f MiB, GPU %6.1f MiB in %4.0f objects\n", p.t, p.frames,
                      p.resident / 1048576.0, p.gpu / 1048576.0, p.objects);
        table += line;
    }
    const Point& r0 = points[ref];
    std::printf("soak of %.0f s: %zu checkpoints, reference at t %.1f s, %d refusals scripted; %.3f MiB kept per idle frame over "
                "%.0f frames\n%s",
                seconds, points.size(), r0.t, gen.refusals, idle_per_frame / 1048576.0, i1.frames - i0.frames, table.c_str());
    // Nothing is kept per frame drawn (the driver's recompiles kept 1.4 MiB: 56 MiB over the idle frames), the
    // GPU memory and objects of the same scene are the same, and the process's resident memory is back within
    // 5% of the reference.
    EXPECT_LE(idle_per_frame, 0.25 * 1048576.0) << table;
    EXPECT_LE(last.gpu, r0.gpu * 1.05) << table;
    EXPECT_GE(last.gpu, r0.gpu * 0.95) << "the same scene holds the same GPU memory\n" << table;
    EXPECT_LE(last.objects, r0.objects * 1.05) << table;
    EXPECT_LE(last.resident, r0.resident * 1.05) << table;
}

}  // namespace
}  // namespace tressel::test
