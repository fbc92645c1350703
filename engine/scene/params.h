// The declaration of every scene parameter, grouped by the JSON object that holds it. Loading
// (types, ranges), the schema document (docs/scene-schema.md), presets and the editor's sliders and
// tooltips all read these tables. The declarations themselves are constant data in param_decls.h;
// the defaults are the member initialisers of scene_types.h, read into ParamDecl::default_value from a
// default-constructed scene, so a declaration and its member cannot disagree about a default.
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

    constexpr const ParamDecl* find(std::string_view key) const {
        for (const ParamDecl& d : decls)
            if (d.key == key) return &d;
        return nullptr;
    }
};

// Every table, in document order (parents before their children), with the defaults filled in.
// Built on first use (thread-safe) and never changed after; the spans stay valid for the program.
std::span<const ParamTable> scene_param_tables();

// The table for `path` (spelled as ParamTable::path), or nullptr.
const ParamTable* find_param_table(std::string_view path);

}  // namespace tressel
