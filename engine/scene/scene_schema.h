// The scene file's reference document, generated from the ParamDecl tables (params.h, param_decls.h) and the C++
// defaults (scene_types.h). docs/scene-schema.md is this text; a test fails when they differ.
#pragma once

#include <string>

namespace tressel {

// Markdown: an introduction, then one table per JSON object (key, type, unit, range, default, meaning,
// TressFX name). Deterministic: the same build always gives the same text.
std::string scene_schema_markdown();

}  // namespace tressel
