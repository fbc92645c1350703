// The declaration of every scene parameter, as constant data: key, type, unit, inclusive range,
// one-line meaning, TressFX name and enum spellings, grouped by the JSON object that holds it.
//
// Defaults are not written here: each number's and boolean's default is its C++ member initialiser in
// scene_types.h, and scene_param_tables() (params.h) fills ParamDecl::default_value from a
// default-constructed scene. In these constant tables default_value is NaN; use scene_param_tables()
// wherever a default is shown.
//
// A header so that modules which use scene_types.h without the JSON library (the simulation) check
// their inputs against the same ranges (param_check.h) without linking tressel_scene.
#pragma once

#include <array>
#include <string_view>

#include "scene/params.h"

namespace tressel::param_decls {

using sv = std::string_view;

// Ranges are inclusive. Where zero is not a meaningful value (radii, lengths, scales) the minimum is
// a small positive number instead, so the documented range is exactly what loading accepts.
inline constexpr double kMaxCoord_m = 1.0e4;   // positions and translations
inline constexpr double kMaxU32 = 4294967295.0;

inline constexpr ParamDecl num(sv key, sv unit, double min, double max, sv meaning, sv tressfx = {}) {
    return {.key = key, .type = ParamType::Float, .unit = unit, .min = min, .max = max, .meaning = meaning, .tressfx = tressfx};
}
inline constexpr ParamDecl integer(sv key, sv unit, double min, double max, sv meaning, sv tressfx = {}) {
    return {.key = key, .type = ParamType::Int, .unit = unit, .min = min, .max = max, .meaning = meaning, .tressfx = tressfx};
}
inline constexpr ParamDecl boolean(sv key, sv meaning, sv tressfx = {}) {
    return {.key = key, .type = ParamType::Bool, .min = 0.0, .max = 1.0, .meaning = meaning, .tressfx = tressfx};
}
inline constexpr ParamDecl choice(sv key, sv values, sv meaning, sv tressfx = {}) {
    return {.key = key, .type = ParamType::Enum, .meaning = meaning, .tressfx = tressfx, .enum_values = values};
}
inline constexpr ParamDecl vec3(sv key, sv unit, double min, double max, sv meaning, sv tressfx = {}) {
    return {.key = key, .type = ParamType::Vec3, .unit = unit, .min = min, .max = max, .meaning = meaning, .tressfx = tressfx};
}
inline constexpr ParamDecl colour(sv key, double max, sv meaning) {
    return {.key = key, .type = ParamType::Vec3, .unit = "1", .min = 0.0, .max = max, .meaning = meaning, .colour = true};
}
// A direction (unit 1, any non-zero length): the editor shows its azimuth and elevation.
inline constexpr ParamDecl direction(sv key, sv meaning, sv tressfx = {}) {
    return {.key = key, .type = ParamType::Vec3, .unit = "1", .min = -1.0e3, .max = 1.0e3, .meaning = meaning, .tressfx = tressfx, .direction = true};
}
inline constexpr ParamDecl text(sv key, sv meaning) { return {.key = key, .type = ParamType::String, .meaning = meaning}; }
inline constexpr ParamDecl path(sv key, sv meaning) { return {.key = key, .type = ParamType::Path, .meaning = meaning}; }
inline constexpr ParamDecl names(sv key, sv meaning) { return {.key = key, .type = ParamType::StringList, .meaning = meaning}; }

inline constexpr std::array kRoot{
    text("format", "always \"tressel-scene\"").as("File format", "File"),
    integer("version", "", 1, 1, "scene file version; this build reads version 1").as("Version", "File"),
    choice("units", "m|cm|mm|in|ft", "length unit of imported files unless a mesh overrides it").as("Units", "Import"),
    choice("up_axis", "y|z", "up axis of imported files unless a mesh overrides it (z-up files are rotated to y-up)").as("Up axis", "Import"),
};

inline constexpr std::array kMesh{
    text("name", "unique mesh name, referenced by collision meshes, scalps, colliders and motion (required)").as("Name", "Mesh"),
    path("path", "mesh file (.fbx .obj .gltf .glb .ply .tfxmesh ...); relative to the scene file (required)").as("File", "Mesh"),
    choice("units", "m|cm|mm|in|ft", "unit of this file; \"\" = the scene's units").as("Units", "Import"),
    choice("up_axis", "y|z", "up axis of this file; \"\" = the scene's up axis").as("Up axis", "Import"),
    boolean("weld", "merge vertices with identical positions on import").as("Weld vertices", "Import"),
    boolean("visible", "draw the mesh in the viewport").as("Visible", "Mesh"),
    text("skeleton", "skeletal animation of a mesh that names bones but has no skeleton (a TressFX .tfxmesh): the mesh whose file has joints of those names and the clips, its rest pose being this mesh's pose; \"\" = its own file's").as("Skeleton from", "Animation"),
};

inline constexpr std::array kTransform{
    vec3("translate", "m", -kMaxCoord_m, kMaxCoord_m, "translation in metres, applied after rotation and scale").as("Position", "Transform"),
    vec3("rotate_deg", "deg", -360.0, 360.0, "Euler angles in degrees, applied about X, then Y, then Z").as("Rotation", "Transform"),
    vec3("scale", "1", 1.0e-6, 1.0e6, "scale factor: a number (uniform) or [x, y, z]; mirroring is not allowed").as("Scale", "Transform"),
};

inline constexpr std::array kCollisionMesh{
    text("mesh", "name of the mesh an SDF is built from; at most one collision mesh per mesh (required)").as("Mesh", "Field"),
    integer("cells_x", "cells", 4, 1024, "SDF cells across the mesh's x extent (largest extent when x is flat)", "numCellsInXAxis").as("Cells across", "Field"),
    num("padding", "1", 0.0, 4.0, "extra cells on every side of the grid, as a fraction of cells_x (TressFX fixes 0.8)").as("Padding", "Field"),
    num("margin", "m", 0.0, 1.0, "collision margin in metres: hair is pushed this far outside the surface", "collisionMargin (in cells)").as("Collision margin", "Collision"),
    choice("sign", "auto|parity|winding|face_normal", "how inside/outside is decided; face_normal is TressFX's method (wrong near edges)").as("Inside test", "Field"),
    boolean("animated_band_only", "animated body: rebuild only the narrow band each frame (beyond it the band's width, signed), as TressFX does; faster, but hair deeper inside than the band is not pushed out").as("Rebuild band only", "Animation"),
};

inline constexpr std::array kCollider{
    text("name", "unique collider name, referenced by hair groups (required)").as("Name", "Collider"),
    choice("type", "sphere|capsule", "primitive shape").as("Shape", "Shape"),
    vec3("p0", "m", -kMaxCoord_m, kMaxCoord_m, "sphere centre or capsule end 0, world space (or the attached mesh's space)").as("Centre / end A", "Shape"),
    vec3("p1", "m", -kMaxCoord_m, kMaxCoord_m, "capsule end 1; unused for spheres; may equal p0").as("End B", "Shape"),
    num("radius", "m", 1.0e-5, 100.0, "radius in metres").as("Radius", "Shape"),
    num("friction", "1", 0.0, 1.0, "hair: Coulomb's friction against the collider, static and kinetic (hair lying on it holds on slopes up to atan(friction)); cloth: the share of its sliding removed per step; 0 slides freely").as("Friction", "Contact"),
    text("attach_to", "name of the mesh whose motion the collider follows; \"\" = fixed in the world").as("Attached to", "Motion"),
    text("attach_joint", "skeletal animation: the joint of attach_to's skin the collider follows (p0, p1 given in the bind pose); \"\" = the mesh's motion").as("Joint", "Motion"),
};

inline constexpr std::array kHairGroup{
    text("name", "unique hair group name (required)").as("Name", "Group"),
    boolean("visible", "draw this group").as("Visible", "Group"),
};

inline constexpr std::array kScalp{
    text("mesh", "name of the mesh hair grows from: the head itself or a separate scalp mesh (required)").as("Scalp mesh", "Scalp"),
    path("paint", "optional .tpaint file of the maps painted on the scalp (mask, density, length, comb); relative to the scene file").as("Scalp paint", "Scalp"),
};

inline constexpr std::array kRegion{
    choice("type", "whole|cap|vertex_color|uv_mask|paint", "which part of the scalp mesh grows hair (paint: the mask painted on the scalp, scalp.paint)").as("Region", "Region"),
    direction("axis", "cap: direction of the cap centre from the mesh's bounding-box centre, mesh space (non-zero)").as("Cap axis", "Cap"),
    num("angle_deg", "deg", 0.0, 180.0, "cap: half angle around the axis").as("Cap angle", "Cap"),
    integer("channel", "", 0, 3, "vertex_color / uv_mask: channel read, 0 r, 1 g, 2 b, 3 a").as("Mask channel", "Mask"),
    num("threshold", "1", 0.0, 1.0, "vertex_color / uv_mask / paint: a point grows hair when its channel (or painted mask) is above this").as("Mask threshold", "Mask"),
    path("mask_path", "uv_mask: PNG mask in the scalp's UV space, relative to the scene file").as("Mask image", "Mask"),
};

inline constexpr std::array kGrowth{
    choice("placement", "per_vertex|random|file|edited", "where guide roots go: every scalp vertex, area-uniform random, a guide file, or guides edited by hand (brushes) kept in guide_file").as("Placement", "Placement"),
    integer("guides", "", 1, 1.0e6, "random: number of guides (ignored when density_per_cm2 > 0); edited: the number the guide file must hold").as("Guide count", "Placement"),
    num("density_per_cm2", "1/cm^2", 0.0, 1.0e4, "random: guides per square centimetre of region; 0 = use guides").as("Guide density", "Placement"),
    integer("seed", "", 0, kMaxU32, "random: seed of the placement (same seed, same roots)").as("Seed", "Placement"),
    num("min_spacing", "m", 0.0, 1.0, "random: minimum distance between roots (Poisson disk); 0 = none").as("Minimum spacing", "Placement"),
    path("guide_file", "file: .tfx or .hair guides, attached to the nearest scalp triangle; edited: the .tguides file of the brushed guides; relative to the scene file").as("Guide file", "Placement"),
    integer("vertices_per_strand", "", 2, 256, "vertices per guide strand as grown (the GPU resamples)").as("Vertices per strand", "Shape"),
    num("length", "m", 1.0e-4, 10.0, "strand length in metres").as("Length", "Shape"),
    num("length_variation", "1", 0.0, 1.0, "lengths spread uniformly in length x [1 - v, 1 + v]").as("Length variation", "Shape"),
    path("length_map", "optional PNG in scalp UV space whose red channel scales the length; relative to the scene file").as("Length map", "Shape"),
    direction("comb_direction", "direction strands are combed toward (non-zero when comb > 0)").as("Comb direction", "Comb"),
    num("comb", "1", 0.0, 1.0, "0 = grow along the scalp normal, 1 = along comb_direction").as("Comb amount", "Comb"),
    choice("comb_space", "world|surface", "world: comb_direction is one direction for the group; surface: laid into the scalp's tangent plane at each root, so combed hair follows the skull (combed down the surface where it would point straight out)").as("Comb space", "Comb"),
    choice("part", "none|plane", "a parting: hair on each side of the plane through part_point with normal part_normal is combed away from it along the scalp, instead of along comb_direction").as("Parting", "Comb"),
    vec3("part_point", "m", -kMaxCoord_m, kMaxCoord_m, "a point of the parting plane, in the scalp mesh's space").as("Part point", "Comb"),
    direction("part_normal", "normal of the parting plane: roots on its side are combed along it, the others the opposite way").as("Part normal", "Comb"),
    num("curl_radius", "m", 0.0, 1.0, "helix radius of curls in metres; 0 = no curl").as("Curl radius", "Curl and wave"),
    num("curl_pitch", "m", 1.0e-4, 10.0, "distance the curl advances along the growth direction per turn").as("Curl pitch", "Curl and wave"),
    num("wave_amplitude", "m", 0.0, 1.0, "wave amplitude in metres; 0 = no wave").as("Wave amplitude", "Curl and wave"),
    num("wave_frequency", "1/m", 0.0, 1.0e4, "waves per metre of strand").as("Wave frequency", "Curl and wave"),
    vec3("wave_axis", "1", -1.0e3, 1.0e3, "wave displacement direction; [0, 0, 0] = perpendicular to the strand and the comb direction").as("Wave axis", "Curl and wave"),
    num("droop", "1", 0.0, 1.0, "0 = straight, 1 = fully bent toward gravity (starts near rest)").as("Droop", "Shape"),
    num("tip_width_scale", "1", 0.0, 1.0, "width at the tip / width at the root").as("Tip width", "Shape"),
};

inline constexpr std::array kFollow{
    choice("mode", "none|tressfx|barycentric", "how follow hairs are made: none, offsets around each guide (TressFX), or barycentric over scalp triangles").as("Method", "Method"),
    integer("per_guide", "", 1, 64, "tressfx: follow hairs per guide", "numFollowHairsPerGuideHair").as("Per guide", "Around each guide"),
    num("root_radius", "m", 0.0, 1.0, "tressfx: largest root offset from its guide, in metres").as("Root spread", "Around each guide"),
    num("tip_separation", "1", 0.0, 10.0, "how much follow hairs spread toward the tip", "tipSeparationFactor").as("Tip spread", "Shape"),
    integer("count", "", 0, 1.0e7, "barycentric: total follow hairs (ignored when density_per_cm2 > 0)").as("Count", "Across the scalp"),
    num("density_per_cm2", "1/cm^2", 0.0, 1.0e5, "barycentric: follow hairs per square centimetre; 0 = use count").as("Density", "Across the scalp"),
    integer("subdivisions", "", 0, 8, "barycentric: regular subdivision level of each scalp triangle").as("Subdivisions", "Across the scalp"),
    num("clump", "1", 0.0, 1.0, "0 = spread evenly, 1 = pulled onto the nearest guide").as("Clumping", "Shape"),
    integer("seed", "", 0, kMaxU32, "seed of the follow-hair placement").as("Seed", "Method"),
};

inline constexpr std::array kSmoothing{
    choice("mode", "none|bezier|catmull_rom", "curve through the guide points used for rendering").as("Curve", "Smoothing"),
    integer("factor", "", 1, 16, "rendered vertices per guide segment").as("Vertices per segment", "Smoothing"),
};

inline constexpr std::array kSimulation{
    boolean("enabled", "simulate this group (off: it stays in its grown shape, following the scalp)").as("Simulate", "Solver"),
    integer("gpu_vertices_per_strand", "", 4, 64, "vertices per strand on the GPU: 4, 8, 16, 32 or 64 (strands are resampled)", "numVerticesPerStrand").as("Vertices per strand", "Solver"),
    num("damping", "1", 0.0, 1.0, "velocity damping per step at 60 Hz", "damping").as("Damping", "Solver"),
    num("global_stiffness", "1", 0.0, 1.0, "pull toward the grown shape in world space", "globalConstraintStiffness").as("Global stiffness", "Stiffness"),
    num("global_range", "1", 0.0, 1.0, "fraction of the strand, from the root, held by global_stiffness", "globalConstraintsRange").as("Global range", "Stiffness"),
    num("local_stiffness", "1", 0.0, 1.0, "keeps each segment's angle to its parent (same meaning for any iteration count)", "localConstraintStiffness").as("Local stiffness", "Stiffness"),
    integer("local_iterations", "", 1, 32, "local shape constraint iterations per step (bending local_shape; the rod's bending is solved exactly and does not use them)", "localConstraintsIterations").as("Shape iterations", "Solver"),
    choice("bending", "local_shape|rod", "how local_stiffness holds the shape: local_shape pulls each segment toward its rest angle (TressFX's constraint: how much it holds depends on vertices per strand and substeps); rod bends as an elastic rod of rigidity 0.0025 x (s / (1 - s))^2 m^4/s^2, the same sag at any vertex count, substep or iteration count (at 0.9 a 20 cm strand held out sags about 1 cm, at 0.99 0.08 mm and above that as at 0.99; 1 is rigid)").as("Bending model", "Stiffness"),
    integer("length_iterations", "", 1, 32, "length constraint iterations per step", "lengthConstraintsIterations").as("Length iterations", "Solver"),
    num("vsp_coeff", "1", 0.0, 1.0, "velocity shock propagation: share of the root's motion passed down the strand", "vspCoeff").as("Shock propagation", "Following the head"),
    num("vsp_threshold", "m/s^2", 0.0, 1.0e3, "root acceleration above which VSP applies fully", "vspAccelThreshold").as("Shock threshold", "Following the head"),
    num("friction", "1", 0.0, 2.0, "Coulomb's kinetic friction against collision meshes: hair sliding on a surface loses friction x how hard it presses of its slide each step (0 slides freely)").as("Sliding friction", "Collision"),
    num("static_friction", "1", 0.0, 2.0, "Coulomb's static friction against collision meshes: hair lying on a surface stays put while the pull along it is below static_friction x how hard it presses (held on a slope up to atan(static_friction); taken as at least friction)").as("Static friction", "Collision"),
    num("particle_radius", "m", 0.0, 0.05, "radius of each hair vertex (\"pearl\") added to collider radii and the SDF margin").as("Vertex radius", "Collision"),
    num("max_position_delta", "m", 1.0e-4, 10.0, "largest movement of a vertex in one step, in metres", "clampPositionDelta").as("Largest move per step", "Solver"),
    num("wind_scale", "1", 0.0, 10.0, "how strongly this group feels the wind").as("Wind response", "Following the head"),
    boolean("chain_shape_matching", "holds curls: overlapping runs of chain_span vertices pulled toward their rest shape, turned and moved onto where they are").as("Hold curls", "Curls"),
    num("chain_stiffness", "1", 0.0, 1.0, "chain shape matching: fraction of a run's shape error removed per step at 60 Hz (a compliance: the same hold against gravity at any substep count); 1 = rigid runs").as("Curl stiffness", "Curls"),
    integer("chain_span", "", 3, 32, "chain shape matching: vertices per run; a run should cover a quarter to half of a curl's turn").as("Curl run length", "Curls"),
    boolean("volume", "hair volume: strands push apart where hair is denser than volume_density and move with their neighbours (a grid over the hair, each step)").as("Hair volume", "Volume"),
    num("volume_pressure", "1", 0.0, 1.0, "hair volume: how hard hair pushes out of regions denser than volume_density; at 1, an overdensity of 100% across one cell moves hair a cell per step at 60 Hz").as("Volume pressure", "Volume"),
    num("volume_friction", "1", 0.0, 1.0, "hair volume: internal friction, the fraction of the difference between a vertex's velocity and its neighbourhood's removed per 1/60 s").as("Internal friction", "Volume"),
    num("volume_density", "1/cm^2", 0.1, 1.0e5, "hair volume: densest the hair may pack before it pushes apart, in hairs crossing a square centimetre (guides and follow hairs)").as("Packing density", "Volume"),
    integer("volume_cells", "cells", 8, 127, "hair volume: grid cells per axis; the hair's largest extent spans all but three or four of them (the grid keeps a border and moves in steps); more resolve thinner layers and cost more").as("Volume grid cells", "Volume"),
    boolean("sag_free", "on play a still head shows the groomed shape: the shape targets are solved so that gravity and contact hold the hair where it was grown (gravity preloading); off, the hair sags from its groom under its weight").as("Sag-free rest", "Rest state"),
    names("sdf", "names of the collision meshes (their mesh names) this group collides with").as("Collision fields", "Collision"),
    names("colliders", "names of the primitive colliders this group collides with").as("Colliders", "Collision"),
};

inline constexpr std::array kShading{
    choice("model", "kajiya_kay|marschner", "shading model").as("Shading model", "Colour"),
    colour("root_color", 1.0, "linear RGB colour at the root").as("Root colour", "Colour"),
    colour("tip_color", 1.0, "linear RGB colour at the tip").as("Tip colour", "Colour"),
    num("tip_percentage", "1", 0.0, 1.0, "fraction of the strand over which the root colour blends into the tip colour").as("Tip blend", "Colour"),
    num("color_variation", "1", 0.0, 1.0, "per-strand hue/value jitter").as("Colour variation", "Colour"),
    num("brightness_variation", "1", 0.0, 1.0, "per-strand brightness jitter").as("Brightness variation", "Colour"),
    num("opacity", "1", 0.0, 1.0, "opacity of one strand").as("Opacity", "Colour"),
    num("fiber_radius", "m", 1.0e-6, 0.05, "ribbon half width at the root, in metres", "fiberRadius").as("Fibre width", "Fibre"),
    num("fiber_ratio", "1", 0.0, 1.0, "tip width / root width when thin_tip is on", "fiberRatio").as("Tip width ratio", "Fibre"),
    boolean("thin_tip", "taper the ribbon toward the tip by fiber_ratio").as("Thin tips", "Fibre"),
    num("kd", "1", 0.0, 1.0, "Kajiya-Kay diffuse weight", "Kd").as("Diffuse", "Kajiya-Kay"),
    num("ks1", "1", 0.0, 1.0, "Kajiya-Kay primary highlight weight", "Ks1").as("Primary highlight", "Kajiya-Kay"),
    num("ex1", "1", 0.0, 1.0e3, "Kajiya-Kay primary highlight exponent", "Ex1").as("Primary sharpness", "Kajiya-Kay"),
    num("ks2", "1", 0.0, 1.0, "Kajiya-Kay secondary highlight weight", "Ks2").as("Secondary highlight", "Kajiya-Kay"),
    num("ex2", "1", 0.0, 1.0e3, "Kajiya-Kay secondary highlight exponent", "Ex2").as("Secondary sharpness", "Kajiya-Kay"),
    num("spec_shift", "1", -1.0, 1.0, "shift of the highlights along the fibre, in tangent units").as("Highlight shift", "Kajiya-Kay"),
    num("alpha_r_deg", "deg", -20.0, 20.0, "Marschner: longitudinal shift of R (TT -alpha/2, TRT -3alpha/2)").as("Highlight tilt", "Marschner"),
    num("beta_r_deg", "deg", 0.5, 45.0, "Marschner: longitudinal width of R (TT beta/2, TRT 2beta)").as("Highlight width", "Marschner"),
    num("ior", "1", 1.0, 3.0, "Marschner: index of refraction of the fibre").as("Index of refraction", "Marschner"),
    vec3("absorption", "1", 0.0, 100.0, "Marschner: absorption per unit fibre diameter, per channel").as("Absorption", "Marschner"),
    boolean("shadows", "self-shadowing").as("Self-shadowing", "Shadows"),
    num("shadow_alpha", "1", 0.0, 1.0, "opacity of one fibre in the shadow map", "shadowAlpha").as("Shadow opacity", "Shadows"),
    num("fiber_spacing", "1", 0.0, 10.0, "spacing between fibres in the shadow approximation", "fiberSpacing").as("Shadow fibre spacing", "Shadows"),
    num("lod_bias", "1", 0.25, 4.0, "preview level of detail: above 1 keeps more strands and vertices as the hair shrinks on screen, below 1 fewer (the preview only; exports keep every strand)").as("Detail bias", "Level of detail"),
};

inline constexpr std::array kEnvironment{
    vec3("gravity", "m/s^2", -1.0e3, 1.0e3, "gravity vector in world space", "gravityMagnitude (its length, along -Y)").as("Gravity", "Forces"),
    num("sim_rate_hz", "Hz", 1.0, 1000.0, "simulation steps per second, independent of the display rate").as("Simulation rate", "Clock"),
    integer("substeps", "", 1, 64, "substeps per simulation step").as("Substeps", "Clock"),
};

inline constexpr std::array kWind{
    direction("direction", "direction the wind blows toward, world space (non-zero when speed > 0)", "windDirection").as("Wind direction", "Wind"),
    num("speed", "m/s", 0.0, 100.0, "wind speed", "windMagnitude").as("Wind speed", "Wind"),
    num("turbulence", "1", 0.0, 1.0, "relative gust strength").as("Turbulence", "Wind"),
    num("gust_frequency_hz", "Hz", 0.0, 100.0, "gusts per second").as("Gust frequency", "Wind"),
};

inline constexpr std::array kMotion{
    choice("type", "none|procedural|animation", "how meshes move: still, procedural turn/nod/shake, or a skeletal clip of a skinned mesh's file").as("Motion", "Motion"),
    text("mesh", "name of the mesh that moves; \"\" = every mesh (animation: the first skinned mesh)").as("Moving mesh", "Motion"),
    vec3("pivot", "m", -kMaxCoord_m, kMaxCoord_m, "procedural: rotation pivot in world space").as("Pivot", "Procedural"),
    num("turn_deg", "deg", -180.0, 180.0, "procedural: yaw amplitude about the up axis").as("Turn", "Procedural"),
    num("nod_deg", "deg", -180.0, 180.0, "procedural: pitch amplitude").as("Nod", "Procedural"),
    num("shake_deg", "deg", -180.0, 180.0, "procedural: fast yaw amplitude at shake_frequency_hz").as("Shake", "Procedural"),
    num("shake_frequency_hz", "Hz", 0.0, 100.0, "procedural: shake frequency").as("Shake frequency", "Procedural"),
    vec3("translate", "m", -100.0, 100.0, "procedural: translation amplitude in metres").as("Sway", "Procedural"),
    num("frequency_hz", "Hz", 0.0, 100.0, "procedural: frequency of turn, nod and translation").as("Frequency", "Procedural"),
    text("animation", "animation: name of the clip in the mesh's file; \"\" = the first").as("Clip", "Animation"),
    num("animation_start_s", "s", 0.0, 1.0e4, "animation: clip time the playback starts at (after a 0.5 s blend from the bind pose)").as("Clip start", "Animation"),
    num("animation_speed", "1", 0.01, 10.0, "animation: clip seconds played per second of simulation").as("Playback speed", "Animation"),
    boolean("animation_loop", "animation: wrap at the clip's end; off holds its last frame").as("Loop", "Animation"),
};

inline constexpr std::array kLighting{
    colour("ambient", 100.0, "ambient light, linear RGB").as("Ambient", "Environment"),
};

// The key and the fill light share these declarations; their defaults differ (Lighting's members).
inline constexpr std::array kLight{
    direction("direction", "direction the light travels, world space (non-zero)").as("Direction", "Light"),
    colour("color", 100.0, "linear RGB colour").as("Colour", "Light"),
    num("intensity", "1", 0.0, 1.0e3, "intensity multiplier").as("Intensity", "Light"),
};

inline constexpr std::array kView{
    vec3("target", "m", -kMaxCoord_m, kMaxCoord_m, "point the camera orbits, world space").as("Orbit target", "Camera"),
    num("yaw_deg", "deg", -360.0, 360.0, "camera yaw about the up axis").as("Yaw", "Camera"),
    num("pitch_deg", "deg", -89.0, 89.0, "camera pitch above the horizon").as("Pitch", "Camera"),
    num("distance", "m", 1.0e-3, 1.0e4, "camera distance from the target in metres").as("Distance", "Camera"),
    num("fov_deg", "deg", 1.0, 170.0, "vertical field of view").as("Field of view", "Camera"),
    boolean("show_guides", "draw guide strands").as("Guides", "Show"),
    boolean("show_follows", "draw follow hairs").as("Follow hairs", "Show"),
    boolean("show_collision", "draw collision meshes").as("Collision meshes", "Show"),
    boolean("show_colliders", "draw primitive colliders").as("Colliders", "Show"),
    boolean("show_slice", "draw the SDF slice plane").as("SDF slice", "Show"),
    boolean("show_grid", "draw the ground grid").as("Ground grid", "Show"),
    choice("slice_axis", "x|y|z", "axis the SDF slice plane is perpendicular to").as("Slice axis", "SDF slice"),
    num("slice_position", "1", 0.0, 1.0, "slice plane position across the grid, 0..1").as("Slice position", "SDF slice"),
    text("slice_mesh", "collision mesh (its mesh name) whose field is sliced; \"\" = the first").as("Sliced field", "SDF slice"),
    choice("slice_of", "field|hair_density", "what the slice shows: the collision field's signed distance, or a hair group's density in hairs per square centimetre on its volume grid (dark: none, bright: dense; the white contour is the group's volume_density, where hair volume starts to push), refreshed a few times a second while the hair moves").as("Slice shows", "SDF slice"),
    text("slice_group", "hair group (its name) whose density is sliced when the slice shows hair density; \"\" (or a name no group has, after a rename) = the first").as("Sliced hair group", "SDF slice"),
    choice("colour_by", "shaded|guide|stretch|depth|root_tip|problems", "how the viewport colours the hair: its shading, a colour per guide (follows share their guide's), each segment's length against its rest length (blue 10% short, white at rest, red 10% long; guides only), how deep each vertex lies in a collision margin (white outside, yellow to orange within the margin, red inside the mesh, saturated 1 margin deep), the position along the strand (dark blue root to yellow tip), or the guides growth had to move out of the scalp (orange) and degenerate ones (magenta) over grey").as("Colour hair by", "Show"),
};

inline constexpr std::array kAccessory{
    text("name", "unique accessory name (required)").as("Name", "Accessory"),
    choice("type", "cloth|soft_body", "what simulates it: cloth (position-based, from the mesh's triangles) or soft_body (shape matching of particles inside the closed mesh)").as("Simulated as", "Accessory"),
    text("mesh", "name of the mesh that is the accessory, placed over the character in its rest pose (required)").as("Mesh", "Accessory"),
    text("attach", "name of the mesh its pins follow (usually the head); \"\" = fixed in the world").as("Pinned to", "Accessory"),
    text("attach_joint", "skeletal animation: the joint of attach's skin the pins follow rigidly from the bind pose (the head joint for headwear); \"\" = each pin follows the skin under it (a scarf on a bending neck), or the mesh's motion when it is not animated").as("Pinned to joint", "Accessory"),
    boolean("enabled", "simulate this accessory (off: it is not in the scene's simulation)").as("Simulate", "Accessory"),
    boolean("visible", "draw this accessory").as("Visible", "Display"),
    colour("color", 1.0, "linear RGB colour in the viewport").as("Colour", "Display"),
    names("sdf", "names of the collision meshes (their mesh names) it collides with").as("Collision fields", "Collision"),
    names("colliders", "names of the primitive colliders it collides with").as("Colliders", "Collision"),
};

inline constexpr std::array kAccessoryPins{
    choice("mode", "near_mesh|vertex_color|box|none", "which vertices (soft body: particles) are pinned to the attach mesh: those near it, by vertex colour, inside a box, or none (a soft body then rests on what it collides with; refused for a cloth)").as("Pinned vertices", "Pins"),
    num("distance", "m", 0.0, 1.0, "near_mesh: vertices closer than this to the attach mesh's surface are pinned").as("Pin distance", "Pins"),
    num("color_threshold", "1", 0.0, 1.0, "vertex_color: vertices whose red channel is at least this are pinned").as("Colour threshold", "Pins"),
    vec3("box_min", "m", -kMaxCoord_m, kMaxCoord_m, "box: lower corner, in the accessory mesh's space").as("Box corner min", "Pins"),
    vec3("box_max", "m", -kMaxCoord_m, kMaxCoord_m, "box: upper corner, in the accessory mesh's space").as("Box corner max", "Pins"),
};

// What cloths and soft bodies mean alike by damping and friction: one declaration each, shared.
inline constexpr ParamDecl kAccessoryDamping =
    num("damping", "1", 0.0, 1.0, "velocity damping per 1/60 s, as the hair's").as("Damping", "Material");
inline constexpr ParamDecl kAccessoryFriction =
    num("friction", "1", 0.0, 1.0, "friction against collision meshes: the fraction of sliding removed per simulation step (colliders use their own)")
        .as("Friction", "Contact");

inline constexpr std::array kCloth{
    num("density", "kg/m^2", 0.001, 10.0, "mass per area of the fabric (cotton 0.15, denim 0.4, silk 0.05)").as("Fabric weight", "Material"),
    num("stretch_stiffness", "N/m", 1.0, 1.0e8, "in-plane stiffness: tension per metre of width per unit strain (fabric: 1000 to 50000)").as("Stretch stiffness", "Material"),
    num("bend_stiffness", "N m", 0.0, 0.01, "bending rigidity: moment per metre of width per unit curvature (silk 1e-7, cotton 1e-5, leather 1e-3); 0 = none").as("Bend stiffness", "Material"),
    kAccessoryDamping,
    integer("iterations", "", 1, 64, "small steps per simulation substep, one Jacobi iteration each: more hold stiff cloth stiffer (stretch falls with their square) and cost more").as("Iterations", "Solver"),
    num("relaxation", "1", 0.1, 2.0, "over-relaxation of the edges' Jacobi iteration (stretch; bending is not over-relaxed): above 1 converges faster, near 2 may ring").as("Over-relaxation", "Solver"),
    kAccessoryFriction,
    num("thickness", "m", 0.0, 0.05, "collision radius around each cloth vertex, added to the collision margin").as("Thickness", "Contact"),
    num("wind_scale", "1", 0.0, 10.0, "how strongly the cloth feels the wind (air across the cloth's surface)").as("Wind response", "Material"),
    num("tether_slack", "1", -1.0, 1.0, "long-range attachments: a vertex may go this fraction beyond its rest distance (along the cloth) from its nearest pin; 0 keeps hanging cloth from stretching, below 0 turns them off").as("Tether slack", "Solver"),
    boolean("hair_collision", "the hair collides with the cloth and stays on the side facing the attach mesh (a scarf holds the hair under it down); off: hair passes through").as("Hair collides", "Contact"),
    num("hair_clearance", "m", 0.0, 0.1, "extra distance the cloth keeps from the collision meshes: the least room the hair under it has").as("Room for hair", "Contact"),
    boolean("rest_on_hair", "the cloth rests on the groom grown on the meshes it collides with, as groomed (hair taller than the clearance holds it up); off: only the clearance keeps it off the head").as("Rests on the hair", "Contact"),
};

inline constexpr std::array kSoftBody{
    num("particle_spacing", "m", 0.001, 0.1, "distance between the particles sampled inside the closed mesh: smaller follows the shape more finely and costs more (at most 262144 particles)").as("Particle spacing", "Sampling"),
    integer("cluster_radius", "", 1, 3, "a particle's shape-matching cluster: the particles within this many lattice steps (1 = 3 x 3 x 3); larger clusters bend less").as("Cluster size", "Sampling"),
    num("density", "kg/m^3", 1.0, 5000.0, "mass per volume (a hair bun about 100, felt 300, rubber 1100)").as("Density", "Material"),
    num("stiffness", "1", 0.0, 1.0, "firmness: the fraction of its shape error a body sampled 1 cm apart removes per 1/60 s, at any spacing and step rate (0.9 a jelly, 0.99 soft, 0.999 a bun, 1 as rigid as the iterations make it)").as("Firmness", "Material"),
    kAccessoryDamping,
    integer("iterations", "", 1, 64, "small steps per simulation substep, one shape matching each: more keep contacts and pins tighter and cost more").as("Iterations", "Solver"),
    kAccessoryFriction,
    boolean("hair_collision", "the hair collides with the body's surface and stays outside it, and is grown around it (a bun the hair wraps around); off: hair passes through, and is grown through it").as("Hair collides", "Contact"),
};

inline constexpr std::array kTables{
    ParamTable{"", "the scene document", kRoot},
    ParamTable{"meshes[]", "a mesh file loaded into the scene", kMesh},
    ParamTable{"meshes[].transform", "placement of a mesh in the scene", kTransform},
    ParamTable{"collision_meshes[]", "a signed distance field built from a mesh, for hair collision", kCollisionMesh},
    ParamTable{"colliders[]", "a primitive collider (sphere or capsule)", kCollider},
    ParamTable{"hair_groups[]", "one groom: scalp, growth, follow hairs, simulation and shading", kHairGroup},
    ParamTable{"hair_groups[].scalp", "the mesh the group grows from", kScalp},
    ParamTable{"hair_groups[].scalp.region", "the part of the scalp mesh that grows hair", kRegion},
    ParamTable{"hair_groups[].growth", "guide strand placement and shape", kGrowth},
    ParamTable{"hair_groups[].follow", "follow (interpolated) hairs generated from the guides", kFollow},
    ParamTable{"hair_groups[].smoothing", "render-time curve smoothing of the guides", kSmoothing},
    ParamTable{"hair_groups[].simulation", "the group's simulation (TressFX 4.1 pass order)", kSimulation},
    ParamTable{"hair_groups[].shading", "the group's appearance", kShading},
    ParamTable{"accessories[]", "an accessory simulated with the hair: cloth (headscarf, bandana, hood, ribbon) or soft body (bun, bow, pompom)", kAccessory},
    ParamTable{"accessories[].pins", "which of the accessory's vertices follow the attach mesh", kAccessoryPins},
    ParamTable{"accessories[].cloth", "the cloth's material and solver (type cloth)", kCloth},
    ParamTable{"accessories[].soft_body", "the soft body's sampling, material and solver (type soft_body)", kSoftBody},
    ParamTable{"environment", "forces and the simulation clock", kEnvironment},
    ParamTable{"environment.wind", "wind", kWind},
    ParamTable{"motion", "motion of the meshes in the live preview", kMotion},
    ParamTable{"lighting", "viewport lighting", kLighting},
    ParamTable{"lighting.key", "key light", kLight},
    ParamTable{"lighting.fill", "fill light", kLight},
    ParamTable{"view", "camera and overlays of the viewport", kView},
};

// The constant table for `path` (spelled as ParamTable::path), or nullptr.
constexpr const ParamTable* find_table(std::string_view table_path) {
    for (const ParamTable& t : kTables)
        if (t.path == table_path) return &t;
    return nullptr;
}

}  // namespace tressel::param_decls
