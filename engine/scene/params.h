// The declaration of every scene parameter, grouped by the JSON object that holds it. Loading
// (types, ranges), the schema document (docs/scene-schema.md), presets and the editor's sliders and
// tooltips all read these tables; the C++ defaults live in scene_types.h and a test keeps the numeric
// defaults of both equal.
#pragma once

#include <span>
#include <string_view>

#include "core/param.h"

namespace tressel {

struct ParamTable {
    // JSON path of the object these keys live in, with "[]" for "any element": "" is the document
    // root, then e.g. "meshes[]", "meshes[].transform", "hair_groups[].simulation", "environment.wind".
    std::string_view path;
    std::string_view meaning;  // one line: what the object is
    std::span<const ParamDecl> decls;

    const ParamDecl* find(std::string_view key) const;
};

// Every table, in document order (parents before their children).
std::span<const ParamTable> scene_param_tables();

// The table for `path` (spelled as ParamTable::path), or nullptr.
const ParamTable* find_param_table(std::string_view path);

}  // namespace tressel
