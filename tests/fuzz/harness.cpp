#include "harness.h"

#include <cmath>
#include <cstring>
#include <exception>
#include <string_view>

#include <nlohmann/json.hpp>

#include "anim/anim.h"
#include "groom/guides_file.h"
#include "groom/image.h"
#include "groom/scalp_paint.h"
#include "io/hair_files.h"
#include "io/mesh_import.h"
#include "io/mesh_ops.h"
#include "io/tfxbone.h"
#include "io/tfxmesh.h"
#include "io/usda.h"
#include "scene/presets.h"
#include "scene/scene_io.h"

namespace tressel::fuzz {

namespace {

std::string_view text_of(std::span<const uint8_t> b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// An error must say which file it is about.
std::string names_file(const Error& e, const std::string& file) {
    if (e.message.empty()) return "an error with no message";
    if (e.message.find(file) == std::string::npos) return "an error that does not name the file: " + e.message;
    return "";
}

bool finite(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Runs a check and turns an escaping exception into a finding (the tool has no handler above the loaders).
template <class F>
std::string guarded(F&& f) {
    try {
        return f();
    } catch (const std::exception& e) {
        return std::string("an exception escaped: ") + e.what();
    } catch (...) {
        return "an exception escaped";
    }
}

std::string check_strands(const HairFileData& d) {
    if (d.strand_offsets.empty() || d.strand_offsets.front() != 0 || d.strand_offsets.back() != d.points.size()) return "strand offsets do not cover the points";
    for (size_t i = 1; i < d.strand_offsets.size(); ++i)
        if (d.strand_offsets[i] < d.strand_offsets[i - 1]) return "strand offsets decrease";
    for (const auto& p : d.points)
        if (!finite(p)) return "a non-finite point was accepted";
    if (!d.strand_uvs.empty() && d.strand_uvs.size() != d.strand_count()) return "strand UVs do not match the strands";
    return "";
}

std::string scene_json(std::span<const uint8_t> b) {
    const std::string file = "fuzz_scene.json";
    return guarded([&]() -> std::string {
        auto doc = parse_json_text(text_of(b), file);
        if (!doc) return names_file(doc.error(), file);
        Diagnostics d;
        auto scene = scene_from_json(*doc, "/fuzz", d);
        if (scene) {
            // Saved and loaded again, the same scene.
            auto again = parse_json_text(scene_to_text(*scene), file);
            if (!again) return "the saved scene is not JSON: " + again.error().message;
            auto back = scene_from_json(*again, "/fuzz", d);
            if (!back) return "the saved scene does not load: " + back.error().message;
            if (!(*back == *scene)) return "saving and loading changed the scene";
        } else if (scene.error().message.empty()) {
            return "an error with no message";
        }
        // The same document as a scene preset over a valid scene, and as a section preset.
        Scene base;
        base.meshes.push_back({});
        base.meshes[0].name = "head";
        base.meshes[0].path = "head.obj";
        auto merged = apply_preset(base, *doc, d);
        if (!merged && merged.error().message.empty()) return "a preset error with no message";
        auto section = parse_section_preset(*doc, d);
        if (!section && section.error().message.empty()) return "a section preset error with no message";
        return "";
    });
}

std::string mesh(std::span<const uint8_t> b, const std::string& ext) {
    const std::string file = "fuzz." + ext;
    return guarded([&]() -> std::string {
        ImportOptions o;
        o.max_file_bytes = 64ull << 20;
        auto r = import_mesh_bytes(b, file, o);
        if (!r) return names_file(r.error(), file);
        const ImportedScene& s = *r;
        for (const Mesh& m : s.meshes) {
            if (auto st = validate_mesh(m, file); !st.ok()) return "an imported mesh is invalid: " + st.error().message;
            if (!m.joints.empty()) {
                if (m.skin < 0 || size_t(m.skin) >= s.skins.size()) return "a skinned mesh names a missing skin";
                const size_t joints = s.skins[size_t(m.skin)].joints.size();
                for (size_t v = 0; v < m.joints.size(); ++v)
                    for (int k = 0; k < 4; ++k)
                        if (m.weights[v][k] != 0.0f && m.joints[v][k] >= joints) return "a vertex weighs a joint its skin does not have";
            }
        }
        for (const Node& n : s.nodes)
            if (n.parent >= int(s.nodes.size()) || n.mesh >= int(s.meshes.size())) return "a node refers past the lists";
        for (const Skin& k : s.skins) {
            if (k.inverse_bind.size() != k.joints.size()) return "a skin's bind matrices do not match its joints";
            for (int j : k.joints)
                if (j < 0 || j >= int(s.nodes.size())) return "a skin names a missing node";
        }
        // What the tool does next with a file: merge its parts, report it, play its clips.
        const Mesh merged = merge_meshes(s, "fuzz");
        (void)analyze_mesh(merged);
        std::vector<NodeTransform> local = rest_pose(s);
        for (const Animation& a : s.animations) {
            for (const AnimationChannel& c : a.channels)
                if (c.node < 0 || c.node >= int(s.nodes.size())) return "a clip drives a missing node";
            Diagnostics d;
            ClipSampler clip(s, a, &d);
            for (double t : {0.0, 0.37, clip.duration_s()}) clip.sample(t, local);
        }
        (void)world_transforms(s, local);
        return "";
    });
}

std::string tfx(std::span<const uint8_t> b) {
    return guarded([&]() -> std::string {
        auto r = parse_tfx(b, "fuzz.tfx");
        if (!r) return names_file(r.error(), "fuzz.tfx");
        return check_strands(*r);
    });
}

std::string hair(std::span<const uint8_t> b) {
    return guarded([&]() -> std::string {
        auto r = parse_hair(b, "fuzz.hair");
        if (!r) return names_file(r.error(), "fuzz.hair");
        if (auto bad = check_strands(*r); !bad.empty()) return bad;
        auto bytes = encode_hair(*r);
        if (!bytes) return "";  // refused to write (e.g. a strand over the format's segment limit): fine, said so
        auto back = parse_hair(*bytes, "again.hair");
        if (!back) return "a written .hair does not read back: " + back.error().message;
        if (back->points != r->points || back->strand_offsets != r->strand_offsets) return "a .hair changed through a save and a load";
        return "";
    });
}

std::string tfxbone(std::span<const uint8_t> b) {
    return guarded([&]() -> std::string {
        auto r = parse_tfxbone(b, "fuzz.tfxbone");
        if (!r) return names_file(r.error(), "fuzz.tfxbone");
        for (const auto& s : r->strands)
            for (int k = 0; k < 4; ++k)
                if (s.bones[k] < 0 || size_t(s.bones[k]) >= r->bone_names.size()) return "a bone index outside the names was accepted";
        auto bytes = encode_tfxbone(*r);
        if (!bytes) return "a .tfxbone that was read cannot be written: " + bytes.error().message;
        auto back = parse_tfxbone(*bytes, "again.tfxbone");
        if (!back) return "a written .tfxbone does not read back: " + back.error().message;
        if (back->bone_names != r->bone_names || back->strands.size() != r->strands.size()) return "a .tfxbone changed through a save and a load";
        return "";
    });
}

// The project's own files of guides taken into hand and scalp paint: what decodes encodes to the same bytes.
std::string tguides(std::span<const uint8_t> b) {
    return guarded([&]() -> std::string {
        const std::vector<uint8_t> bytes(b.begin(), b.end());
        uint32_t triangles = 0;
        if (bytes.size() >= 28) std::memcpy(&triangles, bytes.data() + 24, 4);
        auto r = decode_guides(bytes, triangles, "fuzz.tguides");
        if (!r) return names_file(r.error(), "fuzz.tguides");
        for (const auto& p : r->points_os_m)
            if (!finite(p)) return "a non-finite point was accepted";
        if (encode_guides(*r, triangles) != bytes) return "a .tguides changed through a load and a save";
        return "";
    });
}

std::string tpaint(std::span<const uint8_t> b) {
    return guarded([&]() -> std::string {
        const std::vector<uint8_t> bytes(b.begin(), b.end());
        auto r = decode_paint(bytes, "fuzz.tpaint");
        if (!r) return names_file(r.error(), "fuzz.tpaint");
        for (PaintLayer l : kAllPaintLayers)
            if (r->has(l) && (l == PaintLayer::Comb ? r->comb.size() : l == PaintLayer::Mask ? r->mask.size() : l == PaintLayer::Density ? r->density.size() : r->length.size()) != r->vertex_count)
                return "a layer of another size than the vertex count was accepted";
        if (encode_paint(*r) != bytes) return "a .tpaint changed through a load and a save";
        return "";
    });
}

std::string tfxmesh(std::span<const uint8_t> b) {
    return guarded([&]() -> std::string {
        auto r = parse_tfxmesh(text_of(b), "fuzz.tfxmesh");
        if (!r) return names_file(r.error(), "fuzz.tfxmesh");
        if (auto st = validate_mesh(r->mesh, "fuzz.tfxmesh"); !st.ok()) return "a .tfxmesh mesh is invalid: " + st.error().message;
        for (const auto& j : r->mesh.joints)
            for (int k = 0; k < 4; ++k)
                if (j[k] >= r->bone_names.size()) return "a joint index outside the bone names was accepted";
        return "";
    });
}

std::string usda(std::span<const uint8_t> b) {
    return guarded([&]() -> std::string {
        auto r = parse_usda(text_of(b), "fuzz.usda");
        if (!r) return names_file(r.error(), "fuzz.usda");
        for (const auto& c : r->curves) {
            size_t total = 0;
            for (int n : c.vertex_counts) {
                if (n < 0) return "a negative curve vertex count was accepted";
                total += size_t(n);
            }
            if (total != c.points.size()) return "curve vertex counts do not match the points";
            for (const auto& p : c.points)
                if (!finite(p)) return "a non-finite point was accepted";
        }
        return "";
    });
}

std::string image(std::span<const uint8_t> b) {
    return guarded([&]() -> std::string {
        auto r = decode_uv_image(b, "fuzz.png");
        if (!r) return names_file(r.error(), "fuzz.png");
        if (r->width <= 0 || r->height <= 0 || r->rgba.size() != size_t(r->width) * size_t(r->height) * 4) return "an image whose size does not match its pixels";
        (void)r->sample({0.5f, 0.5f}, 0);
        return "";
    });
}

}  // namespace

const std::vector<Harness>& harnesses() {
    static const std::vector<Harness> list = {
        {"scene", scene_json},
        {"obj", [](std::span<const uint8_t> b) { return mesh(b, "obj"); }},
        {"ply", [](std::span<const uint8_t> b) { return mesh(b, "ply"); }},
        {"stl", [](std::span<const uint8_t> b) { return mesh(b, "stl"); }},
        {"fbx", [](std::span<const uint8_t> b) { return mesh(b, "fbx"); }},
        {"dae", [](std::span<const uint8_t> b) { return mesh(b, "dae"); }},
        {"gltf", [](std::span<const uint8_t> b) { return mesh(b, "gltf"); }},
        {"glb", [](std::span<const uint8_t> b) { return mesh(b, "glb"); }},
        {"tfxmesh_import", [](std::span<const uint8_t> b) { return mesh(b, "tfxmesh"); }},
        {"tfx", tfx},
        {"hair", hair},
        {"tfxbone", tfxbone},
        {"tfxmesh", tfxmesh},
        {"usda", usda},
        {"image", image},
        {"tguides", tguides},
        {"tpaint", tpaint},
    };
    return list;
}

const Harness* find_harness(const std::string& name) {
    for (const Harness& h : harnesses())
        if (name == h.name) return &h;
    return nullptr;
}

}  // namespace tressel::fuzz
