// Units and axes of imported files. Inside the engine everything is SI metres, Y up, right-handed;
// conversion happens once, on import (DESIGN.md "Data model").
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string_view>

namespace tressel {

enum class LengthUnit { Metre, Centimetre, Millimetre, Inch, Foot };
enum class UpAxis { Y, Z };

// Metres per unit (Centimetre -> 0.01).
double metres_per_unit(LengthUnit u);
std::optional<LengthUnit> parse_length_unit(std::string_view s);  // "m", "cm", "mm", "in", "ft"
std::string_view to_string(LengthUnit u);
std::optional<UpAxis> parse_up_axis(std::string_view s);          // "y", "z"
std::string_view to_string(UpAxis a);

// Matrix that maps a file's coordinates (its unit, its up axis) to engine space (metres, Y up).
// Z up -> Y up is a rotation of -90 degrees about X: (x, y, z) -> (x, z, -y).
glm::dmat4 to_engine_space(LengthUnit unit, UpAxis up);

}  // namespace tressel
