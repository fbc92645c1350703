#include "panels.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <imgui.h>

#include "param_widgets.h"
#include "scene/scene_io.h"

namespace tressel::editor {

namespace {

std::string ptr(const char* array, size_t i, const char* sub = nullptr) {
    std::string p = std::string("/") + array + "/" + std::to_string(i);
    if (sub) p += std::string("/") + sub;
    return p;
}

std::string unique_name(const std::vector<std::string>& taken, std::string base) {
    if (base.empty()) base = "item";
    std::string name = base;
    for (int i = 2; std::find(taken.begin(), taken.end(), name) != taken.end(); ++i) name = base + std::to_string(i);
    return name;
}

void section(EditorContext& ctx, const char* text) {
    ctx.last_param_group.clear();  // a new section starts its own group headings
    ImGui::Spacing();
    ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.0f, 1.0f), "%s", text);
    ImGui::Separator();
}

}  // namespace

void Panel::draw_window(EditorContext& ctx) {
    if (!open) return;
    if (!ImGui::Begin(title(), &open)) {
        ImGui::End();
        return;
    }
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    ctx.window_rects[title()] = {pos.x, pos.y, size.x, size.y};
    ImGui::PushItemWidth(-ImGui::GetWindowWidth() * 0.42f);
    ctx.drawing_panel = title();
    ctx.last_param_group.clear();
    draw(ctx);
    ctx.drawing_panel.clear();
    ImGui::PopItemWidth();
    ImGui::End();
}

