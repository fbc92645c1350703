#include "scene/tressfx_preset.h"

#include <cmath>

namespace tressel {
namespace {

using nlohmann::json;

// Every scalar setting once, with the JSON section it lives in; the JSON writer and reader both use it.
template <class S, class F>
void for_each_field(S& s, F&& f) {
    f("simulation", "vspCoeff", s.vspCoeff);
    f("simulation", "vspAccelThreshold", s.vspAccelThreshold);
    f("simulation", "localConstraintStiffness", s.localConstraintStiffness);
    f("simulation", "localConstraintsIterations", s.localConstraintsIterations);
    f("simulation", "globalConstraintStiffness", s.globalConstraintStiffness);
    f("simulation", "globalConstraintsRange", s.globalConstraintsRange);
    f("simulation", "lengthConstraintsIterations", s.lengthConstraintsIterations);
    f("simulation", "damping", s.damping);
    f("simulation", "gravityMagnitude", s.gravityMagnitude);
    f("simulation", "tipSeparation", s.tipSeparation);
    f("simulation", "windMagnitude", s.windMagnitude);
    f("simulation", "windDirection", s.windDirection);
    f("simulation", "clampPositionDelta", s.clampPositionDelta);
    f("simulation", "numVerticesPerStrand", s.numVerticesPerStrand);
    f("simulation", "numFollowHairsPerGuideHair", s.numFollowHairsPerGuideHair);
    f("rendering", "fiberRadius", s.fiberRadius);
    f("rendering", "fiberRatio", s.fiberRatio);
    f("rendering", "thinTip", s.thinTip);
    f("rendering", "baseColor", s.baseColor);
    f("rendering", "tipColor", s.tipColor);
    f("rendering", "tipPercentage", s.tipPercentage);
    f("rendering", "Kd", s.Kd);
    f("rendering", "Ks1", s.Ks1);
    f("rendering", "Ex1", s.Ex1);
    f("rendering", "Ks2", s.Ks2);
    f("rendering", "Ex2", s.Ex2);
    f("rendering", "shadowAlpha", s.shadowAlpha);
    f("rendering", "fiberSpacing", s.fiberSpacing);
    f("rendering", "maxShadowFibers", s.maxShadowFibers);
}

json to_j(double v) { return v; }
json to_j(int v) { return v; }
json to_j(bool v) { return v; }
json to_j(const glm::dvec3& v) { return json::array({v.x, v.y, v.z}); }

std::string from_j(const json& j, double& v) {
    if (!j.is_number()) return "expected a number";
    v = j.get<double>();
    return std::isfinite(v) ? "" : "not finite";
}
std::string from_j(const json& j, int& v) {
    if (!j.is_number_integer()) return "expected an integer";
    v = j.get<int>();
    return {};
}
std::string from_j(const json& j, bool& v) {
    if (!j.is_boolean()) return "expected true or false";
    v = j.get<bool>();
    return {};
}
std::string from_j(const json& j, glm::dvec3& v) {
    if (!j.is_array() || j.size() != 3) return "expected [x, y, z]";
    for (int i = 0; i < 3; ++i) {
        if (!j[size_t(i)].is_number()) return "expected [x, y, z]";
        v[i] = j[size_t(i)].get<double>();
    }
    return {};
}

}  // namespace

TressFXSettings to_tressfx(const HairGroup& g, const Environment& env, const std::vector<CollisionGridInfo>& collision,
                           const TressFXConvertOptions& options, Diagnostics& diag) {
    TRESSEL_ASSERT(options.gravity_scale > 0.0, "TressFXConvertOptions::gravity_scale must be positive");
    const SimulationParams& sim = g.simulation;
    const Shading& sh = g.shading;
    TressFXSettings s;
    s.group = g.name;
    s.vspCoeff = sim.vsp_coeff;
    s.vspAccelThreshold = sim.vsp_threshold;
    s.localConstraintStiffness = sim.local_stiffness;
    s.localConstraintsIterations = sim.local_iterations;
    s.globalConstraintStiffness = sim.global_stiffness;
    s.globalConstraintsRange = sim.global_range;
    s.lengthConstraintsIterations = sim.length_iterations;
    s.damping = sim.damping;
    s.gravityMagnitude = -env.gravity_mps2.y * options.gravity_scale;
    const double g_len = glm::length(env.gravity_mps2);
    if (g_len > 0.0 && std::hypot(env.gravity_mps2.x, env.gravity_mps2.z) > 1e-6 * g_len)
        diag.warn("environment.gravity", "TressFX 4.1 applies gravity along -Y only: the X and Z components are dropped");
    s.tipSeparation = g.follow.tip_separation;
    s.windMagnitude = env.wind.speed_mps * sim.wind_scale;
    const double w_len = glm::length(env.wind.direction);
    if (w_len > 0.0) s.windDirection = env.wind.direction / w_len;
    else if (s.windMagnitude > 0.0) diag.warn("environment.wind.direction", "zero wind direction with a non-zero speed: (1, 0, 0) written");
    s.clampPositionDelta = sim.max_position_delta_m;
    s.numVerticesPerStrand = sim.gpu_vertices_per_strand;
    s.numFollowHairsPerGuideHair = g.follow.mode == FollowMode::TressFX ? g.follow.per_guide : 0;
    s.fiberRadius = sh.fiber_radius_m;
    s.fiberRatio = sh.fiber_ratio;
    s.thinTip = sh.thin_tip;
    s.baseColor = sh.root_color;
    s.tipColor = sh.tip_color;
    s.tipPercentage = sh.tip_percentage;
    s.Kd = sh.kd;
    s.Ks1 = sh.ks1;
    s.Ex1 = sh.ex1;
    s.Ks2 = sh.ks2;
    s.Ex2 = sh.ex2;
    s.shadowAlpha = sh.shadow_alpha;
    s.fiberSpacing = sh.fiber_spacing;
    for (const auto& c : collision) {
        TressFXCollisionSettings t;
        t.mesh = c.mesh.mesh;
        t.numCellsInXAxis = c.mesh.cells_x;
        t.cell_size_m = c.cell_size_m;
        if (c.cell_size_m > 0.0) t.collisionMargin = c.mesh.margin_m / c.cell_size_m;
        else diag.warn("collision_meshes." + c.mesh.mesh, "no SDF cell size known: collisionMargin written as 0 cells");
        s.collision.push_back(t);
    }
    return s;
}

void from_tressfx(const TressFXSettings& s, const TressFXConvertOptions& options, HairGroup& g, Environment& env,
                  std::vector<CollisionMesh>& collision) {
    TRESSEL_ASSERT(options.gravity_scale > 0.0, "TressFXConvertOptions::gravity_scale must be positive");
    SimulationParams& sim = g.simulation;
    Shading& sh = g.shading;
    sim.vsp_coeff = s.vspCoeff;
    sim.vsp_threshold = s.vspAccelThreshold;
    sim.local_stiffness = s.localConstraintStiffness;
    sim.local_iterations = s.localConstraintsIterations;
    sim.global_stiffness = s.globalConstraintStiffness;
    sim.global_range = s.globalConstraintsRange;
    sim.length_iterations = s.lengthConstraintsIterations;
    sim.damping = s.damping;
    env.gravity_mps2 = {0.0, -s.gravityMagnitude / options.gravity_scale, 0.0};
    g.follow.tip_separation = s.tipSeparation;
    if (s.numFollowHairsPerGuideHair > 0) g.follow.per_guide = s.numFollowHairsPerGuideHair;
    if (sim.wind_scale > 0.0) env.wind.speed_mps = s.windMagnitude / sim.wind_scale;
    env.wind.direction = s.windDirection;
    sim.max_position_delta_m = s.clampPositionDelta;
    sim.gpu_vertices_per_strand = s.numVerticesPerStrand;
    sh.fiber_radius_m = s.fiberRadius;
    sh.fiber_ratio = s.fiberRatio;
    sh.thin_tip = s.thinTip;
    sh.root_color = s.baseColor;
    sh.tip_color = s.tipColor;
    sh.tip_percentage = s.tipPercentage;
    sh.kd = s.Kd;
    sh.ks1 = s.Ks1;
    sh.ex1 = s.Ex1;
    sh.ks2 = s.Ks2;
    sh.ex2 = s.Ex2;
    sh.shadow_alpha = s.shadowAlpha;
    sh.fiber_spacing = s.fiberSpacing;
    for (const auto& t : s.collision)
        for (auto& c : collision)
            if (c.mesh == t.mesh) {
                c.cells_x = t.numCellsInXAxis;
                if (t.cell_size_m > 0.0) c.margin_m = t.collisionMargin * t.cell_size_m;
            }
}

json tressfx_settings_to_json(const std::vector<TressFXSettings>& groups, const TressFXConvertOptions& options) {
    json doc;
    doc["format"] = kTressFXSettingsFormat;
    doc["version"] = 1;
    doc["tressfx_version"] = "4.1";
    doc["units"] = {{"length", "m (TressFX and Tressel: metres, Y up)"},
                    {"collisionMargin", "cells of the mesh's SDF grid (cell_size_m given beside it)"},
                    {"gravityMagnitude", "along -Y; = -gravity.y (m/s^2) x gravity_scale"},
                    {"gravity_scale", options.gravity_scale}};
    json arr = json::array();
    for (const auto& s : groups) {
        json g;
        g["group"] = s.group;
        for_each_field(s, [&](const char* section, const char* key, const auto& v) { g[section][key] = to_j(v); });
        json col = json::array();
        for (const auto& c : s.collision)
            col.push_back({{"mesh", c.mesh}, {"numCellsInXAxis", c.numCellsInXAxis}, {"collisionMargin", c.collisionMargin},
                           {"cell_size_m", c.cell_size_m}});
        g["collision"] = std::move(col);
        arr.push_back(std::move(g));
    }
    doc["groups"] = std::move(arr);
    return doc;
}

Result<std::vector<TressFXSettings>> tressfx_settings_from_json(const json& doc) {
    auto bad = [](const std::string& path, const std::string& what) { return make_error(ErrorCode::Parse, path + ": " + what); };
    if (!doc.is_object() || doc.value("format", "") != kTressFXSettingsFormat)
        return bad("format", std::string("expected \"") + kTressFXSettingsFormat + "\"");
    if (!doc.contains("groups") || !doc["groups"].is_array()) return bad("groups", "expected an array");
    std::vector<TressFXSettings> out;
    for (size_t i = 0; i < doc["groups"].size(); ++i) {
        const json& g = doc["groups"][i];
        const std::string at = "groups[" + std::to_string(i) + "]";
        if (!g.is_object()) return bad(at, "expected an object");
        TressFXSettings s;
        if (g.contains("group") && g["group"].is_string()) s.group = g["group"].get<std::string>();
        std::string error;
        for_each_field(s, [&](const char* section, const char* key, auto& v) {
            if (!error.empty() || !g.contains(section) || !g[section].contains(key)) return;
            if (std::string why = from_j(g[section][key], v); !why.empty())
                error = at + "." + section + "." + key + ": " + why;
        });
        if (!error.empty()) return make_error(ErrorCode::Parse, error);
        if (g.contains("collision")) {
            if (!g["collision"].is_array()) return bad(at + ".collision", "expected an array");
            for (size_t k = 0; k < g["collision"].size(); ++k) {
                const json& c = g["collision"][k];
                const std::string cat = at + ".collision[" + std::to_string(k) + "]";
                TressFXCollisionSettings t;
                if (!c.is_object() || !c.contains("mesh") || !c["mesh"].is_string()) return bad(cat + ".mesh", "expected a string");
                t.mesh = c["mesh"].get<std::string>();
                for (auto [key, dst] : {std::pair<const char*, double*>{"collisionMargin", &t.collisionMargin}, {"cell_size_m", &t.cell_size_m}})
                    if (c.contains(key))
                        if (std::string why = from_j(c[key], *dst); !why.empty()) return bad(cat + "." + key, why);
                if (c.contains("numCellsInXAxis"))
                    if (std::string why = from_j(c["numCellsInXAxis"], t.numCellsInXAxis); !why.empty())
                        return bad(cat + ".numCellsInXAxis", why);
                s.collision.push_back(t);
            }
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace tressel
