#include "script.h"

#include <algorithm>
#include <set>

#include "scene/scene_io.h"

namespace tressel::editor {

Result<std::vector<nlohmann::json>> load_script(const std::filesystem::path& file) {
    auto doc = read_json_file(file);
    if (!doc) return doc.error();
    if (!doc->is_array()) return make_error(ErrorCode::Parse, file.string() + ": a script is a JSON array of steps");
    static const std::set<std::string> actions = {"regrow", "rebuild_sdf", "reset", "undo", "redo", "save", "recover",
                                                  "frame_all", "view_front", "view_side", "view_top", "play", "pause",
                                                  "step", "new", "cancel", "reset_layout", "show_lighting", "frame_selected"};
    std::vector<nlohmann::json> steps;
    for (size_t i = 0; i < doc->size(); ++i) {
        const nlohmann::json& s = (*doc)[i];
        std::string where = file.string() + ": step " + std::to_string(i) + ": ";
        if (!s.is_object()) return make_error(ErrorCode::Parse, where + "each step is a JSON object");
        auto str = [&](const char* k) { return s.contains(k) && s[k].is_string(); };
        auto count = [&](const char* k) { return s.contains(k) && s[k].is_number_integer() && s[k].get<long long>() >= 0; };
        bool ok = false;
        if (s.contains("open")) ok = str("open");
        else if (s.contains("set"))
            ok = str("set") && (s.contains("value") != s.contains("value_special")) &&
                 (!s.contains("value_special") || (str("value_special") && (s["value_special"] == "nan" || s["value_special"] == "inf" ||
                                                                           s["value_special"] == "-inf")));
        else if (s.contains("inject_gpu_fault")) ok = str("inject_gpu_fault");
        else if (s.contains("stop_after_seconds")) ok = s["stop_after_seconds"].is_number();
        else if (s.contains("play")) ok = count("play");
        else if (s.contains("frames")) ok = count("frames");
        else if (s.contains("seek")) ok = count("seek");
        else if (s.contains("orbit")) ok = count("orbit") && (!s.contains("degrees") || s["degrees"].is_number());
        else if (s.contains("stats")) ok = str("stats");
        else if (s.contains("action")) ok = str("action") && actions.count(s["action"].get<std::string>());
        else if (s.contains("screenshot")) ok = str("screenshot");
        else if (s.contains("save")) ok = str("save");
        else if (s.contains("dump")) ok = str("dump");
        else if (s.contains("export")) ok = str("export") && str("format");
        else if (s.contains("find_parameter")) ok = str("find_parameter");
        else if (s.contains("probe_slice"))
            ok = s["probe_slice"].is_null() || (s["probe_slice"].is_array() && s["probe_slice"].size() == 2 &&
                                                s["probe_slice"][0].is_number() && s["probe_slice"][1].is_number());
        else if (s.contains("turntable")) ok = str("turntable") && s.contains("count") && s["count"].is_number_integer() &&
                                                s["count"].get<long long>() >= 1 && s["count"].get<long long>() <= 3600;
        else if (s.contains("place_window"))
            ok = str("place_window") && s.contains("rect") && s["rect"].is_array() && s["rect"].size() == 4 &&
                 std::all_of(s["rect"].begin(), s["rect"].end(), [](const nlohmann::json& x) { return x.is_number(); });
        else if (s.contains("apply_fix")) ok = str("apply_fix");
        else if (s.contains("stroke")) {
            // {"brush": name, "points_px": [[x, y], ...] or "points": [[fx, fy], ...] (fractions of the
            // viewport), optional radius_px, strength, falloff, invert, symmetry_x, front_faces_only, group};
            // or {"paint": "mask" | "density" | "length" | "comb", optional "value", ...} for scalp paint}
            const nlohmann::json& k = s["stroke"];
            auto points = [&](const char* key) {
                return k.contains(key) && k[key].is_array() && !k[key].empty() &&
                       std::all_of(k[key].begin(), k[key].end(), [](const nlohmann::json& p) {
                           return p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number();
                       });
            };
            ok = k.is_object() && ((k.contains("brush") && k["brush"].is_string()) != (k.contains("paint") && k["paint"].is_string())) &&
                 (points("points_px") != points("points"));
        }
        else if (s.contains("release_guides")) ok = s["release_guides"].is_number_integer();
        else if (s.contains("part")) {
            const nlohmann::json& k = s["part"];
            auto two = [&](const char* key) {  // two points or more (a curve)
                return k.contains(key) && k[key].is_array() && k[key].size() >= 2 && k[key].size() <= 10000 &&
                       std::all_of(k[key].begin(), k[key].end(), [](const nlohmann::json& p) {
                           return p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number();
                       });
            };
            ok = k.is_object() && (two("points_px") != two("points"));
        }
        else if (s.contains("select_group")) ok = s["select_group"].is_number_integer();
        else if (s.contains("quit")) ok = true;
        else if (s.contains("expect_busy")) ok = s["expect_busy"].is_boolean();
        for (const char* flag : {"async", "expect_error", "allow_error", "expect_refused"})
            if (s.contains(flag) && !s[flag].is_boolean()) ok = false;
        if (!ok) return make_error(ErrorCode::Parse, where + "not a valid step: " + s.dump());
        steps.push_back(s);
    }
    return steps;
}

}  // namespace tressel::editor
