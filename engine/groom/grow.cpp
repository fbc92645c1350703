#include "groom/grow.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "groom/clearance.h"
#include "groom/follow.h"
#include "groom/guides_file.h"
#include "groom/image.h"
#include "groom/placement.h"
#include "groom/rng.h"
#include "groom/scalp_paint.h"
#include "groom/shape.h"
#include "groom/spatial.h"
#include "io/hair_files.h"
#include "io/tfxbone.h"

namespace tressel {
namespace {

Status check_mesh(const Mesh& m) {
    if (m.indices.size() % 3 != 0 || m.triangle_count() == 0)
        return make_error(ErrorCode::InvalidArgument, "scalp mesh \"" + m.name + "\" has no triangles");
    for (uint32_t i : m.indices)
        if (i >= m.positions.size())
            return make_error(ErrorCode::InvalidArgument, "scalp mesh \"" + m.name + "\" has a triangle index out of range");
    if ((m.has_normals() && m.normals.size() != m.positions.size()) || (m.has_uvs() && m.uvs.size() != m.positions.size()) ||
        (m.has_colors() && m.colors.size() != m.positions.size()))
        return make_error(ErrorCode::InvalidArgument, "scalp mesh \"" + m.name + "\" has attribute arrays of the wrong size");
    return {};
}

std::filesystem::path resolve(const std::filesystem::path& base, const std::string& p) {
    std::filesystem::path path(p);
    return path.is_relative() && !base.empty() ? base / path : path;
}

// Guides from a .tfx / .hair file, each attached to the closest region triangle.
Status guides_from_file(const GroomInputs& in, const RegionInfo& region, GroomResult& r) {
    const Growth& g = in.group.growth;
    if (g.guide_file.empty())
        return make_error(ErrorCode::InvalidArgument, "growth.guide_file is empty for placement \"file\"");
    auto file = read_strand_file(resolve(in.base_dir, g.guide_file));  // the .tfxbone beside it is read below
    if (!file.ok()) return make_error(file.error().code, "growth.guide_file: " + file.error().message);
    r.diagnostics.append(file->diagnostics);
    if (file->strand_count() > kMaxGuides)
        return make_error(ErrorCode::LimitExceeded, "growth.guide_file has " + std::to_string(file->strand_count()) +
                                                        " strands, over the limit of " + std::to_string(kMaxGuides));
    const Mesh& mesh = *in.scalp;
    const TriangleBvh bvh(mesh.positions, mesh.indices, region.triangles);
    std::vector<uint8_t> degenerate(file->strand_count(), 0);
    for (uint32_t s : file->degenerate_strands) degenerate[s] = 1;
    Strands& out = r.guides;
    r.widths_from_fiber_radius = file->thickness.empty();
    r.widths_fiber_radius_m = in.group.shading.fiber_radius_m;
    size_t dropped = 0;
    double dist_sum = 0.0;
    const double root_width = 2.0 * in.group.shading.fiber_radius_m;
    // A .tfx's own skin: the .tfxbone of the same name beside it, when it describes every strand.
    const std::filesystem::path guide_path = resolve(in.base_dir, g.guide_file);
    std::optional<TfxBoneData> skin;
    if (file->format == "tfx") {
        const auto bone_path = std::filesystem::path(guide_path).replace_extension(".tfxbone");
        std::error_code ec;
        if (std::filesystem::exists(bone_path, ec)) {
            auto bones = read_tfxbone_file(bone_path);
            if (!bones.ok()) {
                r.diagnostics.warn("growth.guide_file", bones.error().message + "; the export skins these guides from the scalp instead");
            } else if (bones->strands.size() != file->strand_count()) {
                r.diagnostics.warn("growth.guide_file", bone_path.filename().string() + " skins " + std::to_string(bones->strands.size()) +
                                                            " strands but the .tfx has " + std::to_string(file->strand_count()) +
                                                            "; the export skins these guides from the scalp instead");
            } else {
                skin = std::move(*bones);
            }
        }
    }
    std::vector<TfxStrandSkin> kept_skin;
    for (size_t s = 0; s < file->strand_count(); ++s) {
        const uint32_t a = file->strand_offsets[s], b = file->strand_offsets[s + 1];
        if (b - a < 2) {
            ++dropped;
            continue;
        }
        if (file->strand_uvs.size() == file->strand_count()) r.file_root_uvs.push_back(file->strand_uvs[s]);
        if (skin) {
            TfxStrandSkin k = skin->strands[s];
            k.strand = int32_t(out.strand_count());
            kept_skin.push_back(k);
        }
        for (uint32_t k = a; k < b; ++k) {
            out.points_os_m.push_back(glm::vec3(in.file_to_mesh * glm::vec4(file->points[k], 1.0f)));
            if (!file->thickness.empty())
                out.widths_m.push_back(file->thickness[k]);
            else {
                const double t = double(k - a) / double(b - a - 1);
                out.widths_m.push_back(taper_width(root_width, g.tip_width_scale, t));
            }
        }
        out.strand_offsets.push_back(uint32_t(out.points_os_m.size()));
        const ClosestPoint cp = bvh.closest(out.points_os_m[out.strand_offsets[out.strand_count() - 1]]);
        out.roots.push_back({cp.triangle, cp.barycentric});
        out.seeds.push_back(uint32_t(groom_rng::hash_seed(g.seed, groom_rng::kStreamShape, s)));
        out.flags.push_back(kStrandFromFile | (degenerate[s] ? kStrandDegenerate : 0u));
        dist_sum += cp.distance_m;
        r.stats.root_distance_max_m = std::max(r.stats.root_distance_max_m, double(cp.distance_m));
    }
    if (skin) {
        skin->strands = std::move(kept_skin);
        r.file_skin = std::move(skin);
    }
    if (dropped > 0)
        r.diagnostics.warn("growth.guide_file", std::to_string(dropped) + " strands with fewer than 2 points were skipped");
    if (out.strand_count() > 0) r.stats.root_distance_mean_m = dist_sum / double(out.strand_count());
    if (r.stats.root_distance_max_m > 0.01)
        r.diagnostics.warn("growth.guide_file", "some strand roots lie up to " + std::to_string(r.stats.root_distance_max_m) +
                                                    " m from the scalp surface (check units and transform)");
    return {};
}

// Guides edited by hand: the .tguides file as saved, each root on the triangle it was attached to. The file
// must hold growth.guides strands (the count the scene was saved with) on a scalp of this triangle count.
// Whether every guide's widths are one root width tapered as growth tapers it (to 1e-6 relative): then they
// came from the fibre radius (grown, then brushed: the brushes keep widths, and add tapers from the root
// width) and follow it when it changes, as grown guides do. Widths read from a file are kept.
bool widths_are_one_taper(const Strands& s, double tip_width_scale) {
    if (s.widths_m.size() != s.points_os_m.size() || s.strand_count() == 0) return false;
    const double w0 = s.widths_m[s.strand_offsets[0]];
    for (size_t i = 0; i < s.strand_count(); ++i) {
        const uint32_t a = s.strand_offsets[i], b = s.strand_offsets[i + 1];
        for (uint32_t k = a; k < b; ++k) {
            const double t = b - a > 1 ? double(k - a) / double(b - a - 1) : 0.0;
            const double want = double(taper_width(w0, tip_width_scale, t));
            if (!(std::abs(double(s.widths_m[k]) - want) <= 1e-6 * std::max(want, 1e-12))) return false;
        }
    }
    return true;
}

void follow_fiber_radius(const GroomInputs& in, GroomResult& r) {
    r.widths_fiber_radius_m = in.group.shading.fiber_radius_m;
    r.widths_from_fiber_radius = widths_are_one_taper(r.guides, in.group.growth.tip_width_scale);
    restyle_widths(r, in.group.shading.fiber_radius_m, in.group.growth.tip_width_scale);
}

Status guides_from_edited_file(const GroomInputs& in, GroomResult& r) {
    const Growth& g = in.group.growth;
    if (g.edited) {
        // Brush work not saved yet: the guides in memory, on the scalp they were brushed on.
        if (g.edited->scalp_triangles != in.scalp->triangle_count())
            return make_error(ErrorCode::InvalidArgument, "growth: the guides edited by hand were brushed on a scalp mesh of " +
                                                              std::to_string(g.edited->scalp_triangles) + " triangles; the scalp mesh now has " +
                                                              std::to_string(in.scalp->triangle_count()));
        r.guides = g.edited->guides;
        follow_fiber_radius(in, r);
        return {};
    }
    if (g.guide_file.empty()) return make_error(ErrorCode::InvalidArgument, "growth.guide_file is empty for placement \"edited\"");
    const std::filesystem::path path = resolve(in.base_dir, g.guide_file);
    auto file = load_guides_file(path, uint32_t(in.scalp->triangle_count()));
    if (!file.ok()) return make_error(file.error().code, "growth.guide_file: " + file.error().message);
    if (file->strand_count() != size_t(g.guides))
        return make_error(ErrorCode::InvalidArgument, "growth.guide_file: " + path.string() + " holds " + std::to_string(file->strand_count()) +
                                                          " guides but the scene says growth.guides is " + std::to_string(g.guides) +
                                                          " (the file was changed after the scene was saved, or belongs to another scene)");
    r.guides = std::move(*file);
    follow_fiber_radius(in, r);
    return {};
}

}  // namespace

Result<GroomResult> grow_group(const GroomInputs& in, Progress* progress) {
    TRESSEL_ASSERT(in.scalp != nullptr, "GroomInputs::scalp must point at the scalp mesh");
    const Mesh& mesh = *in.scalp;
    const HairGroup& group = in.group;
    const Growth& g = group.growth;
    auto cancelled = [&] { return progress && progress->cancelled(); };
    auto step = [&](float f, const char* s) {
        if (progress) progress->set(f, s);
    };
    TRESSEL_TRY(check_mesh(mesh));
    if (g.placement != Placement::File && g.placement != Placement::Edited) TRESSEL_TRY(validate_shape(g));
    TRESSEL_TRY(validate_follow(group.follow));

    GroomResult r;
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    auto ms_since = [](Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); };
    step(0.0f, "scalp region");
    r.paint = group.scalp.painted;
    if (!r.paint && !group.scalp.paint.empty()) {
        auto p = load_paint_file(resolve(in.base_dir, group.scalp.paint), &mesh);
        if (!p.ok()) return make_error(p.error().code, "scalp.paint: " + p.error().message);
        r.paint = std::make_shared<const ScalpPaint>(std::move(*p));
    }
    if (r.paint) TRESSEL_TRY(check_paint_mesh(*r.paint, mesh, "scalp.paint"));
    auto region = evaluate_region(mesh, group.scalp.region, in.base_dir, r.paint.get());
    if (!region.ok()) return region.error();
    r.region = std::move(*region);
    if (r.region.triangles.empty())
        return make_error(ErrorCode::InvalidArgument, "scalp.region selects no triangles of mesh \"" + mesh.name + "\"");
    if (cancelled()) return make_error(ErrorCode::Cancelled, "growing cancelled");

