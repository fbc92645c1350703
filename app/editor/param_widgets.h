// Widgets generated from the scene parameter tables (engine/scene/params.h): every artist-facing value is
// drawn with its unit, and its tooltip gives the meaning, unit, range and default from the same table
// the loader validates with. Edits go through the scene's JSON document and scene_from_json, so a value
// the loader would reject never reaches the scene.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/param.h"
#include "core/result.h"
#include "editor_context.h"

namespace tressel::editor {

// JSON pointer ("/hair_groups/0/simulation/local_stiffness") of a dotted scene path
// ("hair_groups[0].simulation.local_stiffness"). InvalidArgument for a malformed path.
Result<std::string> scene_path_to_pointer(const std::string& path);

// Sets one value of the scene by its dotted path, validates the whole scene, and on success replaces
// ctx.scene (the caller commits the undo step). The scene is unchanged on error; the message names the
// path and the problem.
Status set_scene_value(EditorContext& ctx, const std::string& path, const nlohmann::json& value);

// Draws the parameters of table `table_path` (e.g. "hair_groups[].simulation") for the object at JSON
// pointer `pointer` ("/hair_groups/0/simulation"), except the keys in `skip` and those the parameter search
// (ctx.param_filter) hides: under their display names, grouped by ParamDecl::group (a heading per group
// where the table has several), colours as colour pickers. Each drawn parameter is recorded in
// ctx.drawn_params. Returns true when the scene changed this frame.
bool draw_param_table(EditorContext& ctx, std::string_view table_path, const std::string& pointer,
                      std::initializer_list<std::string_view> skip = {});

// The tooltip text of one parameter (meaning, its JSON key, unit, range, default).
std::string param_tooltip(EditorContext& ctx, std::string_view table_path, std::string_view key);

// Whether the parameter search `filter` shows `d`: empty, or contained in its display name or its JSON key
// (case ignored; "vsp" and "shock" both find vsp_coeff).
bool param_matches(std::string_view filter, const ParamDecl& d);

// The name a panel shows for `d`: its display name, or its key where it has none.
std::string_view param_label(const ParamDecl& d);

}  // namespace tressel::editor
