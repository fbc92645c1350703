#include "scene/scene_io.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "scene/param_check.h"
#include "scene/scene_json.h"

namespace tressel {
namespace fs = std::filesystem;
using nlohmann::json;

namespace scene_json {

std::string join(std::string_view path, std::string_view key) {
    if (path.empty()) return std::string(key);
    std::string out(path);
    out += '.';
    out += key;
    return out;
}

std::string format_number(double v) { return param_number_text(v); }

std::string describe_type(const json& j) {
    switch (j.type()) {
        case json::value_t::null: return "null";
        case json::value_t::object: return "an object";
        case json::value_t::array: return "an array";
        case json::value_t::string: return "a string";
        case json::value_t::boolean: return "a boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "a number";
        default: return "a " + std::string(j.type_name());
    }
}

std::string at(std::string_view path) { return (path.empty() ? std::string("document") : std::string(path)) + ": "; }

void Reader::tag(std::string_view key, std::string_view value) {
    const json* j = lookup(key);
    std::string p = join(path_, key);
    if (!j) {
        if (!error_)
            fail(ErrorCode::InvalidArgument, p, "missing; the document must contain \"" + std::string(key) + "\": \"" + std::string(value) + "\"");
        return;
    }
    if (!j->is_string() || j->get_ref<const std::string&>() != value)
        fail(ErrorCode::InvalidArgument, p, j->dump() + " is not \"" + std::string(value) + "\"");
}

void Reader::scale_field(std::string_view key, glm::dvec3& member) {
    const json* j = lookup(key);
    if (!j) return;
    std::string p = join(path_, key);
    if (j->is_number()) {
        if (auto v = number(*j, decl(key), p, false)) member = glm::dvec3(*v);
        return;
    }
    read_value(*j, decl(key), p, member);
}

const json* Reader::lookup(std::string_view key) {
    if (error_) return nullptr;
    seen_->push_back(key);
    auto it = obj_->find(std::string(key));
    return it == obj_->end() ? nullptr : &*it;
}

const ParamDecl& Reader::decl(std::string_view key) const {
    const ParamTable* t = find_param_table(table_);
    TRESSEL_ASSERT(t != nullptr, "every object walked in scene_fields.h needs a ParamTable in param_decls.h");
    const ParamDecl* d = t->find(key);
    TRESSEL_ASSERT(d != nullptr, "every key walked in scene_fields.h needs a ParamDecl in its table in param_decls.h");
    return *d;
}

void Reader::warn_unknown_keys() {
    for (const auto& [key, value] : obj_->items()) {
        if (std::find(seen_->begin(), seen_->end(), std::string_view(key)) != seen_->end()) continue;
        diag_.warn(join(path_, key), "unknown key \"" + key + "\" is ignored");
    }
}

void Reader::fail(ErrorCode code, std::string_view path, const std::string& reason) {
    if (!error_) error_ = make_error(code, at(path) + reason);
}

std::optional<double> Reader::number(const json& j, const ParamDecl& d, const std::string& path, bool whole) {
    const char* expected = whole ? "must be an integer" : "must be a number";
    if (!j.is_number()) {
        fail(ErrorCode::InvalidArgument, path, std::string(expected) + ", not " + describe_type(j));
        return std::nullopt;
    }
    double v = 0.0;
    if (j.is_number_unsigned()) {
        v = static_cast<double>(j.get<uint64_t>());
    } else if (j.is_number_integer()) {
        v = static_cast<double>(j.get<int64_t>());
    } else {
        v = j.get<double>();
        if (whole && std::isfinite(v) && v != std::floor(v)) {
            fail(ErrorCode::InvalidArgument, path, std::string(expected) + ", not " + format_number(v));
            return std::nullopt;
        }
    }
    // The same rule the simulation checks its inputs with (param_check.h).
    if (auto problem = declared_range_problem(d, v)) {
        fail(ErrorCode::InvalidArgument, path, *problem);
        return std::nullopt;
    }
    return v;
}

void Reader::read_value(const json& j, const ParamDecl& d, const std::string& path, double& out) {
    if (auto v = number(j, d, path, false)) out = *v;
}

void Reader::read_value(const json& j, const ParamDecl& d, const std::string& path, int& out) {
    TRESSEL_ASSERT(d.min >= std::numeric_limits<int>::min() && d.max <= std::numeric_limits<int>::max(),
                   "an int parameter's declared range must fit in int");
    if (auto v = number(j, d, path, true)) out = static_cast<int>(*v);
}

void Reader::read_value(const json& j, const ParamDecl& d, const std::string& path, uint32_t& out) {
    TRESSEL_ASSERT(d.min >= 0.0 && d.max <= 4294967295.0, "a uint32 parameter's declared range must fit in uint32");
    if (auto v = number(j, d, path, true)) out = static_cast<uint32_t>(*v);
}

void Reader::read_value(const json& j, const ParamDecl&, const std::string& path, bool& out) {
    if (!j.is_boolean()) return fail(ErrorCode::InvalidArgument, path, "must be true or false, not " + describe_type(j));
    out = j.get<bool>();
}

void Reader::read_value(const json& j, const ParamDecl& d, const std::string& path, std::string& out) {
    if (!j.is_string()) return fail(ErrorCode::InvalidArgument, path, "must be a string, not " + describe_type(j));
    const auto& s = j.get_ref<const std::string&>();
    if (d.type == ParamType::Enum && !s.empty()) {
        // A string member declared as an enum: "" (inherit) or one of the values.
        bool found = false;
        std::string_view rest = d.enum_values;
        while (!rest.empty() && !found) {
            size_t bar = rest.find('|');
            found = rest.substr(0, bar) == s;
            rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
        }
        if (!found) return fail(ErrorCode::InvalidArgument, path, bad_choice(j, d) + " (or \"\")");
    }
    out = s;
}

void Reader::read_value(const json& j, const ParamDecl& d, const std::string& path, glm::dvec3& out) {
    if (!j.is_array() || j.size() != 3)
        return fail(ErrorCode::InvalidArgument, path,
                    std::string(d.key == "scale" ? "must be a number or " : "must be ") + "an array of 3 numbers, not " +
                        (j.is_array() ? "an array of " + std::to_string(j.size()) : describe_type(j)));
    glm::dvec3 v;
    for (int i = 0; i < 3; ++i) {
        auto c = number(j[static_cast<size_t>(i)], d, path + "[" + std::to_string(i) + "]", false);
        if (!c) return;
        v[i] = *c;
    }
    out = v;
}

void Reader::read_value(const json& j, const ParamDecl&, const std::string& path, std::vector<std::string>& out) {
    if (!j.is_array()) return fail(ErrorCode::InvalidArgument, path, "must be an array of names, not " + describe_type(j));
    std::vector<std::string> v;
    for (size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_string())
            return fail(ErrorCode::InvalidArgument, path + "[" + std::to_string(i) + "]", "must be a string, not " + describe_type(j[i]));
        v.push_back(j[i].get<std::string>());
    }
    out = std::move(v);
}

std::string Reader::bad_choice(const json& j, const ParamDecl& d) {
    std::string allowed;
    std::string_view rest = d.enum_values;
    while (!rest.empty()) {
        size_t bar = rest.find('|');
        if (!allowed.empty()) allowed += ", ";
        allowed += "\"" + std::string(rest.substr(0, bar)) + "\"";
        rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
    }
    return (j.is_string() ? j.dump() : describe_type(j)) + " is not one of " + allowed;
}

Scene one_of_each_scene() {
    Scene s;
    s.meshes.resize(1);
    s.collision_meshes.resize(1);
    s.colliders.resize(1);
    s.hair_groups.resize(1);
    s.accessories.resize(1);
    return s;
}

}  // namespace scene_json

