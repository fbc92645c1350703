#include "core/units.h"

namespace tressel {

double metres_per_unit(LengthUnit u) {
    switch (u) {
        case LengthUnit::Metre: return 1.0;
        case LengthUnit::Centimetre: return 0.01;
        case LengthUnit::Millimetre: return 0.001;
        case LengthUnit::Inch: return 0.0254;
        case LengthUnit::Foot: return 0.3048;
    }
    return 1.0;
}

std::optional<LengthUnit> parse_length_unit(std::string_view s) {
    if (s == "m") return LengthUnit::Metre;
    if (s == "cm") return LengthUnit::Centimetre;
    if (s == "mm") return LengthUnit::Millimetre;
    if (s == "in") return LengthUnit::Inch;
    if (s == "ft") return LengthUnit::Foot;
    return std::nullopt;
}

std::string_view to_string(LengthUnit u) {
    switch (u) {
        case LengthUnit::Metre: return "m";
        case LengthUnit::Centimetre: return "cm";
        case LengthUnit::Millimetre: return "mm";
        case LengthUnit::Inch: return "in";
        case LengthUnit::Foot: return "ft";
    }
    return "m";
}

std::optional<UpAxis> parse_up_axis(std::string_view s) {
    if (s == "y" || s == "Y") return UpAxis::Y;
    if (s == "z" || s == "Z") return UpAxis::Z;
    return std::nullopt;
}

std::string_view to_string(UpAxis a) { return a == UpAxis::Y ? "y" : "z"; }

glm::dmat4 to_engine_space(LengthUnit unit, UpAxis up) {
    double s = metres_per_unit(unit);
    glm::dmat4 m(s);
    m[3][3] = 1.0;
    if (up == UpAxis::Z) {
        // columns: x -> x, y -> -z, z -> y
        glm::dmat4 r(1.0);
        r[1] = glm::dvec4(0, 0, -1, 0);
        r[2] = glm::dvec4(0, 1, 0, 0);
        m = r * m;
    }
    return m;
}

}  // namespace tressel
