#include "brush_tool.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tressel::editor {

Status BrushTool::begin(const Scene& scene, std::shared_ptr<const runtime::SceneContent> content, int group, const render::OrbitCamera& camera,
                        ImVec2 viewport_size, glm::vec2 p, bool invert) {
    cancel();
    if (!tool && !paint) return make_error(ErrorCode::InvalidArgument, "brush: no brush is chosen");
    if (!content || group < 0 || size_t(group) >= scene.hair_groups.size() || size_t(group) >= content->grooms.size() ||
        !content->grooms[size_t(group)])
        return make_error(ErrorCode::InvalidArgument, "brush: no hair group to brush (grow one first)");
    const HairGroup& g = scene.hair_groups[size_t(group)];
    const GroomResult& groom = *content->grooms[size_t(group)];
    if (paint) {
        if (g.growth.placement == Placement::Edited || g.growth.placement == Placement::File)
            return make_error(ErrorCode::InvalidArgument, "paint: hair group '" + g.name +
                                                              "' has guides from a file or edited by hand; scalp paint shapes grown guides (Release guides first)");
        target_ = runtime::brush_target(scene, *content, size_t(group));
        if (!target_.scalp) return make_error(ErrorCode::NotFound, "paint: hair group '" + g.name + "' has no scalp mesh");
        PaintStroke ps;
        ps.scalp = target_.scalp;
        ps.start = runtime::paint_to_edit(&groom, *target_.scalp, *paint);
        ps.working = ps.start;
        ps.plane_x = target_.symmetry_plane_x;
        ps.settings.layer = *paint;
        ps.settings.radius_px = settings.radius_px;
        ps.settings.strength = settings.strength;
        ps.settings.falloff = settings.falloff;
        ps.settings.front_faces_only = settings.front_faces_only;
        ps.settings.symmetry_x = settings.symmetry_x;
        ps.settings.invert = invert;
        ps.settings.value = paint_value[size_t(*paint)];
        const double aspect_p = double(viewport_size.x) / double(std::max(viewport_size.y, 1.0f));
        view_.object_to_clip = camera.view_projection(aspect_p);
        view_.viewport_px = glm::vec2(viewport_size.x, viewport_size.y);
        view_.eye_os_m = glm::vec3(camera.eye_m());
        paint_stroke_ = std::move(ps);
        content_ = std::move(content);
        group_ = group;
        path_.clear();
        return extend(p);
    }
    if (groom.guides.strand_count() > 0 && groom.guides.uniform_point_count() == 0)
        return make_error(ErrorCode::Unsupported, "brush: hair group '" + g.name + "' has guides of different point counts (from a file); resample them first");
    target_ = runtime::brush_target(scene, *content, size_t(group));
    if (!target_.scalp) return make_error(ErrorCode::NotFound, "brush: hair group '" + g.name + "' has no scalp mesh");
    growth_ = g.growth;
    target_.growth = &growth_;
    const double aspect = double(viewport_size.x) / double(std::max(viewport_size.y, 1.0f));
    view_.object_to_clip = camera.view_projection(aspect);
    view_.viewport_px = glm::vec2(viewport_size.x, viewport_size.y);
    view_.eye_os_m = glm::vec3(camera.eye_m());
    stroke_settings_ = settings;
    stroke_settings_.type = *tool;
    stroke_settings_.invert = invert;
    stroke_settings_.seed = uint32_t(std::hash<double>{}(double(p.x) * 7919.0 + double(p.y)) | 1u);
    working_ = std::make_shared<EditedGuides>(EditedGuides{groom.guides, uint32_t(target_.scalp->triangle_count())});
    start_ = groom.guides;
    content_ = std::move(content);
    auto s = BrushStroke::begin(working_->guides, target_, view_, stroke_settings_);
    if (!s) {
        cancel();
        return s.error();
    }
    stroke_ = std::move(*s);
    group_ = group;
    path_.clear();
    return extend(p);
}

