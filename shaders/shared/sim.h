// Hair simulation: structs and per-item formulas shared by the CPU reference step (engine/sim) and the
// GPU passes (engine/sim/gpu). Compiled as C++ and as GLSL: every formula below is the single text the
// two implementations evaluate, so the GPU step matches the CPU reference to rounding.
//
// Conventions: positions are world space, metres, vec4 with w = inverse mass (0 = pinned: the first two
// vertices of each strand, as in TressFX). Quaternions are vec4(x, y, z, w) with w the scalar part.
// All float literals carry an `f` suffix (glm refuses mixed float / double arithmetic).
#ifndef TRESSEL_SHARED_SIM_H
#define TRESSEL_SHARED_SIM_H
#include "shared/common.h"

#ifdef __cplusplus
#include <cmath>
namespace tressel::gpu_shared {
using vec3 = glm::vec3;
using mat3 = glm::mat3;
using mat4 = glm::mat4;
using glm::abs;
using glm::clamp;
using glm::cross;
using glm::dot;
using glm::exp;
using glm::floor;
using glm::fract;
using glm::inversesqrt;
using glm::length;
using glm::log;
using glm::max;
using glm::min;
using glm::mix;
using glm::sqrt;
}  // namespace tressel::gpu_shared
#define SIM_FN inline
#else
#define SIM_FN
#endif

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kSimMinVerticesPerStrand, 4u);
TRESSEL_CONST(uint, kSimMaxVerticesPerStrand, 64u);
TRESSEL_CONST(uint, kSimPinnedVertices, 2u);          // vertices 0 and 1 of each strand follow the scalp
TRESSEL_CONST(uint, kSimColliderSphere, 0u);
TRESSEL_CONST(uint, kSimColliderCapsule, 1u);
// Lengths below this (metres) are treated as zero: no direction is taken from them (degenerate strands).
TRESSEL_CONST(float, kSimTinyLength_m, 1e-9f);
// Standard gravity: vsp_threshold is in multiples of it (TressFX's threshold has no unit; ours is g).
TRESSEL_CONST(float, kSimStandardGravity_mps2, 9.80665f);
// Air drag rate (1/s) of a strand segment per unit wind_scale: acceleration = rate * relative air velocity
// perpendicular to the segment.
TRESSEL_CONST(float, kSimWindDragPerSecond, 2.0f);
// Relative step of the SDF gradient's central differences, in cells.
TRESSEL_CONST(float, kSimSdfGradientStepCells, 0.5f);
// Dynamic follow-the-leader velocity correction (Mueller, Kim & Chentanez 2012): the parent's velocity
// takes -s_damping x the child's FTL correction / dt. 0.3, where the paper's examples use 0.9: the
// correction is a velocity kept in the previous positions, and at 0.9 hair lying on a still head kept it
// circulating through the contacts - tips on 1-2 mm loops at 2 Hz, up to 46 mm/s (the default scene,
// still for 3 s: 2.0 mm/s RMS; at 0.3, 0.04 mm/s and at most 1.5 mm/s). It also swings more freely at 0.3
// (engine/sim/README.md, "Rest").
TRESSEL_CONST(float, kSimFtlVelocityCorrection, 0.3f);
// The same reaction for the local shape constraint: the joint's velocity takes -s x the child's shape
// correction / dt. The correction moves only the child, toward a target that hangs off the parent's
// current frame; without the reaction that is a one-sided (non-conservative) force, which feeds energy
// into bent strands until they whip.
TRESSEL_CONST(float, kSimShapeVelocityCorrection, 0.9f);

// Per hair group and per step (one uniform buffer per group; never shared with per-collision-mesh data:
// TressFX's multi-object constant-buffer bug).
struct SimGroupParams {
    vec4 gravity_mps2;          // xyz: gravity, m/s^2, world; w: step dt in seconds
    vec4 wind_mps;              // xyz: mean air velocity, m/s, world (direction * speed); w: turbulence 0..1
    float damping_decay;        // exp(-damping * dt * 60) (TressFX 4.1 integration)
    float global_stiffness;     // 0..1, applied once per step
    float global_range;         // 0..1: vertices with index < range * n are pulled to the rest shape
    float local_stiffness_iter; // per-iteration stiffness 1 - (1 - s)^(1 / iterations) (Mueller et al. 2007)
    uint local_iterations;
    uint length_iterations;
    uint vertices_per_strand;
    uint strand_count;
    float vsp_coeff;            // 0..1 velocity shock propagation blend
    float vsp_threshold_mps2;   // root acceleration above which the VSP blend becomes 1
    float friction_kinetic;     // Coulomb's kinetic coefficient against SDF surfaces (sim_coulomb_friction)
    float particle_radius_m;    // "pearl" radius added to primitive collider radii (seed 002)
    float max_delta_m;          // clamp on a free vertex's movement per step
    float wind_drag_per_s;      // kSimWindDragPerSecond * wind_scale
    float gust_frequency_hz;
    float time_s;               // simulation time at the end of the step
    uint collider_count;
    uint sdf_count;
    float chain_stiffness;      // chain shape matching: fraction of the way to the goals per step (sm_step_stiffness)
    uint chain_span;            // chain shape matching: vertices per run; 0 = off (shared/shape_match.h)
    uint volume_nodes;          // hair volume: grid nodes per axis; 0 = off (shared/sim_volume.h)
    float volume_pressure;      // hair volume: pressure per step (sim_volume_pressure_step)
    float volume_friction;      // hair volume: internal friction per step (sim_volume_friction_step)
    float volume_target_per_m2; // hair volume: target density, metres of guide hair per cubic metre
    uint bend_mode;             // kSimBendLocalShape (local_stiffness_iter and local_iterations), kSimBendRod, kSimBendRigid
    float bend_rigidity_dt2;    // rod bending: B dt^2 (B = EI / linear density, m^4/s^2; sim_bend_rigidity)
    float friction_static;      // Coulomb's static coefficient against SDF surfaces (>= friction_kinetic)
    float bend_pad1;
};
TRESSEL_CHECK_SIZE(SimGroupParams, 144)

