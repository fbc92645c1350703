#include "files.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "groom/guides_file.h"
#include "groom/scalp_paint.h"
#include "scene/scene_io.h"

namespace tressel::editor {

namespace fs = std::filesystem;

fs::path config_dir() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return fs::path(xdg) / "tressel";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".config" / "tressel";
    return fs::temp_directory_path() / "tressel";
}

std::vector<std::string> load_recent_files(const fs::path& dir) {
    std::vector<std::string> out;
    auto doc = read_json_file(dir / "recent.json");
    if (!doc || !doc->is_object() || !doc->contains("recent") || !(*doc)["recent"].is_array()) return out;
    for (auto& v : (*doc)["recent"])
        if (v.is_string()) out.push_back(v.get<std::string>());
    return out;
}

Status save_recent_files(const fs::path& dir, const std::vector<std::string>& files) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return make_error(ErrorCode::Io, dir.string() + ": cannot create the config folder: " + ec.message());
    nlohmann::json doc;
    doc["recent"] = files;
    std::string text = doc.dump(2) + "\n";
    return write_file_atomic(dir / "recent.json", std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void add_recent_file(std::vector<std::string>& files, const fs::path& file, size_t limit) {
    std::error_code ec;
    std::string abs = fs::absolute(file, ec).lexically_normal().string();
    files.erase(std::remove(files.begin(), files.end(), abs), files.end());
    files.insert(files.begin(), abs);
    if (files.size() > limit) files.resize(limit);
}

fs::path recovery_file(const fs::path& dir) { return dir / "recovery.json"; }

Status write_recovery(const fs::path& file, const Scene& scene, const fs::path& scene_path) {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    nlohmann::json doc;
    doc["format"] = "tressel-recovery";
    doc["scene_path"] = scene_path.string();
    doc["base_dir"] = scene.origin.dir.string();
    doc["scene"] = scene_to_json(scene);
    // Brush work held in memory goes beside it, one guides file per group, so a crash never loses a stroke.
    nlohmann::json edited = nlohmann::json::array();
    for (size_t i = 0; i < scene.hair_groups.size(); ++i) {
        const Growth& g = scene.hair_groups[i].growth;
        if (g.placement != Placement::Edited || !g.edited) continue;
        const fs::path guides = file.parent_path() / ("recovery." + std::to_string(i) + ".tguides");
        TRESSEL_TRY(save_guides_file(guides, g.edited->guides, g.edited->scalp_triangles));
        edited.push_back({{"group", i}, {"file", guides.string()}});
    }
    doc["edited_guides"] = edited;
    nlohmann::json painted = nlohmann::json::array();
    for (size_t i = 0; i < scene.hair_groups.size(); ++i) {
        const Scalp& s = scene.hair_groups[i].scalp;
        if (!s.painted) continue;
        const fs::path paint = file.parent_path() / ("recovery." + std::to_string(i) + ".tpaint");
        TRESSEL_TRY(save_paint_file(paint, *s.painted));
        painted.push_back({{"group", i}, {"file", paint.string()}});
    }
    doc["scalp_paint"] = painted;
    std::string text = doc.dump(1) + "\n";
    return write_file_atomic(file, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

Result<Recovered> read_recovery(const fs::path& file) {
    auto doc = read_json_file(file);
    if (!doc) return doc.error();
    if (!doc->is_object() || doc->value("format", "") != "tressel-recovery" || !doc->contains("scene"))
        return make_error(ErrorCode::Parse, file.string() + ": not a tressel recovery file");
    Diagnostics diag;
    fs::path base = (*doc).value("base_dir", "");
    auto scene = scene_from_json((*doc)["scene"], base, diag);
    if (!scene) return make_error(scene.error().code, file.string() + ": " + scene.error().message);
    if (doc->contains("edited_guides") && (*doc)["edited_guides"].is_array()) {
        for (const auto& e : (*doc)["edited_guides"]) {
            if (!e.is_object() || !e.value("group", nlohmann::json()).is_number_unsigned() || !e.value("file", nlohmann::json()).is_string())
                return make_error(ErrorCode::Parse, file.string() + ": edited_guides holds an entry without a group and a file");
            const size_t gi = e["group"].get<size_t>();
            if (gi >= scene->hair_groups.size() || scene->hair_groups[gi].growth.placement != Placement::Edited)
                return make_error(ErrorCode::Parse, file.string() + ": edited_guides names hair group " + std::to_string(gi) + ", which has no guides edited by hand");
            auto guides = load_edited_guides(e["file"].get<std::string>());
            if (!guides) return make_error(guides.error().code, file.string() + ": " + guides.error().message);
            scene->hair_groups[gi].growth.edited = std::make_shared<const EditedGuides>(std::move(*guides));
        }
    }
    if (doc->contains("scalp_paint") && (*doc)["scalp_paint"].is_array()) {
        for (const auto& e : (*doc)["scalp_paint"]) {
            if (!e.is_object() || !e.value("group", nlohmann::json()).is_number_unsigned() || !e.value("file", nlohmann::json()).is_string())
                return make_error(ErrorCode::Parse, file.string() + ": scalp_paint holds an entry without a group and a file");
            const size_t gi = e["group"].get<size_t>();
            if (gi >= scene->hair_groups.size() || scene->hair_groups[gi].scalp.paint.empty())
                return make_error(ErrorCode::Parse, file.string() + ": scalp_paint names hair group " + std::to_string(gi) + ", which has no scalp paint");
            auto paint = load_paint_file(e["file"].get<std::string>());
            if (!paint) return make_error(paint.error().code, file.string() + ": " + paint.error().message);
            scene->hair_groups[gi].scalp.painted = std::make_shared<const ScalpPaint>(std::move(*paint));
        }
    }
    return Recovered{std::move(*scene), fs::path((*doc).value("scene_path", ""))};
}

void FileDialog::open(std::string title, Mode mode, std::vector<std::string> extensions, fs::path start) {
    title_ = std::move(title);
    mode_ = mode;
    extensions_ = std::move(extensions);
    std::error_code ec;
    if (start.empty() || !fs::is_directory(start, ec)) start = fs::current_path(ec);
    dir_ = fs::absolute(start, ec);
    name_.clear();
    error_.clear();
    visible_ = true;
    opening_ = true;
    refresh();
}

void FileDialog::refresh() {
    entries_.clear();
    std::error_code ec;
    for (fs::directory_iterator it(dir_, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        const auto& e = *it;
        std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code ec2;
        if (!e.is_directory(ec2) && !extensions_.empty()) {
            std::string ext = e.path().extension().string();
            std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
            if (std::find(extensions_.begin(), extensions_.end(), ext) == extensions_.end()) continue;
        }
        entries_.push_back(e);
    }
    if (ec) error_ = dir_.string() + ": " + ec.message();
    std::sort(entries_.begin(), entries_.end(), [](const fs::directory_entry& a, const fs::directory_entry& b) {
        std::error_code e1, e2;
        bool da = a.is_directory(e1), db = b.is_directory(e2);
        if (da != db) return da;
        return a.path().filename() < b.path().filename();
    });
}

std::optional<fs::path> FileDialog::draw() {
    if (!visible_) return std::nullopt;
    if (opening_) {
        ImGui::OpenPopup(title_.c_str());
        opening_ = false;
    }
    std::optional<fs::path> chosen;
    ImGui::SetNextWindowSize(ImVec2(640, 440), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal(title_.c_str(), nullptr)) {
        ImGui::TextUnformatted(dir_.string().c_str());
        if (ImGui::Button("Up")) {
            dir_ = dir_.parent_path();
            refresh();
        }
        ImGui::SameLine();
        if (ImGui::Button("Refresh")) refresh();
        if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", error_.c_str());
        ImGui::BeginChild("entries", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 2), true);
        fs::path go_into;
        for (auto& e : entries_) {
            std::error_code ec;
            bool dir = e.is_directory(ec);
            std::string label = (dir ? "[dir] " : "      ") + e.path().filename().string();
            if (ImGui::Selectable(label.c_str(), name_ == e.path().filename().string(), ImGuiSelectableFlags_AllowDoubleClick)) {
                if (dir) {
                    if (ImGui::IsMouseDoubleClicked(0)) go_into = e.path();
                } else {
                    name_ = e.path().filename().string();
                    if (ImGui::IsMouseDoubleClicked(0)) chosen = e.path();
                }
            }
        }
        ImGui::EndChild();
        if (!go_into.empty()) {
            dir_ = go_into;
            refresh();
        }
        char buf[512];
        std::snprintf(buf, sizeof buf, "%s", name_.c_str());
        if (ImGui::InputText("file name", buf, sizeof buf)) name_ = buf;
        if (ImGui::Button(mode_ == Mode::Open ? "Open" : "Save") && !name_.empty()) {
            fs::path p(name_);
            chosen = p.is_absolute() ? p : dir_ / p;
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) {
            visible_ = false;
            ImGui::CloseCurrentPopup();
        }
        if (chosen) {
            visible_ = false;
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    } else {
        visible_ = false;
    }
    return chosen;
}

}  // namespace tressel::editor
