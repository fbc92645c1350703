// Simulation behaviour on hand-built strands: stiffness and iterations, hanging, wind, primitive colliders
// and friction, determinism, degenerate strands, stability, time stepping, validation, motion.
#include <tuple>
#include <gtest/gtest.h>
#include <array>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <random>

#include "shared/sim.h"
#include "groom/groom_bench.h"
#include "param_slots.h"
#include "scene/scene_io.h"
#include "scene_test_util.h"
#include "sdf/sdf.h"
#include "sim/motion.h"
#include "sim/sim.h"
#include "sim/sim_metrics.h"
#include "sim/sim_passes.h"
#include "shared/sim_sdf.h"
#include "sim_test_util.h"

namespace tressel {
namespace {

using test::build;
using test::make_straight_groom;
using test::soft_params;
using test::world_inputs;

glm::vec3 vtx(const SimWorld& w, uint32_t strand, uint32_t k) {
    const auto& g = w.groups[0];
    return glm::vec3(g.positions[size_t(strand) * g.n + k]);
}

TEST(SimFormulas, IterationStiffnessCompoundsToTheTotal) {
    for (float s : {0.1f, 0.5f, 0.9f, 0.99f})
        for (uint32_t n : {1u, 2u, 3u, 8u}) {
            const float si = gpu_shared::sim_iteration_stiffness(s, n);
            EXPECT_NEAR(1.0f - std::pow(1.0f - si, float(n)), s, 1e-5f) << s << " " << n;
        }
    EXPECT_EQ(gpu_shared::sim_iteration_stiffness(1.0f, 4u), 1.0f);
    EXPECT_EQ(gpu_shared::sim_iteration_stiffness(0.0f, 4u), 0.0f);
}

TEST(SimFormulas, FrameAdvanceAndQuaternionsAreSafeOnZeroVectors) {
    const glm::vec4 q = gpu_shared::sim_frame_advance(glm::vec4(0, 0, 0, 1), glm::vec3(0.0f));
    EXPECT_EQ(q, glm::vec4(0, 0, 0, 1));
    const glm::vec4 back = gpu_shared::sim_quat_from_x(glm::vec3(-1, 0, 0));
    EXPECT_NEAR(glm::length(gpu_shared::sim_quat_rotate(back, glm::vec3(1, 0, 0)) - glm::vec3(-1, 0, 0)), 0.0f, 1e-6f);
    const glm::vec3 d = glm::normalize(glm::vec3(0.3f, -0.5f, 0.8f));
    EXPECT_NEAR(glm::length(gpu_shared::sim_quat_rotate(gpu_shared::sim_quat_from_x(d), glm::vec3(1, 0, 0)) - d), 0.0f, 1e-6f);
    const gpu_shared::SimPair p = gpu_shared::sim_length_pair(glm::vec4(1, 1, 1, 1), glm::vec4(1, 1, 1, 1), 0.1f);
    EXPECT_TRUE(std::isfinite(p.a.x) && std::isfinite(p.b.x));
}

// The last sweep's child placement: always exactly the rest length from the parent, never below the
// contact plane when the parent can reach above it, unchanged when the target is already above it, the
// sphere's highest point when the parent is too deep to reach the plane, and the plane a lifted contact
// names where a push was turned back about a pinned parent.
TEST(SimFormulas, ContactKeepsTheRestLengthAndTheOuterSideOfThePlane) {
    using gpu_shared::sim_ftl_contact_target;
    const glm::vec3 n(0.0f, 1.0f, 0.0f);
    const float rest = 0.02f;
    // Parent 5 mm above the child, which the SDF pushed to its plane and which sits closer than its rest
    // length, sloping down: plain follow-the-leader would carry it on down the slope, through the plane.
    const glm::vec4 a(0.0f, 0.005f, 0.0f, 1.0f);
    for (float slope : {0.2f, 0.5f, 1.5f}) {
        const glm::vec3 dir = glm::normalize(glm::vec3(1.0f, -slope, 0.4f));
        const glm::vec4 b(glm::vec3(a) + dir * 0.012f, 1.0f);
        const glm::vec3 plain = glm::vec3(a) + dir * rest;
        ASSERT_LT(glm::dot(plain - glm::vec3(b), n), 0.0f) << "the case must need the contact";
        const glm::vec3 t = sim_ftl_contact_target(a, b, rest, n);
        EXPECT_NEAR(glm::length(t - glm::vec3(a)), rest, 1e-6f) << slope;
        EXPECT_GE(glm::dot(t - glm::vec3(b), n), -1e-6f) << slope << ": below the contact plane";
        EXPECT_LE(glm::dot(t - glm::vec3(b), n), 1e-6f) << slope << ": turned onto the plane, not above it";
        // Turned about the parent toward the target's side.
        const glm::vec3 side = glm::normalize(glm::vec3(t.x - a.x, 0.0f, t.z - a.z));
        EXPECT_NEAR(glm::dot(side, glm::normalize(glm::vec3(dir.x, 0.0f, dir.z))), 1.0f, 1e-5f) << slope;
    }
    const glm::vec4 b(0.03f, 0.0f, 0.01f, 1.0f);
    // No contact (zero normal), or a target above the plane: plain follow-the-leader.
    const glm::vec4 up(0.01f, 0.02f, 0.0f, 1.0f);
    const glm::vec3 free_t = sim_ftl_contact_target(a, up, rest, glm::vec3(0.0f));
    EXPECT_NEAR(glm::length(free_t - glm::vec3(a)), rest, 1e-6f);
    EXPECT_EQ(sim_ftl_contact_target(a, up, rest, n), free_t);
    // A parent more than a segment below the plane (a root inside the mesh): the highest reachable point.
    const glm::vec4 deep(0.0f, -0.05f, 0.0f, 1.0f);
    const glm::vec3 t = sim_ftl_contact_target(deep, b, rest, n);
    EXPECT_NEAR(glm::length(t - (glm::vec3(deep) + n * rest)), 0.0f, 1e-6f);

    // A child next to a pinned parent 6 mm inside the body (y < 0): its push to the margin's plane y = 2 mm
    // was turned back onto the sphere about the parent, on a curved body below the surface (here: back to
    // where it was, 4 mm in). Its contact keeps the plane through the pushed point (sim_contact_lifted),
    // and the sweep turns it out onto that plane at its rest length; with the plane through the turned
    // point (the unit normal alone) it stays inside.
    const float margin = 0.002f;
    const glm::vec4 pinned(0.0f, -0.006f, 0.0f, 0.0f);
    const glm::vec3 turned = glm::vec3(pinned) + glm::normalize(glm::vec3(1.0f, 0.1f, 0.0f)) * rest;
    const glm::vec3 pushed(turned.x, margin, turned.z);
    ASSERT_LT(turned.y, 0.0f);
    const glm::vec3 lifted = gpu_shared::sim_contact_lifted(n, pushed, turned, margin);
    const glm::vec3 out = sim_ftl_contact_target(pinned, glm::vec4(turned, 1.0f), rest, lifted);
    EXPECT_NEAR(glm::length(out - glm::vec3(pinned)), rest, 1e-6f);
    EXPECT_NEAR(out.y, margin, 1e-6f) << "on the plane the push reached";
    EXPECT_LT(sim_ftl_contact_target(pinned, glm::vec4(turned, 1.0f), rest, n).y, turned.y + 1e-6f);
    // A turn that takes it back by less than half the margin is a plain contact: the unit normal.
    const glm::vec3 within(turned.x, 0.0015f, turned.z);
    EXPECT_EQ(gpu_shared::sim_contact_lifted(n, pushed, within, margin), n);
}

// sim_frame_advance skips sim_quat_from_x's normalizations; it must still be the parent frame times the
// minimal rotation onto the segment, and carry the frame's x axis along the segment.
TEST(SimFormulas, FrameAdvanceIsTheParentTimesTheMinimalRotation) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < 1000; ++i) {
        const glm::vec4 q = gpu_shared::sim_quat_normalize(glm::vec4(u(rng), u(rng), u(rng), u(rng)));
        const glm::vec3 seg = glm::vec3(u(rng), u(rng), u(rng)) * (i % 2 ? 1e-3f : 1.0f);
        if (glm::length(seg) < 1e-4f) continue;
        const glm::vec3 local = glm::normalize(gpu_shared::sim_quat_rotate(gpu_shared::sim_quat_conj(q), seg));
        if (local.x < -0.999f) continue;  // near the half turn the rotation axis is not unique
        const glm::vec4 expect = gpu_shared::sim_quat_normalize(gpu_shared::sim_quat_mul(q, gpu_shared::sim_quat_from_x(local)));
        const glm::vec4 got = gpu_shared::sim_frame_advance(q, seg);
        EXPECT_NEAR(glm::length(got - expect), 0.0f, 2e-6f) << i;
        EXPECT_NEAR(glm::length(gpu_shared::sim_quat_rotate(got, glm::vec3(1, 0, 0)) - glm::normalize(seg)), 0.0f, 1e-5f) << i;
    }
    // Straight back along -x of the frame: the half turn about y.
    const glm::vec4 back = gpu_shared::sim_frame_advance(glm::vec4(0, 0, 0, 1), glm::vec3(-0.01f, 0, 0));
    EXPECT_NEAR(glm::length(gpu_shared::sim_quat_rotate(back, glm::vec3(1, 0, 0)) - glm::vec3(-1, 0, 0)), 0.0f, 1e-6f);
}

