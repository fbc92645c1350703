#include "panels.h"

#include <imgui.h>

namespace tressel::editor {

void ScenePanel::draw(EditorContext& ctx) {
    if (!ImGui::Begin(title(), &open)) {
        ImGui::End();
        return;
    }
    ImGui::Text("%s%s", ctx.scene_path.empty() ? "(unsaved scene)" : ctx.scene_path.filename().c_str(),
                ctx.dirty ? " *" : "");
    ImGui::Separator();
    ImGui::TextUnformatted("Meshes");
    for (size_t i = 0; i < ctx.scene.meshes.size(); ++i) {
        const MeshRef& ref = ctx.scene.meshes[i];
        if (ImGui::TreeNode(ref.name.c_str())) {
            ImGui::TextDisabled("%s", ref.path.c_str());
            if (i < ctx.meshes.size()) {
                const MeshReport& r = ctx.meshes[i].report;
                glm::vec3 size = r.bounds_max - r.bounds_min;
                ImGui::Text("%zu vertices, %zu triangles", r.vertices, r.triangles);
                ImGui::Text("size %.3f x %.3f x %.3f m", size.x, size.y, size.z);
                if (r.closed())
                    ImGui::TextUnformatted("closed");
                else
                    ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "open: %zu open edges, %zu non-manifold", r.open_edges,
                                       r.non_manifold_edges);
            } else {
                ImGui::TextDisabled("not loaded");
            }
            ImGui::TreePop();
        }
    }
    ImGui::Separator();
    ImGui::Text("Collision meshes: %zu", ctx.scene.collision_meshes.size());
    ImGui::Text("Colliders: %zu", ctx.scene.colliders.size());
    ImGui::Text("Hair groups: %zu", ctx.scene.hair_groups.size());
    for (auto& g : ctx.scene.hair_groups) ImGui::BulletText("%s: %d guides", g.name.c_str(), g.growth.guides);
    ImGui::End();
}

void LogPanel::draw(EditorContext& ctx) {
    if (!ImGui::Begin(title(), &open)) {
        ImGui::End();
        return;
    }
    ImGui::Checkbox("info", &show_info_);
    ImGui::SameLine();
    if (ImGui::Button("Clear")) ctx.log.clear();
    ImGui::Separator();
    ImGui::BeginChild("log");
    for (auto& e : ctx.log) {
        if (!show_info_ && e.diagnostic.severity == Severity::Info) continue;
        ImVec4 colour = e.diagnostic.severity == Severity::Error     ? ImVec4(1, 0.4f, 0.4f, 1)
                        : e.diagnostic.severity == Severity::Warning ? ImVec4(1, 0.8f, 0.3f, 1)
                                                                     : ImVec4(0.8f, 0.8f, 0.8f, 1);
        ImGui::TextColored(colour, "[%7.2f] %s", e.time_s, format(e.diagnostic).c_str());
    }
    if (ctx.log.size() != last_size_) ImGui::SetScrollHereY(1.0f);
    last_size_ = ctx.log.size();
    ImGui::EndChild();
    ImGui::End();
}

void StatsPanel::draw(EditorContext& ctx) {
    if (!ImGui::Begin(title(), &open)) {
        ImGui::End();
        return;
    }
    ImGuiIO& io = ImGui::GetIO();
    ImGui::Text("%.1f fps (%.2f ms)", io.Framerate, 1000.0f / std::max(io.Framerate, 0.001f));
    size_t verts = 0, tris = 0;
    for (auto& m : ctx.meshes) {
        verts += m.report.vertices;
        tris += m.report.triangles;
    }
    ImGui::Text("meshes: %zu vertices, %zu triangles", verts, tris);
    ImGui::End();
}

}  // namespace tressel::editor