Status BrushTool::extend(glm::vec2 p) {
    if (!stroking()) return {};
    if (!path_.empty() && glm::length(p - path_.back()) < 0.5f) return {};
    path_.push_back(p);
    if (paint_stroke_) {
        PaintStroke& ps = *paint_stroke_;
        ScalpPaint next = ps.start;
        auto st = apply_paint_stroke(next, *ps.scalp, view_, ps.settings, path_, ps.plane_x);
        if (!st) {
            cancel();
            return st.error();
        }
        ps.working = std::move(next);
        ps.stats = *st;
        return {};
    }
    Status st = stroke_->extend(std::span<const glm::vec2>(&p, 1));
    if (!st) cancel();
    return st;
}

std::shared_ptr<const EditedGuides> BrushTool::finish(StrokeStats* stats) {
    if (!stroke_) return nullptr;
    const StrokeStats st = stroke_->finish();
    if (stats) *stats = st;
    std::shared_ptr<const EditedGuides> out;
    if (st.strands_changed + st.strands_added + st.strands_removed > 0) out = working_;
    cancel();
    return out;
}

std::shared_ptr<const ScalpPaint> BrushTool::finish_paint(PaintStats* stats) {
    if (!paint_stroke_) return nullptr;
    if (stats) *stats = paint_stroke_->stats;
    std::shared_ptr<const ScalpPaint> out;
    // Only a stroke that changed a vertex is an edit (a first mask stroke off the scalp leaves the region be).
    const std::vector<uint8_t> d = paint_difference(paint_stroke_->start, paint_stroke_->working);
    if (std::find(d.begin(), d.end(), uint8_t(1)) != d.end()) out = std::make_shared<const ScalpPaint>(std::move(paint_stroke_->working));
    cancel();
    return out;
}

std::shared_ptr<const GroomResult> BrushTool::stroke_groom() const {
    return content_ && group_ >= 0 && size_t(group_) < content_->grooms.size() ? content_->grooms[size_t(group_)] : nullptr;
}

void BrushTool::draw_paint(ImDrawList* list, ImVec2 origin, const Mesh* scalp, const ScalpPaint* shown, const BrushView& view) const {
    if (!paint) return;
    const ScalpPaint* p = paint_stroke_ ? &paint_stroke_->working : shown;
    if (!scalp || !p || !p->has(*paint) || p->vertex_count != scalp->vertex_count() || scalp->vertex_count() > 200000) return;
    const PaintLayer l = *paint;
    for (size_t v = 0; v < scalp->vertex_count(); ++v) {
        float t = 0.0f;  // 0 neutral .. 1 fully painted
        ImU32 c = 0;
        if (l == PaintLayer::Comb) {
            t = p->comb[v].w;
            c = IM_COL32(120, 220, 255, int(40 + 200 * t));
        } else if (l == PaintLayer::Mask) {
            t = 1.0f;
            c = p->mask[v] > 0.5f ? IM_COL32(120, 255, 140, int(60 + 160 * p->mask[v])) : IM_COL32(255, 90, 90, 90);
        } else {
            const float x = l == PaintLayer::Density ? p->density[v] : p->length[v];
            t = std::min(std::abs(x - 1.0f), 1.0f);
            c = x > 1.0f ? IM_COL32(255, 200, 80, int(40 + 200 * t)) : IM_COL32(140, 140, 255, int(40 + 200 * t));
        }
        if (t < 0.02f) continue;
        glm::vec2 q;
        float z;
        if (!view.project(scalp->positions[v], q, z)) continue;
        list->AddCircleFilled(ImVec2(origin.x + q.x, origin.y + q.y), 2.0f, c, 6);
        if (l == PaintLayer::Comb && t > 0.1f) {
            glm::vec2 e;
            if (view.project(scalp->positions[v] + glm::vec3(p->comb[v]) * (0.01f / std::max(t, 1e-3f)), e, z))
                list->AddLine(ImVec2(origin.x + q.x, origin.y + q.y), ImVec2(origin.x + e.x, origin.y + e.y), c, 1.0f);
        }
    }
}