// A primitive collider at the current step, world space, with where it was at the previous step (its
// surface motion is what friction is measured against).
struct SimCollider {
    vec4 p0_m;        // xyz: sphere centre / capsule end 0; w: radius in metres
    vec4 p1_m;        // xyz: capsule end 1 (= p0 for spheres); w: Coulomb friction (static and kinetic)
    vec4 p0_prev_m;   // xyz: p0 at the previous step; w: kSimColliderSphere / kSimColliderCapsule as float
    vec4 p1_prev_m;   // xyz: p1 at the previous step; w: 0
};
TRESSEL_CHECK_SIZE(SimCollider, 64)

// Per collision mesh and per step: where its rest-frame SDF (SdfGridParams, shared/sdf.h) sits now. The
// field is never rebuilt under rigid motion: hair positions are taken to the rest frame to sample.
struct SimSdfFrame {
    mat4 world_to_rest;   // inverse of the mesh's current rigid transform
    mat4 rest_to_world;   // the mesh's current rigid transform
    mat4 step_motion;     // previous-step world -> current world (surface motion, for friction)
    vec4 params;          // x: margin in metres; y: gradient step in metres; z: friction 0..1; w: 0
};
TRESSEL_CHECK_SIZE(SimSdfFrame, 208)

// Per strand, written by the strand pass each step.
struct SimStrandData {
    vec4 root_frame_q;    // world rotation of the strand's root (quaternion): rest root frame -> now
    vec4 vsp_q;           // rotation of the root over this step (quaternion)
    vec4 vsp_t_m;         // xyz: translation of the root over this step, metres; w: VSP blend used
    vec4 root_disp_m;     // xyz: displacement of vertex 1 over this step (for its acceleration); w: 0
};
TRESSEL_CHECK_SIZE(SimStrandData, 64)

// Two positions returned together (GLSL has no reference parameters shared with C++).
struct SimPair {
    vec4 a;
    vec4 b;
};

// An SDF contact of one vertex (sim_sdf_collide_vertex): where it moved, the share of the push that was
// depenetration (the previous position moves by it too), and the contact's outward unit normal (zero:
// no contact), which the solver's last sweep keeps the vertex outside of (sim_ftl_contact_target).
struct SimContact {
    vec4 moved;
    vec4 dep;
    vec4 normal;
};

TRESSEL_SHARED_END

TRESSEL_SHARED_BEGIN

// ---- small vector and quaternion helpers ----

// v / |v|, or `fallback` when |v| is below kSimTinyLength_m (never a NaN from a zero vector).
SIM_FN vec3 sim_safe_normalize(vec3 v, vec3 fallback) {
    float l = sqrt(dot(v, v));
    return l > kSimTinyLength_m ? v / l : fallback;
}

SIM_FN vec3 sim_xyz(vec4 v) { return vec3(v.x, v.y, v.z); }

SIM_FN vec3 sim_transform_point(mat4 m, vec3 p) { return vec3(m * vec4(p.x, p.y, p.z, 1.0f)); }
SIM_FN vec3 sim_transform_dir(mat4 m, vec3 d) { return vec3(m * vec4(d.x, d.y, d.z, 0.0f)); }

SIM_FN vec4 sim_quat_mul(vec4 a, vec4 b) {
    vec3 av = sim_xyz(a);
    vec3 bv = sim_xyz(b);
    vec3 v = av * b.w + bv * a.w + cross(av, bv);
    return vec4(v.x, v.y, v.z, a.w * b.w - dot(av, bv));
}

SIM_FN vec4 sim_quat_conj(vec4 q) { return vec4(-q.x, -q.y, -q.z, q.w); }

SIM_FN vec3 sim_quat_rotate(vec4 q, vec3 v) {
    vec3 u = sim_xyz(q);
    vec3 t = cross(u, v) * 2.0f;
    return v + t * q.w + cross(u, t);
}