namespace {

using scene_json::at;
using scene_json::format_number;

Error invalid(const std::string& path, const std::string& reason) { return make_error(ErrorCode::InvalidArgument, at(path) + reason); }

std::string indexed(std::string_view array, size_t i) { return std::string(array) + "[" + std::to_string(i) + "]"; }

bool is_zero(const glm::dvec3& v) { return glm::dot(v, v) < 1e-24; }

// Names in `what` must be non-empty and unique. `where(i)` is the JSON path of element i's name.
template <class Items, class Name, class Where>
Status check_names(const Items& items, Name name, Where where, std::string_view what) {
    std::map<std::string, size_t> first;
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string& n = name(items[i]);
        if (n.empty()) return invalid(where(i), "is required: give the " + std::string(what) + " a non-empty name");
        auto [it, inserted] = first.emplace(n, i);
        if (!inserted) return invalid(where(i), "duplicate name \"" + n + "\" (also " + where(it->second) + ")");
    }
    return {};
}

std::string list_names(const std::vector<std::string>& names) {
    if (names.empty()) return "there are none";
    std::string out = "known: ";
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", \"" : "\"") + names[i] + "\"";
    return out;
}

Status check_reference(const std::string& path, const std::string& name, const std::vector<std::string>& known, std::string_view what) {
    if (std::find(known.begin(), known.end(), name) != known.end()) return {};
    return invalid(path, "no " + std::string(what) + " named \"" + name + "\" (" + list_names(known) + ")");
}

