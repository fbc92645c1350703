// Which C++ member each JSON key of the scene file maps to, written once and walked by the JSON
// reader, the JSON writer, the declared checks (param_check.h), the defaults of the declarations
// (params.cpp) and the tests (every key walked must have a ParamDecl in param_decls.h, and every ParamDecl
// must be walked).
//
// A visitor V provides:
//   v.tag(key, value)           a constant string the document must hold (the "format" key)
//   v.field(key, member)        a leaf: double, int, uint32_t, bool, std::string, glm::dvec3, a scene
//                               enum or std::vector<std::string>
//   v.scale_field(key, member)  a glm::dvec3 that JSON may also give as one number (uniform)
//   v.object(key, member)       a nested object, walked with describe(v, member)
//   v.array(key, member)        a std::vector of objects, each walked with describe(v, element)
// `S` is the struct or the const struct, so one walk serves readers and writers.
#pragma once

#include <concepts>
#include <type_traits>

#include "scene/scene_types.h"

namespace tressel::scene_fields {

inline constexpr const char* kSceneFormat = "tressel-scene";

template <class S, class T>
concept Is = std::same_as<std::remove_const_t<S>, T>;

template <class V, class S> requires Is<S, Transform>
void describe(V& v, S& s) {
    v.field("translate", s.translate_m);
    v.field("rotate_deg", s.rotate_deg);
    v.scale_field("scale", s.scale);
}

template <class V, class S> requires Is<S, MeshRef>
void describe(V& v, S& s) {
    v.field("name", s.name);
    v.field("path", s.path);
    v.field("units", s.units);
    v.field("up_axis", s.up_axis);
    v.object("transform", s.transform);
    v.field("weld", s.weld);
    v.field("visible", s.visible);
    v.field("skeleton", s.skeleton);
}

template <class V, class S> requires Is<S, CollisionMesh>
void describe(V& v, S& s) {
    v.field("mesh", s.mesh);
    v.field("cells_x", s.cells_x);
    v.field("padding", s.padding);
    v.field("margin", s.margin_m);
    v.field("sign", s.sign);
    v.field("animated_band_only", s.animated_band_only);
}

template <class V, class S> requires Is<S, Collider>
void describe(V& v, S& s) {
    v.field("name", s.name);
    v.field("type", s.type);
    v.field("p0", s.p0_m);
    v.field("p1", s.p1_m);
    v.field("radius", s.radius_m);
    v.field("friction", s.friction);
    v.field("attach_to", s.attach_to);
    v.field("attach_joint", s.attach_joint);
}

template <class V, class S> requires Is<S, ScalpRegion>
void describe(V& v, S& s) {
    v.field("type", s.type);
    v.field("axis", s.axis);
    v.field("angle_deg", s.angle_deg);
    v.field("channel", s.channel);
    v.field("threshold", s.threshold);
    v.field("mask_path", s.mask_path);
}

template <class V, class S> requires Is<S, Scalp>
void describe(V& v, S& s) {
    v.field("mesh", s.mesh);
    v.object("region", s.region);
    v.field("paint", s.paint);
}

template <class V, class S> requires Is<S, Growth>
void describe(V& v, S& s) {
    v.field("placement", s.placement);
    v.field("guides", s.guides);
    v.field("density_per_cm2", s.density_per_cm2);
    v.field("seed", s.seed);
    v.field("min_spacing", s.min_spacing_m);
    v.field("guide_file", s.guide_file);
    v.field("vertices_per_strand", s.vertices_per_strand);
    v.field("length", s.length_m);
    v.field("length_variation", s.length_variation);
    v.field("length_map", s.length_map);
    v.field("comb_direction", s.comb_direction);
    v.field("comb", s.comb);
    v.field("comb_space", s.comb_space);
    v.field("part", s.part);
    v.field("part_point", s.part_point_m);
    v.field("part_normal", s.part_normal);
    v.field("curl_radius", s.curl_radius_m);
    v.field("curl_pitch", s.curl_pitch_m);
    v.field("wave_amplitude", s.wave_amplitude_m);
    v.field("wave_frequency", s.wave_frequency);
    v.field("wave_axis", s.wave_axis);
    v.field("droop", s.droop);
    v.field("tip_width_scale", s.tip_width_scale);
}

template <class V, class S> requires Is<S, Follow>
void describe(V& v, S& s) {
    v.field("mode", s.mode);
    v.field("per_guide", s.per_guide);
    v.field("root_radius", s.root_radius_m);
    v.field("tip_separation", s.tip_separation);
    v.field("count", s.count);
    v.field("density_per_cm2", s.density_per_cm2);
    v.field("subdivisions", s.subdivisions);
    v.field("clump", s.clump);
    v.field("seed", s.seed);
}

template <class V, class S> requires Is<S, Smoothing>
void describe(V& v, S& s) {
    v.field("mode", s.mode);
    v.field("factor", s.factor);
}

template <class V, class S> requires Is<S, SimulationParams>
void describe(V& v, S& s) {
    v.field("enabled", s.enabled);
    v.field("gpu_vertices_per_strand", s.gpu_vertices_per_strand);
    v.field("damping", s.damping);
    v.field("global_stiffness", s.global_stiffness);
    v.field("global_range", s.global_range);
    v.field("local_stiffness", s.local_stiffness);
    v.field("local_iterations", s.local_iterations);
    v.field("bending", s.bending);
    v.field("length_iterations", s.length_iterations);
    v.field("vsp_coeff", s.vsp_coeff);
    v.field("vsp_threshold", s.vsp_threshold);
    v.field("friction", s.friction);
    v.field("static_friction", s.static_friction);
    v.field("particle_radius", s.particle_radius_m);
    v.field("max_position_delta", s.max_position_delta_m);
    v.field("wind_scale", s.wind_scale);
    v.field("chain_shape_matching", s.chain_shape_matching);
    v.field("chain_stiffness", s.chain_stiffness);
    v.field("chain_span", s.chain_span);
    v.field("volume", s.volume);
    v.field("volume_pressure", s.volume_pressure);
    v.field("volume_friction", s.volume_friction);
    v.field("volume_density", s.volume_density_per_cm2);
    v.field("volume_cells", s.volume_cells);
    v.field("sag_free", s.sag_free);
    v.field("sdf", s.sdf);
    v.field("colliders", s.colliders);
}

template <class V, class S> requires Is<S, Shading>
void describe(V& v, S& s) {
    v.field("model", s.model);
    v.field("root_color", s.root_color);
    v.field("tip_color", s.tip_color);
    v.field("tip_percentage", s.tip_percentage);
    v.field("color_variation", s.color_variation);
    v.field("brightness_variation", s.brightness_variation);
    v.field("opacity", s.opacity);
    v.field("fiber_radius", s.fiber_radius_m);
    v.field("fiber_ratio", s.fiber_ratio);
    v.field("thin_tip", s.thin_tip);
    v.field("kd", s.kd);
    v.field("ks1", s.ks1);
    v.field("ex1", s.ex1);
    v.field("ks2", s.ks2);
    v.field("ex2", s.ex2);
    v.field("spec_shift", s.spec_shift);
    v.field("alpha_r_deg", s.alpha_r_deg);
    v.field("beta_r_deg", s.beta_r_deg);
    v.field("ior", s.ior);
    v.field("absorption", s.absorption);
    v.field("shadows", s.shadows);
    v.field("shadow_alpha", s.shadow_alpha);
    v.field("fiber_spacing", s.fiber_spacing);
    v.field("lod_bias", s.lod_bias);
}

template <class V, class S> requires Is<S, HairGroup>
void describe(V& v, S& s) {
    v.field("name", s.name);
    v.field("visible", s.visible);
    v.object("scalp", s.scalp);
    v.object("growth", s.growth);
    v.object("follow", s.follow);
    v.object("smoothing", s.smoothing);
    v.object("simulation", s.simulation);
    v.object("shading", s.shading);
}

template <class V, class S> requires Is<S, ClothParams>
void describe(V& v, S& s) {
    v.field("density", s.density_kg_m2);
    v.field("stretch_stiffness", s.stretch_stiffness_n_m);
    v.field("bend_stiffness", s.bend_stiffness_nm);
    v.field("damping", s.damping);
    v.field("iterations", s.iterations);
    v.field("relaxation", s.relaxation);
    v.field("friction", s.friction);
    v.field("thickness", s.thickness_m);
    v.field("wind_scale", s.wind_scale);
    v.field("tether_slack", s.tether_slack);
    v.field("hair_collision", s.hair_collision);
    v.field("hair_clearance", s.hair_clearance_m);
    v.field("rest_on_hair", s.rest_on_hair);
}

template <class V, class S> requires Is<S, SoftBodyParams>
void describe(V& v, S& s) {
    v.field("particle_spacing", s.particle_spacing_m);
    v.field("cluster_radius", s.cluster_radius);
    v.field("density", s.density_kg_m3);
    v.field("stiffness", s.stiffness);
    v.field("damping", s.damping);
    v.field("iterations", s.iterations);
    v.field("friction", s.friction);
    v.field("hair_collision", s.hair_collision);
}

template <class V, class S> requires Is<S, AccessoryPins>
void describe(V& v, S& s) {
    v.field("mode", s.mode);
    v.field("distance", s.distance_m);
    v.field("color_threshold", s.color_threshold);
    v.field("box_min", s.box_min_m);
    v.field("box_max", s.box_max_m);
}

template <class V, class S> requires Is<S, Accessory>
void describe(V& v, S& s) {
    v.field("name", s.name);
    v.field("type", s.type);
    v.field("mesh", s.mesh);
    v.field("attach", s.attach);
    v.field("attach_joint", s.attach_joint);
    v.field("enabled", s.enabled);
    v.field("visible", s.visible);
    v.field("color", s.color);
    v.object("pins", s.pins);
    v.object("cloth", s.cloth);
    v.object("soft_body", s.soft_body);
    v.field("sdf", s.sdf);
    v.field("colliders", s.colliders);
}

template <class V, class S> requires Is<S, Wind>
void describe(V& v, S& s) {
    v.field("direction", s.direction);
    v.field("speed", s.speed_mps);
    v.field("turbulence", s.turbulence);
    v.field("gust_frequency_hz", s.gust_frequency_hz);
}

template <class V, class S> requires Is<S, Environment>
void describe(V& v, S& s) {
    v.field("gravity", s.gravity_mps2);
    v.object("wind", s.wind);
    v.field("sim_rate_hz", s.sim_rate_hz);
    v.field("substeps", s.substeps);
}

template <class V, class S> requires Is<S, Motion>
void describe(V& v, S& s) {
    v.field("type", s.type);
    v.field("mesh", s.mesh);
    v.field("pivot", s.pivot_m);
    v.field("turn_deg", s.turn_deg);
    v.field("nod_deg", s.nod_deg);
    v.field("shake_deg", s.shake_deg);
    v.field("shake_frequency_hz", s.shake_frequency_hz);
    v.field("translate", s.translate_m);
    v.field("frequency_hz", s.frequency_hz);
    v.field("animation", s.animation);
    v.field("animation_start_s", s.animation_start_s);
    v.field("animation_speed", s.animation_speed);
    v.field("animation_loop", s.animation_loop);
}

template <class V, class S> requires Is<S, Light>
void describe(V& v, S& s) {
    v.field("direction", s.direction);
    v.field("color", s.color);
    v.field("intensity", s.intensity);
}

template <class V, class S> requires Is<S, Lighting>
void describe(V& v, S& s) {
    v.object("key", s.key);
    v.object("fill", s.fill);
    v.field("ambient", s.ambient);
}

template <class V, class S> requires Is<S, View>
void describe(V& v, S& s) {
    v.field("target", s.target_m);
    v.field("yaw_deg", s.yaw_deg);
    v.field("pitch_deg", s.pitch_deg);
    v.field("distance", s.distance_m);
    v.field("fov_deg", s.fov_deg);
    v.field("show_guides", s.show_guides);
    v.field("show_follows", s.show_follows);
    v.field("show_collision", s.show_collision);
    v.field("show_colliders", s.show_colliders);
    v.field("show_slice", s.show_slice);
    v.field("show_grid", s.show_grid);
    v.field("slice_axis", s.slice_axis);
    v.field("slice_position", s.slice_position);
    v.field("slice_mesh", s.slice_mesh);
    v.field("slice_of", s.slice_of);
    v.field("slice_group", s.slice_group);
    v.field("colour_by", s.colour_by);
}

template <class V, class S> requires Is<S, Scene>
void describe(V& v, S& s) {
    v.tag("format", kSceneFormat);
    v.field("version", s.version);
    v.field("units", s.units);
    v.field("up_axis", s.up_axis);
    v.array("meshes", s.meshes);
    v.array("collision_meshes", s.collision_meshes);
    v.array("colliders", s.colliders);
    v.array("hair_groups", s.hair_groups);
    v.array("accessories", s.accessories);
    v.object("environment", s.environment);
    v.object("motion", s.motion);
    v.object("lighting", s.lighting);
    v.object("view", s.view);
}

}  // namespace tressel::scene_fields