SIM_FN vec4 sim_quat_normalize(vec4 q) {
    float l2 = dot(q, q);
    return l2 > kSimTinyLength_m * kSimTinyLength_m ? q * inversesqrt(l2) : vec4(0.0f, 0.0f, 0.0f, 1.0f);
}

// Rotation part of a rigid (possibly uniformly scaled) transform as a unit quaternion (Shepperd's method:
// the largest of the four candidates keeps it well conditioned).
SIM_FN vec4 sim_quat_from_mat(mat4 m) {
    vec3 c0 = sim_safe_normalize(vec3(m[0]), vec3(1.0f, 0.0f, 0.0f));
    vec3 c1 = sim_safe_normalize(vec3(m[1]), vec3(0.0f, 1.0f, 0.0f));
    vec3 c2 = sim_safe_normalize(vec3(m[2]), vec3(0.0f, 0.0f, 1.0f));
    float tr = c0.x + c1.y + c2.z;
    vec4 q;
    if (tr > 0.0f) {
        float s = sqrt(tr + 1.0f) * 2.0f;
        q = vec4((c1.z - c2.y) / s, (c2.x - c0.z) / s, (c0.y - c1.x) / s, 0.25f * s);
    } else if (c0.x > c1.y && c0.x > c2.z) {
        float s = sqrt(max(1.0f + c0.x - c1.y - c2.z, 1e-12f)) * 2.0f;
        q = vec4(0.25f * s, (c1.x + c0.y) / s, (c2.x + c0.z) / s, (c1.z - c2.y) / s);
    } else if (c1.y > c2.z) {
        float s = sqrt(max(1.0f + c1.y - c0.x - c2.z, 1e-12f)) * 2.0f;
        q = vec4((c1.x + c0.y) / s, 0.25f * s, (c2.y + c1.z) / s, (c2.x - c0.z) / s);
    } else {
        float s = sqrt(max(1.0f + c2.z - c0.x - c1.y, 1e-12f)) * 2.0f;
        q = vec4((c2.x + c0.z) / s, (c2.y + c1.z) / s, 0.25f * s, (c0.y - c1.x) / s);
    }
    return sim_quat_normalize(q);
}

// The minimal rotation taking the unit x axis to the unit vector d (half-way quaternion); a half turn
// about y when d points along -x.
SIM_FN vec4 sim_quat_from_x(vec3 d) {
    float w = 1.0f + d.x;
    if (w < 1e-6f) return vec4(0.0f, 1.0f, 0.0f, 0.0f);
    return sim_quat_normalize(vec4(0.0f, -d.z, d.y, w));
}

// The material frame of the next segment (local shape constraints, TressFX 4.1 / Han & Harada 2012): the
// parent frame `frame_q` (its x axis along the previous segment) turned by the minimal rotation that takes
// its x axis onto `segment`. A zero-length segment keeps the parent frame.
SIM_FN vec4 sim_frame_advance(vec4 frame_q, vec3 segment) {
    // Written for a short dependency chain (it runs once per vertex and iteration in a sequential sweep):
    // with v = conj(frame_q) segment (so |v| = l) the unit half-way quaternion of sim_quat_from_x(v / l) is
    // (0, -v.z, v.y, l + v.x) up to a positive factor, which the final normalization removes.
    float l2 = dot(segment, segment);
    if (l2 <= kSimTinyLength_m * kSimTinyLength_m) return frame_q;
    float l = sqrt(l2);
    vec3 v = sim_quat_rotate(sim_quat_conj(frame_q), segment);
    float w = l + v.x;
    vec4 h = w < 1e-6f * l ? vec4(0.0f, 1.0f, 0.0f, 0.0f) : vec4(0.0f, -v.z, v.y, w);
    return sim_quat_normalize(sim_quat_mul(frame_q, h));
}

// ---- stiffness ----

// Per-iteration stiffness giving total stiffness s after n iterations: 1 - (1 - s)^(1/n) (Mueller et al.
// 2007, "Position Based Dynamics", 3.3), so a stiffness keeps its meaning when the iteration count changes.
SIM_FN float sim_iteration_stiffness(float s, uint n) {
    if (n == 0u) return 0.0f;
    float c = clamp(s, 0.0f, 1.0f);
    if (c >= 1.0f) return 1.0f;
    return 1.0f - exp(log(1.0f - c) / float(n));
}

// ---- wind (deterministic turbulence) ----

// 32-bit integer hash (a "lowbias32" style mix): same bits in C++ and GLSL.
SIM_FN uint sim_hash(uint x) {
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    x ^= x >> 16u;
    return x;
}

// Uniform in [-1, 1) from a hash of (a, b, c).
SIM_FN float sim_hash_signed(uint a, uint b, uint c) {
    uint h = sim_hash(a ^ sim_hash(b ^ sim_hash(c)));
    return float(h >> 8u) * (2.0f / 16777216.0f) - 1.0f;
}