    r.timings.region_ms = ms_since(t0);
    const auto t1 = Clock::now();
    step(0.1f, "guides");
    RootSet roots;
    if (g.placement == Placement::File) {
        TRESSEL_TRY(guides_from_file(in, r.region, r));
    } else if (g.placement == Placement::Edited) {
        TRESSEL_TRY(guides_from_edited_file(in, r));
    } else {
        if (g.placement == Placement::PerVertex) {
            roots = place_per_vertex(mesh, r.region);
        } else {
            double want = g.density_per_cm2 > 0.0 ? g.density_per_cm2 * r.region.area_cm2() : double(g.guides);
            if (!(g.density_per_cm2 >= 0.0) || !std::isfinite(g.density_per_cm2) || g.guides < 0)
                return make_error(ErrorCode::InvalidArgument, "growth.guides and growth.density_per_cm2 must be >= 0");
            if (want > double(kMaxGuides))
                return make_error(ErrorCode::LimitExceeded, std::string(g.density_per_cm2 > 0.0 ? "growth.density_per_cm2" : "growth.guides") +
                                                                " asks for " + std::to_string(std::llround(want)) +
                                                                " guides, over the limit of " + std::to_string(kMaxGuides));
            if (!(g.min_spacing_m >= 0.0)) return make_error(ErrorCode::InvalidArgument, "growth.min_spacing_m must be >= 0");
            if (r.paint && r.paint->changes_roots()) {
                // Painted mask or density: local placement, guides_per_cm2 where the paint is 1.
                const double per_m2 = g.density_per_cm2 > 0.0 ? g.density_per_cm2 * 1e4 : double(g.guides) / std::max(r.region.area_m2, 1e-12);
                const double painted_want = per_m2 * r.region.weighted_area_m2;
                if (painted_want > double(kMaxGuides))
                    return make_error(ErrorCode::LimitExceeded, "the painted density asks for " + std::to_string(std::llround(painted_want)) +
                                                                    " guides, over the limit of " + std::to_string(kMaxGuides));
                if (g.min_spacing_m > 0.0)
                    r.diagnostics.info("growth.min_spacing", "not applied where the scalp's mask or density is painted (each triangle places its own roots)");
                roots = place_painted(mesh, r.region, per_m2, g.seed);
            } else {
                roots = place_random(mesh, r.region, size_t(std::llround(want)), g.seed, g.min_spacing_m, r.diagnostics);
            }
        }
        if (roots.size() == 0)
            return make_error(ErrorCode::InvalidArgument, "growth placed no guides (growth.guides / growth.density_per_cm2 or the region is empty)");
        if (roots.size() > kMaxGuides)
            return make_error(ErrorCode::LimitExceeded, "growth.placement per_vertex gives " + std::to_string(roots.size()) +
                                                            " guides, over the limit of " + std::to_string(kMaxGuides));
        if (double(roots.size()) * double(g.vertices_per_strand) > double(kMaxGuidePoints))
            return make_error(ErrorCode::LimitExceeded, std::to_string(roots.size()) + " guides x growth.vertices_per_strand " +
                                                            std::to_string(g.vertices_per_strand) + " exceeds the limit of " +
                                                            std::to_string(kMaxGuidePoints) + " guide points");
        if (cancelled()) return make_error(ErrorCode::Cancelled, "growing cancelled");
        step(0.3f, "guide shapes");
        UvImage length_map;
        ShapeInputs si;
        si.roots = &roots;
        si.growth = g;
        si.seed = g.seed;
        si.root_width_m = 2.0 * group.shading.fiber_radius_m;
        si.paint = r.paint.get();
        si.scalp = &mesh;
        if (!g.length_map.empty()) {
            if (!mesh.has_uvs())
                return make_error(ErrorCode::InvalidArgument, "growth.length_map needs UVs, but mesh \"" + mesh.name + "\" has none");
            auto img = load_uv_image(resolve(in.base_dir, g.length_map));
            if (!img.ok()) return make_error(img.error().code, "growth.length_map: " + img.error().message);
            length_map = std::move(*img);
            si.length_map = &length_map;
        }
        r.guides.points_os_m.reserve(roots.size() * size_t(g.vertices_per_strand));
        TRESSEL_TRY(shape_guides(si, r.guides, r.diagnostics));
        r.widths_from_fiber_radius = true;
        r.widths_fiber_radius_m = group.shading.fiber_radius_m;
        std::optional<TriangleBvh> scalp_bvh;
        if (in.scalp_clearance_m >= 0.0) {
            step(0.5f, "keeping guides outside the scalp");
            scalp_bvh.emplace(mesh.positions, mesh.indices);
            const ClearanceStats cs = keep_strands_outside(mesh, *scalp_bvh, float(in.scalp_clearance_m), r.guides);
            if (cs.strands_moved > 0) {
                char msg[160];
                std::snprintf(msg, sizeof msg, "%zu guides bent into the scalp were moved out to %.1f mm above it (largest move %.1f mm)",
                              cs.strands_moved, in.scalp_clearance_m * 1000.0, double(cs.max_move_m) * 1000.0);
                r.diagnostics.info("growth", msg);
            }
        }
        // Around the bodies the hair collides with: each strand that enters one is turned out of it where it
        // meets it, as out of the scalp; then out of the scalp again, which a body sitting on it may have
        // pushed a strand into.
        for (const GroomInputs::Obstacle& o : in.obstacles) {
            if (!o.mesh || o.mesh->indices.empty() || !(o.clearance_m >= 0.0)) continue;
            step(0.55f, "growing guides around the accessories");
            const TriangleBvh bvh(o.mesh->positions, o.mesh->indices);
            size_t rooted = 0;
            const std::vector<uint8_t> leave = strands_rooted_inside(*o.mesh, bvh, float(o.clearance_m), r.guides, &rooted);
            const ClearanceStats cs = keep_strands_outside(*o.mesh, bvh, float(o.clearance_m), r.guides, leave);
            if (scalp_bvh) keep_strands_outside(mesh, *scalp_bvh, float(in.scalp_clearance_m), r.guides);
            const size_t wedged = mark_strands_inside(*o.mesh, bvh, leave, kStrandWedged, r.guides);
            if (cs.strands_moved > 0 || rooted > 0) {
                char msg[320];
                std::snprintf(msg, sizeof msg,
                              "%zu guides passing through %s were grown around it, %.1f mm outside (largest move %.1f mm); %zu rooted "
                              "inside it were left in it, and %zu still in it where it meets the scalp",
                              cs.strands_moved, o.name.c_str(), o.clearance_m * 1000.0, double(cs.max_move_m) * 1000.0, rooted, wedged);
                r.diagnostics.info("growth", msg);
            }
        }
    }
    if (cancelled()) return make_error(ErrorCode::Cancelled, "growing cancelled");