// Tip drop of a horizontal strand under gravity with local stiffness s after the strand settles.
float settled_tip_drop(double local_stiffness, int iterations) {
    auto groom = make_straight_groom({{0, 0, 0}}, {{1, 0, 0}}, 0.2f);
    SimulationParams p = soft_params();
    p.local_stiffness = local_stiffness;
    p.local_iterations = iterations;
    p.damping = 0.5;
    auto in = world_inputs(groom, p);
    in.environment.gravity_mps2 = {0, -9.81, 0};
    SimWorld w = build(in);
    EXPECT_TRUE(run_frames(w, 240).ok());
    return -vtx(w, 0, 15).y;
}

TEST(SimStiffness, LocalStiffnessMeansTheSameWith2And8Iterations) {
    for (double s : {0.3, 0.6}) {
        const float d2 = settled_tip_drop(s, 2);
        const float d8 = settled_tip_drop(s, 8);
        // The strand bends (neither rigid nor hanging straight down: 0.2 m long).
        EXPECT_GT(d2, 0.01f) << s;
        EXPECT_LT(d2, 0.18f) << s;
        // Same meaning within 20 % of the deflection (the per-iteration formula is exact for one joint; a
        // chain swept root to tip adds a little). With the raw stiffness applied per iteration, 8 iterations
        // of 0.3 would act like a total stiffness of 0.94 and the drop would shrink severalfold.
        EXPECT_NEAR(d8, d2, 0.2f * d2) << "local stiffness " << s;
    }
    // And stiffness still matters: stiffer bends less.
    EXPECT_LT(settled_tip_drop(0.6, 3), 0.8f * settled_tip_drop(0.3, 3));
}