// Smooth value noise in [-1, 1] over time for strand `strand` and channel `channel`: hashed values at
// whole periods of `frequency_hz`, blended with a smoothstep. Pure function of (strand, channel, time).
SIM_FN float sim_gust(uint strand, uint channel, float time_s, float frequency_hz) {
    float u = max(time_s * frequency_hz, 0.0f);
    float k = floor(u);
    float f = u - k;
    float s = f * f * (3.0f - 2.0f * f);
    uint ki = uint(k);
    float a = sim_hash_signed(strand, channel, ki);
    float b = sim_hash_signed(strand, channel, ki + 1u);
    return a + (b - a) * s;
}

// Air velocity (m/s, world) seen by strand `strand`: the mean wind with its speed varied by turbulence
// (gusts of +-turbulence x speed) and a sideways component of up to 0.5 x turbulence x speed.
SIM_FN vec3 sim_wind_velocity(SimGroupParams p, uint strand) {
    vec3 w = sim_xyz(p.wind_mps);
    float speed = sqrt(dot(w, w));
    if (speed <= kSimTinyLength_m) return vec3(0.0f);
    float turb = clamp(p.wind_mps.w, 0.0f, 1.0f);
    float gust = 1.0f + turb * sim_gust(strand, 0u, p.time_s, p.gust_frequency_hz);
    vec3 dir = w / speed;
    vec3 side = sim_safe_normalize(cross(dir, vec3(0.0f, 1.0f, 0.0f)), vec3(0.0f, 0.0f, 1.0f));
    vec3 up = cross(side, dir);
    vec3 lateral = side * sim_gust(strand, 1u, p.time_s, p.gust_frequency_hz) +
                   up * sim_gust(strand, 2u, p.time_s, p.gust_frequency_hz);
    return w * gust + lateral * (0.5f * turb * speed);
}

// Drag acceleration (m/s^2) on a vertex moving at `vertex_velocity` in air moving at `air_velocity`: the
// relative velocity's component perpendicular to the local strand tangent, times the drag rate. A strand
// along the wind feels nothing; a vertex moving with the air feels nothing.
SIM_FN vec3 sim_wind_accel(vec3 air_velocity, vec3 vertex_velocity, vec3 tangent_unit, float drag_per_s) {
    vec3 rel = air_velocity - vertex_velocity;
    vec3 perp = rel - tangent_unit * dot(rel, tangent_unit);
    return perp * drag_per_s;
}

// ---- integration and global shape ----

// Verlet step with TressFX 4.1's damping: x + decay * (x - x_prev) + a * dt^2, decay = exp(-damping*dt*60).
SIM_FN vec3 sim_integrate(vec3 x, vec3 x_prev, vec3 accel, float decay, float dt) {
    return x + (x - x_prev) * decay + accel * (dt * dt);
}

// Whether vertex k of n is held by the global shape constraint (TressFX: k < n * range).
SIM_FN bool sim_in_global_range(uint k, uint n, float range) { return float(k) < float(n) * range; }

// Global shape constraint: move toward the root-transformed rest position by `stiffness`.
SIM_FN vec3 sim_global_shape(vec3 x, vec3 target, float stiffness) { return x + (target - x) * stiffness; }

// ---- velocity shock propagation (TressFX) ----

// VSP blend for this step: `coeff`, or 1 when the root's acceleration exceeds the threshold.
SIM_FN float sim_vsp_blend(vec3 root_disp_now, vec3 root_disp_prev, float dt, float coeff, float threshold_mps2) {
    vec3 dd = root_disp_now - root_disp_prev;
    float accel = sqrt(dot(dd, dd)) / max(dt * dt, 1e-12f);
    return accel > threshold_mps2 ? 1.0f : clamp(coeff, 0.0f, 1.0f);
}

// Carries a point with the root's rigid motion over the step (rotation q about the old root, then the
// root's translation), blended by `blend`: x' = mix(x, q (x - root_old) + root_new, blend).
SIM_FN vec3 sim_vsp_apply(vec3 x, vec4 q, vec3 root_old, vec3 root_new, float blend) {
    vec3 carried = sim_quat_rotate(q, x - root_old) + root_new;
    return x + (carried - x) * blend;
}

// ---- shape and length constraints ----

// Local shape constraint on the child of a joint: b moves `stiffness` of the way to target_b (the parent
// stays: corrections run root to tip, so a joint never drags its parent, and a stiffness of 1 restores the
// rest shape in one sweep). Pinned b: no change.
SIM_FN vec4 sim_shape_child(vec4 b, vec3 target_b, float stiffness) {
    if (b.w <= 0.0f) return b;
    vec3 x = sim_xyz(b) + (target_b - sim_xyz(b)) * stiffness;
    return vec4(x.x, x.y, x.z, b.w);
}