void ScenePanel::draw(EditorContext& ctx) {
    ImGui::Text("%s%s", ctx.scene_path.empty() ? "(unsaved scene)" : ctx.scene_path.filename().c_str(), ctx.dirty() ? " *" : "");
    if (!ctx.param_error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "rejected: %s", ctx.param_error.c_str());
    draw_param_table(ctx, "", "", {"format", "version"});
    section(ctx, "Meshes");
    size_t remove = SIZE_MAX;
    for (size_t i = 0; i < ctx.scene.meshes.size(); ++i) {
        const MeshRef& ref = ctx.scene.meshes[i];
        bool scalp = std::any_of(ctx.scene.hair_groups.begin(), ctx.scene.hair_groups.end(),
                                 [&](const HairGroup& g) { return g.scalp.mesh == ref.name; });
        auto cm = std::find_if(ctx.scene.collision_meshes.begin(), ctx.scene.collision_meshes.end(),
                               [&](const CollisionMesh& c) { return c.mesh == ref.name; });
        bool collision = cm != ctx.scene.collision_meshes.end();
        std::string roles = std::string(scalp ? " scalp" : "") + (collision ? " collision" : "") + (ref.visible ? " display" : "");
        ImGui::PushID(int(i));
        if (ImGui::TreeNodeEx("mesh", ImGuiTreeNodeFlags_DefaultOpen, "%s  [%s ]", ref.name.c_str(), roles.c_str())) {
            if (ImGui::Checkbox("collision role", &collision)) {
                if (collision) {
                    CollisionMesh c;
                    c.mesh = ref.name;
                    ctx.scene.collision_meshes.push_back(c);
                } else {
                    ctx.scene.collision_meshes.erase(cm);
                }
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("build a signed distance field of this mesh for hair collision");
            draw_param_table(ctx, "meshes[]", ptr("meshes", i));
            draw_param_table(ctx, "meshes[].transform", ptr("meshes", i, "transform"));
            if (ctx.meshes && i < ctx.meshes->size()) {
                const MeshReport& r = (*ctx.meshes)[i].report;
                glm::vec3 size = r.bounds_max - r.bounds_min;
                ImGui::Text("%zu vertices, %zu triangles, %.3f x %.3f x %.3f m", r.vertices, r.triangles, size.x, size.y, size.z);
                if (!r.closed())
                    ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "open: %zu open edges, %zu non-manifold", r.open_edges,
                                       r.non_manifold_edges);
            }
            if (ImGui::Button("Remove mesh")) remove = i;
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    if (remove != SIZE_MAX) {
        Scene next = ctx.scene;
        std::string name = next.meshes[remove].name;
        next.meshes.erase(next.meshes.begin() + long(remove));
        std::erase_if(next.collision_meshes, [&](const CollisionMesh& c) { return c.mesh == name; });
        for (auto& g : next.hair_groups) std::erase(g.simulation.sdf, name);
        if (next.view.slice_mesh == name) next.view.slice_mesh.clear();  // the slice goes to the first field
        Status s = validate_scene(next);
        if (s) ctx.scene = std::move(next);
        else ctx.report_error("cannot remove mesh '" + name + "': " + s.error().message);
    }
    if (ImGui::Button("Add mesh...")) dialog_.open("Add mesh", FileDialog::Mode::Open, {".fbx", ".obj", ".gltf", ".glb", ".ply"}, ctx.scene.origin.dir);
    if (auto chosen = dialog_.draw()) {
        std::vector<std::string> names;
        for (auto& m : ctx.scene.meshes) names.push_back(m.name);
        MeshRef ref;
        ref.name = unique_name(names, chosen->stem().string());
        ref.path = chosen->string();
        ctx.scene.meshes.push_back(ref);
    }
    section(ctx, "Contents");
    ImGui::Text("Collision meshes: %zu  colliders: %zu  hair groups: %zu", ctx.scene.collision_meshes.size(),
                ctx.scene.colliders.size(), ctx.scene.hair_groups.size());
}

void GroomPanel::draw(EditorContext& ctx) {
    if (ImGui::Button("Regrow")) ctx.request(Action::Regrow);
    ImGui::SameLine();
    ImGui::TextDisabled("(edits regrow on a worker while you drag)");
    for (size_t i = 0; i < ctx.scene.hair_groups.size(); ++i) {
        ImGui::PushID(int(i));
        // Clicking a group's header selects it (F frames it); the selected one is highlighted.
        const bool selected = ctx.selected_group == int(i);
        if (selected) ImGui::PushStyleColor(ImGuiCol_Header, ImGui::GetStyleColorVec4(ImGuiCol_HeaderActive));
        const bool expanded = ImGui::CollapsingHeader(ctx.scene.hair_groups[i].name.c_str(), ImGuiTreeNodeFlags_DefaultOpen);
        if (selected) ImGui::PopStyleColor();
        if (ImGui::IsItemClicked()) ctx.selected_group = int(i);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("click to select this group: F frames it in the viewport");
        if (expanded) {
            draw_param_table(ctx, "hair_groups[]", ptr("hair_groups", i));
            section(ctx, "Scalp");
            draw_param_table(ctx, "hair_groups[].scalp", ptr("hair_groups", i, "scalp"));
            section(ctx, "Region");
            draw_param_table(ctx, "hair_groups[].scalp.region", ptr("hair_groups", i, "scalp/region"));
            section(ctx, "Growth: placement, counts, shape");
            draw_param_table(ctx, "hair_groups[].growth", ptr("hair_groups", i, "growth"));
            section(ctx, "Follow hair");
            draw_param_table(ctx, "hair_groups[].follow", ptr("hair_groups", i, "follow"));
            section(ctx, "Smoothing");
            draw_param_table(ctx, "hair_groups[].smoothing", ptr("hair_groups", i, "smoothing"));
        }
        ImGui::PopID();
    }
    if (ImGui::Button("Add hair group") && !ctx.scene.meshes.empty()) {
        std::vector<std::string> names;
        for (auto& g : ctx.scene.hair_groups) names.push_back(g.name);
        HairGroup g = ctx.scene.hair_groups.empty() ? HairGroup{} : ctx.scene.hair_groups.back();
        g.name = unique_name(names, "group");
        if (g.scalp.mesh.empty()) g.scalp.mesh = ctx.scene.meshes.front().name;
        ctx.scene.hair_groups.push_back(g);
    }
    if (!ctx.scene.hair_groups.empty()) {
        ImGui::SameLine();
        if (ImGui::Button("Remove last group")) ctx.scene.hair_groups.pop_back();
    }
}

// The timeline: the frame on screen, and for a skeletal clip its picker and where the clip is. Dragging the
// scrub bar seeks when it is let go; a frame before the current one is simulated again from the start
// (the hair of an earlier frame depends on every frame before it), with a progress bar.
static void draw_timeline(EditorContext& ctx) {
    EditorContext::Timeline& tl = ctx.timeline;
    section(ctx, "Timeline");
    if (tl.animated) {
        const std::string current = tl.clip.empty() ? std::string("(unnamed clip)") : tl.clip;
        if (ImGui::BeginCombo("clip", current.c_str())) {
            for (size_t i = 0; i < tl.clips.size(); ++i) {
                const std::string label = tl.clips[i].empty() ? "(unnamed clip " + std::to_string(i) + ")" : tl.clips[i];
                if (ImGui::Selectable(label.c_str(), tl.clips[i] == tl.clip)) ctx.scene.motion.animation = tl.clips[i];
            }
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("motion.animation: the clip of '%s' that plays (its file has %zu)", ctx.scene.motion.mesh.c_str(), tl.clips.size());
    }
    // One pass of the clip (after the blend-in) at its speed, or further when the simulation went on.
    uint64_t last = uint64_t(std::ceil(10.0 * tl.rate_hz));
    if (tl.animated && tl.speed > 0.0)
        last = uint64_t(std::ceil((tl.blend_in_s + std::max(0.0, tl.clip_duration_s - tl.start_s) / tl.speed) * tl.rate_hz));
    last = std::max({last, tl.frame, tl.seek_target.value_or(0)});
    static int scrub = 0;
    int shown = int(tl.seek_target.value_or(tl.frame));
    if (!ImGui::IsAnyItemActive()) scrub = shown;
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::SliderInt("##frame", &scrub, 0, int(std::min<uint64_t>(last, INT32_MAX)), "frame %d");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("simulation frame (%.0f per second); drag and let go to show that frame: an earlier one is simulated "
                          "again from the start",
                          tl.rate_hz);
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        Request r{Action::Seek};
        r.amount = double(scrub);
        ctx.requests.push_back(r);
    }
    if (tl.seek_target) {
        const double span = double(*tl.seek_target) - double(tl.seek_from);
        const float f = span > 0.0 ? float((double(tl.frame) - double(tl.seek_from)) / span) : 1.0f;
        const std::string label = "simulating to frame " + std::to_string(*tl.seek_target) + ": " + std::to_string(tl.frame);
        ImGui::ProgressBar(std::clamp(f, 0.0f, 1.0f), ImVec2(-1.0f, 0.0f), label.c_str());
    }
    if (tl.animated) {
        const double shown_clip = tl.loop && tl.clip_duration_s > 0.0 ? std::fmod(tl.clip_time_s, tl.clip_duration_s)
                                                                        : std::min(tl.clip_time_s, tl.clip_duration_s);
        const double t = double(tl.frame) / tl.rate_hz;
        if (t < tl.blend_in_s)
            ImGui::Text("frame %llu: blending in from the bind pose (%.2f of %.2f s)", static_cast<unsigned long long>(tl.frame), t,
                        tl.blend_in_s);
        else
            ImGui::Text("frame %llu: clip at %.2f of %.2f s%s", static_cast<unsigned long long>(tl.frame), shown_clip, tl.clip_duration_s,
                        tl.loop ? " (looping)" : "");
    } else {
        ImGui::Text("frame %llu", static_cast<unsigned long long>(tl.frame));
    }
}

void SimulationPanel::draw(EditorContext& ctx) {
    if (ImGui::Button(ctx.playing ? "Pause" : "Play")) ctx.request(ctx.playing ? Action::Pause : Action::Play);
    ImGui::SameLine();
    if (ImGui::Button("Step")) ctx.request(Action::Step);
    ImGui::SameLine();
    if (ImGui::Button("Reset")) ctx.request(Action::Reset);
    ImGui::SameLine();
    ImGui::Text("t = %.2f s, %llu steps", ctx.stats.sim_time_s, static_cast<unsigned long long>(ctx.stats.sim_steps));
    draw_timeline(ctx);
    section(ctx, "Clock and forces");
    draw_param_table(ctx, "environment", "/environment");
    draw_param_table(ctx, "environment.wind", "/environment/wind");
    section(ctx, "Motion");
    draw_param_table(ctx, "motion", "/motion");
    for (size_t i = 0; i < ctx.scene.hair_groups.size(); ++i) {
        ImGui::PushID(int(i));
        section(ctx, ("Hair group: " + ctx.scene.hair_groups[i].name).c_str());
        draw_param_table(ctx, "hair_groups[].simulation", ptr("hair_groups", i, "simulation"));
        ImGui::PopID();
    }
    draw_accessories(ctx);
}

void SimulationPanel::draw_accessories(EditorContext& ctx) {
    section(ctx, "Accessories (cloth, soft bodies)");
    size_t remove = SIZE_MAX;
    for (size_t i = 0; i < ctx.scene.accessories.size(); ++i) {
        ImGui::PushID(int(2000 + i));
        const Accessory& a = ctx.scene.accessories[i];
        if (ImGui::TreeNodeEx("accessory", ImGuiTreeNodeFlags_DefaultOpen, "%s  (mesh %s)", a.name.c_str(), a.mesh.c_str())) {
            draw_param_table(ctx, "accessories[]", ptr("accessories", i));
            if (ImGui::TreeNode("pins")) {
                draw_param_table(ctx, "accessories[].pins", ptr("accessories", i, "pins"));
                ImGui::TreePop();
            }
            const bool soft = a.type == AccessoryType::SoftBody;
            if (ImGui::TreeNode(soft ? "soft body" : "cloth")) {
                if (soft)
                    draw_param_table(ctx, "accessories[].soft_body", ptr("accessories", i, "soft_body"));
                else
                    draw_param_table(ctx, "accessories[].cloth", ptr("accessories", i, "cloth"));
                ImGui::TreePop();
            }
            if (ImGui::Button("Remove accessory")) remove = i;
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    if (remove != SIZE_MAX) ctx.scene.accessories.erase(ctx.scene.accessories.begin() + long(remove));
    // A mesh of the scene (a scarf or ribbon imported in the Scene panel) made cloth, pinned near the head.
    std::vector<std::string> candidates;
    for (const MeshRef& m : ctx.scene.meshes) {
        const bool used = std::any_of(ctx.scene.accessories.begin(), ctx.scene.accessories.end(), [&](const Accessory& a) { return a.mesh == m.name; }) ||
                          std::any_of(ctx.scene.hair_groups.begin(), ctx.scene.hair_groups.end(), [&](const HairGroup& g) { return g.scalp.mesh == m.name; }) ||
                          std::any_of(ctx.scene.collision_meshes.begin(), ctx.scene.collision_meshes.end(), [&](const CollisionMesh& c) { return c.mesh == m.name; });
        if (!used) candidates.push_back(m.name);
    }
    if (candidates.empty()) {
        ImGui::TextDisabled("add a mesh (a scarf, ribbon or hood) in the Scene panel to make it cloth");
        return;
    }
    accessory_mesh_ = std::min(accessory_mesh_, candidates.size() - 1);
    if (ImGui::BeginCombo("cloth mesh", candidates[accessory_mesh_].c_str())) {
        for (size_t k = 0; k < candidates.size(); ++k)
            if (ImGui::Selectable(candidates[k].c_str(), k == accessory_mesh_)) accessory_mesh_ = k;
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("a scene mesh that is neither a scalp nor a collision mesh");
    auto make = [&](AccessoryType type) {
        std::vector<std::string> names;
        for (const Accessory& a : ctx.scene.accessories) names.push_back(a.name);
        Accessory a;
        a.type = type;
        a.mesh = candidates[accessory_mesh_];
        a.name = unique_name(names, a.mesh);
        // Pinned where it touches the first scalp's mesh (or the first collision mesh), colliding with every field.
        if (!ctx.scene.hair_groups.empty()) a.attach = ctx.scene.hair_groups.front().scalp.mesh;
        else if (!ctx.scene.collision_meshes.empty()) a.attach = ctx.scene.collision_meshes.front().mesh;
        if (a.attach.empty()) a.pins.mode = type == AccessoryType::SoftBody ? PinMode::None : PinMode::VertexColor;
        for (const CollisionMesh& c : ctx.scene.collision_meshes) a.sdf.push_back(c.mesh);
        ctx.scene.accessories.push_back(a);
    };
    if (ImGui::Button("Make cloth")) make(AccessoryType::Cloth);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("simulate the mesh as cloth: pinned where it lies within pins.distance of the head, colliding with every SDF");
    ImGui::SameLine();
    if (ImGui::Button("Make soft body")) make(AccessoryType::SoftBody);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("simulate the closed mesh as a soft body (a bun, bow or pompom): particles 1 cm apart inside it, pinned where they lie within "
                          "pins.distance of the head, colliding with every SDF");
}

void CollisionPanel::draw(EditorContext& ctx) {
    section(ctx, "Collision meshes (SDF)");
    if (ImGui::Button("Rebuild SDFs")) ctx.request(Action::RebuildSdf);
    for (size_t i = 0; i < ctx.scene.collision_meshes.size(); ++i) {
        ImGui::PushID(int(i));
        const CollisionMesh& cm = ctx.scene.collision_meshes[i];
        ImGui::Text("%s", cm.mesh.c_str());
        draw_param_table(ctx, "collision_meshes[]", ptr("collision_meshes", i));
        if (i < ctx.sdf_info.size() && ctx.sdf_info[i].cell_size_m > 0.0) {
            const SdfInfo& s = ctx.sdf_info[i];
            ImGui::Text("grid %d x %d x %d, cell %.4f m; margin %.4f m = %.2f cells", s.dims[0], s.dims[1], s.dims[2],
                        s.cell_size_m, cm.margin_m, cm.margin_m / s.cell_size_m);
            ImGui::Text("build time %.2f ms (GPU passes)", s.build_ms);
        }
        ImGui::PopID();
    }
    section(ctx, "Primitive colliders");
    size_t remove = SIZE_MAX;
    for (size_t i = 0; i < ctx.scene.colliders.size(); ++i) {
        ImGui::PushID(int(1000 + i));
        if (ImGui::TreeNodeEx("collider", ImGuiTreeNodeFlags_DefaultOpen, "%s", ctx.scene.colliders[i].name.c_str())) {
            draw_param_table(ctx, "colliders[]", ptr("colliders", i));
            if (ImGui::Button("Remove")) remove = i;
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    if (remove != SIZE_MAX) {
        Scene next = ctx.scene;
        std::string name = next.colliders[remove].name;
        next.colliders.erase(next.colliders.begin() + long(remove));
        for (auto& g : next.hair_groups) std::erase(g.simulation.colliders, name);
        ctx.scene = std::move(next);
    }
    auto add = [&](ColliderType type) {
        std::vector<std::string> names;
        for (auto& c : ctx.scene.colliders) names.push_back(c.name);
        Collider c;
        c.type = type;
        c.name = unique_name(names, type == ColliderType::Sphere ? "sphere" : "capsule");
        glm::dvec3 t = ctx.camera.target_m;
        c.p0_m = t;
        c.p1_m = t + glm::dvec3(0.0, 0.1, 0.0);
        ctx.scene.colliders.push_back(c);
    };
    if (ImGui::Button("Add sphere")) add(ColliderType::Sphere);
    ImGui::SameLine();
    if (ImGui::Button("Add capsule")) add(ColliderType::Capsule);
    section(ctx, "SDF slice");
    double lo = 0.0, hi = 0.5;
    ImGui::DragScalar("colour range (m)", ImGuiDataType_Double, &ctx.slice_range_m, 0.0005f, &lo, &hi, "%.4f",
                      ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("|distance| shown at full colour in the slice (view only, not saved)\nunit: m\nrange: [0, 0.5]\n"
                          "default: 0 (the slice's largest |distance|)");
    draw_param_table(ctx, "view", "/view", {"target", "yaw_deg", "pitch_deg", "distance", "fov_deg", "show_guides", "show_follows",
                                            "show_collision", "show_colliders", "show_grid", "colour_by"});
    // Where the plane is in the world: the position above is a fraction of the grid, snapped to a cell.
    if (ctx.slice_info.valid) {
        const auto& si = ctx.slice_info;
        static const char* axes[] = {"x", "y", "z"};
        const char* a = axes[std::clamp(si.axis, 0, 2)];
        ImGui::TextWrapped("plane %s = %.4f m (cell %d of %d); the grid spans %s from %.4f to %.4f m in cells of %.4f m. "
                           "Hover the slice in the viewport to read the distance.",
                           a, si.plane_m, si.index, si.cells, a, si.grid_lo_m, si.grid_hi_m, si.cell_size_m);
    }
}

// Hair shading and lighting on tabs of their own, so the lights are one click away and never below the
// fold of a long shading table.
void ShadingPanel::draw(EditorContext& ctx) {
    auto hair = [&] {
        for (size_t i = 0; i < ctx.scene.hair_groups.size(); ++i) {
            ImGui::PushID(int(i));
            section(ctx, ("Hair group: " + ctx.scene.hair_groups[i].name).c_str());
            draw_param_table(ctx, "hair_groups[].shading", ptr("hair_groups", i, "shading"));
            ImGui::PopID();
        }
    };
    auto lighting = [&] {
        section(ctx, "Key light");
        draw_param_table(ctx, "lighting.key", "/lighting/key");
        section(ctx, "Fill light");
        draw_param_table(ctx, "lighting.fill", "/lighting/fill");
        section(ctx, "Environment");
        draw_param_table(ctx, "lighting", "/lighting");
    };
    // A search lists what matches on both tabs at once.
    if (!ctx.param_filter.empty()) {
        hair();
        lighting();
        return;
    }
    if (!ImGui::BeginTabBar("shading_tabs")) return;
    if (ImGui::BeginTabItem("Hair")) {
        hair();
        ImGui::EndTabItem();
    }
    ImGuiTabItemFlags lighting_flags = 0;
    if (ctx.select_lighting_tab) {
        lighting_flags = ImGuiTabItemFlags_SetSelected;
        ctx.select_lighting_tab = false;
    }
    if (ImGui::BeginTabItem("Lighting", nullptr, lighting_flags)) {
        lighting();
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

void StatsPanel::draw(EditorContext& ctx) {
    const double fps = ctx.stats.fps();
    ImGui::Text("%.1f fps (%.2f ms per frame)", fps, fps > 0.0 ? 1000.0 / fps : 0.0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("display frames per second over the last 30 frames");
    ImGui::Text("viewport %u x %u px%s", ctx.stats.viewport_px[0], ctx.stats.viewport_px[1],
                ctx.stats.interactive ? ", interactive (coarser while moving)" : "");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("on a CPU Vulkan device the viewport is drawn at half size, with a sixth of the level of detail\n"
                          "(at most a quarter of the strands, widened) and one depth-sorted fragment per pixel, while\n"
                          "the camera or the hair moves; it is refined once both are still");
    const render::HairLodStats& lod = ctx.stats.hair_lod;
    ImGui::Text("hair drawn: %llu of %llu strands, %u of %u vertices each, width x%.2f",
                static_cast<unsigned long long>(lod.strands_drawn), static_cast<unsigned long long>(lod.strands_total),
                lod.vertices_per_strand, lod.vertices_total, lod.width_scale);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the hair level of detail in use: strands thinner than about a third of a pixel are drawn as\n"
                          "fewer, wider strands (coverage kept), and vertices dropped as strands shrink on screen;\n"
                          "each group's shading lod_bias moves it");
    ImGui::Text("guides %zu, follows %zu, strands %zu, vertices %zu", ctx.stats.guides, ctx.stats.follows, ctx.stats.strands,
                ctx.stats.vertices);
    ImGui::Text("GPU memory: %.1f MiB device, %.1f MiB upload, %.1f MiB readback", double(ctx.gpu_bytes) / 1048576.0,
                double(ctx.upload_bytes) / 1048576.0, double(ctx.readback_bytes) / 1048576.0);
    ImGui::Text("last groom %.0f ms", ctx.stats.last_groom_ms);
    for (size_t i = 0; i < ctx.sdf_info.size() && i < ctx.scene.collision_meshes.size(); ++i)
        ImGui::Text("field '%s': %d x %d x %d cells, built in %.0f ms", ctx.scene.collision_meshes[i].mesh.c_str(), ctx.sdf_info[i].dims[0],
                    ctx.sdf_info[i].dims[1], ctx.sdf_info[i].dims[2], ctx.sdf_info[i].build_ms);
    if (ctx.stats.health.valid) {
        const auto& h = ctx.stats.health;
        const bool stretched = h.max_stretch > 0.01;
        ImGui::TextColored(stretched ? ImVec4(1, 0.7f, 0.3f, 1) : ImGui::GetStyleColorVec4(ImGuiCol_Text),
                           "stretch: max %.3f%%, mean %.4f%%", 100.0 * h.max_stretch, 100.0 * h.mean_stretch);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("each guide segment's length against its rest length, at t = %.2f s (measured about once a second;\n"
                              "view.colour_by = stretch shows where)", h.at_s);
        ImGui::TextColored(h.inside > 0 ? ImVec4(1, 0.7f, 0.3f, 1) : ImGui::GetStyleColorVec4(ImGuiCol_Text),
                           "inside a collision field: %zu guide vertices, deepest %.2f mm", h.inside, 1000.0 * h.deepest_m);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("free guide vertices whose field distance is negative, at t = %.2f s: the field the hair collides\n"
                              "with, not the exact mesh (tressel-cli bake measures that)", h.at_s);
        if (h.non_finite > 0) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%zu non-finite coordinates", h.non_finite);
    }
    if (!ctx.stats.last_rebuild.empty()) {
        ImGui::TextWrapped("last rebuild: %s", ctx.stats.last_rebuild.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("what the last edit made the scene redo (import, growth, fields, simulation) and how long each part took");
    }
    if (!ctx.stats.rest_state.empty()) {
        ImGui::TextWrapped("rest state: %s", ctx.stats.rest_state.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("sag_free groups: their shape targets solved so that a still head shows the groom (gravity preloading);\n"
                              "solved again when edits of the simulation values pause");
    }
    if (ctx.stats.history.empty()) {
        ImGui::TextDisabled("no GPU timestamps yet");
        return;
    }
    // One plot per pass name over the recent frames (GPU milliseconds).
    std::map<std::string, std::vector<float>> series;
    for (size_t f = 0; f < ctx.stats.history.size(); ++f)
        for (auto& p : ctx.stats.history[f]) {
            auto& v = series[p.name];
            v.resize(ctx.stats.history.size(), 0.0f);
            v[f] += float(p.ms);
        }
    ImGui::Text("GPU ms per pass (%zu passes), last %zu frames:", series.size(), ctx.stats.history.size());
    for (auto& [name, values] : series) {
        float last = values.back();
        float peak = *std::max_element(values.begin(), values.end());
        std::string overlay = name + " " + std::to_string(last).substr(0, 5) + " ms";
        ImGui::PlotLines(("##" + name).c_str(), values.data(), int(values.size()), 0, overlay.c_str(), 0.0f,
                         std::max(peak * 1.2f, 0.01f), ImVec2(ImGui::GetContentRegionAvail().x, 36.0f));
    }
}

void LogPanel::draw(EditorContext& ctx) {
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
}

void ExportPanel::draw(EditorContext& ctx) {
    const char* formats[] = {"tfx", "hair", "usda", "gltf", "preset"};
    const char* meanings[] = {"TressFX .tfx guides (+ .tfxbone, .tfxmesh)", "Cem Yuksel .hair curves", "USD BasisCurves (.usda)",
                              "glTF 2.0 strands as LINES", "TressFX simulation and shading settings (JSON)"};
    ImGui::Combo("format", &format_, formats, 5);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", meanings[format_]);
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s", path_.c_str());
    if (ImGui::InputText("file", buf, sizeof buf)) path_ = buf;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("output file; relative paths resolve against the scene's folder");
    ImGui::SameLine();
    if (ImGui::Button("...")) dialog_.open("Export to", FileDialog::Mode::Save, {}, ctx.scene.origin.dir);
    if (auto chosen = dialog_.draw()) path_ = chosen->string();
    ImGui::Checkbox("include follow hairs", &include_follows_);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("also write the follow hairs, evaluated from the guides (off by default). TressFX (tfx): they become\n"
                          "ordinary strands that TressFX simulates as guides; leave it off and let TressFX make its own\n"
                          "follows from the settings export (preset)");
    if (ImGui::Button("Export")) {
        std::filesystem::path p(path_);
        if (p.is_relative()) p = ctx.scene.origin.dir / p;
        ctx.requests.push_back(Request{Action::Export, p.string(), formats[format_], include_follows_});
    }
    // What the last export did: its files where they went, what they hold, and what it warned of.
    const auto& e = ctx.last_export;
    if (!e.valid) return;
    ImGui::Separator();
    if (!e.ok) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s export failed: %s", e.format.c_str(), e.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    ImGui::Text("%s export: %zu file%s", e.format.c_str(), e.files.size(), e.files.size() == 1 ? "" : "s");
    if (e.guides > 0)
        ImGui::Text("%zu guides (%zu vertices)%s", e.guides, e.vertices,
                    e.follows > 0 ? (" + " + std::to_string(e.follows) + " follows").c_str() : "");
    ImGui::PushTextWrapPos(0.0f);
    for (const auto& [file, bytes] : e.files) {
        ImGui::TextDisabled("%s (%.1f KiB)", file.c_str(), double(bytes) / 1024.0);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", file.c_str());
    }
    for (const std::string& w : e.warnings) ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "%s", w.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace tressel::editor