// A stiff strand released under gravity from a pinned root (no damping to speak of, nothing else acting)
// can only trade potential energy for kinetic: kinetic + potential energy must never rise above where it
// started. The local shape correction moves only the child of each joint, toward a target hanging off the
// parent's current frame; without the reaction on the joint (kSimShapeVelocityCorrection) that one-sided
// push created energy: these strands gained 22 to 57 J/kg, several times the potential energy they gave up
// (2 to 7 J/kg), and whipped through half a turn before settling. With it the gain stays under 5 % of that.
// The rod's bending (a symmetric, implicit solve) is held to the same bar.
TEST(SimStiffness, LocalShapeAndRodBendingCreateNoEnergy) {
    for (BendingModel model : {BendingModel::LocalShape, BendingModel::Rod})
    for (float length : {0.2f, 0.35f})
        for (double stiffness : model == BendingModel::Rod ? std::vector<double>{0.6, 0.8} : std::vector<double>{0.6, 0.9}) {
            auto groom = make_straight_groom({{0, 0, 0}}, {{1, 0.3f, 0}}, length);
            SimulationParams p = soft_params();
            p.bending = model;
            p.local_stiffness = stiffness;
            p.local_iterations = 3;
            p.damping = 0.08;
            auto in = world_inputs(groom, p);
            in.environment.gravity_mps2 = {0, -9.81, 0};
            SimWorld w = build(in);
            const SimGroupState& g = w.groups[0];
            auto potential = [&] {  // J per unit vertex mass, as SimFrameMetrics::kinetic_energy
                double e = 0.0;
                for (const glm::vec4& x : g.positions)
                    if (x.w > 0.0f) e += 9.81 * double(x.y) / double(x.w);
                return e;
            };
            const double start = potential();
            double gain = -1e30, drop = 0.0;
            for (int frame = 0; frame < 120; ++frame) {
                ASSERT_TRUE(run_frames(w, 1).ok());
                const double u = potential();
                gain = std::max(gain, measure_frame(w, {}).kinetic_energy + u - start);
                drop = std::max(drop, start - u);
            }
            std::printf("%s, length %.2f m, local stiffness %.1f: energy gain at most %.3g J/kg, potential energy drop %.3g\n",
                        model == BendingModel::Rod ? "rod" : "local shape", length, stiffness, gain, drop);
            EXPECT_GT(drop, 0.5) << "the strand must bend under gravity";
            EXPECT_LT(gain, 0.1 * drop) << "length " << length << " m, local stiffness " << stiffness
                                        << ": the simulation created energy";
        }
}

TEST(SimStiffness, ZeroStiffnessUnderGravityHangsTipsBelowRoots) {
    auto groom = make_straight_groom({{0, 0, 0}, {0.05f, 0, 0}}, {{1, 0, 0}, {0, 0, 1}}, 0.2f);
    auto in = world_inputs(groom, soft_params());
    in.environment.gravity_mps2 = {0, -9.81, 0};
    SimWorld w = build(in);
    ASSERT_TRUE(run_frames(w, 300).ok());
    for (uint32_t s = 0; s < 2; ++s) {
        EXPECT_LT(vtx(w, s, 15).y, vtx(w, s, 0).y - 0.15f) << "strand " << s << " tip must hang well below its root";
    }
}

TEST(SimWind, MovesHairInTheWindDirection) {
    auto groom = make_straight_groom({{0, 0, 0}, {0.02f, 0, 0}}, {{0, -1, 0}, {0, -1, 0}}, 0.2f);
    auto in = world_inputs(groom, soft_params());
    in.environment.gravity_mps2 = {0, -9.81, 0};
    in.environment.wind.direction = {0, 0, 2};   // not normalised on purpose
    in.environment.wind.speed_mps = 3.0;
    SimWorld w = build(in);
    ASSERT_TRUE(run_frames(w, 180).ok());
    for (uint32_t s = 0; s < 2; ++s) {
        const glm::vec3 moved = vtx(w, s, 15) - glm::vec3(groom.guides.strand(s)[15]);
        EXPECT_GT(moved.z, 0.03f) << "the tip must be blown along +z";
        EXPECT_LT(std::abs(moved.x), 0.1f * moved.z);
    }
    // Turbulence varies it per strand over time but keeps the mean push downwind.
    in.environment.wind.turbulence = 0.8;
    SimWorld t = build(in);
    ASSERT_TRUE(run_frames(t, 180).ok());
    EXPECT_GT(vtx(t, 0, 15).z, 0.02f);
    EXPECT_NE(vtx(t, 0, 15).x, vtx(w, 0, 15).x);
}

struct PrimitiveCase {
    Collider collider;
    float clearance_m(glm::vec3 p) const {
        const glm::vec3 a(collider.p0_m), b(collider.type == ColliderType::Capsule ? collider.p1_m : collider.p0_m);
        const glm::vec3 ab = b - a;
        const float t = glm::dot(ab, ab) > 0 ? glm::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0f, 1.0f) : 0.0f;
        return glm::length(p - (a + ab * t)) - float(collider.radius_m);
    }
};