// Half of the local shape reaction on joint a (its previous position x_prev): x_prev + scale x child, for
// a free joint. Written with scale -kSimShapeVelocityCorrection before the sweeps and
// +kSimShapeVelocityCorrection after them, so the joint takes that fraction of the child's net move.
SIM_FN vec4 sim_shape_reaction(vec4 x_prev, vec4 a, vec4 child, float scale) {
    if (a.w <= 0.0f) return x_prev;
    vec3 x = sim_xyz(x_prev) + sim_xyz(child) * scale;
    return vec4(x.x, x.y, x.z, x_prev.w);
}

// ---- rod bending (simulation.bending "rod"; engine/sim/README.md, "Rod bending") ----
//
// An elastic rod's bending, solved implicitly once per step for each strand: the positions that minimise
//   sum_i m_i / (2 dt^2) |x_i - x~_i|^2 + sum_j k_j / 2 |x_(j-1) - 2 x_j + x_(j+1) - t_j|^2
// over the free vertices, x~ the predicted positions, t_j the rest second difference at joint j turned
// into the frame of the segment into it (carried from the root along x~, as local shape carries it), m_i
// the length of hair a vertex stands for and k_j = B / (l_(j-1) l_j lv_j) with lv_j the length of hair
// joint j bends (the first free joint also the pinned first segment's half next to it, which bends in a
// real strand). Its static equilibrium is that of a rod of bending rigidity B per unit linear density
// (m^4/s^2): the same sag at any vertex count, step rate or iteration count. The system is pentadiagonal
// and symmetric positive definite; it is factored (L D L^T) and solved root to tip and back.
TRESSEL_CONST(uint, kSimBendLocalShape, 0u);
TRESSEL_CONST(uint, kSimBendRod, 1u);
TRESSEL_CONST(uint, kSimBendRigid, 2u);
// B of local stiffness 0.5 (m^4/s^2); B(s) = this x (s / (1 - s))^2. At 0.9 a 0.2 m strand held out
// horizontally sags about 1 cm (g L^4 / 8 B), at 0.8 about 5 cm, at 0.95 2.5 mm; at 1 it is rigid.
TRESSEL_CONST(float, kSimBendRigidityAtHalf_m4ps2, 0.0025f);
// Segments shorter than this (metres) bend as if this long (a zero-length segment would be infinitely stiff).
TRESSEL_CONST(float, kSimBendMinLength_m, 1e-4f);

// B of local stiffness s (m^4/s^2): 0 at s <= 0; s >= 1 is rigid (kSimBendRigid, no B). Between 0.99 and 1
// it is 0.99's (a 0.2 m strand held out sags 0.08 mm): stiffer, the system's floats lose the smooth modes
// (at 64 vertices and one substep its condition passes 1e7).
SIM_FN float sim_bend_rigidity(float s) {
    if (s <= 0.0f) return 0.0f;
    float r = min(s, 0.99f) / (1.0f - min(s, 0.99f));
    return kSimBendRigidityAtHalf_m4ps2 * r * r;
}

// k_j dt^2 of joint j (vertex j, j >= 1) between segments of rest lengths l_prev (j - 1 to j) and l_next.
SIM_FN float sim_bend_weight(float rigidity_dt2, float l_prev, float l_next, uint j) {
    float a = max(l_prev, kSimBendMinLength_m), b = max(l_next, kSimBendMinLength_m);
    float lv = j == 1u ? a + 0.5f * b : 0.5f * (a + b);
    return rigidity_dt2 / (a * b * lv);
}

// The mass of free vertex i (per unit linear density: the length of hair it stands for).
SIM_FN float sim_bend_mass(float l_prev, float l_next) { return 0.5f * (max(l_prev, kSimBendMinLength_m) + l_next); }

// The residual of joint j: its rest second difference (ref_next: the next segment in the frame of the
// segment into the joint, whose x axis that segment is) less the predicted one.
SIM_FN vec3 sim_bend_residual(vec4 frame, vec3 ref_next, float l_prev, vec3 xm, vec3 x0, vec3 xp) {
    vec3 target = sim_quat_rotate(frame, ref_next - vec3(l_prev, 0.0f, 0.0f));
    return target - (xm - 2.0f * x0 + xp);
}

// One row of the L D L^T factorisation, for free vertex i (i >= 2) with the weights of the joints before,
// at and after it (k_(i-1), k_i, k_(i+1); 0 past the last joint) and the factors of the two rows before
// (d1, l1_prev: row i - 1; d2: row i - 2; unused where those rows are pinned). Returns (L_(i,i-1),
// L_(i,i-2), D_i, 0).
SIM_FN vec4 sim_bend_factor_row(uint i, float mass, float k_before, float k_at, float k_after, float d1, float l1_prev, float d2) {
    float a = mass + k_before + 4.0f * k_at + k_after;
    float l2 = i >= 4u ? k_before / d2 : 0.0f;
    float l1 = i >= 3u ? (-2.0f * (k_before + k_at) - l2 * l1_prev * d2) / d1 : 0.0f;
    float d = a - l1 * l1 * d1 - l2 * l2 * d2;
    return vec4(l1, l2, d, 0.0f);
}

