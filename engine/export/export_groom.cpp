#include "export/export_groom.h"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "core/file_io.h"
#include "groom/follow.h"
#include "export/export_gltf.h"
#include "export/export_tfx.h"
#include "io/hair_files.h"
#include "io/tfxbone.h"
#include "io/tfxmesh.h"
#include "io/usda.h"
#include "sdf/sdf.h"

namespace tressel {
namespace {

constexpr int kGroomVersionMajor = 1, kGroomVersionMinor = 5;  // Unreal's groom attributes (FORMATS.md)

std::string usd_name(const std::string& s) {
    std::string r;
    for (char c : s) r += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (r.empty() || std::isdigit(static_cast<unsigned char>(r[0]))) r = "_" + r;
    return r;
}

std::string file_part(const std::string& s) {
    std::string r;
    for (char c : s) r += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
    return r.empty() ? "_" : r;
}

std::filesystem::path sibling(const std::filesystem::path& out, const std::string& suffix, const std::string& ext) {
    return out.parent_path() / (out.stem().string() + suffix + ext);
}

std::vector<glm::vec2> root_uvs(const Mesh& scalp, const std::vector<ScalpAttachment>& roots) {
    std::vector<glm::vec2> uvs;
    if (scalp.uvs.size() != scalp.positions.size()) return uvs;
    uvs.reserve(roots.size());
    for (const auto& r : roots) {
        const size_t t = size_t(r.triangle) * 3;
        if (t + 2 >= scalp.indices.size()) return {};
        uvs.push_back(r.barycentric.x * scalp.uvs[scalp.indices[t]] + r.barycentric.y * scalp.uvs[scalp.indices[t + 1]] +
                      r.barycentric.z * scalp.uvs[scalp.indices[t + 2]]);
    }
    return uvs;
}

// Widths (diameters) and colours along each strand from the group's shading, where the strands carry none.
void fill_shading(Strands& s, const Shading& sh) {
    const bool widths = s.widths_m.size() != s.point_count(), colors = s.colors.size() != s.point_count();
    if (widths) s.widths_m.assign(s.point_count(), 0.0f);
    if (colors) s.colors.assign(s.point_count(), glm::vec4(1.0f));
    for (size_t i = 0; i < s.strand_count(); ++i) {
        const uint32_t first = s.strand_offsets[i], n = s.points_in(i);
        for (uint32_t k = 0; k < n; ++k) {
            const double t = n > 1 ? double(k) / double(n - 1) : 0.0;
            if (widths) s.widths_m[first + k] = float(2.0 * sh.fiber_radius_m * (sh.thin_tip ? 1.0 + (sh.fiber_ratio - 1.0) * t : 1.0));
            if (colors) {
                const double b = sh.tip_percentage > 0.0 ? std::clamp(t / sh.tip_percentage, 0.0, 1.0) : 1.0;
                s.colors[first + k] = glm::vec4(glm::vec3(glm::mix(sh.root_color, sh.tip_color, b)), float(sh.opacity));
            }
        }
    }
}

Strands concat(const Strands& a, const Strands& b) {
    Strands r = a;
    const uint32_t base = uint32_t(a.point_count());
    r.points_os_m.insert(r.points_os_m.end(), b.points_os_m.begin(), b.points_os_m.end());
    for (size_t i = 1; i < b.strand_offsets.size(); ++i) r.strand_offsets.push_back(base + b.strand_offsets[i]);
    r.widths_m.insert(r.widths_m.end(), b.widths_m.begin(), b.widths_m.end());
    r.colors.insert(r.colors.end(), b.colors.begin(), b.colors.end());
    r.roots.insert(r.roots.end(), b.roots.begin(), b.roots.end());
    r.seeds.insert(r.seeds.end(), b.seeds.begin(), b.seeds.end());
    r.flags.insert(r.flags.end(), b.flags.begin(), b.flags.end());
    return r;
}

std::string count_range(const Strands& s) {
    uint32_t lo = ~0u, hi = 0;
    for (size_t i = 0; i < s.strand_count(); ++i) lo = std::min(lo, s.points_in(i)), hi = std::max(hi, s.points_in(i));
    return lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi);
}

class Writer {
public:
    ExportReport report;
    Status file(const std::filesystem::path& p, Status st) {
        if (!st.ok()) {
            if (st.error().message.find(p.string()) != std::string::npos) return st;
            return make_error(st.error().code, "cannot write " + p.string() + ": " + st.error().message);
        }
        report.files.push_back(p);
        return {};
    }
    // Removes what this export wrote when a later file fails.
    void roll_back() {
        for (const auto& f : report.files) {
            std::error_code ec;
            std::filesystem::remove(f, ec);
        }
        report.files.clear();
    }
};

Status write_tfx_group(Writer& w, const ExportDesc& desc, const ExportGroup& g, const ExportCurves& c, const std::filesystem::path& out) {
    Strands all = c.follows.strand_count() ? concat(c.guides, c.follows) : c.guides;
    std::vector<glm::vec2> uvs = c.guide_root_uvs;
    if (!uvs.empty()) uvs.insert(uvs.end(), c.follow_root_uvs.begin(), c.follow_root_uvs.end());
    const uint32_t target = uint32_t(g.group->simulation.gpu_vertices_per_strand);
    if (!is_gpu_vertex_count(target))
        return make_error(ErrorCode::InvalidArgument, "hair group '" + c.name + "': simulation.gpu_vertices_per_strand " +
                                                          std::to_string(target) + " is not 4, 8, 16, 32 or 64");
    if (all.uniform_point_count() != target) {
        w.report.diagnostics.warn("hair group '" + c.name + "'", "strands resampled from " + count_range(all) + " to " +
                                                                    std::to_string(target) + " vertices per strand for TressFX");
        auto r = resample_strands(all, target);
        if (!r) return r.error();
        all = std::move(*r);
    }
    HairFileData d;
    d.format = "tfx";
    d.points = all.points_os_m;
    d.strand_offsets = all.strand_offsets;
    d.strand_uvs = uvs.size() == all.strand_count() ? uvs : std::vector<glm::vec2>{};
    TRESSEL_TRY(w.file(out, write_tfx_file(out, d)));

    std::vector<uint32_t> tris(all.strand_count());
    std::vector<glm::vec3> bary(all.strand_count());
    for (size_t i = 0; i < all.strand_count(); ++i) tris[i] = all.roots[i].triangle, bary[i] = all.roots[i].barycentric;
    Result<TfxBoneData> bones = make_error(ErrorCode::InvalidArgument, "no skin");
    const std::optional<TfxBoneData>& file_skin = g.groom->file_skin;
    if (file_skin && file_skin->strands.size() == c.guides.strand_count()) {
        // Guides read from a .tfx keep the skin of their .tfxbone; a follow hair takes its primary guide's.
        TfxBoneData skin = *file_skin;
        for (size_t f = 0; f < c.follows.strand_count(); ++f) {
            const uint32_t guide = g.groom->follows.descriptors.at(f).guides.x;
            TfxStrandSkin k = file_skin->strands.at(guide);
            k.strand = int32_t(c.guides.strand_count() + f);
            skin.strands.push_back(k);
        }
        w.report.diagnostics.info("hair group '" + c.name + "'", "the skin of the guides' own .tfxbone (" + std::to_string(skin.bone_names.size()) +
                                                                   " bones) was written as read, not taken again from the scalp");
        bones = std::move(skin);
    } else {
        TfxBoneFromScalp in;
        in.scalp = g.scalp;
        in.joint_names = g.joint_names;
        in.root_triangles = tris;
        in.root_barycentrics = bary;
        bones = tfxbone_from_scalp(in, w.report.diagnostics);
    }
    if (!bones) return bones.error();
    const auto bone_path = std::filesystem::path(out).replace_extension(".tfxbone");
    TRESSEL_TRY(w.file(bone_path, write_tfxbone_file(bone_path, *bones)));
    (void)desc;
    return {};
}

Status write_tfxmeshes(Writer& w, const ExportDesc& desc) {
    for (const auto& cm : desc.collision) {
        TRESSEL_ASSERT(cm.mesh != nullptr, "ExportCollisionMesh::mesh is required");
        const Mesh& m = *cm.mesh;
        std::vector<std::string> names;
        if (!m.joints.empty()) {
            uint32_t count = uint32_t(cm.joint_names.size());
            for (const auto& j : m.joints) count = std::max({count, uint32_t(j.x) + 1, uint32_t(j.y) + 1, uint32_t(j.z) + 1, uint32_t(j.w) + 1});
            names = tressfx_bone_names(cm.joint_names, count, w.report.diagnostics);  // the .tfxbone's mapping
        } else {
            names = {"root"};
        }
        const auto p = sibling(desc.out, "_" + file_part(cm.params.mesh), ".tfxmesh");
        TRESSEL_TRY(w.file(p, write_tfxmesh(m, names, p)));
    }
    return {};
}

UsdCurves usd_curves(const std::string& name, const Strands& s, const std::vector<glm::vec2>& uvs, bool guide, int group_id,
                     const FollowHairs* follows) {
    UsdCurves c;
    c.path = name;
    c.vertex_counts.reserve(s.strand_count());
    for (size_t i = 0; i < s.strand_count(); ++i) c.vertex_counts.push_back(int(s.points_in(i)));
    c.points = s.points_os_m;
    c.widths = s.widths_m;
    c.display_color.reserve(s.colors.size());
    for (const auto& col : s.colors) c.display_color.push_back(glm::vec3(col));
    const size_t n = s.strand_count();
    c.primvars.push_back({"groom_guide", "int[]", "uniform", std::vector<double>(n, guide ? 1.0 : 0.0)});
    c.primvars.push_back({"groom_group_id", "int", "constant", {double(group_id)}});
    c.primvars.push_back({"groom_version_major", "int", "constant", {double(kGroomVersionMajor)}});
    c.primvars.push_back({"groom_version_minor", "int", "constant", {double(kGroomVersionMinor)}});
    if (uvs.size() == n) {
        UsdPrimvar p{"groom_root_uv", "float2[]", "uniform", {}};
        for (const auto& uv : uvs) p.values.insert(p.values.end(), {uv.x, uv.y});
        c.primvars.push_back(std::move(p));
    }
    if (follows && follows->size() == n) {
        UsdPrimvar ids{"groom_closest_guides", "int3[]", "uniform", {}}, ws{"groom_guide_weights", "float3[]", "uniform", {}};
        for (const auto& d : follows->descriptors) {
            ids.values.insert(ids.values.end(), {double(d.guides.x), double(d.guides.y), double(d.guides.z)});
            ws.values.insert(ws.values.end(), {d.weights.x, d.weights.y, d.weights.z});
        }
        c.primvars.push_back(std::move(ids));
        c.primvars.push_back(std::move(ws));
    }
    return c;
}

GltfStrandSet gltf_set(const std::string& name, const Strands& s) {
    GltfStrandSet g;
    g.name = name;
    g.points_m = s.points_os_m;
    g.strand_offsets = s.strand_offsets;
    g.colors = s.colors;
    return g;
}

Result<std::vector<CollisionGridInfo>> collision_grids(const ExportDesc& desc, const HairGroup& group, Diagnostics& diag) {
    std::vector<CollisionGridInfo> out;
    for (const auto& cm : desc.collision) {
        if (std::find(group.simulation.sdf.begin(), group.simulation.sdf.end(), cm.params.mesh) == group.simulation.sdf.end()) continue;
        TRESSEL_ASSERT(cm.mesh != nullptr, "ExportCollisionMesh::mesh is required");
        if (cm.mesh->positions.empty())
            return make_error(ErrorCode::InvalidArgument, "collision mesh '" + cm.params.mesh + "' has no vertices");
        glm::dvec3 lo(cm.mesh->positions[0]), hi(lo);
        for (const auto& p : cm.mesh->positions) lo = glm::min(lo, glm::dvec3(p)), hi = glm::max(hi, glm::dvec3(p));
        auto grid = compute_grid(lo, hi, cm.params.cells_x, cm.params.padding, diag);
        if (!grid) return make_error(grid.error().code, "collision mesh '" + cm.params.mesh + "': " + grid.error().message);
        out.push_back({cm.params, grid->cell_size_m});
    }
    return out;
}

}  // namespace