TEST(SimColliders, SphereAndCapsuleKeepHairOut) {
    Collider sphere;
    sphere.name = "ball";
    sphere.p0_m = {0.0, -0.1, 0.0};
    sphere.radius_m = 0.05;
    Collider capsule;
    capsule.name = "bar";
    capsule.type = ColliderType::Capsule;
    capsule.p0_m = {0.0, -0.1, -0.1};
    capsule.p1_m = {0.0, -0.1, 0.1};
    capsule.radius_m = 0.03;
    for (const Collider& c : {sphere, capsule}) {
        // Strands start beside the collider, pointing across it, and fall onto it.
        auto groom = make_straight_groom({{-0.08f, 0, 0}, {-0.08f, 0, 0.01f}}, {{1, -0.3f, 0}, {1, -0.2f, 0}}, 0.25f);
        SimulationParams p = soft_params();
        p.colliders = {c.name};
        p.particle_radius_m = 0.002;
        auto in = world_inputs(groom, p);
        in.environment.gravity_mps2 = {0, -9.81, 0};
        in.colliders = {c};
        SimWorld w = build(in);
        const PrimitiveCase pc{c};
        float worst = 1e9f;
        size_t touching = 0;
        for (int step = 0; step < 400; ++step) {
            ASSERT_TRUE(step_once(w).ok());
            for (uint32_t s = 0; s < 2; ++s)
                for (uint32_t k = 2; k < 16; ++k) {
                    const float cl = pc.clearance_m(vtx(w, s, k));
                    worst = std::min(worst, cl);
                    if (cl < 0.004f) ++touching;
                }
        }
        EXPECT_GE(worst, float(p.particle_radius_m) - 2e-4f) << c.name << ": a vertex went inside the collider + pearl radius";
        EXPECT_GT(touching, 0u) << c.name << ": the hair must reach the collider for the test to mean anything";
    }
}

// A strand lying along the top of a log (a horizontal capsule collider), gravity turned `tilt_deg` across
// it after it has settled under upright gravity (a primitive contact is read from where the step starts):
// across the strand the pull over the push is tan(tilt), the log being straight along the strand.
// Returns how far the tip moved along -z in `frames` frames at 60 Hz.
double sideways_slide(double tilt_deg, double friction, int frames) {
    Collider log;
    log.name = "log";
    log.type = ColliderType::Capsule;
    log.p0_m = {-1.0, 0.0, 0.0};
    log.p1_m = {1.0, 0.0, 0.0};
    log.radius_m = 0.3;
    log.friction = friction;
    auto groom = make_straight_groom({{0.0f, 0.3015f, 0}}, {{1, 0, 0}}, 0.25f);
    SimulationParams p = soft_params();
    p.particle_radius_m = 0.001;
    p.colliders = {"log"};
    auto in = world_inputs(groom, p);
    in.environment.gravity_mps2 = {0, -9.81, 0};
    in.colliders = {log};
    SimWorld w = build(in);
    EXPECT_TRUE(run_frames(w, 30).ok());
    const double tilt = tilt_deg * 3.14159265358979 / 180.0;
    w.environment.gravity_mps2 = {0, -9.81 * std::cos(tilt), -9.81 * std::sin(tilt)};
    const float z0 = vtx(w, 0, 15).z;
    EXPECT_TRUE(run_frames(w, uint32_t(frames)).ok());
    for (uint32_t k = 2; k < 16; ++k) {
        const glm::vec3 x = vtx(w, 0, k);
        EXPECT_GE(glm::length(glm::vec2(x.y, x.z)) - 0.301f, -2e-4f) << "vertex " << k << " inside the collider";
    }
    return double(z0 - vtx(w, 0, 15).z);
}

TEST(SimColliders, CoulombFrictionHoldsBelowTheStaticAngleAndSlidesAbove) {
    // A primitive collider's friction is Coulomb's, one coefficient for both regimes (sim_collider_friction).
    const double held = sideways_slide(30.0, 0.7, 60);  // 0.7 > tan 30 = 0.577
    std::printf("capsule: friction 0.7 at 30 degrees, tip slide over 1 s %.6f m\n", held);
    EXPECT_LT(held, 5e-4) << "friction above the slope's tangent holds the strand where it lies";
    for (auto [tilt, mu] : {std::pair{30.0, 0.0}, std::pair{30.0, 0.2}, std::pair{30.0, 0.5}, std::pair{45.0, 0.7}}) {
        const double slide = sideways_slide(tilt, mu, 6);
        const double t = tilt * 3.14159265358979 / 180.0;
        const double block = 0.5 * 9.81 * (std::sin(t) - mu * std::cos(t)) * 0.1 * 0.1;  // a block sliding down the slope
        std::printf("capsule: friction %.1f at %.0f degrees, tip slide over 0.1 s %.4f m (block %.4f m)\n", mu, tilt, slide, block);
        EXPECT_GT(slide, 0.75 * block) << "friction " << mu << " at " << tilt << " degrees: slides as a block";
        EXPECT_LT(slide, 1.25 * block) << "friction " << mu << " at " << tilt << " degrees: slides as a block";
    }
}

SimWorldInputs busy_inputs(const GroomResult& groom) {
    SimulationParams p;
    p.gpu_vertices_per_strand = 16;
    auto in = world_inputs(groom, p);
    in.environment.gravity_mps2 = {0, -9.81, 0};
    in.environment.wind = {{1, 0, 0.5}, 4.0, 0.7, 1.3};
    in.motion.type = MotionType::Procedural;
    in.motion.turn_deg = 40;
    in.motion.shake_deg = 10;
    in.motion.nod_deg = 15;
    in.motion.translate_m = {0.05, 0.02, 0};
    in.motion.pivot_m = {0, -0.1, 0};
    return in;
}

