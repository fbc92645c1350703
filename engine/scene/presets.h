// Presets: partial documents merged over a scene with JSON merge patch semantics (RFC 7386: objects
// merge key by key, a null removes a key (it takes its default again), arrays and values replace),
// then validated exactly like a loaded scene. Errors name the JSON path of the culprit.
#pragma once

#include <array>
#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/diagnostics.h"
#include "core/result.h"
#include "scene/scene_enums.h"
#include "scene/scene_types.h"

namespace tressel {

// A scene preset is a partial scene document, e.g. {"environment": {"wind": {"speed": 3}}}. Arrays
// replace the scene's arrays whole (so a preset naming "hair_groups" replaces every group). The result
// keeps scene.origin. Unknown keys are warnings in `diagnostics`.
Result<Scene> apply_preset(const Scene& scene, const nlohmann::json& preset, Diagnostics& diagnostics);

// Section presets change one section of one hair group (or of every collision mesh, or every accessory):
//   {"format": "tressel-preset", "kind": "simulation", "values": { ...part of hair_groups[].simulation... }}
// simulation -> hair_groups[].simulation, shading -> hair_groups[].shading,
// growth -> hair_groups[].growth, collision -> collision_meshes[] (every one; "mesh" may not be set),
// cloth -> accessories[].cloth (every one).
enum class PresetKind { Simulation, Shading, Growth, Collision, Cloth };
template <> struct EnumNames<PresetKind> { static constexpr std::array<std::string_view, 5> names{"simulation", "shading", "growth", "collision", "cloth"}; };

inline constexpr const char* kPresetFormat = "tressel-preset";

// The ParamTable path a kind's values belong to (e.g. "hair_groups[].simulation").
std::string_view preset_table(PresetKind kind);

struct SectionPreset {
    PresetKind kind = PresetKind::Simulation;
    nlohmann::json values;   // the partial section, already checked against the section's ParamTable
};

// Checks a section preset document on its own: "format", "kind", "values" (types, ranges and enum
// strings of every value, with paths like "values.damping"). References (sdf, colliders) are checked
// when it is applied.
Result<SectionPreset> parse_section_preset(const nlohmann::json& doc, Diagnostics& diagnostics);
// read_json_file + parse_section_preset; content errors are prefixed with the file name.
Result<SectionPreset> load_section_preset(const std::filesystem::path& file, Diagnostics& diagnostics);

// Merges the preset's values over hair group `group`'s section (ignored for collision and cloth presets,
// which change every collision mesh / every accessory's cloth) and re-validates the whole scene. `kind` must be the document's kind.
// On any error `scene` is left unchanged.
Status apply_section_preset(Scene& scene, PresetKind kind, int group, const nlohmann::json& doc, Diagnostics& diagnostics);

// A complete section preset holding the current values of the section (for "save preset").
// `group` must be a valid hair group index for the hair-group kinds; collision presets take the first
// collision mesh's values (or the defaults when there is none), without "mesh"; cloth presets the first
// accessory's cloth (or the defaults).
nlohmann::json make_section_preset(const Scene& scene, PresetKind kind, int group);

}  // namespace tressel
