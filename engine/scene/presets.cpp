#include "scene/presets.h"

#include "scene/scene_io.h"
#include "scene/scene_json.h"

namespace tressel {
namespace {

using nlohmann::json;
using scene_json::at;

// JSON key of a hair-group section ("" for collision presets).
std::string_view section_key(PresetKind kind) {
    switch (kind) {
        case PresetKind::Simulation: return "simulation";
        case PresetKind::Shading: return "shading";
        case PresetKind::Growth: return "growth";
        case PresetKind::Collision: return "";
        case PresetKind::Cloth: return "cloth";
    }
    return "";
}

// Reads `values` merged over a default section of type S, so every value is checked against S's table.
template <class S>
Status check_values(const json& values, PresetKind kind, Diagnostics& diagnostics) {
    S section{};
    json merged = scene_json::Writer<json>::write(section);
    merged.merge_patch(values);
    scene_json::Reader reader(diagnostics);
    return reader.read(merged, "values", std::string(preset_table(kind)), section);
}

Status check_section_values(const json& values, PresetKind kind, Diagnostics& diagnostics) {
    switch (kind) {
        case PresetKind::Simulation: return check_values<SimulationParams>(values, kind, diagnostics);
        case PresetKind::Shading: return check_values<Shading>(values, kind, diagnostics);
        case PresetKind::Growth: return check_values<Growth>(values, kind, diagnostics);
        case PresetKind::Collision:
            if (values.contains("mesh"))
                return make_error(ErrorCode::InvalidArgument,
                                  at("values.mesh") + "a collision preset applies to every collision mesh and cannot choose the mesh");
            return check_values<CollisionMesh>(values, kind, diagnostics);
        case PresetKind::Cloth: return check_values<ClothParams>(values, kind, diagnostics);
    }
    return {};
}

}  // namespace

std::string_view preset_table(PresetKind kind) {
    switch (kind) {
        case PresetKind::Simulation: return "hair_groups[].simulation";
        case PresetKind::Shading: return "hair_groups[].shading";
        case PresetKind::Growth: return "hair_groups[].growth";
        case PresetKind::Collision: return "collision_meshes[]";
        case PresetKind::Cloth: return "accessories[].cloth";
    }
    return "";
}

Result<Scene> apply_preset(const Scene& scene, const json& preset, Diagnostics& diagnostics) {
    if (!preset.is_object())
        return make_error(ErrorCode::InvalidArgument, at("") + "a scene preset must be a JSON object, not " + scene_json::describe_type(preset));
    auto format = preset.find("format");
    if (format != preset.end() && *format == kPresetFormat)
        return make_error(ErrorCode::InvalidArgument,
                          at("format") + "this is a section preset (\"tressel-preset\"); apply it to a section, not to the whole scene");
    json doc = scene_to_json(scene);
    doc.merge_patch(preset);
    return scene_from_json(doc, scene.origin.dir, diagnostics);
}

Result<SectionPreset> parse_section_preset(const json& doc, Diagnostics& diagnostics) {
    if (!doc.is_object())
        return make_error(ErrorCode::InvalidArgument, at("") + "a preset must be a JSON object, not " + scene_json::describe_type(doc));
    auto format = doc.find("format");
    if (format == doc.end())
        return make_error(ErrorCode::InvalidArgument, at("format") + "missing; a preset must contain \"format\": \"" + kPresetFormat + "\"");
    if (*format != kPresetFormat)
        return make_error(ErrorCode::InvalidArgument, at("format") + format->dump() + " is not a section preset (expected \"" + kPresetFormat + "\")");
    auto kind_it = doc.find("kind");
    std::optional<PresetKind> kind;
    if (kind_it != doc.end() && kind_it->is_string()) kind = enum_from_string<PresetKind>(kind_it->get_ref<const std::string&>());
    if (!kind)
        return make_error(ErrorCode::InvalidArgument,
                          at("kind") + (kind_it == doc.end() ? std::string("missing") : kind_it->dump() + " is not valid") +
                              "; one of \"simulation\", \"shading\", \"growth\", \"collision\", \"cloth\"");
    auto values = doc.find("values");
    if (values == doc.end()) return make_error(ErrorCode::InvalidArgument, at("values") + "missing; the preset's parameters go in \"values\"");
    if (!values->is_object())
        return make_error(ErrorCode::InvalidArgument, at("values") + "must be an object, not " + scene_json::describe_type(*values));
    for (const auto& [key, value] : doc.items())
        if (key != "format" && key != "kind" && key != "values") diagnostics.warn(key, "unknown key \"" + key + "\" is ignored");
    TRESSEL_TRY(check_section_values(*values, *kind, diagnostics));
    return SectionPreset{*kind, *values};
}

Result<SectionPreset> load_section_preset(const std::filesystem::path& file, Diagnostics& diagnostics) {
    auto doc = read_json_file(file);
    if (!doc.ok()) return doc.error();
    auto preset = parse_section_preset(*doc, diagnostics);
    if (!preset.ok()) return make_error(preset.error().code, file.string() + ": " + preset.error().message);
    return preset;
}

Status apply_section_preset(Scene& scene, PresetKind kind, int group, const json& doc, Diagnostics& diagnostics) {
    auto preset = parse_section_preset(doc, diagnostics);
    if (!preset.ok()) return preset.error();
    if (preset->kind != kind)
        return make_error(ErrorCode::InvalidArgument, at("kind") + "the preset is a \"" + std::string(enum_to_string(preset->kind)) +
                                                          "\" preset, not \"" + std::string(enum_to_string(kind)) + "\"");
    json merged = scene_to_json(scene);
    if (kind == PresetKind::Collision) {
        for (auto& cm : merged["collision_meshes"]) cm.merge_patch(preset->values);
    } else if (kind == PresetKind::Cloth) {
        for (auto& a : merged["accessories"]) a["cloth"].merge_patch(preset->values);
    } else {
        if (group < 0 || static_cast<size_t>(group) >= scene.hair_groups.size())
            return make_error(ErrorCode::InvalidArgument, "hair_groups[" + std::to_string(group) + "]: no such hair group (the scene has " +
                                                              std::to_string(scene.hair_groups.size()) + ")");
        merged["hair_groups"][static_cast<size_t>(group)][std::string(section_key(kind))].merge_patch(preset->values);
    }
    Diagnostics revalidation;  // unknown keys were reported by parse_section_preset already
    auto result = scene_from_json(merged, scene.origin.dir, revalidation);
    if (!result.ok()) return result.error();
    scene = std::move(*result);
    return {};
}

json make_section_preset(const Scene& scene, PresetKind kind, int group) {
    json values;
    if (kind == PresetKind::Collision) {
        values = scene_json::Writer<json>::write(scene.collision_meshes.empty() ? CollisionMesh{} : scene.collision_meshes.front());
        values.erase("mesh");
    } else if (kind == PresetKind::Cloth) {
        values = scene_json::Writer<json>::write(scene.accessories.empty() ? ClothParams{} : scene.accessories.front().cloth);
    } else {
        TRESSEL_ASSERT(group >= 0 && static_cast<size_t>(group) < scene.hair_groups.size(),
                       "make_section_preset: pass the index of an existing hair group");
        values = scene_to_json(scene)["hair_groups"][static_cast<size_t>(group)][std::string(section_key(kind))];
    }
    return json{{"format", kPresetFormat}, {"kind", std::string(enum_to_string(kind))}, {"values", std::move(values)}};
}

}  // namespace tressel