void BrushTool::cancel() {
    paint_stroke_.reset();
    stroke_.reset();
    working_.reset();
    content_.reset();
    start_ = Strands{};
    path_.clear();
    group_ = -1;
}

void BrushTool::draw_stroke(ImDrawList* list, ImVec2 origin) const {
    if (!stroke_ || !working_) return;
    const Strands& now = working_->guides;
    const bool same_count = now.strand_count() == start_.strand_count();
    size_t drawn = 0;
    std::vector<ImVec2> pts;
    for (size_t s = same_count ? 0 : start_.strand_count(); s < now.strand_count() && drawn < 4000; ++s) {
        const auto p = now.strand(s);
        if (same_count) {
            const auto q = start_.strand(s);
            if (std::memcmp(p.data(), q.data(), p.size_bytes()) == 0) continue;
        }
        pts.clear();
        for (const glm::vec3& x : p) {
            glm::vec2 px;
            float z;
            if (view_.project(x, px, z)) pts.push_back(ImVec2(origin.x + px.x, origin.y + px.y));
        }
        if (pts.size() > 1) list->AddPolyline(pts.data(), int(pts.size()), IM_COL32(255, 210, 120, 200), 0, 1.2f);
        ++drawn;
    }
    pts.clear();
    for (const glm::vec2& q : path_) pts.push_back(ImVec2(origin.x + q.x, origin.y + q.y));
    if (pts.size() > 1) list->AddPolyline(pts.data(), int(pts.size()), IM_COL32(120, 200, 255, 160), 0, 1.5f);
}

void BrushTool::draw_cursor(ImDrawList* list, ImVec2 at, ImVec2 origin, const Mesh* scalp, const BrushView* view) const {
    if (!active()) return;
    const bool invert = ImGui::GetIO().KeyCtrl || (stroke_ && stroke_settings_.invert) || (paint_stroke_ && paint_stroke_->settings.invert);
    const ImU32 colour = invert ? IM_COL32(255, 120, 120, 230) : IM_COL32(255, 255, 255, 230);
    // On the surface: a circle of the radius's size at the hit's depth, in the scalp's tangent plane there
    // (a brute-force ray against the scalp, skipped for meshes over 200,000 triangles).
    std::vector<ImVec2> ring;
    if (scalp && view && scalp->triangle_count() <= 200000) {
        const glm::vec2 p(at.x - origin.x, at.y - origin.y);
        if (auto hit = pick_scalp(*scalp, *view, p)) {
            glm::vec2 px;
            float z = 0.0f;
            if (view->project(hit->point_m, px, z)) {
                const float r = glm::length(view->unproject(px + glm::vec2(settings.radius_px, 0.0f), z) - view->unproject(px, z));
                const glm::vec3 n = glm::normalize(hit->normal);
                const glm::vec3 t1 = glm::normalize(glm::cross(n, std::abs(n.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0)));
                const glm::vec3 t2 = glm::cross(n, t1);
                for (int i = 0; i < 48 && r > 0.0f; ++i) {
                    const float a = 6.2831853f * float(i) / 48.0f;
                    glm::vec2 q;
                    float qz;
                    if (!view->project(hit->point_m + r * (std::cos(a) * t1 + std::sin(a) * t2), q, qz)) break;
                    ring.push_back(ImVec2(origin.x + q.x, origin.y + q.y));
                }
                if (ring.size() != 48) ring.clear();
            }
        }
    }
    if (!ring.empty()) list->AddPolyline(ring.data(), int(ring.size()), colour, ImDrawFlags_Closed, 1.5f);
    else list->AddCircle(at, settings.radius_px, colour, 48, 1.5f);
    // Strength as an inner circle: the radius at which the falloff gives half the strength.
    list->AddCircle(at, std::max(2.0f, settings.radius_px * settings.strength), IM_COL32(255, 255, 255, 90), 32, 1.0f);
    if (settings.symmetry_x) list->AddText(ImVec2(at.x + settings.radius_px + 4.0f, at.y - 8.0f), colour, "X");
}

}  // namespace tressel::editor
