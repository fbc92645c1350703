// String <-> enum for every enum the scene file stores. The strings are the JSON spelling (lowercase
// snake_case) and the order of `names` is the order of the enumerators, so `names[int(e)]` is e's name.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "scene/scene_types.h"

namespace tressel {

template <class E>
struct EnumNames;  // specialised below for every scene enum

template <> struct EnumNames<LengthUnit> { static constexpr std::array<std::string_view, 5> names{"m", "cm", "mm", "in", "ft"}; };
template <> struct EnumNames<UpAxis> { static constexpr std::array<std::string_view, 2> names{"y", "z"}; };
template <> struct EnumNames<SignMethod> { static constexpr std::array<std::string_view, 4> names{"auto", "parity", "winding", "face_normal"}; };
template <> struct EnumNames<ColliderType> { static constexpr std::array<std::string_view, 2> names{"sphere", "capsule"}; };
template <> struct EnumNames<RegionType> { static constexpr std::array<std::string_view, 5> names{"whole", "cap", "vertex_color", "uv_mask", "paint"}; };
template <> struct EnumNames<Placement> { static constexpr std::array<std::string_view, 4> names{"per_vertex", "random", "file", "edited"}; };
template <> struct EnumNames<CombSpace> { static constexpr std::array<std::string_view, 2> names{"world", "surface"}; };
template <> struct EnumNames<PartMode> { static constexpr std::array<std::string_view, 2> names{"none", "plane"}; };
template <> struct EnumNames<FollowMode> { static constexpr std::array<std::string_view, 3> names{"none", "tressfx", "barycentric"}; };
template <> struct EnumNames<BendingModel> { static constexpr std::array<std::string_view, 2> names{"local_shape", "rod"}; };
template <> struct EnumNames<SmoothingMode> { static constexpr std::array<std::string_view, 3> names{"none", "bezier", "catmull_rom"}; };
template <> struct EnumNames<ShadingModel> { static constexpr std::array<std::string_view, 2> names{"kajiya_kay", "marschner"}; };
template <> struct EnumNames<MotionType> { static constexpr std::array<std::string_view, 3> names{"none", "procedural", "animation"}; };
template <> struct EnumNames<PinMode> { static constexpr std::array<std::string_view, 4> names{"near_mesh", "vertex_color", "box", "none"}; };
template <> struct EnumNames<AccessoryType> { static constexpr std::array<std::string_view, 2> names{"cloth", "soft_body"}; };
template <> struct EnumNames<SliceAxis> { static constexpr std::array<std::string_view, 3> names{"x", "y", "z"}; };
template <> struct EnumNames<SliceSource> { static constexpr std::array<std::string_view, 2> names{"field", "hair_density"}; };
template <> struct EnumNames<HairColouring> { static constexpr std::array<std::string_view, 6> names{"shaded", "guide", "stretch", "depth", "root_tip", "problems"}; };

template <class E>
concept SceneEnum = requires { EnumNames<E>::names; };

// The JSON spelling of `e`; "" for a value outside the enumerators (never produced by valid code).
template <SceneEnum E>
constexpr std::string_view enum_to_string(E e) {
    auto i = static_cast<size_t>(e);
    return i < EnumNames<E>::names.size() ? EnumNames<E>::names[i] : std::string_view{};
}

// Exact, case-sensitive match against the JSON spelling.
template <SceneEnum E>
constexpr std::optional<E> enum_from_string(std::string_view s) {
    for (size_t i = 0; i < EnumNames<E>::names.size(); ++i)
        if (EnumNames<E>::names[i] == s) return static_cast<E>(i);
    return std::nullopt;
}

// "a|b|c", the form ParamDecl::enum_values uses.
template <SceneEnum E>
std::string enum_values_joined() {
    std::string out;
    for (auto n : EnumNames<E>::names) {
        if (!out.empty()) out += '|';
        out += n;
    }
    return out;
}

}  // namespace tressel