TEST(SimDeterminism, SameInputsGiveBitIdenticalPositions) {
    auto groom = make_straight_groom({{0, 0, 0}, {0.03f, 0, 0}, {0, 0, 0.03f}}, {{1, 0.2f, 0}, {0, -1, 0}, {0.3f, 0.2f, 1}}, 0.2f);
    SimWorld a = build(busy_inputs(groom));
    SimWorld b = build(busy_inputs(groom));
    ASSERT_TRUE(run_frames(a, 200).ok());
    for (int i = 0; i < 400; ++i) ASSERT_TRUE(advance(b, 0.5 / 60.0).ok());  // the same 200 frames, in halves
    ASSERT_EQ(a.clock.steps, b.clock.steps);
    const auto& pa = a.groups[0].positions;
    const auto& pb = b.groups[0].positions;
    ASSERT_EQ(pa.size(), pb.size());
    EXPECT_EQ(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(glm::vec4)), 0);
    EXPECT_NE(pa[15], glm::vec4(groom.guides.points_os_m[15], 1.0f)) << "the strands must have moved";
}

TEST(SimDegenerate, ZeroLengthStrandDoesNotPoisonTheSimulation) {
    auto groom = make_straight_groom({{0, 0, 0}, {0.02f, 0, 0}, {0.04f, 0, 0}}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, 0.2f);
    // Strand 1 collapses to (almost) a point, like the two 7e-6 m strands of Ratboy_mohawk.tfx.
    for (uint32_t k = 0; k < 16; ++k) groom.guides.points_os_m[16 + k] = glm::vec3(0.02f, 0, 0) + glm::vec3(0, 1, 0) * (4e-7f * float(k));
    groom.guides.flags[1] = kStrandDegenerate;
    Collider ball;
    ball.name = "ball";
    ball.p0_m = {0.02, 0.0, 0.0};   // the collapsed strand sits at the ball's centre
    ball.radius_m = 0.01;
    auto in = busy_inputs(groom);
    in.colliders = {ball};
    in.groups[0].params.colliders = {"ball"};
    in.groups[0].params.global_stiffness = 0.5;
    SimWorld w = build(in);
    ASSERT_TRUE(run_frames(w, 300).ok());
    const SimFrameMetrics m = measure_frame(w, {});
    EXPECT_EQ(m.non_finite, 0u);
    EXPECT_TRUE(std::isfinite(m.kinetic_energy));
    for (const glm::vec4& p : w.groups[0].positions) ASSERT_TRUE(std::isfinite(p.x + p.y + p.z));
}

TEST(SimStability, TenThousandFramesOfRandomExtremeMotionStayFiniteAndBounded) {
    std::vector<glm::vec3> roots, dirs;
    for (int i = 0; i < 12; ++i) {
        const float a = 0.5f * float(i);
        roots.push_back({0.1f * std::cos(a), 0.1f, 0.1f * std::sin(a)});
        dirs.push_back({std::cos(a), 0.3f * float(i % 3) - 0.3f, std::sin(a)});
    }
    auto groom = make_straight_groom(roots, dirs, 0.3f);
    SimulationParams p;
    p.gpu_vertices_per_strand = 16;
    p.damping = 0.0;
    p.global_stiffness = 1.0;
    p.global_range = 1.0;
    p.local_stiffness = 1.0;
    p.local_iterations = 1;
    p.length_iterations = 1;
    p.vsp_coeff = 0.0;
    p.vsp_threshold = 0.0;
    p.max_position_delta_m = 0.5;
    p.wind_scale = 10.0;
    p.colliders = {"neck"};
    auto in = world_inputs(groom, p);
    in.environment.gravity_mps2 = {3.0, -30.0, 1.0};
    in.environment.wind = {{0, 1, 1}, 40.0, 1.0, 7.0};
    in.environment.substeps = 1;
    Collider neck;
    neck.name = "neck";
    neck.type = ColliderType::Capsule;
    neck.p0_m = {0, -0.2, 0};
    neck.p1_m = {0, 0.05, 0};
    neck.radius_m = 0.09;
    neck.friction = 1.0;
    neck.attach_to = "head";
    in.colliders = {neck};
    in.motion.type = MotionType::Procedural;
    SimWorld w = build(in);
    std::mt19937 rng(1234);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    // With the per-step clamp, no free vertex moves more than max delta + the collider push per step.
    const double dt = w.step_dt_s();
    const double vmax = (p.max_position_delta_m + 0.2) / dt;
    const double energy_bound = 0.5 * vmax * vmax * double(w.groups[0].vertex_count());
    double max_energy = 0.0;
    for (int frame = 0; frame < 10000; ++frame) {
        if (frame % 250 == 0) {
            // Switching the motion mid-flight makes the head jump: the harshest legal input.
            w.motion.turn_deg = 180.0 * u(rng);
            w.motion.nod_deg = 90.0 * u(rng);
            w.motion.shake_deg = 45.0 * u(rng);
            w.motion.shake_frequency_hz = 12.0 * u(rng);
            w.motion.frequency_hz = 3.0 * u(rng);
            w.motion.translate_m = {0.3 * u(rng), 0.3 * u(rng), 0.3 * u(rng)};
        }
        ASSERT_TRUE(step_once(w).ok()) << "frame " << frame;
        const SimFrameMetrics m = measure_frame(w, {});
        ASSERT_EQ(m.non_finite, 0u) << "frame " << frame;
        max_energy = std::max(max_energy, m.kinetic_energy);
    }
    EXPECT_LT(max_energy, energy_bound);
    // Still hair-like at the end: a calm second keeps it near its length.
    w.motion.type = MotionType::None;
    ASSERT_TRUE(run_frames(w, 60).ok());
    EXPECT_LT(measure_frame(w, {}).max_stretch, 0.05);
}

