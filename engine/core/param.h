// One declaration per artist-facing parameter: the JSON schema document, validation, the editor's
// sliders and tooltips, presets and the TressFX export all read these (STYLE.md habit 4).
#pragma once

#include <limits>
#include <string_view>

namespace tressel {

enum class ParamType { Float, Int, Bool, Enum, Vec3, String, Path, StringList };  // StringList: array of names

struct ParamDecl {
    std::string_view key;       // JSON key inside its object, e.g. "margin"
    ParamType type = ParamType::Float;
    std::string_view unit;      // "m", "m/s^2", "deg", "cells", "1" (dimensionless), "" for none
    double min = 0.0;           // inclusive range for numbers (per component for Vec3)
    double max = 0.0;
    // Float / Int / Bool (0 or 1): the default of the C++ member the key maps to, never written in a
    // declaration but read from the member's initialiser by whoever builds the table (the scene's:
    // scene_param_tables()). NaN where none was read, and for the other types, whose defaults are
    // only in the C++ structs.
    double default_value = std::numeric_limits<double>::quiet_NaN();
    std::string_view meaning;   // one line for the tooltip and the schema document
    std::string_view tressfx;   // matching TressFX setting name, empty if none
    std::string_view enum_values = {};  // "a|b|c" for ParamType::Enum
    // What the editor shows: the name an artist reads instead of the key ("Shock propagation" for
    // vsp_coeff), and the group of its table it is listed under ("Stiffness", "Curls", "Volume").
    std::string_view label = {};
    std::string_view group = {};
    bool colour = false;  // a Vec3 that is a linear RGB colour: a colour picker (HDR above a range of 1)
    bool direction = false;  // a Vec3 that is a direction (its length ignored): edited as two angles

    // The declaration with its display name and group: `num(...).as("Collision margin", "Collision")`.
    constexpr ParamDecl as(std::string_view display_name, std::string_view group_name) const {
        ParamDecl d = *this;
        d.label = display_name;
        d.group = group_name;
        return d;
    }
};

}  // namespace tressel
