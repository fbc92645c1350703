// Internal to engine/scene (and its tests): the JSON reader and writer that walk scene_fields.h.
// The reader checks each value against its ParamDecl (type, finiteness, range, enum spelling) and
// reports the first problem as an Error whose message starts with the value's JSON path.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/diagnostics.h"
#include "core/result.h"
#include "scene/params.h"
#include "scene/scene_enums.h"
#include "scene/scene_fields.h"

namespace tressel::scene_json {

// "a.b" from "a" and "b"; the root path is "".
std::string join(std::string_view path, std::string_view key);
// Shortest decimal text that reads back to the same double ("0.1", "64", "1e-06").
std::string format_number(double v);
// How a JSON value's type reads in a message: "a string", "an array", "null", ...
std::string describe_type(const nlohmann::json& j);
// The message prefix for a path: "hair_groups[0].name: ", or "document: " for the root.
std::string at(std::string_view path);

class Reader {
public:
    explicit Reader(Diagnostics& diagnostics) : diag_(diagnostics) {}

    // Reads `obj` (expected to be an object) into `out`. `path` is its JSON path in messages, `table`
    // its ParamTable path. Keys missing from `obj` leave `out`'s members as they are.
    template <class S>
    Status read(const nlohmann::json& obj, const std::string& path, const std::string& table, S& out) {
        walk(obj, path, table, out);
        if (error_) return *error_;
        return {};
    }

    // --- visitor interface (scene_fields.h) ---
    void tag(std::string_view key, std::string_view value);
    template <class T>
    void field(std::string_view key, T& member) {
        const nlohmann::json* j = lookup(key);
        if (j) read_value(*j, decl(key), join(path_, key), member);
    }
    void scale_field(std::string_view key, glm::dvec3& member);
    template <class S>
    void object(std::string_view key, S& member) {
        const nlohmann::json* j = lookup(key);
        if (j) walk(*j, join(path_, key), join(table_, key), member);
    }
    template <class S>
    void array(std::string_view key, std::vector<S>& member) {
        const nlohmann::json* j = lookup(key);
        if (!j) return;
        std::string p = join(path_, key);
        if (!j->is_array()) return fail(ErrorCode::InvalidArgument, p, "must be an array of objects, not " + describe_type(*j));
        std::string t = join(table_, key) + "[]";
        member.clear();
        for (size_t i = 0; i < j->size() && !error_; ++i) {
            S item{};
            walk((*j)[i], p + "[" + std::to_string(i) + "]", t, item);
            member.push_back(std::move(item));
        }
    }

private:
    template <class S>
    void walk(const nlohmann::json& obj, const std::string& path, const std::string& table, S& out) {
        if (error_) return;
        if (!obj.is_object()) return fail(ErrorCode::InvalidArgument, path, "must be an object, not " + describe_type(obj));
        const nlohmann::json* saved_obj = obj_;
        std::string saved_path = std::move(path_), saved_table = std::move(table_);
        std::vector<std::string_view>* saved_seen = seen_;
        std::vector<std::string_view> seen;
        obj_ = &obj;
        path_ = path;
        table_ = table;
        seen_ = &seen;
        scene_fields::describe(*this, out);
        if (!error_) warn_unknown_keys();
        obj_ = saved_obj;
        path_ = std::move(saved_path);
        table_ = std::move(saved_table);
        seen_ = saved_seen;
    }

    // Marks `key` as known and returns its value in the current object, or nullptr when absent or
    // after an error.
    const nlohmann::json* lookup(std::string_view key);
    const ParamDecl& decl(std::string_view key) const;
    void warn_unknown_keys();
    void fail(ErrorCode code, std::string_view path, const std::string& reason);

    // Numbers: finite and inside [decl.min, decl.max]; integers must be whole.
    std::optional<double> number(const nlohmann::json& j, const ParamDecl& d, const std::string& path, bool whole);
    void read_value(const nlohmann::json& j, const ParamDecl& d, const std::string& path, double& out);
    void read_value(const nlohmann::json& j, const ParamDecl& d, const std::string& path, int& out);
    void read_value(const nlohmann::json& j, const ParamDecl& d, const std::string& path, uint32_t& out);
    void read_value(const nlohmann::json& j, const ParamDecl& d, const std::string& path, bool& out);
    void read_value(const nlohmann::json& j, const ParamDecl& d, const std::string& path, std::string& out);
    void read_value(const nlohmann::json& j, const ParamDecl& d, const std::string& path, glm::dvec3& out);
    void read_value(const nlohmann::json& j, const ParamDecl& d, const std::string& path, std::vector<std::string>& out);
    template <SceneEnum E>
    void read_value(const nlohmann::json& j, const ParamDecl& d, const std::string& path, E& out) {
        std::optional<E> e;
        if (j.is_string()) e = enum_from_string<E>(j.get_ref<const std::string&>());
        if (!e) return fail(ErrorCode::InvalidArgument, path, bad_choice(j, d));
        out = *e;
    }
    static std::string bad_choice(const nlohmann::json& j, const ParamDecl& d);

    Diagnostics& diag_;
    std::optional<Error> error_;
    const nlohmann::json* obj_ = nullptr;
    std::string path_, table_;
    std::vector<std::string_view>* seen_ = nullptr;
};

// Writes every key of the walk. J is nlohmann::json (sorted keys) or nlohmann::ordered_json
// (declaration order).
template <class J>
class Writer {
public:
    template <class S>
    static J write(const S& s) {
        J out = J::object();
        Writer w{&out};
        scene_fields::describe(w, s);
        return out;
    }

    void tag(std::string_view key, std::string_view value) { (*cur_)[std::string(key)] = std::string(value); }
    template <class T>
    void field(std::string_view key, const T& member) { (*cur_)[std::string(key)] = to_json(member); }
    void scale_field(std::string_view key, const glm::dvec3& s) {
        if (s.x == s.y && s.y == s.z)
            (*cur_)[std::string(key)] = s.x;
        else
            field(key, s);
    }
    template <class S>
    void object(std::string_view key, const S& member) { (*cur_)[std::string(key)] = write(member); }
    template <class S>
    void array(std::string_view key, const std::vector<S>& items) {
        J arr = J::array();
        for (const auto& item : items) arr.push_back(write(item));
        (*cur_)[std::string(key)] = std::move(arr);
    }

    J* cur_;

private:
    static J to_json(double v) { return J(v); }
    static J to_json(int v) { return J(v); }
    static J to_json(uint32_t v) { return J(v); }
    static J to_json(bool v) { return J(v); }
    static J to_json(const std::string& v) { return J(v); }
    static J to_json(const glm::dvec3& v) { return J::array({v.x, v.y, v.z}); }
    static J to_json(const std::vector<std::string>& v) {
        J arr = J::array();
        for (const auto& s : v) arr.push_back(s);
        return arr;
    }
    template <SceneEnum E>
    static J to_json(E e) { return J(std::string(enum_to_string(e))); }
};

// A scene holding one default-constructed element in every array (and hair group 0 pointing at mesh
// 0): walks of it reach every ParamTable. Used for the schema document's defaults and by tests.
Scene one_of_each_scene();

}  // namespace tressel::scene_json
