#include "runtime/scene_content.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/clock.h"
#include "core/units.h"
#include "groom/scene_groom.h"

namespace tressel::runtime {

namespace {

bool same_mesh_inputs(const Scene& a, const Scene& b) {
    return a.meshes == b.meshes && a.units == b.units && a.up_axis == b.up_axis && a.origin.dir == b.origin.dir;
}

// The scene unit of a length in metres per unit, where it is one ("" otherwise).
std::string unit_name(double metres_per_unit) {
    static const std::pair<const char*, double> units[] = {{"m", 1.0}, {"cm", 0.01}, {"mm", 0.001}, {"in", 0.0254}, {"ft", 0.3048}};
    for (const auto& [name, m] : units)
        if (std::abs(metres_per_unit - m) <= 1e-6 * m) return name;
    return {};
}

void add_groom_fixes(Diagnostics& out, std::vector<Diagnostic>& advice, const Diagnostics& groom, size_t group) {
    for (Diagnostic d : groom.items) {
        if (d.code == "follows_far_from_guides") {
            d.fixes.push_back({"Grow follows around each guide (TressFX mode)",
                               "hair_groups[" + std::to_string(group) + "].follow.mode", "\"tressfx\""});
            advice.push_back(d);
        }
        out.items.push_back(std::move(d));
    }
}

// The advice of `previous` about the parts this build reused (fix paths starting with `prefix`).
void keep_advice(std::vector<Diagnostic>& advice, const SceneContent* previous, const std::string& prefix) {
    if (!previous) return;
    for (const Diagnostic& d : previous->advice)
        if (!d.fixes.empty() && d.fixes.front().path.rfind(prefix, 0) == 0) advice.push_back(d);
}

}  // namespace

Diagnostics mesh_diagnostics_with_fixes(const Scene& scene, const SceneMesh& m) {
    Diagnostics out;
    for (Diagnostic d : m.imported.diagnostics.items) {
        if (d.code == "unit_conflict") {
            const std::string unit = unit_name(m.imported.declared_metres_per_unit);
            size_t index = scene.meshes.size();
            for (size_t i = 0; i < scene.meshes.size(); ++i)
                if (scene.meshes[i].name == m.name) index = i;
            // Exporters often leave the declaration at its default (the Infinite head scan declares centimetres
            // and is in metres): only where the unit used makes the mesh an implausible size for a character or
            // a prop (not 5 cm to 5 m across) and the declared one would not, the editor offers the fix.
            auto options = index < scene.meshes.size() ? scene_import_options(scene, index) : Result<ImportOptions>(ImportOptions{});
            const double used = options ? metres_per_unit(options->units) : 1.0;
            const double across = double(glm::length(m.report.bounds_max - m.report.bounds_min));
            const double declared_across = across * m.imported.declared_metres_per_unit / used;
            auto plausible = [](double size_m) { return size_m >= 0.05 && size_m <= 5.0; };
            if (!unit.empty() && index < scene.meshes.size() && !plausible(across) && plausible(declared_across)) {
                d.severity = Severity::Warning;
                char text[160];
                std::snprintf(text, sizeof text, ": read as %g m per unit it is %.3g m across, in the file's %s %.3g m.", used, across,
                              unit.c_str(), declared_across);
                d.message = "mesh '" + m.name + "': " + d.message + text;
                d.fixes.push_back({"Read '" + m.name + "' in " + unit, "meshes[" + std::to_string(index) + "].units", "\"" + unit + "\""});
            }
        }
        out.items.push_back(std::move(d));
    }
    return out;
}


const SceneMesh* SceneContent::find_mesh(const std::string& name) const {
    if (!meshes) return nullptr;
    for (const SceneMesh& m : *meshes)
        if (m.name == name) return &m;
    return nullptr;
}

bool SceneContent::complete() const {
    for (size_t i = 0; i < scene.hair_groups.size(); ++i)
        if (i >= grooms.size() || !grooms[i]) return false;
    for (size_t i = 0; i < scene.collision_meshes.size(); ++i)
        if (i >= sdfs.size() || !sdfs[i]) return false;
    return meshes != nullptr;
}

bool ContentPlan::any_groom() const {
    if (meshes) return true;
    for (bool g : grooms)
        if (g) return true;
    return false;
}

bool ContentPlan::any_sdf() const {
    if (meshes) return true;
    for (bool s : sdfs)
        if (s) return true;
    return false;
}

bool ContentPlan::any() const { return meshes || any_groom() || any_sdf(); }

ContentPlan ContentPlan::regrow_all(const Scene& scene) {
    ContentPlan p;
    p.meshes = false;
    p.grooms.assign(scene.hair_groups.size(), true);
    p.sdfs.assign(scene.collision_meshes.size(), false);
    return p;
}

ContentPlan ContentPlan::rebuild_all_sdfs(const Scene& scene) {
    ContentPlan p;
    p.meshes = false;
    p.grooms.assign(scene.hair_groups.size(), false);
    p.sdfs.assign(scene.collision_meshes.size(), true);
    return p;
}

bool same_groom_inputs(const Scene& sa, const HairGroup& a, const Scene& sb, const HairGroup& b) {
    return a.name == b.name && a.scalp == b.scalp && a.growth == b.growth && a.follow == b.follow &&
           a.smoothing == b.smoothing && scene_scalp_clearance_m(sa, a) == scene_scalp_clearance_m(sb, b) &&
           scene_groom_obstacles_equal(sa, a, sb, b);
}

std::shared_ptr<const GroomResult> restyled_groom(const std::shared_ptr<const GroomResult>& groom, const HairGroup& group) {
    if (!groom || !groom->widths_from_fiber_radius || groom->widths_fiber_radius_m == group.shading.fiber_radius_m) return groom;
    auto copy = std::make_shared<GroomResult>(*groom);
    restyle_widths(*copy, group.shading.fiber_radius_m, group.growth.tip_width_scale);
    return copy;
}

bool same_sdf_inputs(const CollisionMesh& a, const CollisionMesh& b) {
    return a.mesh == b.mesh && a.cells_x == b.cells_x && a.padding == b.padding && a.sign == b.sign;
}

ContentPlan plan_content(const Scene& scene, const SceneContent* current) {
    ContentPlan p;
    if (!current) return p;
    p.meshes = !same_mesh_inputs(scene, current->scene);
    const Scene& old = current->scene;
    for (size_t i = 0; i < scene.hair_groups.size(); ++i) {
        const bool reusable = !p.meshes && i < old.hair_groups.size() && i < current->grooms.size() &&
                              current->grooms[i] && same_groom_inputs(scene, scene.hair_groups[i], old, old.hair_groups[i]);
        p.grooms.push_back(!reusable);
    }
    for (size_t i = 0; i < scene.collision_meshes.size(); ++i) {
        const bool reusable = !p.meshes && i < old.collision_meshes.size() && i < current->sdfs.size() &&
                              current->sdfs[i] && same_sdf_inputs(scene.collision_meshes[i], old.collision_meshes[i]);
        p.sdfs.push_back(!reusable);
    }
    return p;
}

Status build_missing_fields(SceneContent& c, const FieldBuilder& build, const char* where, Progress* progress) {
    if (c.sdf_coverage.size() < c.sdfs.size()) c.sdf_coverage.resize(c.sdfs.size());
    for (size_t ci = 0; ci < c.sdfs.size() && ci < c.scene.collision_meshes.size(); ++ci) {
        if (c.sdfs[ci]) continue;
        const CollisionMesh& cm = c.scene.collision_meshes[ci];
        const SceneMesh* mesh = c.find_mesh(cm.mesh);
        if (!mesh) return make_error(ErrorCode::NotFound, "collision mesh '" + cm.mesh + "' names no mesh of the scene");
        if (progress) {
            if (progress->cancelled()) return make_error(ErrorCode::Cancelled, "building the collision fields was cancelled");
            progress->set(float(ci) / float(c.sdfs.size()), "building the field of '" + cm.mesh + "'");
        }
        const auto t0 = std::chrono::steady_clock::now();
        auto field = build(sdf_build_desc(cm, mesh->mesh), c.diagnostics);
        if (!field) return make_error(field.error().code, "SDF of collision mesh '" + cm.mesh + "': " + field.error().message);
        c.sdf_build_ms[ci] = field->ms;
        c.sdf_pass_times[ci] = std::move(field->passes);
        c.sdfs[ci] = std::make_shared<const SdfGrid>(std::move(field->grid));
        // A field coarser than the mesh's thin parts does not hold hair off them: said at the build, with
        // how much of the surface it misses.
        c.sdf_coverage[ci] = check_sdf_coverage(*c.sdfs[ci], mesh->mesh, cm.margin_m);
        if (const SdfCoverage& cov = c.sdf_coverage[ci]; cov.missed_share() > kSdfCoverageWarnShare) {
            char text[400];
            const glm::vec3 w = cov.worst_m;
            std::snprintf(text, sizeof text,
                          "the field of '%s' (cells_x %d, %.1f mm cells) misses %.2f%% of the mesh's surface (%.1f cm^2): parts "
                          "thinner than about a cell read as outside half a margin under their surface (worst near %.3f %.3f %.3f m), "
                          "so hair or cloth touching them passes in (where nothing reaches them it does not matter); more "
                          "cells_x resolve them",
                          cm.mesh.c_str(), cm.cells_x, 1000.0 * c.sdfs[ci]->grid.cell_size_m, 100.0 * cov.missed_share(),
                          1e4 * cov.missed_area_m2, double(w.x), double(w.y), double(w.z));
            c.diagnostics.warn("sdf", text);
        }
        c.report.sdfs.push_back(cm.mesh);
        c.report.add_time("field of '" + cm.mesh + "'", ms_since(t0));
        c.diagnostics.info("sdf", "built the field of '" + cm.mesh + "' " + where + ": " + std::to_string(field->ms) + " ms");
    }
    return {};
}

Status build_fields_cpu(SceneContent& c, Progress* progress) {
    const FieldBuilder cpu = [](const SdfBuildDesc& desc, Diagnostics& diag) -> Result<BuiltField> {
        const auto t0 = std::chrono::steady_clock::now();
        auto grid = build_sdf_cpu(desc, diag);
        if (!grid) return grid.error();
        return BuiltField{std::move(*grid), ms_since(t0), {}};
    };
    return build_missing_fields(c, cpu, "on the CPU", progress);
}

Result<std::shared_ptr<SceneContent>> prepare_content(const Scene& scene, const ContentPlan& plan,
                                                      std::shared_ptr<const SceneContent> previous, Progress* progress,
                                                      bool cpu_fields) {
    auto out = std::make_shared<SceneContent>();
    out->scene = scene;
    auto cancelled = [&] { return progress && progress->cancelled(); };
    if (plan.meshes || !previous || !previous->meshes) {
        if (progress) progress->set(0.0f, "importing meshes");
        const auto t0 = std::chrono::steady_clock::now();
        auto meshes = load_scene_meshes(scene, progress);
        if (!meshes) return meshes.error();
        for (const SceneMesh& m : *meshes)
            for (Diagnostic& d : mesh_diagnostics_with_fixes(scene, m).items) {
                if (!d.fixes.empty()) out->advice.push_back(d);
                out->diagnostics.items.push_back(std::move(d));
            }
        out->meshes = std::make_shared<const std::vector<SceneMesh>>(std::move(*meshes));
        out->report.meshes = true;
        out->report.add_time("import meshes", ms_since(t0));
        out->diagnostics.info("scene", "imported " + std::to_string(out->meshes->size()) + " meshes in " +
                                           std::to_string(int(ms_since(t0))) + " ms");
    } else {
        out->meshes = previous->meshes;
        keep_advice(out->advice, previous.get(), "meshes[");
    }
    if (cancelled()) return make_error(ErrorCode::Cancelled, "cancelled");

    const auto t_groom = std::chrono::steady_clock::now();
    const size_t groups = scene.hair_groups.size();
    for (size_t gi = 0; gi < groups; ++gi) {
        const HairGroup& group = scene.hair_groups[gi];
        if (!plan.groom(gi) && previous && gi < previous->grooms.size() && previous->grooms[gi]) {
            out->grooms.push_back(restyled_groom(previous->grooms[gi], group));
            keep_advice(out->advice, previous.get(), "hair_groups[" + std::to_string(gi) + "].");
            continue;
        }
        if (progress) progress->set(0.3f + 0.6f * float(gi) / float(groups), "growing '" + group.name + "'");
        const auto t0 = std::chrono::steady_clock::now();
        auto groom = grow_scene_group(scene, group, *out->meshes, progress);
        if (!groom) return groom.error();
        add_groom_fixes(out->diagnostics, out->advice, groom->diagnostics, gi);
        out->grooms.push_back(std::make_shared<const GroomResult>(std::move(*groom)));
        out->report.grooms.push_back(group.name);
        out->report.add_time("grow '" + group.name + "'", ms_since(t0));
        if (cancelled()) return make_error(ErrorCode::Cancelled, "cancelled");
    }
    out->groom_ms = out->report.grooms.empty() && previous ? previous->groom_ms : ms_since(t_groom);

    for (size_t ci = 0; ci < scene.collision_meshes.size(); ++ci) {
        const CollisionMesh& cm = scene.collision_meshes[ci];
        if (!out->find_mesh(cm.mesh))
            return make_error(ErrorCode::NotFound, "collision mesh '" + cm.mesh + "' names no mesh of the scene");
        if (!plan.sdf(ci) && previous && ci < previous->sdfs.size() && previous->sdfs[ci]) {
            out->sdfs.push_back(previous->sdfs[ci]);
            out->sdf_build_ms.push_back(previous->sdf_build_ms[ci]);
            out->sdf_coverage.push_back(ci < previous->sdf_coverage.size() ? previous->sdf_coverage[ci] : SdfCoverage{});
            out->sdf_pass_times.push_back(previous->sdf_pass_times[ci]);
        } else {
            out->sdfs.push_back(nullptr);  // built by SceneRuntime::install
            out->sdf_build_ms.push_back(0.0);
            out->sdf_coverage.emplace_back();
            out->sdf_pass_times.emplace_back();
        }
    }
    if (cpu_fields) TRESSEL_TRY(build_fields_cpu(*out, progress));
    if (progress) progress->set(1.0f, "done");
    return out;
}

BrushTarget brush_target(const Scene& scene, const SceneContent& content, size_t gi) {
    const HairGroup& group = scene.hair_groups[gi];
    BrushTarget t;
    const SceneMesh* scalp = content.find_mesh(group.scalp.mesh);
    t.scalp = scalp ? &scalp->mesh : nullptr;
    t.growth = &group.growth;
    t.root_width_m = float(2.0 * group.shading.fiber_radius_m);
    if (t.scalp && !t.scalp->positions.empty()) {
        float lo = t.scalp->positions[0].x, hi = lo;
        for (const glm::vec3& p : t.scalp->positions) lo = std::min(lo, p.x), hi = std::max(hi, p.x);
        t.symmetry_plane_x = 0.5f * (lo + hi);
    }
    for (size_t c = 0; c < scene.collision_meshes.size(); ++c) {
        const CollisionMesh& cm = scene.collision_meshes[c];
        if (std::find(group.simulation.sdf.begin(), group.simulation.sdf.end(), cm.mesh) == group.simulation.sdf.end()) continue;
        if (c < content.sdfs.size() && content.sdfs[c]) t.colliders.push_back({content.sdfs[c].get(), glm::mat4(1.0f), float(cm.margin_m)});
    }
    return t;
}

void take_guides_into_hand(HairGroup& group, std::shared_ptr<const EditedGuides> guides, const std::string& scene_stem) {
    Growth& g = group.growth;
    if (g.placement != Placement::Edited || g.guide_file.empty())
        g.guide_file = (scene_stem.empty() ? std::string("untitled") : scene_stem) + "." + group.name + ".tguides";
    g.placement = Placement::Edited;
    g.guides = int(guides->guides.strand_count());
    g.edited = std::move(guides);
}

ScalpPaint paint_to_edit(const GroomResult* groom, const Mesh& scalp, PaintLayer layer) {
    ScalpPaint p = groom && groom->paint && check_paint_mesh(*groom->paint, scalp, "paint").ok() ? *groom->paint : blank_paint(scalp);
    start_layer(p, layer, groom ? &groom->region : nullptr);
    return p;
}

std::string take_paint_into_hand(HairGroup& group, std::shared_ptr<const ScalpPaint> paint, const GroomResult* groom, const std::string& scene_stem) {
    std::string changed;
    if (group.scalp.paint.empty()) group.scalp.paint = (scene_stem.empty() ? std::string("untitled") : scene_stem) + "." + group.name + ".tpaint";
    if (!paint->mask.empty() && group.scalp.region.type != RegionType::Paint) {
        group.scalp.region.type = RegionType::Paint;
        group.scalp.region.threshold = 0.5;
        changed += "scalp.region is now the painted mask";
    }
    Growth& g = group.growth;
    if (paint->changes_roots() && g.placement == Placement::Random && !(g.density_per_cm2 > 0.0) && groom && groom->region.area_m2 > 0.0) {
        g.density_per_cm2 = double(groom->guides.strand_count()) / groom->region.area_cm2();
        char text[160];
        std::snprintf(text, sizeof text, "%sgrowth.density_per_cm2 is now %.3f (the group's density), so strokes add and remove guides only where they paint",
                      changed.empty() ? "" : "; ", g.density_per_cm2);
        changed += text;
    }
    group.scalp.painted = std::move(paint);
    return changed;
}

}  // namespace tressel::runtime