// Distance constraint |b - a| = rest_m (seed 002, Jakobsen 2003), split by inverse mass. A segment
// shorter than kSimTinyLength_m gives no direction and is left alone.
SIM_FN SimPair sim_length_pair(vec4 a, vec4 b, float rest_m) {
    SimPair r;
    r.a = a;
    r.b = b;
    float wsum = a.w + b.w;
    vec3 d = sim_xyz(b) - sim_xyz(a);
    float l2 = dot(d, d);
    if (wsum <= 0.0f || l2 <= kSimTinyLength_m * kSimTinyLength_m) return r;
    vec3 c = d * ((1.0f - rest_m * inversesqrt(l2)) / wsum);  // (l - rest) / (l wsum), one rsqrt on the chain
    vec3 da = c * a.w;
    vec3 db = c * (-b.w);
    r.a = vec4(a.x + da.x, a.y + da.y, a.z + da.z, a.w);
    r.b = vec4(b.x + db.x, b.y + db.y, b.z + db.z, b.w);
    return r;
}

// Follow-the-leader projection (Mueller, Kim & Chentanez 2012, "Fast simulation of inextensible hair and
// fur"): the displacement that puts free child b at exactly rest_m from its parent a, along the current
// segment. Zero for a pinned child or a segment too short to give a direction.
SIM_FN vec3 sim_ftl_correction(vec4 a, vec4 b, float rest_m) {
    if (b.w <= 0.0f) return vec3(0.0f);
    vec3 d = sim_xyz(b) - sim_xyz(a);
    float l2 = dot(d, d);
    if (l2 <= kSimTinyLength_m * kSimTinyLength_m) return vec3(0.0f);
    return d * (rest_m * inversesqrt(l2) - 1.0f);
}

// ---- collisions ----

// Friction against a moving surface with unit normal n: `x_prev_carried` is the vertex's previous
// position carried by the surface's motion over the step, so x - x_prev_carried is the motion relative to
// the surface; `friction` (0..1) of its tangential part is removed (1 = the hair sticks).
SIM_FN vec3 sim_friction(vec3 x, vec3 x_prev_carried, vec3 n, float friction) {
    vec3 rel = x - x_prev_carried;
    vec3 tangential = rel - n * dot(rel, n);
    return x - tangential * clamp(friction, 0.0f, 1.0f);
}

// ---- Coulomb friction against the SDF surfaces (engine/sim/README.md, "Friction") ----
// A free vertex's contact at the end of a step is kept for the next step's integration in the w of its
// previous position (nothing else reads it: positions carry the inverse mass): 0 for none, else minus one
// plus the octahedral code of the contact's unit normal, two 12-bit integers u + 4096 v, every value an
// integer a float holds exactly (below 2^24), so that the CPU and GPU decode the same normal.
TRESSEL_CONST(float, kSimContactCodeSteps, 4095.0f);
SIM_FN float sim_contact_code(vec3 c) {
    float l2 = dot(c, c);
    if (!(l2 > 0.0f)) return 0.0f;
    vec3 n = c * inversesqrt(l2);
    float s = abs(n.x) + abs(n.y) + abs(n.z);
    float px = n.x / s, py = n.y / s;
    if (n.z < 0.0f) {
        float ox = (1.0f - abs(py)) * (px >= 0.0f ? 1.0f : -1.0f);
        float oy = (1.0f - abs(px)) * (py >= 0.0f ? 1.0f : -1.0f);
        px = ox;
        py = oy;
    }
    float u = floor(clamp(px * 0.5f + 0.5f, 0.0f, 1.0f) * kSimContactCodeSteps + 0.5f);
    float v = floor(clamp(py * 0.5f + 0.5f, 0.0f, 1.0f) * kSimContactCodeSteps + 0.5f);
    return -(1.0f + u + 4096.0f * v);
}

// The unit normal a contact code stands for; zero for no contact (any code above -1, an inverse mass too).
SIM_FN vec3 sim_contact_normal(float code) {
    if (code > -0.5f) return vec3(0.0f);
    float c = -code - 1.0f;
    float v = floor(c / 4096.0f);
    float u = c - 4096.0f * v;
    float px = u / kSimContactCodeSteps * 2.0f - 1.0f;
    float py = v / kSimContactCodeSteps * 2.0f - 1.0f;
    vec3 n = vec3(px, py, 1.0f - abs(px) - abs(py));
    float t = max(-n.z, 0.0f);
    n.x += n.x >= 0.0f ? -t : t;
    n.y += n.y >= 0.0f ? -t : t;
    return n * inversesqrt(dot(n, n));
}