TEST(SimClock, AdvanceRunsWholeFramesAtTheFixedRate) {
    auto groom = make_straight_groom({{0, 0, 0}}, {{1, 0, 0}}, 0.2f);
    auto in = world_inputs(groom, soft_params());
    in.environment.sim_rate_hz = 60.0;
    in.environment.substeps = 3;
    in.max_frames_per_advance = 4;
    SimWorld w = build(in);
    auto r = advance(w, 0.4 / 60.0);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, 0u);
    r = advance(w, 0.7 / 60.0);
    EXPECT_EQ(*r, 1u);
    EXPECT_EQ(w.clock.steps, 3u);
    EXPECT_NEAR(w.clock.accumulator_s, 0.1 / 60.0, 1e-12);
    r = advance(w, 10.0 / 60.0);
    EXPECT_EQ(*r, 4u) << "at most max_frames_per_advance frames per call";
    EXPECT_EQ(w.clock.dropped_frames, 6u);
    EXPECT_NEAR(w.time_s(), 5.0 / 60.0, 1e-12);
    EXPECT_FALSE(advance(w, std::nan("")).ok());
    EXPECT_FALSE(advance(w, -1.0).ok());
    reset_to_rest(w);
    EXPECT_EQ(w.clock.steps, 0u);
    EXPECT_EQ(glm::vec3(w.groups[0].positions[15]), groom.guides.points_os_m[15]);
}

TEST(SimValidation, BadParametersNameTheParameter) {
    auto groom = make_straight_groom({{0, 0, 0}}, {{1, 0, 0}}, 0.2f);
    SimulationParams p = soft_params();
    p.damping = std::nan("");
    auto r = build_sim_world(world_inputs(groom, p));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("damping"), std::string::npos) << r.error().message;
    p = soft_params();
    p.gpu_vertices_per_strand = 12;
    r = build_sim_world(world_inputs(groom, p));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("gpu_vertices_per_strand"), std::string::npos);
    p = soft_params();
    p.sdf = {"nothere"};
    r = build_sim_world(world_inputs(groom, p));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::NotFound);
    EXPECT_NE(r.error().message.find("nothere"), std::string::npos);
    auto in = world_inputs(groom, soft_params());
    in.environment.gravity_mps2.y = std::numeric_limits<double>::infinity();
    r = build_sim_world(in);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("gravity"), std::string::npos);
    in = world_inputs(groom, soft_params());
    in.motion.frequency_hz = std::nan("");
    EXPECT_FALSE(build_sim_world(in).ok());
    SimWorld w = build(world_inputs(groom, soft_params()));
    std::vector<glm::mat4> two(2, glm::mat4(1.0f));
    EXPECT_FALSE(set_root_transforms(w, 0, two).ok()) << "one transform per strand";
}

// The simulation refuses exactly what loading refuses. Each value here lay inside the range the
// simulation used to keep for itself (damping 0..1000, iterations 0..100, particle radius 0..1 m) and is
// outside the declared one; both now give the same bound.
TEST(SimValidation, RefusesWhatLoadingRefusesWithTheSameBound) {
    auto groom = make_straight_groom({{0, 0, 0}}, {{1, 0, 0}}, 0.2f);
    struct Case {
        std::string key;
        double value;
        std::string problem;
    };
    for (const Case& c : {Case{"damping", 5.0, ": 5 is out of range [0, 1]"}, Case{"local_iterations", 50.0, ": 50 is out of range [1, 32]"},
                          Case{"particle_radius", 0.5, ": 0.5 is out of range [0, 0.05] m"}}) {
        SimulationParams p = soft_params();
        bool found = false;
        for (const test::NumberSlot& slot : test::number_slots(p, "hair_groups[].simulation", ""))
            if (slot.path == c.key) {
                slot.set(c.value);
                found = true;
            }
        ASSERT_TRUE(found) << c.key;
        auto r = build_sim_world(world_inputs(groom, p));
        ASSERT_FALSE(r.ok()) << c.key << " = " << c.value << " was simulated";
        EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
        EXPECT_EQ(r.error().message, "hair_groups['test'].simulation." + c.key + c.problem);

        nlohmann::json doc = test::minimal_scene_doc();
        doc["hair_groups"][0]["simulation"][c.key] = c.value;
        EXPECT_EQ(test::load_error(doc), "hair_groups[0].simulation." + c.key + c.problem);
    }
}

