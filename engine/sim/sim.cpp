#include "sim/sim.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "groom/clearance.h"
#include "groom/follow.h"
#include "groom/spatial.h"
#include "scene/param_check.h"
#include "sim/motion.h"
#include "sim/soft_body.h"
#include "shared/sim_sdf.h"
#include "sim/sim_passes.h"
#include "shared/sim_roots.h"
#include "shared/shape_match.h"
#include "shared/sim_volume.h"

namespace tressel {

using gpu_shared::GuideFrame;
using gpu_shared::SimCollider;
using gpu_shared::SimGroupParams;

namespace {

glm::mat4 to_mat4(const glm::dmat4& m) { return glm::mat4(m); }

glm::mat4 blend_mat(const glm::mat4& a, const glm::mat4& b, float t) { return gpu_shared::sim_root_blend(a, b, t); }

// Rest frame of segment 0 (x along it) from the guide frame's bitangent, as a quaternion in scalp space.
glm::vec4 root_frame_quat(glm::vec3 seg0, const GuideFrame& gf) {
    using namespace gpu_shared;
    const glm::vec3 x = sim_safe_normalize(seg0, sim_safe_normalize(sim_xyz(gf.tangent), glm::vec3(1.0f, 0.0f, 0.0f)));
    glm::vec3 y = sim_xyz(gf.bitangent) - x * glm::dot(sim_xyz(gf.bitangent), x);
    glm::vec3 fallback = std::abs(x.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
    fallback = fallback - x * glm::dot(fallback, x);
    y = sim_safe_normalize(y, glm::normalize(fallback));
    const glm::vec3 z = glm::cross(x, y);
    glm::mat4 m(1.0f);
    m[0] = glm::vec4(x, 0.0f);
    m[1] = glm::vec4(y, 0.0f);
    m[2] = glm::vec4(z, 0.0f);
    return sim_quat_from_mat(m);
}

bool all_finite(const std::vector<glm::vec4>& v) {
    for (const glm::vec4& p : v)
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
    return true;
}

void place_at_rest(SimGroupState& g) {
    const std::vector<glm::vec4>& groomed = g.groomed_positions_os.size() == g.positions.size() ? g.groomed_positions_os : g.rest_positions_os;
    for (size_t i = 0; i < g.positions.size(); ++i) {
        const glm::vec3 p = gpu_shared::sim_transform_point(sim_passes::root_of(g.root_transforms, uint32_t(i / g.n)), gpu_shared::sim_xyz(groomed[i]));
        g.positions[i] = glm::vec4(p, groomed[i].w);
    }
    g.prev_positions = g.positions;
    g.scratch = g.positions;
    g.root_transforms_prev = g.root_transforms;
    // The runs' rotations start at their roots' (rest shape -> world), so the first step's extraction
    // starts where the rest pose is.
    for (uint32_t s = 0; s < g.strand_count; ++s) {
        const glm::vec4 q = gpu_shared::sim_quat_from_mat(sim_passes::root_of(g.root_transforms, s));
        std::fill(g.chain_q.begin() + ptrdiff_t(s) * g.n, g.chain_q.begin() + ptrdiff_t(s + 1) * g.n, q);
    }
    std::fill(g.chain_t.begin(), g.chain_t.end(), glm::vec4(0.0f));
    for (auto& d : g.strand_data) d = gpu_shared::SimStrandData{glm::vec4(0, 0, 0, 1), glm::vec4(0, 0, 0, 1), glm::vec4(0.0f), glm::vec4(0.0f)};
    for (uint32_t s = 0; s < g.strand_count; ++s) {
        SimGroupParams p{};
        p.vertices_per_strand = g.n;
        p.gravity_mps2.w = 1.0f;
        sim_passes::strand_data(s, p, g.root_transforms, g.root_transforms_prev, g.rest_positions_os, g.strand_data,
                                g.guide_frames_rest, g.guide_frames);
    }
    for (uint32_t v = 0; v < g.follow_positions.size(); ++v)
        sim_passes::follow_vertex(v, g.n, g.follow_descriptors, g.guide_frames, g.positions, g.follow_positions, g.follow_corrections);
}

glm::mat4 rigid_now(const SimWorld& w, bool moves, double t_s) {
    return moves ? to_mat4(motion_transform(w.motion, t_s)) : glm::mat4(1.0f);
}

void set_collider_gpu(SimColliderState& c, const glm::mat4& now, const glm::mat4& before) {
    const glm::vec3 p0(c.desc.p0_m), p1(c.desc.type == ColliderType::Capsule ? c.desc.p1_m : c.desc.p0_m);
    const float type = c.desc.type == ColliderType::Capsule ? float(gpu_shared::kSimColliderCapsule) : float(gpu_shared::kSimColliderSphere);
    c.gpu.p0_m = glm::vec4(gpu_shared::sim_transform_point(now, p0), float(c.desc.radius_m));
    c.gpu.p1_m = glm::vec4(gpu_shared::sim_transform_point(now, p1), float(c.desc.friction));
    c.gpu.p0_prev_m = glm::vec4(gpu_shared::sim_transform_point(before, p0), type);
    c.gpu.p1_prev_m = glm::vec4(gpu_shared::sim_transform_point(before, p1), 0.0f);
}

}  // namespace

Status validate_sim_params(const SimulationParams& p, const std::string& group) {
    return check_params(p, "hair_groups['" + group + "'].simulation");
}

Status validate_environment(const Environment& e) { return check_params(e, "environment"); }

Status validate_collider(const Collider& c) { return check_params(c, "colliders['" + c.name + "']"); }

Result<SimGroupState> build_sim_group(const SimGroupInputs& in, const glm::mat4& root_transform) {
    TRESSEL_ASSERT(in.groom != nullptr, "SimGroupInputs::groom must point to the group's groom");
    TRESSEL_TRY(validate_sim_params(in.params, in.name));
    const GroomResult& groom = *in.groom;
    const uint32_t n = uint32_t(in.params.gpu_vertices_per_strand);
    if (groom.guides.strand_count() == 0)
        return make_error(ErrorCode::InvalidArgument, "hair group '" + in.name + "' has no guide strands to simulate");
    for (const glm::vec3& p : groom.guides.points_os_m)
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            return make_error(ErrorCode::InvalidArgument, "hair group '" + in.name + "' has a non-finite guide point");
    auto resampled = resample_strands(groom.guides, n);
    if (!resampled.ok()) return resampled.error();
    const Strands& s = *resampled;

    std::vector<GuideFrame> frames = groom.guide_frames;
    if (frames.size() != s.strand_count()) {
        if (in.scalp == nullptr)
            return make_error(ErrorCode::InvalidArgument, "hair group '" + in.name +
                                                              "': the groom has no guide frames and no scalp mesh was given to compute them");
        frames = compute_guide_frames(s, *in.scalp);
    }
    for (const auto& d : groom.follows.descriptors)
        if (d.guides.x >= s.strand_count() || d.guides.y >= s.strand_count() || d.guides.z >= s.strand_count())
            return make_error(ErrorCode::InvalidArgument, "hair group '" + in.name + "': a follow descriptor names a guide out of range");

    SimGroupState g;
    g.name = in.name;
    g.params = in.params;
    g.scalp_mesh = in.scalp_mesh;
    g.n = n;
    g.strand_count = uint32_t(s.strand_count());
    const size_t count = size_t(g.strand_count) * n;
    g.rest_positions_os.resize(count);
    g.rest_lengths_m.assign(count, 0.0f);
    g.ref_vectors_m.assign(count, glm::vec4(0.0f));
    g.rest_root_frame_q.resize(g.strand_count);
    g.strand_flags = s.flags;
    g.strand_flags.resize(g.strand_count, 0u);
    for (uint32_t st = 0; st < g.strand_count; ++st) {
        const auto pts = s.strand(st);
        const size_t base = size_t(st) * n;
        for (uint32_t k = 0; k < n; ++k) {
            g.rest_positions_os[base + k] = glm::vec4(pts[k], k < gpu_shared::kSimPinnedVertices ? 0.0f : 1.0f);
            if (k + 1 < n) g.rest_lengths_m[base + k] = glm::length(pts[k + 1] - pts[k]);
        }
        glm::vec4 frame = root_frame_quat(pts[1] - pts[0], frames[st]);
        g.rest_root_frame_q[st] = frame;
        for (uint32_t k = 2; k < n; ++k) {
            const glm::vec3 seg = pts[k] - pts[k - 1];
            g.ref_vectors_m[base + k] = glm::vec4(gpu_shared::sim_quat_rotate(gpu_shared::sim_quat_conj(frame), seg), 0.0f);
            frame = gpu_shared::sim_frame_advance(frame, seg);
        }
    }
    g.groomed_positions_os = g.rest_positions_os;
    g.groomed_ref_vectors_m = g.ref_vectors_m;
    g.grown_positions_os = g.rest_positions_os;
    g.grown_ref_vectors_m = g.ref_vectors_m;
    g.root_transforms.assign(1, root_transform);
    g.root_transforms_prev = g.root_transforms;
    g.strand_data.resize(g.strand_count);
    g.positions.resize(count);
    g.contact_normals.assign(count, glm::vec4(0.0f));
    g.chain_q.assign(count, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    g.chain_t.assign(count, glm::vec4(0.0f));
    g.follow_descriptors = groom.follows.descriptors;
    g.guide_frames_rest = frames;
    g.guide_frames = frames;
    g.follow_positions.assign(g.follow_descriptors.size() * n, glm::vec4(0.0f));
    place_at_rest(g);
    return g;
}

size_t correct_follows_at_rest(SimGroupState& g, const Mesh& scalp, float clearance_m) {
    using namespace gpu_shared;
    g.follow_corrections.clear();
    const uint32_t n = g.n;
    const size_t count = g.follow_count();
    Strands rest;
    rest.points_os_m.resize(count * n);
    rest.strand_offsets.resize(count + 1);
    for (size_t f = 0; f < count; ++f) {
        FollowDescriptor& d = g.follow_descriptors[f];
        d.guides.w = 0u;
        for (uint32_t k = 0; k < n; ++k) {
            auto at = [&](uint32_t guide) { return sim_xyz(g.rest_positions_os[size_t(guide) * n + k]); };
            rest.points_os_m[f * n + k] =
                follow_point(d, g.guide_frames_rest[d.guides.x], at(d.guides.x), at(d.guides.y), at(d.guides.z), float(k) / float(n - 1));
        }
        rest.strand_offsets[f + 1] = uint32_t((f + 1) * n);
    }
    const std::vector<glm::vec3> before = rest.points_os_m;
    if (count == 0 || scalp.indices.empty()) return 0;
    const TriangleBvh bvh(scalp.positions, scalp.indices);
    keep_strands_outside(scalp, bvh, clearance_m, rest);
    size_t rows = 0;
    for (size_t f = 0; f < count; ++f) {
        bool moved = false;
        for (uint32_t k = 0; k < n && !moved; ++k) moved = rest.points_os_m[f * n + k] != before[f * n + k];
        if (!moved) continue;
        FollowDescriptor& d = g.follow_descriptors[f];
        const GuideFrame& frame = g.guide_frames_rest[d.guides.x];
        d.guides.w = uint32_t(++rows);
        for (uint32_t k = 0; k < n; ++k) {
            const glm::vec3 delta = rest.points_os_m[f * n + k] - before[f * n + k];
            g.follow_corrections.emplace_back(glm::dot(delta, sim_xyz(frame.tangent)), glm::dot(delta, sim_xyz(frame.bitangent)),
                                              glm::dot(delta, sim_xyz(frame.normal)), 0.0f);
        }
    }
    place_at_rest(g);
    return rows;
}

Result<SimWorld> build_sim_world(const SimWorldInputs& in) {
    TRESSEL_TRY(validate_environment(in.environment));
    TRESSEL_TRY(check_params(in.motion, "motion"));
    TRESSEL_TRY(validate_motion(in.motion));
    SimWorld w;
    w.environment = in.environment;
    w.motion = in.motion;
    w.max_frames_per_advance = std::max(in.max_frames_per_advance, 1u);
    for (const SimSdfInputs& s : in.sdfs) {
        if (s.grid == nullptr || s.grid->distance_m.empty())
            return make_error(ErrorCode::InvalidArgument, "collision mesh '" + s.mesh + "' has no SDF to collide with");
        TRESSEL_TRY(check_param("collision_meshes[]", "margin", s.margin_m, "collision_meshes['" + s.mesh + "'].margin"));
        SimSdfState st;
        st.mesh = s.mesh;
        st.grid = s.grid;
        st.grid_params = s.grid->gpu_params();
        st.margin_m = s.margin_m;
        st.moves = motion_moves_mesh(in.motion, s.mesh);
        st.transform = rigid_now(w, st.moves, 0.0);
        w.sdfs.push_back(st);
    }
    for (const Collider& c : in.colliders) {
        TRESSEL_TRY(validate_collider(c));
        SimColliderState st;
        st.desc = c;
        st.moves = motion_moves_mesh(in.motion, c.attach_to);
        set_collider_gpu(st, glm::mat4(1.0f), glm::mat4(1.0f));
        w.colliders.push_back(st);
    }
    for (const SimGroupInputs& gi : in.groups) {
        const bool moves = motion_moves_mesh(in.motion, gi.scalp_mesh);
        auto g = build_sim_group(gi, rigid_now(w, moves, 0.0));
        if (!g.ok()) return g.error();
        for (const std::string& name : gi.params.sdf) {
            auto it = std::find_if(w.sdfs.begin(), w.sdfs.end(), [&](const SimSdfState& s) { return s.mesh == name; });
            if (it == w.sdfs.end())
                return make_error(ErrorCode::NotFound, "hair group '" + gi.name + "' collides with SDF '" + name + "', which is not a collision mesh");
            g->sdf_indices.push_back(uint32_t(it - w.sdfs.begin()));
        }
        for (const std::string& name : gi.params.colliders) {
            auto it = std::find_if(w.colliders.begin(), w.colliders.end(), [&](const SimColliderState& c) { return c.desc.name == name; });
            if (it == w.colliders.end())
                return make_error(ErrorCode::NotFound, "hair group '" + gi.name + "' collides with collider '" + name + "', which does not exist");
            g->collider_indices.push_back(uint32_t(it - w.colliders.begin()));
        }
        // Follows that collide with their scalp start outside it (correct_follows_at_rest), at its margin.
        if (gi.scalp != nullptr)
            for (uint32_t si : g->sdf_indices)
                if (w.sdfs[si].mesh == gi.scalp_mesh) {
                    correct_follows_at_rest(*g, *gi.scalp, float(w.sdfs[si].margin_m));
                    break;
                }
        w.groups.push_back(std::move(*g));
    }
    return w;
}

double volume_hair_per_guide(const SimGroupState& g) {
    return 1.0 + double(g.follow_count()) / double(std::max<uint32_t>(g.strand_count, 1u));
}

SimGroupParams make_group_params(const SimWorld& world, const SimGroupState& g, double t_end_s) {
    const SimulationParams& sp = g.params;
    const Environment& e = world.environment;
    const double dt = world.step_dt_s();
    SimGroupParams p{};
    p.gravity_mps2 = glm::vec4(glm::vec3(e.gravity_mps2), float(dt));
    const glm::dvec3 dir = glm::length(e.wind.direction) > 0.0 ? glm::normalize(e.wind.direction) : glm::dvec3(0.0);
    p.wind_mps = glm::vec4(glm::vec3(dir * e.wind.speed_mps), float(e.wind.turbulence));
    p.damping_decay = float(std::exp(-sp.damping * dt * 60.0));
    p.global_stiffness = float(sp.global_stiffness);
    p.global_range = float(sp.global_range);
    p.local_iterations = uint32_t(sp.local_iterations);
    if (sp.bending == BendingModel::Rod) {
        // The rod's bending replaces the local shape constraint (local_stiffness_iter 0 skips its sweeps).
        p.local_stiffness_iter = 0.0f;
        p.bend_mode = sp.local_stiffness >= 1.0 ? gpu_shared::kSimBendRigid : gpu_shared::kSimBendRod;
        p.bend_rigidity_dt2 = float(double(gpu_shared::sim_bend_rigidity(float(sp.local_stiffness))) * dt * dt);
        if (sp.local_stiffness <= 0.0) p.bend_mode = gpu_shared::kSimBendLocalShape;
    } else {
        p.local_stiffness_iter = gpu_shared::sim_iteration_stiffness(float(sp.local_stiffness), uint32_t(sp.local_iterations));
        p.bend_mode = gpu_shared::kSimBendLocalShape;
    }
    p.length_iterations = uint32_t(sp.length_iterations);
    p.vertices_per_strand = g.n;
    p.strand_count = g.strand_count;
    p.vsp_coeff = float(sp.vsp_coeff);
    p.vsp_threshold_mps2 = float(sp.vsp_threshold) * gpu_shared::kSimStandardGravity_mps2;
    p.friction_kinetic = float(sp.friction);
    p.friction_static = float(std::max(sp.static_friction, sp.friction));
    p.particle_radius_m = float(sp.particle_radius_m);
    p.max_delta_m = float(sp.max_position_delta_m);
    p.wind_drag_per_s = gpu_shared::kSimWindDragPerSecond * float(sp.wind_scale);
    p.gust_frequency_hz = float(e.wind.gust_frequency_hz);
    p.time_s = float(t_end_s);
    p.collider_count = uint32_t(g.collider_indices.size());
    p.sdf_count = uint32_t(g.sdf_indices.size());
    // Chain shape matching: runs no longer than the strand, at least 3 vertices (2 would only keep a length).
    const uint32_t span = sp.chain_shape_matching ? std::min(uint32_t(sp.chain_span), g.n - gpu_shared::kSimChainFirstVertex) : 0u;
    p.chain_span = span >= 3u ? span : 0u;
    p.chain_stiffness = p.chain_span > 0u ? gpu_shared::sm_step_stiffness(float(sp.chain_stiffness), float(dt)) : 0.0f;
    // Hair volume: the target in metres of guide hair per cubic metre, each guide standing for itself and
    // its share of the follow hairs.
    p.volume_nodes = sp.volume ? uint32_t(sp.volume_cells) + 1u : 0u;
    p.volume_pressure = gpu_shared::sim_volume_pressure_step(float(sp.volume_pressure), float(dt));
    p.volume_friction = gpu_shared::sim_volume_friction_step(float(sp.volume_friction), float(dt));
    p.volume_target_per_m2 = float(sp.volume_density_per_cm2 * 1e4 / volume_hair_per_guide(g));
    return p;
}

gpu_shared::SimSdfFrame sdf_frame_now(const SimSdfState& sdf, double friction) {
    gpu_shared::SimSdfFrame f = sdf.frame;
    const float h = gpu_shared::kSimSdfGradientStepCells * sdf.grid_params.origin_m.w;
    f.params = glm::vec4(float(sdf.margin_m - sdf.margin_offset_m), h, float(friction), 0.0f);
    return f;
}

std::vector<float> field_depths(const SimWorld& world, size_t group, bool follows) {
    const SimGroupState& g = world.groups[group];
    const std::vector<glm::vec4>& x = follows ? g.follow_positions : g.positions;
    std::vector<float> out(x.size(), gpu_shared::kSimNoDepth);
    const bool exemptions = g.sdf_exempt.size() == g.strand_count + g.follow_count();
    for (size_t i = 0; i < g.sdf_indices.size(); ++i) {
        const SimSdfState& s = world.sdfs[g.sdf_indices[i]];
        if (!s.grid) continue;
        const gpu_shared::SimSdfFrame f = sdf_frame_now(s, 0.0);
        for (size_t v = 0; v < x.size(); ++v) {
            const size_t strand = (follows ? g.strand_count : 0) + v / g.n;
            if (exemptions && ((g.sdf_exempt[strand] >> i) & 1u)) continue;  // its strand is left to that field
            out[v] = std::max(out[v], gpu_shared::sim_sdf_margin_depth(s.grid->distance_m.data(), s.grid_params, f, glm::vec3(x[v])));
        }
    }
    return out;
}

// Where cloth `ci`'s pins stand at time t (rest -> world): its joint's transform when the world has a
// cloth driver that knows it, else its attach mesh's motion.
glm::mat4 cloth_attach_now(const SimWorld& world, size_t ci, double t_s) {
    glm::mat4 m;
    if (world.cloth_driver && world.cloth_driver(ci, t_s, m)) return m;
    return rigid_now(world, motion_moves_mesh(world.motion, world.cloths[ci].attach_mesh), t_s);
}

void set_sdf_placement(SimSdfState& s, glm::vec3 placement_m) {
    s.placement_m = placement_m;
    s.frame.rest_to_world = s.transform * glm::translate(glm::mat4(1.0f), placement_m);
    s.frame.world_to_rest = glm::inverse(s.frame.rest_to_world);
}

StepFrame begin_step(SimWorld& world) {
    const double dt = world.step_dt_s();
    const double t_prev = double(world.clock.steps) * dt;
    const double t_now = double(world.clock.steps + 1) * dt;
    const uint32_t substeps = uint32_t(world.environment.substeps);
    const uint32_t sub = uint32_t(world.clock.steps % substeps);  // 0-based substep within the frame

    // Accessory fields travel with their attach mesh, placed for the positions they are rebuilt from (the
    // step's start): moved to where the mesh has carried them once that is kAccessoryFieldRecentreCells
    // away, so a head turning in place keeps its grid where it was built.
    for (SimAccessoryField& a : world.accessory_fields) {
        if (a.sdf >= world.sdfs.size()) continue;
        const glm::vec3 target = accessory_field_placement(world, a, t_prev);
        const glm::vec3 off = glm::abs(target - a.placed_m);
        if (std::max(off.x, std::max(off.y, off.z)) > float(kAccessoryFieldRecentreCells * a.plan.grid.cell_size_m) * 0.999f) a.placed_m = target;
        world.sdfs[a.sdf].placement_m = a.placed_m;
    }
    for (SimSdfState& s : world.sdfs) {
        const glm::mat4 before = s.transform;
        s.transform = rigid_now(world, s.moves, t_now);
        set_sdf_placement(s, s.placement_m);
        if (s.rest_of >= 0 && size_t(s.rest_of) < world.sdfs.size()) s.margin_m = world.sdfs[size_t(s.rest_of)].margin_m;
        s.frame.step_motion = s.transform * glm::inverse(before);
        if (s.surface_of_cloth >= 0 && size_t(s.surface_of_cloth) < world.cloths.size()) {
            const size_t ci = size_t(s.surface_of_cloth);
            s.frame.step_motion = cloth_attach_now(world, ci, t_now) * glm::inverse(cloth_attach_now(world, ci, t_prev));
        }
        if (s.ease_in_s > 0.0) {
            const double u = std::clamp(t_now / s.ease_in_s, 0.0, 1.0);
            s.margin_offset_m = s.ease_in_depth_m * (1.0 - u * u * (3.0 - 2.0 * u));
        }
    }
    for (size_t ci = 0; ci < world.colliders.size(); ++ci) {
        SimColliderState& c = world.colliders[ci];
        glm::mat4 now = rigid_now(world, c.moves, t_now), before = rigid_now(world, c.moves, t_prev);
        if (world.collider_driver) {
            glm::mat4 n, b;
            if (world.collider_driver(ci, t_now, n) && world.collider_driver(ci, t_prev, b)) now = n, before = b;
        }
        set_collider_gpu(c, now, before);
    }

    if (world.root_driver && sub == 0) world.root_driver(world, t_now + double(substeps - 1) * world.step_dt_s());
    StepFrame frame;
    frame.t_now_s = t_now;
    frame.groups.resize(world.groups.size());
    for (size_t gi = 0; gi < world.groups.size(); ++gi) {
        SimGroupState& g = world.groups[gi];
        if (!g.params.enabled) continue;
        g.root_transforms_prev = g.root_transforms;
        if (!g.external_root_targets.empty()) {
            // From the transform reached at substep `sub` toward the target: 1 / (substeps - sub) of the way,
            // so substep s ends at (s + 1) / substeps of the frame's motion.
            const float t = 1.0f / float(substeps - sub);
            g.root_transforms.resize(g.strand_count);
            for (uint32_t st = 0; st < g.strand_count; ++st)
                g.root_transforms[st] = blend_mat(sim_passes::root_of(g.root_transforms_prev, st), g.external_root_targets[st], t);
            if (sub + 1 == substeps) g.external_root_targets.clear();
        } else {
            g.root_transforms.assign(1, rigid_now(world, motion_moves_mesh(world.motion, g.scalp_mesh), t_now));
        }
        StepFrame::Group& fg = frame.groups[gi];
        fg.params = make_group_params(world, g, t_now);
        for (uint32_t ci : g.collider_indices) fg.colliders.push_back(world.colliders[ci].gpu);
        for (uint32_t si : g.sdf_indices) {
            // Hair's friction is Coulomb's, on the next step's prediction (sim_passes::integrate): the push
            // itself removes none of the slip.
            gpu_shared::SimSdfFrame f = sdf_frame_now(world.sdfs[si], 0.0);
            fg.sdf_frames.push_back(f);
            f.params.z = 0.0f;  // follow hairs carry no velocity: push only
            fg.follow_sdf_frames.push_back(f);
        }
    }
    frame.cloths.resize(world.cloths.size());
    for (size_t ci = 0; ci < world.cloths.size(); ++ci) {
        const ClothState& c = world.cloths[ci];
        StepFrame::Cloth& fc = frame.cloths[ci];
        const glm::mat4 before = cloth_attach_now(world, ci, t_prev), now = cloth_attach_now(world, ci, t_now);
        const uint32_t nc = uint32_t(c.collider_indices.size()), ns = uint32_t(c.sdf_indices.size());
        fc.params = c.soft_body ? make_soft_body_params(c, world.environment, dt, t_now, before, now, nc, ns)
                                : make_cloth_params(c.params, world.environment, dt, t_now, before, now, nc, ns, uint32_t(c.vertex_count()));
        if (c.pins_on_skin && world.cloth_pin_driver) {
            std::vector<glm::mat4> pins_before, pins_now;
            const size_t nv = c.vertex_count();
            if (world.cloth_pin_driver(ci, t_prev, pins_before) && world.cloth_pin_driver(ci, t_now, pins_now) && pins_before.size() == nv &&
                pins_now.size() == nv) {
                fc.pin_places.assign(2 * nv, glm::vec4(0.0f));
                for (size_t v = 0; v < nv; ++v) {
                    if (c.positions[v].w > 0.0f) continue;
                    const glm::vec3 rest(c.vertices[v].rest_os);
                    fc.pin_places[2 * v] = glm::vec4(gpu_shared::sim_transform_point(pins_before[v], rest), 1.0f);
                    fc.pin_places[2 * v + 1] = glm::vec4(gpu_shared::sim_transform_point(pins_now[v], rest), 1.0f);
                }
                fc.params.pin_places = 1u;
            }
        }
        const double friction = c.soft_body ? c.soft.friction : c.params.friction;
        // The cloth's contacts run once per small step (params.substeps of them a step) and carry a point
        // by the surface's motion over that small step: the colliders' start and the fields' step_motion
        // are taken at the last small step's start, not the step's. (With the whole step's motion every small
        // step, a contact gave a cloth on a turning head substeps times the surface's speed: the scarf
        // scene's kerchief kept 0.05 J/kg where friction 0 left it 0.003, and threw the hair under it.)
        const double t_small = t_now - dt / double(std::max(fc.params.substeps, 1u));
        for (uint32_t k : c.collider_indices) {
            SimColliderState small = world.colliders[k];
            glm::mat4 now_k = rigid_now(world, small.moves, t_now), before_k = rigid_now(world, small.moves, t_small);
            if (world.collider_driver) {
                glm::mat4 n, b;
                if (world.collider_driver(k, t_now, n) && world.collider_driver(k, t_small, b)) now_k = n, before_k = b;
            }
            set_collider_gpu(small, now_k, before_k);
            fc.colliders.push_back(small.gpu);
        }
        for (uint32_t si : c.sdf_indices) {
            const SimSdfState& sdf = world.sdfs[si];
            gpu_shared::SimSdfFrame f = sdf_frame_now(sdf, friction);
            if (!c.soft_body) f.params.x += float(c.params.hair_clearance_m);  // room for the hair under the cloth
            if (sdf.moves) f.step_motion = sdf.transform * glm::inverse(rigid_now(world, true, t_small));
            fc.sdf_frames.push_back(f);
        }
    }
    return frame;
}

Result<uint32_t> add_accessory_field(SimWorld& world, size_t cloth, glm::vec3 bmin, glm::vec3 bmax, double cell_m, glm::vec3 under_m) {
    if (cloth >= world.cloths.size()) return make_error(ErrorCode::InvalidArgument, "add_accessory_field: no cloth " + std::to_string(cloth));
    const ClothState& c = world.cloths[cloth];
    const std::string who = (c.soft_body ? "soft body '" : "cloth '") + c.name + "'";
    const std::vector<glm::vec4> surface = accessory_surface(c);
    if (!all_finite(surface) || !glm::all(glm::lessThan(bmin, bmax)) || !std::isfinite(bmin.x + bmin.y + bmin.z + bmax.x + bmax.y + bmax.z) ||
        !(cell_m > 0.0) || !std::isfinite(cell_m))
        return make_error(ErrorCode::InvalidArgument, who + ": the hair's field around it has no finite bounds or cell size");
    SimAccessoryField a;
    a.cloth = uint32_t(cloth);
    a.mesh = cloth_mesh(c);
    a.mesh.name = "accessory '" + c.name + "'";
    // The side the obstacle lies on: where the area-weighted normals point away from `under_m`, theirs.
    double away = 0.0;
    for (size_t t = 0; t + 2 < a.mesh.indices.size(); t += 3) {
        const glm::vec3 p0 = a.mesh.positions[a.mesh.indices[t]], p1 = a.mesh.positions[a.mesh.indices[t + 1]], p2 = a.mesh.positions[a.mesh.indices[t + 2]];
        away += double(glm::dot(glm::cross(p1 - p0, p2 - p0), (p0 + p1 + p2) / 3.0f - under_m));
    }
    const glm::vec3 size = bmax - bmin;
    const double extent = double(std::max(size.x, std::max(size.y, size.z)));
    const int band = c.soft_body ? kSoftFieldBandCells : kAccessoryFieldBandCells;
    const double cell = std::max(cell_m, extent / double(kAccessoryFieldMaxCells - 1 - 2 * band));
    SdfGridDesc grid;
    grid.cell_size_m = cell;
    grid.padding_cells = band;
    grid.origin_m = glm::dvec3(bmin) - double(band) * cell;
    grid.dims = glm::ivec3(glm::ceil(glm::dvec3(bmax - bmin) / cell)) + 1 + 2 * band;
    a.desc.shell = !c.soft_body;  // a soft body's surface is closed: a signed distance (parity beyond the band)
    a.desc.shell_side = away >= 0.0 ? 1.0f : -1.0f;
    a.desc.band_cells = band;
    a.desc.fixed_grid = grid;
    a.desc.band_only = true;
    a.desc.mesh = &a.mesh;
    Diagnostics diag;
    auto plan = plan_sdf_build(a.desc, diag);
    a.desc.mesh = nullptr;
    if (!plan) return make_error(plan.error().code, who + ": the hair's field: " + plan.error().message);
    a.plan = std::move(*plan);
    a.grid = std::make_shared<SdfGrid>();
    if (!a.plan.band_only) return make_error(ErrorCode::InvalidArgument, who + ": the hair's field: its surface is not closed");
    TRESSEL_TRY(rebuild_band_field_cpu(a.plan, surface, *a.grid));
    SimSdfState st;
    st.mesh = a.mesh.name;
    st.grid = a.grid.get();
    st.grid_params = a.grid->gpu_params();
    st.margin_m = c.soft_body ? kSoftFieldMarginM : c.params.thickness_m;
    if (c.soft_body) {  // hair that starts inside the body (lying under a bun) is let out over half a second
        st.ease_in_s = kSoftFieldEaseInS;
        st.ease_in_depth_m = double(band) * cell + st.margin_m;
        st.margin_offset_m = st.ease_in_depth_m;
    }
    st.moves = false;
    st.surface_of_cloth = int32_t(cloth);
    for (const SimGroupState& g : world.groups)
        if (g.sdf_indices.size() >= 32)
            return make_error(ErrorCode::InvalidArgument, who + ": hair group '" + g.name + "' already collides with 32 fields, the most a group may");
    a.sdf = uint32_t(world.sdfs.size());
    world.sdfs.push_back(st);
    // Strands rooted inside the accessory (or within its margin: hair grown under a bun pinned to the
    // scalp) cannot leave it: its field would push them against their own roots every step. It leaves
    // them alone, guides and follows each by its own root. So it does a guide the growth left wedged in a
    // body (kStrandWedged: grown around a soft body it collides with, GroomInputs::obstacles, and still in
    // it where the body meets the scalp) whose groomed shape lies deeper in this field than its margin:
    // the body's field and the scalp's would push it against each other every step (on the bun scene one
    // such strand's tip whipped across the bun at 3.9 m/s). Hair lying through a body otherwise (a groom
    // from a file) is let out as the field eases in.
    for (SimGroupState& g : world.groups) {
        const size_t bit = g.sdf_indices.size();
        g.sdf_indices.push_back(a.sdf);
        const size_t follows = g.follow_positions.size() / std::max<uint32_t>(g.n, 1);
        auto depth_below = [&](glm::vec3 p, float d_m) {
            return gpu_shared::sim_sdf_in_grid(st.grid_params, p) && gpu_shared::sdf_sample_distance_m(a.grid->distance_m.data(), st.grid_params, p) < d_m;
        };
        for (size_t s = 0; s < g.strand_count + follows && g.n > 0 && bit < 32; ++s) {
            // The grid is in world space; a follow's root is at rest where reset_to_rest put it.
            const glm::vec3 p(s < g.strand_count ? g.positions[s * g.n] : g.follow_positions[(s - g.strand_count) * g.n]);
            bool leave = depth_below(p, float(st.margin_m));
            const bool wedged = s < g.strand_count && s < g.strand_flags.size() && (g.strand_flags[s] & kStrandWedged);
            for (uint32_t k = 1; !leave && wedged && k < g.n; ++k) leave = depth_below(glm::vec3(g.positions[s * g.n + k]), -float(st.margin_m));
            if (!leave) continue;
            g.sdf_exempt.resize(g.strand_count + follows, 0u);
            g.sdf_exempt[s] |= 1u << bit;
        }
    }
    glm::vec3 smin(std::numeric_limits<float>::infinity()), smax(-std::numeric_limits<float>::infinity());
    for (const glm::vec4& q : surface) smin = glm::min(smin, glm::vec3(q)), smax = glm::max(smax, glm::vec3(q));
    a.centre_m = 0.5f * (smin + smax);
    a.origin_m = a.plan.grid.origin_m;
    world.accessory_fields.push_back(std::move(a));
    return world.accessory_fields.back().sdf;
}

glm::vec3 accessory_field_placement(const SimWorld& world, const SimAccessoryField& a, double t_s) {
    if (a.cloth >= world.cloths.size()) return glm::vec3(0.0f);
    const ClothState& c = world.cloths[a.cloth];
    glm::vec3 moved(0.0f);
    std::vector<glm::mat4> now, start;
    if (c.pins_on_skin && world.cloth_pin_driver && world.cloth_pin_driver(a.cloth, t_s, now) && world.cloth_pin_driver(a.cloth, 0.0, start) &&
        now.size() == c.vertex_count() && start.size() == c.vertex_count()) {
        // Pins on a skin: the pins' mean travel.
        size_t pins = 0;
        for (size_t v = 0; v < c.vertex_count(); ++v) {
            if (c.positions[v].w > 0.0f) continue;
            const glm::vec4 rest(glm::vec3(c.vertices[v].rest_os), 1.0f);
            moved += glm::vec3(now[v] * rest) - glm::vec3(start[v] * rest);
            ++pins;
        }
        moved /= float(std::max<size_t>(pins, 1));
    } else {
        const glm::mat4 carry = cloth_attach_now(world, a.cloth, t_s) * glm::inverse(cloth_attach_now(world, a.cloth, 0.0));
        moved = glm::vec3(carry * glm::vec4(a.centre_m, 1.0f)) - a.centre_m;
    }
    const float cell = float(a.plan.grid.cell_size_m);
    if (!(cell > 0.0f) || !std::isfinite(moved.x + moved.y + moved.z)) return glm::vec3(0.0f);
    return glm::round(moved / cell) * cell;
}

Status rebuild_accessory_fields(SimWorld& world) {
    for (SimAccessoryField& a : world.accessory_fields) {
        if (a.cloth >= world.cloths.size()) continue;  // out of the world for now (a sag-free solve): the field stays
        if (a.grid.use_count() > 1) a.grid = std::make_shared<SdfGrid>(*a.grid);  // a copied world: its own field from now on
        a.plan.grid.origin_m = a.origin_m + glm::dvec3(world.sdfs[a.sdf].placement_m);  // where begin_step placed it
        const ClothState& c = world.cloths[a.cloth];
        if (c.soft_body)
            TRESSEL_TRY(rebuild_band_field_cpu(a.plan, accessory_surface(c), *a.grid));
        else
            TRESSEL_TRY(rebuild_band_field_cpu(a.plan, c.positions, *a.grid));
        world.sdfs[a.sdf].grid = a.grid.get();
    }
    return {};
}

std::vector<glm::vec4> accessory_surface(const ClothState& c) {
    if (!c.soft_body) return c.positions;
    std::vector<glm::vec4> out(c.render_vertices.size());
    for (uint32_t r = 0; r < out.size(); ++r) {
        glm::vec3 p, n;
        soft_passes::render_vertex(r, c, p, n);
        out[r] = glm::vec4(p, 1.0f);
    }
    return out;
}

Status step_once(SimWorld& world) {
    const StepFrame frame = begin_step(world);
    Status result = rebuild_accessory_fields(world);
    for (size_t gi = 0; gi < world.groups.size(); ++gi) {
        SimGroupState& g = world.groups[gi];
        if (!g.params.enabled) continue;
        const StepFrame::Group& fg = frame.groups[gi];
        const SimGroupParams& p = fg.params;
        const std::vector<SimCollider>& colliders = fg.colliders;

        const uint32_t nv = uint32_t(g.positions.size());
        for (uint32_t s = 0; s < g.strand_count; ++s)
            sim_passes::strand_data(s, p, g.root_transforms, g.root_transforms_prev, g.rest_positions_os, g.strand_data,
                                    g.guide_frames_rest, g.guide_frames);
        if (p.volume_nodes > 0u) {
            g.volume_frame = sim_passes::volume_frame(p, g.positions);
            g.volume_grid.assign(size_t(p.volume_nodes) * p.volume_nodes * p.volume_nodes * gpu_shared::kSimVolumeNodeInts, 0);
            for (uint32_t v = 0; v < nv; ++v)
                sim_passes::volume_splat(v, p, g.volume_frame, g.positions, g.prev_positions, g.rest_lengths_m, g.volume_grid);
            const uint32_t nodes = p.volume_nodes * p.volume_nodes * p.volume_nodes;
            g.volume_gradient.resize(nodes);
            for (uint32_t node = 0; node < nodes; ++node) sim_passes::volume_gradient(node, p, g.volume_frame, g.volume_grid, g.volume_gradient);
        } else {
            g.volume_grid.clear();
            g.volume_gradient.clear();
        }
        std::vector<gpu_shared::SdfGridParams> friction_grids;
        std::vector<const float*> friction_samples;
        for (uint32_t si : g.sdf_indices) {
            friction_grids.push_back(world.sdfs[si].grid_params);
            friction_samples.push_back(world.sdfs[si].grid->distance_m.data());
        }
        const sim_passes::FrictionFields friction{friction_grids, friction_samples, fg.sdf_frames, g.sdf_exempt, colliders};
        for (uint32_t v = 0; v < nv; ++v)
            sim_passes::integrate(v, p, g.positions, g.prev_positions, g.rest_positions_os, g.root_transforms, g.scratch, g.volume_grid,
                                  g.volume_gradient, g.volume_frame, friction);
        // Buffer rotation: previous <- current, current <- integrated.
        std::swap(g.prev_positions, g.positions);
        std::swap(g.positions, g.scratch);
        for (uint32_t v = 0; v < nv; ++v) sim_passes::global_shape(v, p, g.positions, g.rest_positions_os, g.root_transforms);
        for (uint32_t v = 0; v < nv; ++v)
            sim_passes::vsp(v, p, g.strand_data, g.rest_positions_os, g.root_transforms_prev, g.root_transforms, g.positions, g.prev_positions);
        for (uint32_t s = 0; s < g.strand_count; ++s)
            sim_passes::local_shape(s, p, g.positions, g.prev_positions, g.ref_vectors_m, g.rest_root_frame_q, g.strand_data);
        if (p.bend_mode != gpu_shared::kSimBendLocalShape)
            for (uint32_t s = 0; s < g.strand_count; ++s)
                sim_passes::bend(s, p, g.positions, g.ref_vectors_m, g.rest_root_frame_q, g.strand_data, g.rest_lengths_m);
        for (uint32_t s = 0; s < g.strand_count; ++s)
            sim_passes::length_and_colliders(s, p, g.positions, g.prev_positions, g.rest_lengths_m, colliders);
        if (p.chain_span > 0u) {
            const std::vector<glm::vec4>& chain_rest = g.chain_rest();
            for (uint32_t r = 0; r < nv; ++r) sim_passes::chain_match_run(r, p, g.strand_data, g.positions, chain_rest, g.chain_q, g.chain_t);
            for (uint32_t v = 0; v < nv; ++v) sim_passes::chain_match_vertex(v, p, g.positions, chain_rest, g.chain_q, g.chain_t);
        }
        for (uint32_t v = 0; v < nv; ++v) sim_passes::clamp_delta(v, p, g.positions, g.prev_positions, g.contact_normals);
        const uint32_t segments = g.strand_count * (g.n - 1);
        auto exempt = [&](uint32_t strand, size_t i) { return strand < g.sdf_exempt.size() && (g.sdf_exempt[strand] >> i) & 1u; };
        // The guides meet the fields last to first, as the follows do below: the accessories' (added last)
        // before the collision meshes', so that a guide pinched between a bun and the head ends out of the
        // head (the bun scene had 4 guide vertices 12.7 mm inside the head while the bun's field eased in).
        for (size_t i = g.sdf_indices.size(); i-- > 0;) {
            SimSdfState& sdf = world.sdfs[g.sdf_indices[i]];
            const gpu_shared::SimSdfFrame& f = fg.sdf_frames[i];
            const float* field = sdf.grid->distance_m.data();
            for (uint32_t v = 0; v < nv; ++v)
                if (!exempt(v / g.n, i))
                    sim_passes::sdf_vertex(v, g.n, sdf.grid_params, field, f, g.positions, g.prev_positions, g.rest_lengths_m, g.contact_normals);
            for (uint32_t parity = 0; parity < 2; ++parity)
                for (uint32_t sg = 0; sg < segments; ++sg)
                    if (!exempt(sg / (g.n - 1), i))
                        sim_passes::sdf_midpoint(sg, parity, g.n, sdf.grid_params, field, f, g.positions, g.prev_positions, g.rest_lengths_m,
                                                 g.contact_normals);
        }
        for (uint32_t s = 0; s < g.strand_count; ++s)
            sim_passes::ftl_contact(s, p, g.positions, g.prev_positions, g.rest_lengths_m, colliders, g.contact_normals);
        const uint32_t nf = world.step_follows ? uint32_t(g.follow_positions.size()) : 0u;
        for (uint32_t v = 0; v < nf; ++v)
            sim_passes::follow_vertex(v, g.n, g.follow_descriptors, g.guide_frames, g.positions, g.follow_positions,
                                      g.follow_corrections);
        // The follows meet the fields last to first: the accessories' (added last) before the collision
        // meshes', so that a follow pinched between a bun and the head ends out of the head.
        for (size_t i = g.sdf_indices.size(); i-- > 0;) {
            SimSdfState& sdf = world.sdfs[g.sdf_indices[i]];
            const gpu_shared::SimSdfFrame& f = fg.follow_sdf_frames[i];
            for (uint32_t v = 0; v < nf; ++v)
                if (!exempt(g.strand_count + v / g.n, i))
                    sim_passes::follow_sdf_vertex(v, g.n, sdf.grid_params, sdf.grid->distance_m.data(), f, g.follow_positions);
        }
        if (!all_finite(g.positions) || !all_finite(g.follow_positions)) {
            place_at_rest(g);
            if (result.ok())
                result = make_error(ErrorCode::InvalidArgument, "hair group '" + g.name +
                                                                     "': the simulation produced a non-finite position; the group was reset to rest");
        }
    }
    for (size_t ci = 0; ci < world.cloths.size(); ++ci) {
        ClothState& c = world.cloths[ci];
        const StepFrame::Cloth& fc = frame.cloths[ci];
        std::vector<cloth_passes::SdfRef> sdfs;
        for (size_t i = 0; i < c.sdf_indices.size(); ++i) {
            const SimSdfState& sdf = world.sdfs[c.sdf_indices[i]];
            sdfs.push_back({sdf.grid->distance_m.data(), sdf.grid_params, fc.sdf_frames[i]});
        }
        c.pin_places = fc.pin_places;
        step_cloth(c, fc.params, fc.colliders, sdfs);
        if (!all_finite(c.positions)) {
            place_cloth_at_rest(c, fc.params.pin_transform);
            if (result.ok())
                result = make_error(ErrorCode::InvalidArgument, "cloth '" + c.name + "': the simulation produced a non-finite position; the cloth was reset to rest");
        }
    }
    ++world.clock.steps;
    return result;
}

Status run_frames(SimWorld& world, uint32_t frames) {
    Status result;
    for (uint32_t f = 0; f < frames; ++f)
        for (int s = 0; s < world.environment.substeps; ++s) {
            Status st = step_once(world);
            if (!st.ok() && result.ok()) result = st;
        }
    return result;
}

Result<uint32_t> advance(SimWorld& world, double elapsed_s) {
    if (!std::isfinite(elapsed_s) || elapsed_s < 0.0)
        return make_error(ErrorCode::InvalidArgument, "advance: elapsed_s must be finite and >= 0, got " + std::to_string(elapsed_s));
    const double frame = world.frame_dt_s();
    world.clock.accumulator_s += elapsed_s;
    uint64_t whole = uint64_t(std::floor(world.clock.accumulator_s / frame));
    world.clock.accumulator_s -= double(whole) * frame;
    if (whole > world.max_frames_per_advance) {
        world.clock.dropped_frames += whole - world.max_frames_per_advance;
        whole = world.max_frames_per_advance;
    }
    TRESSEL_TRY(run_frames(world, uint32_t(whole)));
    return uint32_t(whole);
}

void reset_to_rest(SimWorld& world) {
    world.clock = SimClock{};
    for (SimSdfState& s : world.sdfs) s.transform = rigid_now(world, s.moves, 0.0);
    for (SimColliderState& c : world.colliders) set_collider_gpu(c, glm::mat4(1.0f), glm::mat4(1.0f));
    for (SimGroupState& g : world.groups) {
        g.external_root_targets.clear();
        g.root_transforms.assign(1, rigid_now(world, motion_moves_mesh(world.motion, g.scalp_mesh), 0.0));
    }
    if (world.root_driver) world.root_driver(world, 0.0);
    for (SimGroupState& g : world.groups) {
        if (g.external_root_targets.size() == g.strand_count && g.strand_count > 0) g.root_transforms = std::move(g.external_root_targets);
        g.external_root_targets.clear();
        place_at_rest(g);
    }
    for (size_t ci = 0; ci < world.cloths.size(); ++ci) place_cloth_at_rest(world.cloths[ci], cloth_attach_now(world, ci, 0.0));
    for (SimAccessoryField& a : world.accessory_fields) {  // back where they were built
        a.placed_m = glm::vec3(0.0f);
        if (a.sdf < world.sdfs.size()) set_sdf_placement(world.sdfs[a.sdf], glm::vec3(0.0f));
    }
}

Status set_root_transforms(SimWorld& world, size_t group, std::span<const glm::mat4> transforms) {
    if (group >= world.groups.size())
        return make_error(ErrorCode::InvalidArgument, "set_root_transforms: group " + std::to_string(group) + " does not exist");
    SimGroupState& g = world.groups[group];
    if (transforms.size() != g.strand_count)
        return make_error(ErrorCode::InvalidArgument, "set_root_transforms: hair group '" + g.name + "' has " +
                                                          std::to_string(g.strand_count) + " strands, got " +
                                                          std::to_string(transforms.size()) + " transforms");
    for (const glm::mat4& m : transforms)
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                if (!std::isfinite(m[c][r]))
                    return make_error(ErrorCode::InvalidArgument, "set_root_transforms: hair group '" + g.name + "': a transform is not finite");
    g.external_root_targets.assign(transforms.begin(), transforms.end());
    return {};
}

}  // namespace tressel