    r.timings.guides_ms = ms_since(t1);
    const auto t2 = Clock::now();
    step(0.6f, "follow hairs");
    r.guide_frames = compute_guide_frames(r.guides, mesh);
    FollowInputs fi;
    fi.scalp = &mesh;
    fi.region = &r.region;
    fi.guides = &r.guides;
    fi.frames = r.guide_frames;
    fi.vertex_guide = roots.vertex_guide;
    fi.follow = group.follow;
    auto follows = generate_follow(fi, r.diagnostics);
    if (!follows.ok()) return follows.error();
    r.follows = std::move(*follows);
    r.timings.follow_ms = ms_since(t2);

    // Statistics, reduced sequentially in strand order.
    GroomStats& st = r.stats;
    st.guides = r.guides.strand_count();
    st.guide_points = r.guides.point_count();
    st.follows = r.follows.size();
    st.follow_points = st.follows * r.guides.uniform_point_count();
    st.region_triangles = r.region.triangles.size();
    st.region_area_m2 = r.region.area_m2;
    st.region_area_cm2 = r.region.area_cm2();
    st.guides_per_cm2 = st.region_area_cm2 > 0.0 ? double(st.guides) / st.region_area_cm2 : 0.0;
    st.follows_per_cm2 = st.region_area_cm2 > 0.0 ? double(st.follows) / st.region_area_cm2 : 0.0;
    double sum = 0.0;
    st.length_min_m = std::numeric_limits<double>::max();
    for (size_t i = 0; i < st.guides; ++i) {
        const double len = strand_length_m(r.guides, i);
        sum += len;
        st.length_min_m = std::min(st.length_min_m, len);
        st.length_max_m = std::max(st.length_max_m, len);
        if (r.guides.flags[i] & kStrandDegenerate) ++st.degenerate_guides;
    }
    if (st.guides == 0) st.length_min_m = 0.0;
    st.length_mean_m = st.guides ? sum / double(st.guides) : 0.0;
    r.timings.total_ms = ms_since(t0);
    step(1.0f, "done");
    return r;
}

void restyle_widths(GroomResult& groom, double fiber_radius_m, double tip_width_scale) {
    if (!groom.widths_from_fiber_radius) return;
    groom.widths_fiber_radius_m = fiber_radius_m;
    Strands& s = groom.guides;
    if (s.widths_m.size() != s.points_os_m.size()) return;
    const double root_width = 2.0 * fiber_radius_m;  // as grow_group and guides_from_file compute it
    for (size_t i = 0; i < s.strand_count(); ++i) {
        const uint32_t a = s.strand_offsets[i], b = s.strand_offsets[i + 1];
        for (uint32_t k = a; k < b; ++k) {
            const double t = b - a > 1 ? double(k - a) / double(b - a - 1) : 0.0;
            s.widths_m[k] = taper_width(root_width, tip_width_scale, t);
        }
    }
}

}  // namespace tressel
