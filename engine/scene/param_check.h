// The checks of scene values against their declarations (param_decls.h): finite, inside the declared
// inclusive range, a valid enumerator, plus the few rules a range cannot say (gpu_vertices_per_strand
// is a power of two). Scene loading applies exactly these (the JSON reader checks each number with
// declared_range_problem, then check_params(scene)), and the simulation runs check_params on what it
// is given (sim.cpp), so the range the user reads in docs/scene-schema.md is the one every module
// enforces.
//
// Header-only on purpose: the simulation uses scene_types.h without the JSON library and calls these
// without linking tressel_scene.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "scene/param_decls.h"
#include "scene/scene_enums.h"
#include "scene/scene_fields.h"

namespace tressel {

// Shortest decimal text that reads back to the same double ("0.1", "64", "1e-06", "nan").
inline std::string param_number_text(double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, r.ptr);
}

// Why `v` is not a value of the number (or vector component) declared by `d`, e.g. "5 is out of range
// [0, 1]", "0.2 is out of range [0, 0.05] m" or "must be a finite number, not nan"; nullopt when it is
// one. The one range rule of the scene: loading and the simulation both call it.
inline std::optional<std::string> declared_range_problem(const ParamDecl& d, double v) {
    if (!std::isfinite(v)) return "must be a finite number, not " + param_number_text(v);
    if (v >= d.min && v <= d.max) return std::nullopt;
    std::string unit = d.unit.empty() || d.unit == "1" ? std::string() : " " + std::string(d.unit);
    return param_number_text(v) + " is out of range [" + param_number_text(d.min) + ", " + param_number_text(d.max) + "]" + unit;
}

namespace param_check_detail {

// Walks one struct with scene_fields::describe and keeps the first problem. `table` is the struct's
// ParamTable path, `path` the start of its messages (a JSON path, or a name for things built in code).
class Checker {
public:
    Checker(std::string table, std::string path) : table_(std::move(table)), path_(std::move(path)) {}

    std::optional<Error> error;

    template <class S>
    void walk(const S& s) {
        scene_fields::describe(*this, s);
        if (!error) rules(s);
    }

    // --- visitor interface (scene_fields.h) ---
    void tag(std::string_view, std::string_view) {}
    void field(std::string_view key, const double& m) { number(key, join(path_, key), m); }
    void field(std::string_view key, const int& m) { number(key, join(path_, key), static_cast<double>(m)); }
    void field(std::string_view key, const uint32_t& m) { number(key, join(path_, key), static_cast<double>(m)); }
    void field(std::string_view key, const glm::dvec3& m) {
        for (int i = 0; i < 3 && !error; ++i) number(key, join(path_, key) + "[" + std::to_string(i) + "]", m[i]);
    }
    void scale_field(std::string_view key, const glm::dvec3& m) { field(key, m); }
    template <SceneEnum E>
    void field(std::string_view key, const E& m) {
        if (!error && enum_to_string(m).empty())
            fail(join(path_, key), ErrorCode::InvalidArgument,
                 std::to_string(static_cast<long long>(m)) + " is not one of \"" + std::string(decl(key).enum_values) + "\"");
    }
    void field(std::string_view, const bool&) {}
    void field(std::string_view, const std::string&) {}               // names, paths: checked by the loader
    void field(std::string_view, const std::vector<std::string>&) {}  // references: checked by the loader
    template <class S>
    void object(std::string_view key, const S& s) {
        if (error) return;
        Checker c(join(table_, key), join(path_, key));
        c.walk(s);
        error = std::move(c.error);
    }
    template <class S>
    void array(std::string_view key, const std::vector<S>& items) {
        for (size_t i = 0; i < items.size() && !error; ++i) {
            Checker c(join(table_, key) + "[]", join(path_, key) + "[" + std::to_string(i) + "]");
            c.walk(items[i]);
            error = std::move(c.error);
        }
    }

private:
    static std::string join(std::string_view path, std::string_view key) {
        return path.empty() ? std::string(key) : std::string(path) + "." + std::string(key);
    }
    const ParamDecl& decl(std::string_view key) const {
        const ParamTable* t = param_decls::find_table(table_);
        TRESSEL_ASSERT(t != nullptr, "every object walked in scene_fields.h needs a ParamTable in param_decls.h");
        const ParamDecl* d = t->find(key);
        TRESSEL_ASSERT(d != nullptr, "every key walked in scene_fields.h needs a ParamDecl in its table in param_decls.h");
        return *d;
    }
    void fail(const std::string& path, ErrorCode code, const std::string& reason) {
        if (!error) error = make_error(code, path + ": " + reason);
    }
    void number(std::string_view key, const std::string& path, double v) {
        if (error) return;
        if (auto problem = declared_range_problem(decl(key), v)) fail(path, ErrorCode::InvalidArgument, *problem);
    }

    // Rules beyond the declared ranges, applied to every instance of the struct.
    template <class S>
    void rules(const S&) {}
    void rules(const SimulationParams& p) {
        const int n = p.gpu_vertices_per_strand;
        if (n != 4 && n != 8 && n != 16 && n != 32 && n != 64)
            fail(join(path_, "gpu_vertices_per_strand"), ErrorCode::InvalidArgument, std::to_string(n) + " is not one of 4, 8, 16, 32, 64");
    }

    std::string table_, path_;
};

template <class S>
Status check(const S& s, std::string_view table, std::string_view path) {
    Checker c{std::string(table), std::string(path)};
    c.walk(s);
    if (c.error) return *c.error;
    return {};
}

}  // namespace param_check_detail

// InvalidArgument "<path>.<key>: <reason>" for the first value of the struct that breaks its
// declaration (NaN / Inf, outside the declared range, an enum value outside its enumerators) or a rule
// above. `path` names the struct in the message: its JSON path in a file ("hair_groups[0].simulation"),
// or how code that builds it in memory names it ("hair_groups['long'].simulation").
inline Status check_params(const SimulationParams& p, std::string_view path) {
    return param_check_detail::check(p, "hair_groups[].simulation", path);
}
inline Status check_params(const Environment& e, std::string_view path = "environment") {
    return param_check_detail::check(e, "environment", path);
}
inline Status check_params(const ClothParams& c, std::string_view path) { return param_check_detail::check(c, "accessories[].cloth", path); }
inline Status check_params(const SoftBodyParams& c, std::string_view path) { return param_check_detail::check(c, "accessories[].soft_body", path); }
inline Status check_params(const Collider& c, std::string_view path) { return param_check_detail::check(c, "colliders[]", path); }
inline Status check_params(const CollisionMesh& c, std::string_view path) {
    return param_check_detail::check(c, "collision_meshes[]", path);
}
inline Status check_params(const Motion& m, std::string_view path = "motion") { return param_check_detail::check(m, "motion", path); }

// Every struct of the scene, with JSON paths ("hair_groups[1].simulation.damping: ...").
inline Status check_params(const Scene& s) { return param_check_detail::check(s, "", ""); }

// One declared number on its own: `table` and `key` as in param_decls.h (they must exist), `path` the
// value's name in the message.
inline Status check_param(std::string_view table, std::string_view key, double v, std::string_view path) {
    const ParamTable* t = param_decls::find_table(table);
    const ParamDecl* d = t ? t->find(key) : nullptr;
    TRESSEL_ASSERT(d != nullptr, "check_param: no such declaration in param_decls.h");
    if (auto problem = declared_range_problem(*d, v)) return make_error(ErrorCode::InvalidArgument, std::string(path) + ": " + *problem);
    return {};
}

}  // namespace tressel