// Cross-field rules and references between objects (types and ranges were checked while reading,
// and again by check_params).
Status validate_references(const Scene& s) {
    std::vector<std::string> meshes, collision, colliders;
    for (const auto& m : s.meshes) meshes.push_back(m.name);
    for (const auto& c : s.collision_meshes) collision.push_back(c.mesh);
    for (const auto& c : s.colliders) colliders.push_back(c.name);

    TRESSEL_TRY(check_names(s.meshes, [](const MeshRef& m) -> const std::string& { return m.name; },
                            [](size_t i) { return indexed("meshes", i) + ".name"; }, "mesh"));
    for (size_t i = 0; i < s.meshes.size(); ++i) {
        if (s.meshes[i].path.empty()) return invalid(indexed("meshes", i) + ".path", "is required: the mesh file to load");
        if (!s.meshes[i].skeleton.empty()) {
            TRESSEL_TRY(check_reference(indexed("meshes", i) + ".skeleton", s.meshes[i].skeleton, meshes, "mesh"));
            if (s.meshes[i].skeleton == s.meshes[i].name)
                return invalid(indexed("meshes", i) + ".skeleton", "names the mesh itself: \"\" already means its own file's skeleton");
        }
    }

    for (size_t i = 0; i < s.collision_meshes.size(); ++i) {
        std::string p = indexed("collision_meshes", i) + ".mesh";
        const std::string& m = s.collision_meshes[i].mesh;
        if (m.empty()) return invalid(p, "is required: the name of the mesh to build an SDF from");
        TRESSEL_TRY(check_reference(p, m, meshes, "mesh"));
        for (size_t k = 0; k < i; ++k)
            if (s.collision_meshes[k].mesh == m)
                return invalid(p, "mesh \"" + m + "\" already has a collision mesh (" + indexed("collision_meshes", k) + ")");
    }

    TRESSEL_TRY(check_names(s.colliders, [](const Collider& c) -> const std::string& { return c.name; },
                            [](size_t i) { return indexed("colliders", i) + ".name"; }, "collider"));
    for (size_t i = 0; i < s.colliders.size(); ++i) {
        if (!s.colliders[i].attach_to.empty())
            TRESSEL_TRY(check_reference(indexed("colliders", i) + ".attach_to", s.colliders[i].attach_to, meshes, "mesh"));
        if (!s.colliders[i].attach_joint.empty() && s.colliders[i].attach_to.empty())
            return invalid(indexed("colliders", i) + ".attach_joint", "needs attach_to: the mesh whose skin has the joint");
    }

    TRESSEL_TRY(check_names(s.hair_groups, [](const HairGroup& g) -> const std::string& { return g.name; },
                            [](size_t i) { return indexed("hair_groups", i) + ".name"; }, "hair group"));
    for (size_t i = 0; i < s.hair_groups.size(); ++i) {
        const HairGroup& g = s.hair_groups[i];
        std::string gp = indexed("hair_groups", i);
        if (g.scalp.mesh.empty()) return invalid(gp + ".scalp.mesh", "is required: the name of the mesh hair grows from");
        TRESSEL_TRY(check_reference(gp + ".scalp.mesh", g.scalp.mesh, meshes, "mesh"));

        const ScalpRegion& r = g.scalp.region;
        if (r.type == RegionType::Cap && is_zero(r.axis))
            return invalid(gp + ".scalp.region.axis", "must not be [0, 0, 0] for a cap region: it is the direction of the cap centre");
        if (r.type == RegionType::UvMask && r.mask_path.empty())
            return invalid(gp + ".scalp.region.mask_path", "is required for a uv_mask region: the PNG mask to read");
        if (r.type == RegionType::Paint && g.scalp.paint.empty())
            return invalid(gp + ".scalp.paint", "is required for a paint region: the .tpaint file whose mask it reads");
        if (g.growth.placement == Placement::File && g.growth.guide_file.empty())
            return invalid(gp + ".growth.guide_file", "is required when placement is \"file\": the guide file to read");
        if (g.growth.placement == Placement::Edited && g.growth.guide_file.empty())
            return invalid(gp + ".growth.guide_file", "is required when placement is \"edited\": the .tguides file the brushed guides are kept in");
        if (g.growth.comb > 0.0 && is_zero(g.growth.comb_direction))
            return invalid(gp + ".growth.comb_direction", "must not be [0, 0, 0] when comb is above 0");
        if (g.growth.part == PartMode::Plane && is_zero(g.growth.part_normal))
            return invalid(gp + ".growth.part_normal", "must not be [0, 0, 0] when part is \"plane\"");

        const auto check_list = [&](const std::vector<std::string>& list, std::string_view key, const std::vector<std::string>& known,
                                    std::string_view what) -> Status {
            for (size_t k = 0; k < list.size(); ++k) {
                std::string p = gp + ".simulation." + std::string(key) + "[" + std::to_string(k) + "]";
                TRESSEL_TRY(check_reference(p, list[k], known, what));
                for (size_t m = 0; m < k; ++m)
                    if (list[m] == list[k]) return invalid(p, "\"" + list[k] + "\" is listed twice");
            }
            return {};
        };
        TRESSEL_TRY(check_list(g.simulation.sdf, "sdf", collision, "collision mesh"));
        TRESSEL_TRY(check_list(g.simulation.colliders, "colliders", colliders, "collider"));
    }

    TRESSEL_TRY(check_names(s.accessories, [](const Accessory& a) -> const std::string& { return a.name; },
                            [](size_t i) { return indexed("accessories", i) + ".name"; }, "accessory"));
    for (size_t i = 0; i < s.accessories.size(); ++i) {
        const Accessory& a = s.accessories[i];
        const std::string ap = indexed("accessories", i);
        if (a.mesh.empty()) return invalid(ap + ".mesh", "is required: the name of the mesh that is the accessory");
        TRESSEL_TRY(check_reference(ap + ".mesh", a.mesh, meshes, "mesh"));
        if (!a.attach.empty()) TRESSEL_TRY(check_reference(ap + ".attach", a.attach, meshes, "mesh"));
        if (!a.attach_joint.empty() && a.attach.empty()) return invalid(ap + ".attach_joint", "needs attach: the mesh whose skin has the joint");
        if (a.pins.mode == PinMode::NearMesh && a.attach.empty())
            return invalid(ap + ".pins.mode", "near_mesh needs attach: the mesh the pinned vertices are near");
        if (a.pins.mode == PinMode::Box && glm::any(glm::greaterThan(a.pins.box_min_m, a.pins.box_max_m)))
            return invalid(ap + ".pins.box_min", "must not exceed box_max on any axis");
        for (size_t k = 0; k < a.sdf.size(); ++k) {
            TRESSEL_TRY(check_reference(ap + ".sdf[" + std::to_string(k) + "]", a.sdf[k], collision, "collision mesh"));
            for (size_t m = 0; m < k; ++m)
                if (a.sdf[m] == a.sdf[k]) return invalid(ap + ".sdf[" + std::to_string(k) + "]", "\"" + a.sdf[k] + "\" is listed twice");
        }
        for (size_t k = 0; k < a.colliders.size(); ++k) {
            TRESSEL_TRY(check_reference(ap + ".colliders[" + std::to_string(k) + "]", a.colliders[k], colliders, "collider"));
            for (size_t m = 0; m < k; ++m)
                if (a.colliders[m] == a.colliders[k])
                    return invalid(ap + ".colliders[" + std::to_string(k) + "]", "\"" + a.colliders[k] + "\" is listed twice");
        }
    }

    if (s.environment.wind.speed_mps > 0.0 && is_zero(s.environment.wind.direction))
        return invalid("environment.wind.direction", "must not be [0, 0, 0] when speed is above 0");
    if (is_zero(s.lighting.key.direction)) return invalid("lighting.key.direction", "must not be [0, 0, 0]");
    if (is_zero(s.lighting.fill.direction)) return invalid("lighting.fill.direction", "must not be [0, 0, 0]");
    if (!s.motion.mesh.empty()) TRESSEL_TRY(check_reference("motion.mesh", s.motion.mesh, meshes, "mesh"));
    if (!s.view.slice_mesh.empty()) TRESSEL_TRY(check_reference("view.slice_mesh", s.view.slice_mesh, collision, "collision mesh"));

    return {};
}

