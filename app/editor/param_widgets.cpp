#include "param_widgets.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <imgui.h>

#include "scene/params.h"
#include "scene/scene_io.h"

namespace tressel::editor {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string table_pointer(std::string_view table_path) {
    std::string out = "/";
    for (char c : table_path) {
        if (c == '.') out += '/';
        else if (c == '[') out += "/0";
        else if (c != ']') out += c;
    }
    if (out.size() > 1 && out.back() == '/') out.pop_back();
    return out == "/" ? std::string() : out;
}

std::string fmt_number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::vector<std::string> split(std::string_view text, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

bool input_string(const char* label, std::string& value) {
    char buf[1024];
    std::snprintf(buf, sizeof buf, "%s", value.c_str());
    if (ImGui::InputText(label, buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue)) {
        value = buf;
        return true;
    }
    return false;
}

// Apply a new document; on failure the scene stays and the message is kept for the panel to show.
bool apply_document(EditorContext& ctx, const nlohmann::json& doc) {
    Diagnostics diag;
    auto s = scene_from_json(doc, ctx.scene.origin.dir, diag);
    if (!s) {
        ctx.param_error = s.error().message;
        ctx.add_log(Severity::Warning, "edit", s.error().message);
        return false;
    }
    s->origin = ctx.scene.origin;
    carry_edited_guides(ctx.scene, *s);
    ctx.scene = std::move(*s);
    ctx.param_error.clear();
    return true;
}

}  // namespace

Result<std::string> scene_path_to_pointer(const std::string& path) {
    if (path.empty()) return make_error(ErrorCode::InvalidArgument, "set: the scene path is empty");
    std::string out;
    std::string key;
    auto flush = [&] {
        if (!key.empty()) out += "/" + key;
        key.clear();
    };
    for (size_t i = 0; i < path.size(); ++i) {
        char c = path[i];
        if (c == '.') {
            flush();
        } else if (c == '[') {
            flush();
            size_t close = path.find(']', i);
            if (close == std::string::npos || close == i + 1)
                return make_error(ErrorCode::InvalidArgument, "set: '" + path + "' has an unclosed or empty [index]");
            std::string idx = path.substr(i + 1, close - i - 1);
            if (idx.find_first_not_of("0123456789") != std::string::npos)
                return make_error(ErrorCode::InvalidArgument, "set: '" + path + "': index '" + idx + "' is not a number");
            out += "/" + idx;
            i = close;
        } else {
            key += c;
        }
    }
    flush();
    return out;
}

Status set_scene_value(EditorContext& ctx, const std::string& path, const nlohmann::json& value) {
    auto pointer = scene_path_to_pointer(path);
    if (!pointer) return pointer.error();
    nlohmann::json doc = ctx.scene_json();
    nlohmann::json::json_pointer ptr(*pointer);
    if (!doc.contains(ptr)) return make_error(ErrorCode::NotFound, "set: the scene has no value at '" + path + "'");
    doc[ptr] = value;
    Diagnostics diag;
    auto s = scene_from_json(doc, ctx.scene.origin.dir, diag);
    if (!s) return make_error(s.error().code, "set " + path + ": " + s.error().message);
    s->origin = ctx.scene.origin;
    carry_edited_guides(ctx.scene, *s);
    ctx.scene = std::move(*s);
    return {};
}

bool param_matches(std::string_view filter, const ParamDecl& d) {
    auto lower = [](std::string_view text) {
        std::string out(text);
        for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
        return out;
    };
    const std::string f = trim(lower(filter));
    if (f.empty()) return true;
    return lower(d.label).find(f) != std::string::npos || lower(d.key).find(f) != std::string::npos;
}

std::string_view param_label(const ParamDecl& d) { return d.label.empty() ? d.key : d.label; }

std::string param_tooltip(EditorContext& ctx, std::string_view table_path, std::string_view key) {
    const ParamTable* t = find_param_table(table_path);
    const ParamDecl* d = t ? t->find(key) : nullptr;
    if (!d) return std::string(key);
    std::string s(d->meaning);
    s += "\nkey: " + (table_path.empty() ? std::string() : std::string(table_path) + ".") + std::string(key);
    s += "\nunit: ";
    s += d->unit.empty() ? std::string("none") : d->unit == "1" ? std::string("1 (dimensionless)") : std::string(d->unit);
    switch (d->type) {
        case ParamType::Float:
        case ParamType::Int:
        case ParamType::Vec3:
            s += "\nrange: [" + fmt_number(d->min) + ", " + fmt_number(d->max) + "]";
            if (d->type == ParamType::Vec3) s += " per component";
            if (d->direction) s += "\nedited as azimuth (about +y, 0 toward +z, 90 toward +x) and elevation (above the horizon), degrees";
            break;
        case ParamType::Enum: s += "\nvalues: " + std::string(d->enum_values); break;
        case ParamType::Bool: s += "\nrange: on / off"; break;
        default: s += "\nrange: any text"; break;
    }
    std::string def;
    if (d->type == ParamType::Float || d->type == ParamType::Int) {
        def = fmt_number(d->default_value);
    } else if (d->type == ParamType::Bool) {
        def = d->default_value != 0.0 ? "on" : "off";
    } else {
        const nlohmann::json& dj = ctx.default_json();
        nlohmann::json::json_pointer p(table_pointer(table_path) + "/" + std::string(key));
        def = dj.contains(p) ? dj.at(p).dump() : std::string("(none)");
    }
    s += "\ndefault: " + def;
    if (!d->tressfx.empty()) s += "\nTressFX: " + std::string(d->tressfx);
    return s;
}

bool draw_param_table(EditorContext& ctx, std::string_view table_path, const std::string& pointer,
                      std::initializer_list<std::string_view> skip) {
    const ParamTable* t = find_param_table(table_path);
    if (!t) {
        ImGui::TextDisabled("no parameter table %.*s", int(table_path.size()), table_path.data());
        return false;
    }
    const nlohmann::json& doc = ctx.scene_json();
    nlohmann::json::json_pointer ptr(pointer);
    if (!doc.contains(ptr)) return false;
    nlohmann::json obj = doc.at(ptr);
    std::string changed_key;
    nlohmann::json new_value;
    ImGui::PushID(pointer.c_str());
    // The parameters shown, grouped: groups in the order of their first parameter, each parameter in
    // declaration order within its group.
    std::vector<std::string_view> groups;
    std::vector<const ParamDecl*> shown;
    for (const ParamDecl& d : t->decls) {
        if (std::find(skip.begin(), skip.end(), d.key) != skip.end() || !obj.contains(std::string(d.key)) ||
            !param_matches(ctx.param_filter, d))
            continue;
        shown.push_back(&d);
        if (std::find(groups.begin(), groups.end(), d.group) == groups.end()) groups.push_back(d.group);
    }
    std::vector<const ParamDecl*> ordered;
    for (std::string_view g : groups)
        for (const ParamDecl* d : shown)
            if (d->group == g) ordered.push_back(d);
    // One widget width for the table, what its longest label (with its unit) leaves of the row, at least 40%
    // of it: the widgets line up and no name is cut off.
    auto shown_label = [](const ParamDecl& d) {
        std::string label(param_label(d));
        if (!d.unit.empty() && d.unit != "1") label += " (" + std::string(d.unit) + ")";
        return label;
    };
    float longest = 0.0f;
    for (const ParamDecl* d : ordered) longest = std::max(longest, ImGui::CalcTextSize(shown_label(*d).c_str()).x);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float widget_w = std::max(avail * 0.4f, avail - longest - ImGui::GetStyle().ItemInnerSpacing.x - 2.0f);
    std::string_view current_group;
    const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const float bottom_edge = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
    for (const ParamDecl* dp : ordered) {
        const ParamDecl& d = *dp;
        // A heading per group where the table has several, or where the table before it in this section had
        // headings (the wind's table after the clock's and the forces').
        const bool heading = groups.size() > 1 || !ctx.last_param_group.empty();
        if (heading && d.group != current_group && d.group != ctx.last_param_group && !d.group.empty()) {
            ImGui::Spacing();
            ImGui::TextDisabled("%.*s", int(d.group.size()), d.group.data());
            ctx.last_param_group = std::string(d.group);
        }
        current_group = d.group;
        std::string key(d.key);
        const nlohmann::json& v = obj[key];
        // What the artist reads: the display name and the unit; the ID stays the key.
        std::string label = shown_label(d) + "##" + key;
        ImGui::SetNextItemWidth(widget_w);
        bool edited = false;
        nlohmann::json nv;
        switch (d.type) {
            case ParamType::Float: {
                if (!v.is_number()) break;
                double x = v.get<double>(), lo = d.min, hi = d.max;
                double speed = std::max(1e-5, std::min((hi - lo) / 1000.0, std::max(std::abs(x) * 0.01, 1e-3)));
                if (ImGui::DragScalar(label.c_str(), ImGuiDataType_Double, &x, float(speed), &lo, &hi, "%.5g",
                                      ImGuiSliderFlags_AlwaysClamp)) {
                    edited = true;
                    nv = x;
                }
                break;
            }
            case ParamType::Int: {
                if (!v.is_number()) break;
                int x = v.get<int>();
                int lo = int(std::max(d.min, -2.0e9)), hi = int(std::min(d.max, 2.0e9));
                float speed = float(std::max(0.05, std::min((d.max - d.min) / 500.0, 10.0)));
                if (ImGui::DragInt(label.c_str(), &x, speed, lo, hi, "%d", ImGuiSliderFlags_AlwaysClamp)) {
                    edited = true;
                    nv = x;
                }
                break;
            }
            case ParamType::Bool: {
                if (!v.is_boolean()) break;
                bool b = v.get<bool>();
                if (ImGui::Checkbox(label.c_str(), &b)) {
                    edited = true;
                    nv = b;
                }
                break;
            }
            case ParamType::Enum: {
                if (!v.is_string()) break;
                std::string cur = v.get<std::string>();
                if (ImGui::BeginCombo(label.c_str(), cur.c_str())) {
                    for (const std::string& option : split(d.enum_values, '|')) {
                        if (ImGui::Selectable(option.c_str(), option == cur) && option != cur) {
                            edited = true;
                            nv = option;
                        }
                    }
                    ImGui::EndCombo();
                }
                break;
            }
            case ParamType::Vec3: {
                if (!v.is_array() || v.size() != 3) break;
                double xyz[3] = {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
                double lo = d.min, hi = d.max;
                if (d.colour) {
                    // A swatch and a picker; linear RGB, above 1 where the declaration allows (lights).
                    float c[3] = {float(xyz[0]), float(xyz[1]), float(xyz[2])};
                    ImGuiColorEditFlags flags = ImGuiColorEditFlags_Float;
                    if (hi > 1.0) flags |= ImGuiColorEditFlags_HDR;
                    if (ImGui::ColorEdit3(label.c_str(), c, flags)) {
                        edited = true;
                        nv = {std::clamp(double(c[0]), lo, hi), std::clamp(double(c[1]), lo, hi), std::clamp(double(c[2]), lo, hi)};
                    }
                } else if (d.direction) {
                    // Azimuth about +Y (0 toward +Z, 90 toward +X) and elevation above the horizontal plane,
                    // in degrees; the vector's length is kept (1 for a zero vector).
                    const double len = std::sqrt(xyz[0] * xyz[0] + xyz[1] * xyz[1] + xyz[2] * xyz[2]);
                    double angles[2] = {0.0, 0.0};
                    if (len > 0.0) {
                        angles[0] = std::atan2(xyz[0], xyz[2]) * 180.0 / kPi;
                        angles[1] = std::asin(std::clamp(xyz[1] / len, -1.0, 1.0)) * 180.0 / kPi;
                    }
                    const double alo = -180.0, ahi = 180.0;
                    if (ImGui::DragScalarN(label.c_str(), ImGuiDataType_Double, angles, 2, 0.5f, &alo, &ahi,
                                           "%.1f deg", ImGuiSliderFlags_AlwaysClamp)) {
                        const double az = angles[0] * kPi / 180.0, el = std::clamp(angles[1], -90.0, 90.0) * kPi / 180.0;
                        const double r = len > 0.0 ? len : 1.0;
                        auto round = [](double x) { return std::abs(x) < 1e-12 ? 0.0 : x; };
                        edited = true;
                        nv = {round(r * std::cos(el) * std::sin(az)), round(r * std::sin(el)), round(r * std::cos(el) * std::cos(az))};
                    }
                } else if (ImGui::DragScalarN(label.c_str(), ImGuiDataType_Double, xyz, 3, float(std::max(1e-4, std::min((hi - lo) / 1000.0, 0.01))),
                                              &lo, &hi, "%.4g", ImGuiSliderFlags_AlwaysClamp)) {
                    edited = true;
                    nv = {xyz[0], xyz[1], xyz[2]};
                }
                break;
            }
            case ParamType::String:
            case ParamType::Path: {
                if (!v.is_string()) break;
                std::string s = v.get<std::string>();
                if (input_string(label.c_str(), s)) {
                    edited = true;
                    nv = s;
                }
                break;
            }
            case ParamType::StringList: {
                if (!v.is_array()) break;
                std::string joined;
                for (size_t i = 0; i < v.size(); ++i) joined += (i ? ", " : "") + v[i].get<std::string>();
                if (input_string(label.c_str(), joined)) {
                    edited = true;
                    nv = nlohmann::json::array();
                    for (auto& part : split(joined, ','))
                        if (!trim(part).empty()) nv.push_back(trim(part));
                }
                break;
            }
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", param_tooltip(ctx, table_path, d.key).c_str());
        // The widget's box includes its label: past the content region's right edge, something is cut off.
        ctx.drawn_params.push_back({ctx.drawing_panel, pointer + "/" + key, std::string(param_label(d)),
                                    ImGui::GetItemRectMax().x > right_edge + 1.0f, ImGui::GetItemRectMax().y > bottom_edge + 1.0f});
        if (edited) {
            changed_key = key;
            new_value = std::move(nv);
        }
    }
    ImGui::PopID();
    if (changed_key.empty()) return false;
    nlohmann::json next = doc;
    next[ptr][changed_key] = new_value;
    return apply_document(ctx, next);
}

}  // namespace tressel::editor