// Coulomb's friction on a free vertex's predicted step, against the surface it touched at the step's
// start (outward unit normal n): `predicted` is where integration takes it, `carried` its start carried by
// the surface's motion over the step, so predicted - carried is its motion relative to the surface. How
// hard it presses is how far the step drives it into the surface (the normal part, which the contact will
// take back: gravity's share for hair lying still). Friction acts on the slip across the strand (unit
// `tangent`, zero where it has none): along a taut strand the pull is the strand's tension, which its
// length constraints hold, not the contact (taking the pull along it away too, a tip brushing the head
// lost its strand's tension at each touch and swung off on a 1 mm loop, 13 mm/s on the default scene).
// Static: a slip across within mu_static x the press is removed (the vertex stays where it lies across the
// surface); kinetic: a larger one is shortened by mu_kinetic x the press. Moving away from the surface
// there is no friction. Applied to the prediction, before every constraint: the strand's constraints and
// contacts still move the vertex after it (a strand pulled by its root drags a lying tip), and
// follow-the-leader keeps the last word on lengths.
SIM_FN vec3 sim_coulomb_friction(vec3 predicted, vec3 carried, vec3 n, vec3 tangent, float mu_static, float mu_kinetic) {
    vec3 d = predicted - carried;
    float dn = dot(d, n);
    if (dn >= 0.0f) return predicted;
    vec3 t = d - n * dn;
    vec3 across = t - tangent * dot(t, tangent);
    float la = sqrt(dot(across, across));
    if (la <= 0.0f) return predicted;
    float press = -dn;
    if (la <= max(mu_static, mu_kinetic) * press) return predicted - across;
    return predicted - across * (mu_kinetic * press / la);
}