// Line and column (both from 1) of the character at byte offset `index` of `text`.
std::pair<size_t, size_t> line_column(std::string_view text, size_t index) {
    index = std::min(index, text.size());
    size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(index), '\n'));
    size_t nl = index == 0 ? std::string_view::npos : text.rfind('\n', index - 1);
    size_t column = nl == std::string_view::npos ? index + 1 : index - nl;
    return {line, column};
}

std::string where_in(const fs::path& file, std::string_view text, size_t index) {
    auto [line, column] = line_column(text, index);
    return file.string() + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix.
std::string parse_reason(const std::string& what) {
    size_t p = what.find("syntax error");
    if (p != std::string::npos) return what.substr(p);
    p = what.find("] ");
    return p == std::string::npos ? what : what.substr(p + 2);
}

constexpr uint64_t kMaxJsonBytes = 64ull << 20;  // scene and preset files are kilobytes; anything this big is not one

}  // namespace

Result<json> read_json_file(const fs::path& file) {
    auto text = read_file_text(file, kMaxJsonBytes);
    if (!text.ok()) return text.error();
    return parse_json_text(*text, file);
}

Result<json> parse_json_text(std::string_view t, const fs::path& file) {
    if (t.size() > kMaxJsonBytes)
        return make_error(ErrorCode::LimitExceeded, file.string() + ": " + std::to_string(t.size()) + " bytes, over the limit of " + std::to_string(kMaxJsonBytes));
    if (t.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return make_error(ErrorCode::Parse, file.string() + ": the file is empty (expected a JSON object)");
    try {
        return json::parse(t);
    } catch (const json::parse_error& e) {
        // e.byte counts the characters read, so the last one read (where parsing stopped) is byte - 1.
        return make_error(ErrorCode::Parse, where_in(file, t, e.byte > 0 ? e.byte - 1 : 0) + ": invalid JSON: " + parse_reason(e.what()));
    } catch (const json::out_of_range& e) {
        // Number overflow (e.g. 1e400): nlohmann names the token but not its position.
        std::string what = e.what();
        size_t q0 = what.find('\''), q1 = what.rfind('\'');
        size_t pos = q0 != std::string::npos && q1 > q0 ? t.find(what.substr(q0 + 1, q1 - q0 - 1)) : std::string::npos;
        std::string where = pos == std::string::npos ? file.string() : where_in(file, t, pos);
        return make_error(ErrorCode::Parse, where + ": invalid JSON: " + parse_reason(what) + " (numbers must be finite doubles)");
    } catch (const json::exception& e) {
        return make_error(ErrorCode::Parse, file.string() + ": invalid JSON: " + parse_reason(e.what()));
    }
}

Result<Scene> scene_from_json(const json& doc, const fs::path& base_dir, Diagnostics& diagnostics) {
    if (!doc.is_object()) return invalid("", "a scene must be a JSON object, not " + scene_json::describe_type(doc));
    auto format = doc.find("format");
    if (format == doc.end())
        return invalid("format", "missing; a scene file must contain \"format\": \"" + std::string(scene_fields::kSceneFormat) + "\"");
    if (!format->is_string() || format->get_ref<const std::string&>() != scene_fields::kSceneFormat)
        return invalid("format", format->dump() + " is not a scene file (expected \"" + std::string(scene_fields::kSceneFormat) + "\")");
    auto version = doc.find("version");
    if (version == doc.end()) return invalid("version", "missing; a scene file must state its \"version\" (this build reads 1)");
    if (!version->is_number_integer() || version->get<int64_t>() != 1)
        return make_error(ErrorCode::Unsupported, at("version") + version->dump() + " is not supported: this build reads version 1");

    Scene scene;
    scene_json::Reader reader(diagnostics);
    TRESSEL_TRY(reader.read(doc, "", "", scene));
    TRESSEL_TRY(check_params(scene));
    TRESSEL_TRY(validate_references(scene));
    scene.origin.dir = base_dir;
    return scene;
}

Result<LoadedScene> load_scene(const fs::path& file) {
    auto doc = read_json_file(file);
    if (!doc.ok()) return doc.error();
    LoadedScene out;
    std::error_code ec;
    fs::path abs = fs::absolute(file, ec);
    fs::path dir = (ec ? file : abs).lexically_normal().parent_path();
    auto scene = scene_from_json(*doc, dir, out.diagnostics);
    if (!scene.ok()) return make_error(scene.error().code, file.string() + ": " + scene.error().message);
    out.scene = std::move(*scene);
    return out;
}

json scene_to_json(const Scene& scene) { return scene_json::Writer<json>::write(scene); }

std::string scene_to_text(const Scene& scene) {
    auto doc = scene_json::Writer<nlohmann::ordered_json>::write(scene);
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Status save_scene(const Scene& scene, const fs::path& file) { return write_file_atomic(file, scene_to_text(scene)); }

Status validate_scene(const Scene& scene) {
    Diagnostics ignored;
    auto r = scene_from_json(scene_to_json(scene), scene.origin.dir, ignored);
    if (!r.ok()) return r.error();
    return {};
}

void carry_edited_guides(const Scene& before, Scene& after) {
    for (HairGroup& g : after.hair_groups) {
        if (g.growth.placement != Placement::Edited || g.growth.edited) continue;
        for (const HairGroup& old : before.hair_groups)
            if (old.name == g.name && old.growth.placement == Placement::Edited && old.growth.guide_file == g.growth.guide_file)
                g.growth.edited = old.growth.edited;
    }
    for (HairGroup& g : after.hair_groups) {
        if (g.scalp.paint.empty() || g.scalp.painted) continue;
        for (const HairGroup& old : before.hair_groups)
            if (old.name == g.name && old.scalp.paint == g.scalp.paint && old.scalp.mesh == g.scalp.mesh) g.scalp.painted = old.scalp.painted;
    }
}

}  // namespace tressel