// Every declared number the simulation is given (group parameters, environment, colliders, motion, SDF
// margins) is checked against its declaration at its exact bounds: the bound passes, the nearest value
// outside it and NaN fail, naming the parameter and the declared range.
TEST(SimValidation, EveryDeclaredRangeOfItsInputsIsEnforced) {
    auto groom = make_straight_groom({{0, 0, 0}}, {{1, 0, 0}}, 0.2f);
    SimWorldInputs base = world_inputs(groom, soft_params());
    Collider ball;
    ball.name = "ball";
    ball.p0_m = {0.1, -0.2, 0.0};
    base.colliders = {ball};
    base.motion.type = MotionType::Procedural;
    ASSERT_TRUE(build_sim_world(base).ok());

    size_t slots_checked = 0;
    const auto exercise = [&](auto&& member_of, std::string_view table, std::string_view path) {
        SimWorldInputs in = base;
        const auto slots = test::number_slots(member_of(in), table, path);
        EXPECT_FALSE(slots.empty()) << table;
        for (const test::NumberSlot& slot : slots) {
            const double saved = slot.get();
            for (double bound : {slot.decl->min, slot.decl->max}) {
                slot.set(bound);
                auto r = build_sim_world(in);
                EXPECT_TRUE(r.ok()) << slot.path << " = " << bound << ": " << r.error().message;
            }
            std::vector<double> outside{std::nan("")};
            if (slot.integral) outside.clear();
            if (auto v = test::just_below(slot)) outside.push_back(*v);
            if (auto v = test::just_above(slot)) outside.push_back(*v);
            for (double v : outside) {
                slot.set(v);
                auto r = build_sim_world(in);
                ASSERT_FALSE(r.ok()) << slot.path << " = " << v << " was simulated";
                EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
                EXPECT_EQ(r.error().message.rfind(slot.path + ": ", 0), 0u) << r.error().message;
                const std::string expected = std::isnan(v) ? "must be a finite number" : "is out of range " + test::range_text(*slot.decl);
                EXPECT_NE(r.error().message.find(expected), std::string::npos) << r.error().message;
            }
            slot.set(saved);
            ++slots_checked;
        }
    };
    exercise([](SimWorldInputs& in) -> SimulationParams& { return in.groups[0].params; }, "hair_groups[].simulation",
             "hair_groups['test'].simulation");
    exercise([](SimWorldInputs& in) -> Environment& { return in.environment; }, "environment", "environment");
    exercise([](SimWorldInputs& in) -> Collider& { return in.colliders[0]; }, "colliders[]", "colliders['ball']");
    exercise([](SimWorldInputs& in) -> Motion& { return in.motion; }, "motion", "motion");
    EXPECT_GE(slots_checked, 30u);

    // SDF margins: the collision mesh's declared margin.
    static const Mesh sphere = make_sphere_mesh(0.1f, 12, 16);
    static const SdfGrid field = test::build_test_field(sphere, 16, 0.2);
    const ParamDecl& margin = *param_decls::find_table("collision_meshes[]")->find("margin");
    SimWorldInputs in = base;
    in.sdfs.push_back({"head", &field, margin.max});
    EXPECT_TRUE(build_sim_world(in).ok());
    in.sdfs[0].margin_m = std::nextafter(margin.max, 2.0);
    auto r = build_sim_world(in);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.rfind("collision_meshes['head'].margin: ", 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find("is out of range " + test::range_text(margin) + " m"), std::string::npos) << r.error().message;
}

TEST(SimMotion, ProceduralMotionIsRigidAboutThePivot) {
    Motion m;
    m.type = MotionType::Procedural;
    m.turn_deg = 30;
    m.nod_deg = 10;
    m.shake_deg = 5;
    m.pivot_m = {0.1, 0.5, -0.2};
    EXPECT_EQ(motion_transform(m, 0.0), glm::dmat4(1.0));
    for (double t : {0.3, 0.77, 1.9}) {
        const glm::dmat4 x = motion_transform(m, t);
        const glm::dmat3 r(x);
        const glm::dmat3 rt_r = glm::transpose(r) * r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) EXPECT_NEAR(rt_r[i][j], i == j ? 1.0 : 0.0, 1e-12);
        const glm::dvec3 pivot = glm::dvec3(x * glm::dvec4(m.pivot_m, 1.0));
        EXPECT_NEAR(glm::length(pivot - m.pivot_m), 0.0, 1e-12) << "without translation the pivot stays put";
    }
    EXPECT_NE(motion_transform(m, 0.3), glm::dmat4(1.0));
    EXPECT_TRUE(motion_moves_mesh(m, "head"));
    m.mesh = "body";
    EXPECT_FALSE(motion_moves_mesh(m, "head"));
    EXPECT_FALSE(motion_moves_mesh(m, ""));
}

TEST(SimSkinning, PerStrandRootTransformsMoveEachRoot) {
    auto groom = make_straight_groom({{0, 0, 0}, {0.1f, 0, 0}}, {{0, 1, 0}, {0, 1, 0}}, 0.1f);
    SimulationParams p = soft_params();
    p.global_stiffness = 1.0;
    p.global_range = 1.0;
    SimWorld w = build(world_inputs(groom, p));
    std::vector<glm::mat4> t = {glm::mat4(1.0f), glm::mat4(1.0f)};
    t[1][3] = glm::vec4(0.0f, 0.0f, 0.05f, 1.0f);   // strand 1 moves 5 cm along z
    ASSERT_TRUE(set_root_transforms(w, 0, t).ok());
    ASSERT_TRUE(run_frames(w, 1).ok());
    EXPECT_NEAR(glm::length(vtx(w, 0, 0) - glm::vec3(0, 0, 0)), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::length(vtx(w, 1, 0) - glm::vec3(0.1f, 0, 0.05f)), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::length(vtx(w, 1, 15) - glm::vec3(0.1f, 0.1f, 0.05f)), 0.0f, 1e-5f) << "global stiffness 1 carries the strand";
}