Result<ExportFormat> parse_export_format(const std::string& name) {
    if (name == "tfx") return ExportFormat::Tfx;
    if (name == "hair") return ExportFormat::Hair;
    if (name == "usda") return ExportFormat::Usda;
    if (name == "gltf") return ExportFormat::Gltf;
    if (name == "preset") return ExportFormat::Preset;
    return make_error(ErrorCode::InvalidArgument, "unknown export format \"" + name + "\" (expected tfx, hair, usda, gltf or preset)");
}

Result<ExportCurves> prepare_export_curves(const ExportGroup& g, bool include_follows, Diagnostics& diag) {
    TRESSEL_ASSERT(g.group && g.groom && g.scalp, "ExportGroup needs group, groom and scalp");
    ExportCurves c;
    c.name = g.group->name;
    c.guides = g.posed_guides ? *g.posed_guides : g.groom->guides;
    if (c.guides.strand_count() == 0)
        return make_error(ErrorCode::InvalidArgument, "hair group '" + c.name +
                                                          "' has no guide strands to export (empty region or no guides)");
    if (g.posed_guides && (g.posed_guides->strand_count() != g.groom->guides.strand_count() || !g.posed_guides->consistent()))
        return make_error(ErrorCode::InvalidArgument, "hair group '" + c.name + "': the posed guides do not match the groom's guides");
    if (include_follows && g.groom->follows.size() > 0) {
        Strands guides = c.guides;
        if (guides.uniform_point_count() == 0) {
            const uint32_t n = uint32_t(g.group->simulation.gpu_vertices_per_strand);
            auto r = resample_strands(guides, n);
            if (!r) return make_error(r.error().code, "hair group '" + c.name + "': " + r.error().message);
            guides = std::move(*r);
            diag.warn("hair group '" + c.name + "'", "guides resampled to " + std::to_string(n) + " vertices to evaluate the follow hairs");
        }
        c.follows = evaluate_follows(g.groom->follows, guides, g.groom->guide_frames);
        fill_shading(c.follows, g.group->shading);
        c.follow_root_uvs = root_uvs(*g.scalp, c.follows.roots);
    }
    fill_shading(c.guides, g.group->shading);
    // Guides read from a .tfx keep its root UVs; the follows take the scalp's, or else their guide's.
    const std::vector<glm::vec2>& file_uvs = g.groom->file_root_uvs;
    const bool from_file = !file_uvs.empty() && file_uvs.size() == c.guides.strand_count();
    c.guide_root_uvs = from_file ? file_uvs : root_uvs(*g.scalp, c.guides.roots);
    if (from_file && c.follow_root_uvs.empty())
        for (size_t f = 0; f < c.follows.strand_count(); ++f) c.follow_root_uvs.push_back(file_uvs.at(g.groom->follows.descriptors.at(f).guides.x));
    if (c.guide_root_uvs.empty())
        diag.warn("hair group '" + c.name + "'", "the scalp mesh has no UVs: strand root UVs are written as 0");
    return c;
}

