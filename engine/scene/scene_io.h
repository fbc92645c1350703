// Scene file v1 (JSON): load, validate, save. The keys, types, units and ranges are the ParamDecl
// tables in params.h / param_decls.h (docs/scene-schema.md is generated from them); the range check
// is param_check.h's, the one the simulation applies to its inputs.
//
// Validation contract: wrong JSON types, values outside their declared range, non-finite numbers,
// unknown enum strings, a missing or wrong "format", a missing version, empty required names,
// duplicate names and references to things that do not exist all fail with an Error whose message
// starts with the JSON path of the culprit (e.g. "hair_groups[0].simulation.local_iterations: ...").
// Valid content this build does not handle fails as Unsupported, also with its path: a version other
// than 1.
// Unknown keys are not errors: each gives a warning naming its JSON path. Missing keys take the
// defaults of scene_types.h.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/diagnostics.h"
#include "core/result.h"
#include "scene/scene_enums.h"
#include "scene/scene_types.h"

namespace tressel {

struct LoadedScene {
    Scene scene;               // origin.dir is the (absolute) folder of the scene file
    Diagnostics diagnostics;   // warnings (unknown keys); never errors
};

// Reads, parses and validates a scene file. File problems: NotFound (missing), Parse (empty file,
// invalid JSON: the message gives "file:line:column"). Content problems: the message is
// "<file>: <json path>: <reason>".
Result<LoadedScene> load_scene(const std::filesystem::path& file);

// Validates a parsed document. `base_dir` becomes Scene::origin.dir (relative paths resolve against it).
// Warnings are appended to `diagnostics`.
Result<Scene> scene_from_json(const nlohmann::json& doc, const std::filesystem::path& base_dir, Diagnostics& diagnostics);

// The complete document: every key, in alphabetical order (nlohmann::json sorts keys). Paths are kept
// exactly as written. scene_from_json(scene_to_json(s)) == s for every valid scene.
nlohmann::json scene_to_json(const Scene& scene);

// The same document with keys in declaration order (the order of docs/scene-schema.md), as text with a
// two-space indent and a final newline. Doubles are written in the shortest form that reads back to
// the same value, so the text round-trips byte for byte.
std::string scene_to_text(const Scene& scene);

// Writes scene_to_text(scene) through a temporary file renamed over `file` (core/file_io.h): an
// interrupted or failed save leaves any previous file untouched and no temporary behind. Relative paths
// are saved as written, so saving into another folder keeps them relative to the original folder's layout.
Status save_scene(const Scene& scene, const std::filesystem::path& file);

// The brushed guides held in memory (Growth::edited) are not part of the document: a scene rebuilt from
// JSON (an edit through the parameter tables) gets them back from the scene it replaces, for each hair
// group of the same name that is still "edited" with the same guide_file. The scalp paint held in memory
// (Scalp::painted) likewise, for a group of the same name with the same scalp mesh and paint file.
void carry_edited_guides(const Scene& before, Scene& after);

// Runs the same validation as loading on an in-memory scene (e.g. after the editor changed it).
Status validate_scene(const Scene& scene);

// Reads and parses any JSON file (scene or preset) with the same file errors as load_scene.
Result<nlohmann::json> read_json_file(const std::filesystem::path& file);
// The same from text in memory; `file` names it in messages.
Result<nlohmann::json> parse_json_text(std::string_view text, const std::filesystem::path& file);

}  // namespace tressel