// Follow hairs are blended from guides, so a follow vertex can start deep inside a head (guides on both
// sides of it). A box's field bends across its diagonal, where one push along the sampled gradient keeps
// 29% of the depth; the follow pass pushes again while the vertex is inside.
TEST(SimFollows, DeepFollowVerticesEndOutsideTheMesh) {
    const float h = 0.1f;
    Mesh box;
    for (int i = 0; i < 8; ++i) box.positions.push_back({i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h});
    const int quads[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
    for (const auto& q : quads) {
        for (const std::array<int, 3>& t : {std::array<int, 3>{q[0], q[1], q[2]}, std::array<int, 3>{q[0], q[2], q[3]}}) {
            const glm::vec3 a = box.positions[t[0]], b = box.positions[t[1]], c = box.positions[t[2]];
            const bool outward = glm::dot(glm::cross(b - a, c - a), a + b + c) > 0.0f;
            box.indices.insert(box.indices.end(), {uint32_t(t[0]), uint32_t(outward ? t[1] : t[2]), uint32_t(outward ? t[2] : t[1])});
        }
    }
    const SdfGrid field = test::build_test_field(box, 40, 0.3);
    ASSERT_FALSE(field.distance_m.empty());
    const gpu_shared::SdfGridParams g = field.gpu_params();
    const float margin = 0.004f;
    gpu_shared::SimSdfFrame f{};
    f.world_to_rest = f.rest_to_world = f.step_motion = glm::mat4(1.0f);
    f.params = glm::vec4(margin, gpu_shared::kSimSdfGradientStepCells * g.origin_m.w, 0.0f, 0.0f);
    auto box_distance = [&](glm::vec3 p) {
        const glm::vec3 q = glm::abs(p) - glm::vec3(h);
        return glm::length(glm::max(q, glm::vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
    };
    float worst_single = 0.0f;
    for (const glm::vec3 start : {glm::vec3(0.06f, 0.06f, 0.0f), glm::vec3(0.05f, 0.05f, 0.05f), glm::vec3(-0.07f, 0.0f, 0.07f),
                                  glm::vec3(0.0f, 0.0f, 0.03f), glm::vec3(0.02f, -0.09f, 0.01f)}) {
        const glm::vec3 once = start + gpu_shared::sim_sdf_displacement(field.distance_m.data(), g, f, start);
        worst_single = std::min(worst_single, box_distance(once));
        std::vector<glm::vec4> follow(4, glm::vec4(start, 1.0f));
        sim_passes::follow_sdf_vertex(2, 4, g, field.distance_m.data(), f, follow);
        const float after = box_distance(glm::vec3(follow[2]));
        EXPECT_GE(after, -0.1f * margin) << "start " << start.x << " " << start.y << " " << start.z;
        EXPECT_LE(after, margin + g.origin_m.w) << "pushed no farther than a cell past the margin";
    }
    EXPECT_LT(worst_single, -0.5f * margin) << "one push must leave a diagonal start inside, or this test shows nothing";
}


// Where the tip of a 0.2 m strand released horizontally (no global shape, sag-free off) settles, as its
// distance from the rest tip, for a bending model and local stiffness, at `points` vertices per strand and
// `substeps` steps a frame.
float settled_tip_offset(BendingModel model, double local_stiffness, int points, int substeps, int length_iterations = 3) {
    auto groom = make_straight_groom({{0, 0, 0}}, {{1, 0, 0}}, 0.2f, uint32_t(points));
    SimulationParams p = soft_params();
    p.gpu_vertices_per_strand = points;
    p.bending = model;
    p.local_stiffness = local_stiffness;
    p.length_iterations = length_iterations;
    p.damping = 0.3;
    p.sag_free = false;
    auto in = world_inputs(groom, p);
    in.environment.gravity_mps2 = {0, -9.81, 0};
    in.environment.substeps = substeps;
    SimWorld w = build(in);
    EXPECT_TRUE(run_frames(w, 300).ok());
    return glm::length(glm::vec3(w.groups[0].positions[size_t(points) - 1]) - glm::vec3(0.2f, 0.0f, 0.0f));
}

// The rod's bending (simulation.bending "rod") means the same at any vertex count, substep count and
// iteration count: a 0.2 m strand held out horizontally at local stiffness 0.9 settles with its tip within
// 2 cm of rest, the same within 10% at 8, 16 and 32 vertices and 1, 2 and 4 substeps, near a cantilever's
// g L^4 / 8 B (9.7 mm for B = 0.0025 x 81 m^4/s^2); at 1 within 2 mm. The local shape constraint at 0.9
// settles 3 mm to 240 mm from rest over the same grid (printed).
TEST(SimStiffness, RodBendingSagsTheSameAtAnyVertexCountSubstepAndIterationCount) {
    const double beam = 9.81 * std::pow(0.2, 4) / (8.0 * double(gpu_shared::sim_bend_rigidity(0.9f)));
    for (double s : {0.9, 1.0}) {
        const float finest = settled_tip_offset(BendingModel::Rod, s, 32, 4);
        for (int points : {8, 16, 32})
            for (int substeps : {1, 2, 4}) {
                const float rod = settled_tip_offset(BendingModel::Rod, s, points, substeps);
                const float shape = s < 1.0 ? settled_tip_offset(BendingModel::LocalShape, s, points, substeps) : 0.0f;
                std::printf("local stiffness %.1f, %2d vertices, %d substeps: rod %.2f mm, local shape %.2f mm\n", s, points, substeps,
                            1000.0 * rod, 1000.0 * shape);
                if (s < 1.0) {
                    EXPECT_LE(rod, 0.02f) << points << " vertices, " << substeps << " substeps";
                    EXPECT_NEAR(rod, finest, 0.1f * finest) << points << " vertices, " << substeps << " substeps";
                } else {
                    EXPECT_LE(rod, 0.002f) << points << " vertices, " << substeps << " substeps";
                }
            }
        if (s < 1.0) {
            EXPECT_NEAR(finest, beam, 0.1 * beam) << "the rigidity the stiffness names";
            // The length sweeps' count does not change the bend either.
            EXPECT_NEAR(settled_tip_offset(BendingModel::Rod, s, 16, 2, 1), settled_tip_offset(BendingModel::Rod, s, 16, 2, 8), 0.02f * finest);
        }
    }
    // Stiffer is stiffer: each tenth below 0.9 sags several times more.
    EXPECT_GT(settled_tip_offset(BendingModel::Rod, 0.8, 16, 2), 3.0f * settled_tip_offset(BendingModel::Rod, 0.9, 16, 2));
}

}  // namespace
}  // namespace tressel