Result<ExportReport> export_groom(const ExportDesc& desc) {
    if (desc.groups.empty()) return make_error(ErrorCode::InvalidArgument, "nothing to export: no hair group selected");
    if (desc.out.empty()) return make_error(ErrorCode::InvalidArgument, "no output path given");
    Writer w;
    const bool many = desc.groups.size() > 1;
    auto group_path = [&](const ExportGroup& g) { return many ? sibling(desc.out, "_" + file_part(g.group->name), desc.out.extension().string()) : desc.out; };

    auto run = [&]() -> Status {
        if (desc.format == ExportFormat::Preset) {
            std::vector<TressFXSettings> settings;
            for (const auto& g : desc.groups) {
                TRESSEL_ASSERT(g.group != nullptr, "ExportGroup::group is required");
                auto grids = collision_grids(desc, *g.group, w.report.diagnostics);
                if (!grids) return grids.error();
                settings.push_back(to_tressfx(*g.group, desc.environment, *grids, desc.tressfx, w.report.diagnostics));
            }
            const std::string text = tressfx_settings_to_json(settings, desc.tressfx).dump(2) + "\n";
            return w.file(desc.out, write_file_atomic(desc.out, std::string_view(text)));
        }
        std::vector<ExportCurves> curves;
        for (const auto& g : desc.groups) {
            auto c = prepare_export_curves(g, desc.include_follows, w.report.diagnostics);
            if (!c) return c.error();
            curves.push_back(std::move(*c));
        }
        switch (desc.format) {
        case ExportFormat::Tfx:
            for (size_t i = 0; i < curves.size(); ++i) TRESSEL_TRY(write_tfx_group(w, desc, desc.groups[i], curves[i], group_path(desc.groups[i])));
            return write_tfxmeshes(w, desc);
        case ExportFormat::Hair:
            for (size_t i = 0; i < curves.size(); ++i) {
                const Strands s = curves[i].follows.strand_count() ? concat(curves[i].guides, curves[i].follows) : curves[i].guides;
                HairFileData d;
                d.format = "hair";
                d.points = s.points_os_m;
                d.strand_offsets = s.strand_offsets;
                d.thickness = s.widths_m;
                d.colors.reserve(s.colors.size());
                d.transparency.reserve(s.colors.size());
                for (const auto& col : s.colors) d.colors.push_back(glm::vec3(col)), d.transparency.push_back(1.0f - col.a);
                d.default_thickness = float(2.0 * desc.groups[i].group->shading.fiber_radius_m);
                d.default_color = glm::vec3(desc.groups[i].group->shading.root_color);
                d.info = "Tressel groom '" + curves[i].name + "', metres, Y up";
                const auto p = group_path(desc.groups[i]);
                TRESSEL_TRY(w.file(p, write_hair_file(p, d)));
            }
            return {};
        case ExportFormat::Usda: {
            UsdStage st;
            st.doc = "Tressel groom export: BasisCurves per hair group (guides, follows), Unreal groom primvars";
            st.root_attributes.push_back({"groom_version_major", "int", "constant", {double(kGroomVersionMajor)}});
            st.root_attributes.push_back({"groom_version_minor", "int", "constant", {double(kGroomVersionMinor)}});
            for (size_t i = 0; i < curves.size(); ++i) {
                UsdCurvesGroup grp;
                grp.name = usd_name(curves[i].name);
                grp.curves.push_back(usd_curves("guides", curves[i].guides, curves[i].guide_root_uvs, true, int(i), nullptr));
                if (curves[i].follows.strand_count())
                    grp.curves.push_back(usd_curves("follows", curves[i].follows, curves[i].follow_root_uvs, false, int(i),
                                                    &desc.groups[i].groom->follows));
                st.groups.push_back(std::move(grp));
            }
            return w.file(desc.out, write_usda_file(desc.out, st));
        }
        case ExportFormat::Gltf: {
            std::string ext = desc.out.extension().string();
            std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
            if (ext != ".gltf" && ext != ".glb")
                return make_error(ErrorCode::InvalidArgument, desc.out.string() + ": a glTF export needs a .gltf or .glb file name");
            GltfExportDesc g;
            g.binary = ext == ".glb";
            g.meshes = desc.meshes;
            for (const auto& c : curves) {
                g.strands.push_back(gltf_set(c.name + "_guides", c.guides));
                if (c.follows.strand_count()) g.strands.push_back(gltf_set(c.name + "_follows", c.follows));
            }
            return w.file(desc.out, write_gltf_file(desc.out, g));
        }
        case ExportFormat::Preset: break;
        }
        return {};
    };
    if (Status st = run(); !st.ok()) {
        w.roll_back();
        return st.error();
    }
    return std::move(w.report);
}

}  // namespace tressel