SIM_FN float sim_segment_param(vec3 p, vec3 a, vec3 b) {
    vec3 ab = b - a;
    float len2 = dot(ab, ab);
    return len2 > 0.0f ? clamp(dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
}

// Pushes a free vertex (x, with its previous position) out of a sphere or capsule grown by the pearl
// radius (seed 002), with friction_scale x the collider's friction against its surface motion. Returns
// the new position.
SIM_FN vec3 sim_collide_primitive(vec3 x, vec3 x_prev, SimCollider c, float particle_radius_m, float friction_scale) {
    vec3 p0 = sim_xyz(c.p0_m);
    vec3 p1 = sim_xyz(c.p1_m);
    float t = c.p0_prev_m.w > 0.5f ? sim_segment_param(x, p0, p1) : 0.0f;
    vec3 centre = p0 + (p1 - p0) * t;
    float r = c.p0_m.w + particle_radius_m;
    vec3 d = x - centre;
    float dist = sqrt(dot(d, d));
    if (dist >= r) return x;
    vec3 centre_prev = sim_xyz(c.p0_prev_m) + (sim_xyz(c.p1_prev_m) - sim_xyz(c.p0_prev_m)) * t;
    vec3 n = sim_safe_normalize(d, sim_safe_normalize(x_prev - centre_prev, vec3(0.0f, 1.0f, 0.0f)));
    vec3 pushed = centre + n * r;
    return sim_friction(pushed, x_prev + (centre - centre_prev), n, c.p1_m.w * friction_scale);
}

// A free vertex whose step starts on a primitive collider's surface (within kSimColliderContactSlop_m of
// its radius grown by the pearl radius, where the collider stood at the previous step) takes Coulomb's
// friction on its prediction against the surface's motion (sim_coulomb_friction), the collider's friction
// as both coefficients. Primitive contacts need no code kept from the last step: the start says it.
TRESSEL_CONST(float, kSimColliderContactSlop_m, 1e-4f);
SIM_FN vec3 sim_collider_friction(vec3 predicted, vec3 x, vec3 tangent, SimCollider c, float particle_radius_m) {
    vec3 p0_prev = sim_xyz(c.p0_prev_m);
    vec3 p1_prev = sim_xyz(c.p1_prev_m);
    float t = c.p0_prev_m.w > 0.5f ? sim_segment_param(x, p0_prev, p1_prev) : 0.0f;
    vec3 centre_prev = p0_prev + (p1_prev - p0_prev) * t;
    vec3 centre = sim_xyz(c.p0_m) + (sim_xyz(c.p1_m) - sim_xyz(c.p0_m)) * t;
    vec3 d = x - centre_prev;
    float dist = sqrt(dot(d, d));
    if (dist <= kSimTinyLength_m || dist > c.p0_m.w + particle_radius_m + kSimColliderContactSlop_m) return predicted;
    return sim_coulomb_friction(predicted, x + (centre - centre_prev), d / dist, tangent, c.p1_m.w, c.p1_m.w);
}

// SDF response (seed 000, TressFX): with distance d (metres) and the outward unit normal n at a point,
// the displacement that brings the point to the margin; zero when it is already outside the margin.
SIM_FN vec3 sim_sdf_push(float d_m, vec3 n, float margin_m) { return d_m < margin_m ? n * (margin_m - d_m) : vec3(0.0f); }

// The point at distance len_m from anchor in the direction of x (x itself when it sits on the anchor):
// a free vertex next to a pinned one is pushed by rotating about it, never by stretching the segment.
SIM_FN vec3 sim_keep_distance(vec3 x, vec3 anchor, float len_m) {
    vec3 d = x - anchor;
    float l = sqrt(dot(d, d));
    return l > kSimTinyLength_m ? anchor + d * (len_m / l) : x;
}

// The solver's last sweep for free child b of parent a (final; sim_passes::ftl_contact): in .a the
// follow-the-leader target, at exactly rest_m from a toward b, kept on the outer side of b's contact plane
// (w: b's); in .b the follow-the-leader correction of b (sim_ftl_correction, w 0), whose share the parent's
// previous position takes. The contact c is zero when b had none, else its plane's unit normal,
// lengthened by the plane's height above b's position after the SDF pushes where a push was turned back
// about a pinned vertex below the surface (sim_contact_lifted; a length within 1 um of 1 is a plane through
// b). The segment keeps its rest length exactly: where the target dips below the plane, the child turns
// about its parent until it lies on the plane (the sphere's circle of intersection with it, in the
// target's direction); a parent more than rest_m below the plane (a root inside the collision mesh) gets
// the sphere's highest point, a + n rest_m. Primitive colliders then push the target and turn it back onto
// the sphere about a.
//
// Written so that little waits on the parent: the sweep is one dependent chain through it (on the GPU, one
// lane per strand while the rest of the workgroup waits). The plane comes from b alone; from a, the offset
// d = b - a gives the scale s = rest_m / |d| (one reciprocal square root for the target and the
// correction) and, with the parent's height h, the target's height h + s (d . n) and the turned point
// a - n h + radius (d - n (d . n)) / |d - n (d . n)|, side by side, instead of the target first, then its
// height, then its tangent part (H100, 4M guide vertices: the sweep 19,160 -> 13,540 cycles a workgroup as
// first written in the kernel; engine/sim/README.md). Every case is computed and the result picked by
// selects, with no branch: a lane's branches cost the chain more than the arithmetic they skip (the
// sweep's lanes 16,460 -> 12,660 cycles a batch). The free target keeps the rounding of b + d (s - 1):
// a + d s moved a curl test's 4-substep radius by 16% (Known gaps there).
TRESSEL_CONST(float, kSimContactLiftedLength2, 1.000002f);
SIM_FN SimPair sim_ftl_contact(vec4 a, vec4 b, float rest_m, vec3 c) {
    float lc2 = dot(c, c);
    bool lifted = lc2 > kSimContactLiftedLength2;
    float lc = sqrt(lc2);
    vec3 n = lifted ? c / max(lc, 1.0f) : c;  // lifted: lc > 1, so the max never changes it
    vec3 plane_point = lifted ? sim_xyz(b) + n * (lc - 1.0f) : sim_xyz(b);
    vec3 d = sim_xyz(b) - sim_xyz(a);
    float l2 = dot(d, d);
    float dn = dot(d, n);
    float h = dot(sim_xyz(a) - plane_point, n);  // the parent's height above the plane
    bool apart = l2 > kSimTinyLength_m * kSimTinyLength_m;
    float s = apart ? rest_m * inversesqrt(l2) : 1.0f;  // a and b too close for a direction: b stays
    vec3 correction = apart ? d * (s - 1.0f) : vec3(0.0f);
    vec3 t = sim_xyz(b) + correction;
    // Below the plane: turn. The target's direction along the plane (times 1 / s) is the tangent; the
    // sphere's point on the plane in it, or straight down through the plane (no tangent) t stays. The
    // floor under tl2 changes no turned point that is taken (s is at most rest_m / kSimTinyLength_m).
    vec3 tangent = d - n * dn;
    float tl2 = dot(tangent, tangent);
    float radius = sqrt(max(rest_m * rest_m - h * h, 0.0f));
    vec3 turned = sim_xyz(a) - n * h + tangent * (radius * inversesqrt(max(tl2, 1e-37f)));
    vec3 up = sim_xyz(a) + n * rest_m;
    bool below = h + s * dn < 0.0f && dot(n, n) > 0.0f;
    bool along = s * s * tl2 > kSimTinyLength_m * kSimTinyLength_m;
    t = below ? (h <= -rest_m ? up : (along ? turned : t)) : t;
    SimPair r;
    r.b = vec4(correction.x, correction.y, correction.z, 0.0f);
    r.a = vec4(t.x, t.y, t.z, b.w);
    return r;
}

// The target alone (sim_ftl_contact's .a).
SIM_FN vec3 sim_ftl_contact_target(vec4 a, vec4 b, float rest_m, vec3 c) { return sim_xyz(sim_ftl_contact(a, b, rest_m, c).a); }

// Clamp on a free vertex's movement over one step (max_position_delta_m).
SIM_FN vec3 sim_clamp_delta(vec3 x, vec3 x_start, float max_delta_m) {
    vec3 d = x - x_start;
    float l = sqrt(dot(d, d));
    return l > max_delta_m && l > 0.0f ? x_start + d * (max_delta_m / l) : x;
}

TRESSEL_SHARED_END

#endif
