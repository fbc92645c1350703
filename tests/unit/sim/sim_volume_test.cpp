// Hair volume (shared/sim_volume.h): the grid's sums, internal friction that moves neighbours together and
// leaves a groom moving as one alone, and a dense groom on a ball that keeps a layer of hair instead of
// collapsing onto the surface.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "groom/groom_bench.h"
#include "shared/sim_volume.h"
#include "sim/sim.h"
#include "sim/sim_metrics.h"
#include "sim/sim_passes.h"
#include "sim_test_util.h"

namespace tressel {
namespace {

using namespace gpu_shared;
using test::build;

// Roots spread evenly (a Fibonacci spiral) over the cap of a ball of radius r within `cap_deg` of +y,
// each strand along its normal.
GroomResult cap_groom(float r, float cap_deg, uint32_t count, float length_m) {
    std::vector<glm::vec3> roots, dirs;
    const float golden = 2.39996323f;
    const float cos_cap = std::cos(cap_deg * 3.14159265f / 180.0f);
    for (uint32_t i = 0; i < count; ++i) {
        const float y = 1.0f - (1.0f - cos_cap) * (float(i) + 0.5f) / float(count);
        const float ring = std::sqrt(std::max(0.0f, 1.0f - y * y));
        const glm::vec3 n(ring * std::cos(golden * float(i)), y, ring * std::sin(golden * float(i)));
        roots.push_back(n * (r + 0.001f));
        dirs.push_back(n);
    }
    return test::make_straight_groom(roots, dirs, length_m, 16);
}

TEST(SimVolume, GridHoldsEveryVertexsHairAndMomentum) {
    const GroomResult groom = cap_groom(0.1f, 70.0f, 50, 0.12f);
    SimulationParams p = test::soft_params();
    p.volume = true;
    p.volume_cells = 16;
    SimWorld w = build(test::world_inputs(groom, p));
    SimGroupState& g = w.groups[0];
    // Give every vertex a displacement over the "last step".
    for (size_t i = 0; i < g.positions.size(); ++i)
        g.prev_positions[i] = g.positions[i] - glm::vec4(0.001f * float(i % 7), -0.002f, 0.0005f * float(i % 3), 0.0f);
    const SimGroupParams sp = make_group_params(w, g, w.step_dt_s());
    ASSERT_EQ(sp.volume_nodes, 17u);
    const glm::vec4 frame = sim_passes::volume_frame(sp, g.positions);
    std::vector<int32_t> grid(size_t(17 * 17 * 17) * kSimVolumeNodeInts, 0);
    double len = 0.0;
    glm::dvec3 mom(0.0);
    for (uint32_t v = 0; v < g.positions.size(); ++v) {
        sim_passes::volume_splat(v, sp, frame, g.positions, g.prev_positions, g.rest_lengths_m, grid);
        const uint32_t k = v % g.n;
        const double l = 0.5 * ((k > 0 ? g.rest_lengths_m[v - 1] : 0.0f) + g.rest_lengths_m[v]);
        len += l;
        mom += l * glm::dvec3(glm::vec3(g.positions[v] - g.prev_positions[v]));
        // Every vertex lies inside the grid, at least a cell from its border.
        const glm::vec3 gc = (glm::vec3(g.positions[v]) - glm::vec3(frame)) / frame.w;
        EXPECT_GE(std::min({gc.x, gc.y, gc.z}), 0.999f);
        EXPECT_LE(std::max({gc.x, gc.y, gc.z}), 15.001f);
    }
    double sum_len = 0.0;
    glm::dvec3 sum_mom(0.0);
    for (size_t i = 0; i < grid.size(); i += kSimVolumeNodeInts) {
        sum_len += grid[i] / double(kSimVolumeLengthScale);
        sum_mom += glm::dvec3(grid[i + 1], grid[i + 2], grid[i + 3]) / double(kSimVolumeMomentumScale);
    }
    const double vertices = double(g.positions.size());
    EXPECT_NEAR(sum_len, len, vertices * 8 * 0.5 / kSimVolumeLengthScale);
    EXPECT_NEAR(sum_mom.x, mom.x, vertices * 8 * 0.5 / kSimVolumeMomentumScale);
    EXPECT_NEAR(sum_mom.y, mom.y, vertices * 8 * 0.5 / kSimVolumeMomentumScale);
    EXPECT_NEAR(sum_mom.z, mom.z, vertices * 8 * 0.5 / kSimVolumeMomentumScale);
    EXPECT_GT(len, 5.0);
}

// The thickness of the hair layer over the upper half of a ball of radius r centred at the origin: the
// 90th percentile of the free vertices' clearance above the surface, over vertices above y = r / 2.
double layer_thickness(const SimGroupState& g, float r) {
    std::vector<double> clearance;
    for (const glm::vec4& x : g.positions)
        if (x.w > 0.0f && x.y > 0.5f * r) clearance.push_back(glm::length(glm::vec3(x)) - r);
    if (clearance.empty()) return 0.0;
    std::sort(clearance.begin(), clearance.end());
    return clearance[size_t(0.9 * double(clearance.size() - 1))];
}

struct Settled {
    std::vector<glm::vec4> positions;
    double thickness = 0.0;
    double deepest = 0.0;     // deepest free vertex below the ball's surface (metres, 0: none)
    SimDensityStats density;
};

Settled settle_on_ball(bool volume, double pressure, double friction, double density, int frames, int substeps) {
    static const Mesh ball = make_sphere_mesh(0.1f, 40, 48);
    static const SdfGrid field = test::build_test_field(ball, 48, 0.2);
    static const GroomResult groom = cap_groom(0.1f, 70.0f, 800, 0.14f);
    SimulationParams p = test::soft_params();
    p.sdf = {"ball"};
    p.volume = volume;
    p.volume_pressure = pressure;
    p.volume_friction = friction;
    p.volume_density_per_cm2 = density;
    // Frictionless against the ball: hair slides down to where the volume alone holds it (static friction
    // would hold it where it lands, with or without volume).
    p.friction = 0.0;
    p.static_friction = 0.0;
    auto in = test::world_inputs(groom, p);
    in.environment.gravity_mps2 = {0.3, -9.81, 0.2};  // a little off the vertical: no strand balances on top
    in.sdfs.push_back({"ball", &field, 0.004});
    in.environment.substeps = substeps;
    SimWorld w = build(in);
    EXPECT_TRUE(run_frames(w, uint32_t(frames)).ok());
    Settled s;
    s.thickness = layer_thickness(w.groups[0], 0.1f);
    for (const glm::vec4& x : w.groups[0].positions)
        if (x.w > 0.0f) s.deepest = std::max(s.deepest, double(0.1f - glm::length(glm::vec3(x))));
    s.density = volume_density_stats(w.groups[0]);
    s.positions = w.groups[0].positions;
    return s;
}

// A dense groom (800 strands of 0.14 m on the top of a 0.1 m ball, no shape stiffness) falls under
// gravity. Without volume the strands pass through each other and lie in one sheet on the surface; with it
// they pile into a layer, and the layer's weight never pushes a vertex into the ball.
// The density slice's grid (volume_density_grid): every node's hairs per cm^2 times its cell's volume adds
// up to the hair the guides stand for (each guide's length times its hairs), the stats' densest node is the
// grid's, and the grid spans the hair.
TEST(SimVolume, DensityGridHoldsTheGroomsHair) {
    const GroomResult groom = cap_groom(0.1f, 70.0f, 50, 0.12f);
    SimulationParams p = test::soft_params();
    p.volume_cells = 16;
    p.volume_density_per_cm2 = 7.0;
    SimWorld w = build(test::world_inputs(groom, p));
    const SimGroupState& g = w.groups[0];
    const SimDensityGrid grid = volume_density_grid(g);
    ASSERT_EQ(grid.nodes, 17u);
    ASSERT_EQ(grid.per_cm2.size(), size_t(17 * 17 * 17));
    EXPECT_EQ(grid.target_per_cm2, 7.0);
    double sum = 0.0, densest = 0.0;
    for (float d : grid.per_cm2) {
        ASSERT_GE(d, 0.0f);
        sum += double(d);
        densest = std::max(densest, double(d));
    }
    const double h = grid.cell_m;
    double length = 0.0;
    for (float l : g.rest_lengths_m) length += l;
    const double hair_m = sum * 1e4 * h * h * h;  // hairs per cm^2 x cm^2 per m^2 x m^3 = metres of hair
    EXPECT_NEAR(hair_m, volume_hair_per_guide(g) * length, 1e-3 * hair_m);
    EXPECT_NEAR(volume_density_stats(g).max_per_cm2, densest, 1e-6 * densest);
    for (const glm::vec4& x : g.positions)
        for (int a = 0; a < 3; ++a) {
            EXPECT_GE(x[a], grid.origin_m[a]);
            EXPECT_LE(x[a], grid.origin_m[a] + h * 16.0f);
        }
}

TEST(SimVolume, DenseGroomKeepsALayerOfHair) {
    const Settled off = settle_on_ball(false, 0.0, 0.0, 2.0, 150, 2);
    const Settled on = settle_on_ball(true, 0.2, 0.1, 2.0, 150, 2);
    std::printf("layer over the ball: %.1f mm without volume (densest %.1f hairs/cm^2), %.1f mm with it (densest %.1f, target 2)\n",
                1e3 * off.thickness, off.density.max_per_cm2, 1e3 * on.thickness, on.density.max_per_cm2);
    EXPECT_LT(off.thickness, 0.008) << "without volume the hair lies in a sheet at the 4 mm margin";
    EXPECT_GE(on.thickness, 2.0 * off.thickness);
    EXPECT_LT(on.density.max_per_cm2, 0.6 * off.density.max_per_cm2) << "pressure must spread the densest hair";
    EXPECT_LT(on.deepest, 1e-4) << "the layer's weight must not push a vertex into the ball";
    EXPECT_LT(off.deepest, 1e-4);
}

// Pressure is an acceleration and friction a rate: the layer is about as thick at 1, 2 and 4 substeps.
TEST(SimVolume, LayerIsTheSameAtAnySubstepCount) {
    double t[3];
    for (int i = 0; i < 3; ++i) t[i] = settle_on_ball(true, 0.2, 0.1, 2.0, 120, 1 << i).thickness;
    std::printf("layer at 1 / 2 / 4 substeps: %.1f / %.1f / %.1f mm\n", 1e3 * t[0], 1e3 * t[1], 1e3 * t[2]);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(t[i], t[1], 0.15 * t[1]) << (1 << i) << " substeps";
}

// Hair less dense everywhere than the target feels no pressure: with friction 0 the step is the step
// without volume, to the bit.
TEST(SimVolume, HairBelowTheTargetDensityFeelsNoPressure) {
    const Settled off = settle_on_ball(false, 0.0, 0.0, 1.0e5, 20, 2);
    const Settled on = settle_on_ball(true, 1.0, 0.0, 1.0e5, 20, 2);
    EXPECT_EQ(off.positions, on.positions);
}

// Interleaved strands, every other one moving at 1 m/s along x, no gravity: internal friction pulls each
// vertex toward the hair's mean velocity around it, so the two sets meet half way (friction 1 in one
// 1/60 s step); a groom moving as one is left as it was; the total momentum stays.
TEST(SimVolume, InternalFrictionMovesNeighboursTogether) {
    std::vector<glm::vec3> roots, dirs;
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 20; ++j) {
            roots.push_back({0.003f * float(i), 0.0f, 0.003f * float(j)});
            dirs.push_back({0.0f, -1.0f, 0.0f});
        }
    const GroomResult groom = test::make_straight_groom(roots, dirs, 0.15f, 16);
    SimulationParams p = test::soft_params();
    p.damping = 0.0;
    p.volume = true;
    p.volume_pressure = 0.0;
    p.volume_cells = 16;
    auto velocities = [&](double friction, bool all_move, double& fast, double& slow, double& momentum_before, double& momentum_after) {
        p.volume_friction = friction;
        auto in = test::world_inputs(groom, p);
        in.environment.substeps = 1;
        SimWorld w = build(in);
        SimGroupState& g = w.groups[0];
        const float dt = float(w.step_dt_s());
        auto moving = [&](uint32_t s) { return all_move || ((s / 20 + s % 20) % 2 == 0); };
        momentum_before = 0.0;
        for (uint32_t s = 0; s < g.strand_count; ++s)
            for (uint32_t k = 2; k < g.n; ++k)
                if (moving(s)) {
                    g.prev_positions[s * g.n + k].x -= 1.0f * dt;
                    momentum_before += 1.0;
                }
        EXPECT_TRUE(step_once(w).ok());
        double sum[2] = {0, 0};
        size_t count[2] = {0, 0};
        momentum_after = 0.0;
        for (uint32_t s = 0; s < g.strand_count; ++s)
            for (uint32_t k = 2; k < g.n; ++k) {
                const double vx = (g.positions[s * g.n + k].x - g.prev_positions[s * g.n + k].x) / dt;
                sum[moving(s) ? 0 : 1] += vx;
                ++count[moving(s) ? 0 : 1];
                momentum_after += vx;
            }
        fast = sum[0] / double(count[0]);
        slow = count[1] ? sum[1] / double(count[1]) : 0.0;
    };
    // The pinned roots hold the strands back (the length constraints take ~10% of the moving half's
    // velocity in the step): friction is measured against the same step without it.
    double fast0, slow0, before, after0;
    velocities(0.0, false, fast0, slow0, before, after0);
    EXPECT_GT(fast0, 0.8);
    EXPECT_NEAR(slow0, 0.0, 1e-3);
    double fast, slow, after;
    velocities(1.0, false, fast, slow, before, after);
    std::printf("friction 1: the moving half %.3f m/s, the still half %.3f m/s (without friction %.3f and %.3f); momentum %.1f -> %.1f "
                "(without %.1f)\n", fast, slow, fast0, slow0, before, after, after0);
    EXPECT_NEAR(fast, 0.5 * fast0, 0.1 * fast0);
    EXPECT_NEAR(slow, 0.5 * fast0, 0.1 * fast0);
    EXPECT_NEAR(after, after0, 0.05 * after0);
    double half_fast, half_slow;
    velocities(0.5, false, half_fast, half_slow, before, after);
    EXPECT_GT(half_fast, fast + 0.1);
    EXPECT_LT(half_slow, slow - 0.1);
    velocities(0.0, true, fast0, slow0, before, after0);
    velocities(1.0, true, fast, slow, before, after);
    // A groom moving as one keeps its velocity, but for the vertices next to the roots, whose cells also
    // hold the still pinned vertices (0.3% of the mean).
    EXPECT_NEAR(fast, fast0, 0.01 * fast0) << "a groom moving as one keeps its velocity";
}

}  // namespace
}  // namespace tressel
