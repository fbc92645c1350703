// TressFX 4.1 settings from a hair group's parameters and back (the names and defaults are in
// shared/FORMATS.md "TressFX settings"; the conversions are documented in docs/tressfx-export.md).
// Most values mean the same in both (damping, stiffnesses, iterations, VSP, fibre radius in metres,
// Kajiya-Kay weights). Three do not:
//   collision margin  metres -> cells of that mesh's SDF grid: cells = margin_m / cell_size_m
//   gravity           vector in m/s^2 -> gravityMagnitude along -Y: magnitude = -g.y * gravity_scale
//                     (TressFX 4.1 integrates x + decay (x - x_prev) + (0, -magnitude, 0) dt^2, so with
//                     scale 1 the magnitude is the physical acceleration in m/s^2; TressFX cannot express
//                     a sideways gravity: the X and Z components are dropped with a warning)
//   wind              speed (m/s) x the group's wind_scale -> windMagnitude; direction normalised
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "core/diagnostics.h"
#include "core/result.h"
#include "scene/scene_types.h"

namespace tressel {

inline constexpr const char* kTressFXSettingsFormat = "tressel-tressfx-settings";

struct TressFXCollisionSettings {
    std::string mesh;              // the collision mesh's name
    int numCellsInXAxis = 64;
    double collisionMargin = 0.0;  // cells of this mesh's grid
    double cell_size_m = 0.0;      // the grid cell the margin was converted with (kept for the inverse)
};

// One hair group's settings, TressFX 4.1 names and units.
struct TressFXSettings {
    std::string group;
    // simulation
    double vspCoeff = 0.8, vspAccelThreshold = 1.4;
    double localConstraintStiffness = 0.9;
    int localConstraintsIterations = 2;
    double globalConstraintStiffness = 0.0, globalConstraintsRange = 0.0;
    int lengthConstraintsIterations = 2;
    double damping = 0.08;
    double gravityMagnitude = 0.0;
    double tipSeparation = 0.0;
    double windMagnitude = 0.0;
    glm::dvec3 windDirection{1.0, 0.0, 0.0};
    double clampPositionDelta = 20.0;
    int numVerticesPerStrand = 32;
    int numFollowHairsPerGuideHair = 0;
    // rendering
    double fiberRadius = 0.0021, fiberRatio = 0.463;
    bool thinTip = true;
    glm::dvec3 baseColor{0.0}, tipColor{0.0};
    double tipPercentage = 0.5;
    double Kd = 0.07, Ks1 = 0.0017, Ex1 = 14.4, Ks2 = 0.072, Ex2 = 11.8;
    double shadowAlpha = 0.35, fiberSpacing = 0.4;
    int maxShadowFibers = 50;
    std::vector<TressFXCollisionSettings> collision;
};

struct TressFXConvertOptions {
    double gravity_scale = 1.0;   // gravityMagnitude = -gravity.y (m/s^2) x gravity_scale; must be > 0
};

// A collision mesh with the cell size of its SDF grid (engine/sdf compute_grid), which the caller computes.
struct CollisionGridInfo {
    CollisionMesh mesh;
    double cell_size_m = 0.0;     // > 0
};

// Hair group + environment (+ the group's collision meshes) -> TressFX settings. Warnings: sideways
// gravity, a zero wind direction with wind, a collision mesh without a cell size (margin left 0).
TressFXSettings to_tressfx(const HairGroup& group, const Environment& env, const std::vector<CollisionGridInfo>& collision,
                           const TressFXConvertOptions& options, Diagnostics& diag);

// The inverse for what is invertible: writes the group's simulation and shading values, the follow
// tip separation / per-guide count, gravity (0, -magnitude / scale, 0), wind speed (when wind_scale is
// non-zero) and direction, and each named collision mesh's margin (cells x cell_size_m). Values outside
// the scene's ranges are clamped by scene validation, not here: call validate_scene afterwards.
void from_tressfx(const TressFXSettings& s, const TressFXConvertOptions& options, HairGroup& group, Environment& env,
                  std::vector<CollisionMesh>& collision);

// The document an engine programmer reads: {"format": "tressel-tressfx-settings", "version": 1,
// "units": {...}, "groups": [ { "group": ..., "simulation": {...}, "rendering": {...}, "collision": [...] } ]}.
nlohmann::json tressfx_settings_to_json(const std::vector<TressFXSettings>& groups, const TressFXConvertOptions& options);
// Reads that document back; Parse errors name the JSON path ("groups[0].simulation.damping: ...").
Result<std::vector<TressFXSettings>> tressfx_settings_from_json(const nlohmann::json& doc);

}  // namespace tressel
