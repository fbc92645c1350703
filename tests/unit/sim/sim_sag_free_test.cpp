// Sag-free rest state (sim/sag_free.h): the groom is where hair hangs on a still head under gravity, the
// hair still moves with the head, and the solve leaves the running state as it found it.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "groom/groom_bench.h"
#include "sim/sag_free.h"
#include "test_fields.h"
#include "sim_test_util.h"

namespace tressel {
namespace {

// Eight 0.2 m strands combed out horizontally around a point, as the default scene's groups are tuned:
// local stiffness 0.6, global 0.15 over the first 30%.
struct Fixture {
    GroomResult groom;
    Fixture() {
        std::vector<glm::vec3> roots, dirs;
        for (int i = 0; i < 8; ++i) {
            const float a = float(i) * 0.785398f;
            const glm::vec3 d(std::cos(a), 0.1f * float(i % 3), std::sin(a));
            roots.push_back(0.05f * glm::vec3(d.x, 0.0f, d.z));
            dirs.push_back(d);
        }
        groom = test::make_straight_groom(roots, dirs, 0.2f, 16);
    }
};

SimulationParams combed_params() {
    SimulationParams p;
    p.gpu_vertices_per_strand = 16;
    p.local_stiffness = 0.6;
    p.global_stiffness = 0.15;
    p.global_range = 0.3;
    return p;
}

SimWorld make_world(const Fixture& f, const SimulationParams& p, bool gravity = true) {
    SimWorldInputs in = test::world_inputs(f.groom, p);
    if (gravity) in.environment.gravity_mps2 = glm::dvec3(0.0, -9.81, 0.0);
    return test::build(in);
}

struct StyleError {
    double mean = 0.0, max = 0.0;
};

// Each free vertex's distance from its groomed place carried by its root.
StyleError style_error(const SimWorld& w) {
    StyleError e;
    size_t count = 0;
    for (const SimGroupState& g : w.groups)
        for (size_t i = 0; i < g.positions.size(); ++i) {
            if (g.positions[i].w <= 0.0f) continue;
            const glm::mat4& root = g.root_transforms[g.root_transforms.size() == 1 ? 0 : i / g.n];
            const double d = glm::length(glm::dvec3(g.positions[i]) - glm::dvec3(root * glm::vec4(glm::vec3(g.groomed_positions_os[i]), 1.0f)));
            e.mean += d;
            e.max = std::max(e.max, d);
            ++count;
        }
    e.mean /= double(std::max<size_t>(count, 1));
    return e;
}

double target_change(const SimGroupState& g) {
    double d = 0.0;
    for (size_t i = 0; i < g.rest_positions_os.size(); ++i)
        d = std::max<double>(d, glm::length(glm::vec3(g.rest_positions_os[i]) - glm::vec3(g.groomed_positions_os[i])));
    for (size_t i = 0; i < g.ref_vectors_m.size(); ++i)
        d = std::max<double>(d, glm::length(glm::vec3(g.ref_vectors_m[i]) - glm::vec3(g.groomed_ref_vectors_m[i])));
    return d;
}

// Both worlds 3 s on a still head: the style error of each and how far the solved one moved over its last
// frame, printed with the solve's corrections under `what`.
struct StillHead {
    StyleError off, on;
    double moved = 0.0;
};
StillHead still_for_3_s(SimWorld& sagging, SimWorld& solved, const SagFreeReport& report, const char* what) {
    StillHead r;
    EXPECT_TRUE(run_frames(sagging, 180).ok());
    EXPECT_TRUE(run_frames(solved, 179).ok());
    const std::vector<glm::vec4> before = solved.groups[0].positions;
    EXPECT_TRUE(run_frames(solved, 1).ok());
    for (size_t i = 0; i < before.size(); ++i) r.moved = std::max<double>(r.moved, glm::length(glm::vec3(solved.groups[0].positions[i] - before[i])));
    r.off = style_error(sagging);
    r.on = style_error(solved);
    std::printf("%s, still head, 3 s: style error without the solve mean %.3g m, largest %.3g m; with it %.3g m, %.3g m; "
                "largest move over the last frame %.3g m (%u corrections, %u frames)\n",
                what, r.off.mean, r.off.max, r.on.mean, r.on.max, r.moved, report.iterations, report.frames);
    return r;
}

// A still head for 3 s: without the solve the strands sag from their groom under their weight; with it
// they hang where they were combed, and stay still there. With either bending model (the rod's reads
// the same reference vectors the solve moves).
class SimSagFreeModels : public ::testing::TestWithParam<BendingModel> {};

TEST_P(SimSagFreeModels, CombedStrandsHangInTheirGroomOnAStillHead) {
    const Fixture f;
    SimulationParams params = combed_params();
    params.bending = GetParam();
    SimWorld sagging = make_world(f, params);
    SimWorld solved = make_world(f, params);
    auto report = solve_sag_free(solved);
    ASSERT_TRUE(report.ok()) << report.error().describe();
    EXPECT_EQ(report->groups, 1u);
    EXPECT_TRUE(report->converged) << report->error_max_m;
    EXPECT_GT(report->sag_mean_m, 0.005);
    EXPECT_GT(target_change(solved.groups[0]), 0.005) << "the targets moved";
    EXPECT_EQ(solved.clock.steps, 0u) << "the solve gives the world back at its start";
    EXPECT_EQ(style_error(solved).max, 0.0) << "at the groom";

    const auto [off, on, moved] = still_for_3_s(sagging, solved, *report, "combed strands");
    EXPECT_GT(off.mean, 0.01) << "the strands sag without it";
    // The solve stops within 1 mm of the groom; play starts from the groom without the velocities the
    // settled hair stores in its previous positions and ends a little further (0.46 mm mean, 3.0 mm max;
    // the rod, whose first and only correction is its static preload, 0.0001 mm and 0.0005 mm).
    EXPECT_LE(on.mean, 1e-3);
    EXPECT_LE(on.max, 5e-3);
    EXPECT_LE(moved, 1e-4) << "and stay still (0.1 mm per frame is 6 mm/s)";
}

INSTANTIATE_TEST_SUITE_P(Bending, SimSagFreeModels, ::testing::Values(BendingModel::LocalShape, BendingModel::Rod),
                         [](const ::testing::TestParamInfo<BendingModel>& i) { return i.param == BendingModel::Rod ? std::string("rod") : std::string("local_shape"); });

// Sag-free moves the targets, not the hair's weight: a head turning 30 degrees to each side moves the
// strands about as fast as without it.
TEST(SimSagFree, HairStillSwingsWhenTheHeadTurns) {
    const Fixture f;
    auto swing = [&](bool sag_free) {
        SimWorld w = make_world(f, combed_params());
        if (sag_free) {
            EXPECT_TRUE(solve_sag_free(w).ok());
        }
        w.motion.type = MotionType::Procedural;
        w.motion.turn_deg = 30.0;
        w.motion.frequency_hz = 0.5;
        double sum2 = 0.0;
        size_t count = 0;
        std::vector<glm::vec4> last = w.groups[0].positions;
        for (int frame = 0; frame < 120; ++frame) {
            EXPECT_TRUE(run_frames(w, 1).ok());
            const SimGroupState& g = w.groups[0];
            for (size_t i = 0; i < g.positions.size(); ++i) {
                if (g.positions[i].w <= 0.0f) continue;
                const glm::vec3 d = glm::vec3(g.positions[i] - last[i]) * 60.0f;
                sum2 += double(glm::dot(d, d));
                ++count;
            }
            last = g.positions;
        }
        return std::sqrt(sum2 / double(count));
    };
    const double off = swing(false), on = swing(true);
    std::printf("head turning: RMS vertex speed %.3g m/s without sag-free, %.3g m/s with it\n", off, on);
    EXPECT_GT(off, 0.05) << "the motion must move the hair for the test to mean anything";
    EXPECT_GT(on, 0.8 * off);
    EXPECT_LT(on, 1.25 * off);
}

// A solve in the middle of a run (an edit of a stiffness) keeps the run: positions, previous positions and
// the clock are what they were; only the targets change.
TEST(SimSagFree, SolvingWhileRunningKeepsTheRunningState) {
    const Fixture f;
    SimWorld w = make_world(f, combed_params());
    w.motion.type = MotionType::Procedural;
    ASSERT_TRUE(run_frames(w, 20).ok());
    const std::vector<glm::vec4> pos = w.groups[0].positions, prev = w.groups[0].prev_positions;
    const uint64_t steps = w.clock.steps;
    ASSERT_TRUE(solve_sag_free(w).ok());
    EXPECT_EQ(w.clock.steps, steps);
    EXPECT_EQ(w.motion.type, MotionType::Procedural);
    EXPECT_TRUE(w.step_follows);
    for (size_t i = 0; i < pos.size(); ++i) {
        EXPECT_EQ(w.groups[0].positions[i], pos[i]) << i;
        EXPECT_EQ(w.groups[0].prev_positions[i], prev[i]) << i;
    }
    EXPECT_GT(target_change(w.groups[0]), 0.005);
}

// Nothing to solve: without gravity the groom is already at rest, and with the option off or chain shape
// matching holding the group the targets are the groom's (a solve before is undone).
TEST(SimSagFree, TargetsAreTheGroomsWhereNothingIsSolved) {
    const Fixture f;
    SimWorld weightless = make_world(f, combed_params(), false);
    auto r = solve_sag_free(weightless);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->frames, 0u);
    EXPECT_EQ(target_change(weightless.groups[0]), 0.0);

    SimWorld w = make_world(f, combed_params());
    ASSERT_TRUE(solve_sag_free(w).ok());
    ASSERT_GT(target_change(w.groups[0]), 0.0);
    w.groups[0].params.sag_free = false;
    r = solve_sag_free(w);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->groups, 0u);
    EXPECT_EQ(target_change(w.groups[0]), 0.0) << "turned off: the groom's targets again";
}

// Curls combed out sideways, held by chain shape matching (presets/sim/curly.json's model: no local shape,
// global shape over the whole strand): the solve moves the global targets, and the runs keep the groom as
// their rest shape (chain_rest), so the curls hang in their groom and keep their curl.
TEST(SimSagFree, CurlsHeldByChainShapeMatchingHangInTheirGroom) {
    GroomResult groom;
    const float radius = 0.01f, pitch = 0.025f, length = 0.2f;
    const uint32_t points = 32;
    const float turn = std::sqrt(std::pow(2.0f * 3.14159265f * radius, 2.0f) + pitch * pitch);
    for (int i = 0; i < 6; ++i) {
        const float a = float(i) * 1.0472f;
        const glm::vec3 axis(std::cos(a), 0.15f * float(i % 2), std::sin(a));
        const glm::vec3 d = glm::normalize(axis);
        const glm::vec3 e1 = glm::normalize(glm::cross(d, glm::vec3(0, 1, 0)));
        const glm::vec3 e2 = glm::cross(d, e1);
        const glm::vec3 root = 0.04f * glm::vec3(d.x, 0.0f, d.z);
        Strands& st = groom.guides;
        for (uint32_t k = 0; k < points; ++k) {
            const float theta = 2.0f * 3.14159265f * (length / turn) * float(k) / float(points - 1);
            st.points_os_m.push_back(root + d * (pitch * theta / (2.0f * 3.14159265f)) + radius * ((std::cos(theta) - 1.0f) * e1 + std::sin(theta) * e2));
        }
        st.strand_offsets.push_back(uint32_t(st.points_os_m.size()));
        st.roots.push_back({});
        st.seeds.push_back(uint32_t(i));
        st.flags.push_back(0u);
        const glm::vec3 t = glm::normalize(st.points_os_m[st.points_os_m.size() - points + 1] - st.points_os_m[st.points_os_m.size() - points]);
        const glm::vec3 b = glm::normalize(glm::vec3(0, 1, 0) - t * t.y);
        groom.guide_frames.push_back({glm::vec4(t, 0), glm::vec4(b, 0), glm::vec4(glm::cross(t, b), 0)});
    }
    SimulationParams p;
    p.gpu_vertices_per_strand = points;
    p.local_stiffness = 0.0;
    p.global_stiffness = 0.1;
    p.global_range = 1.0;
    p.damping = 0.12;
    p.chain_shape_matching = true;
    p.chain_stiffness = 0.9;
    p.chain_span = 11;  // about one turn
    auto world = [&]() {
        SimWorldInputs in = test::world_inputs(groom, p);
        in.environment.gravity_mps2 = glm::dvec3(0.0, -9.81, 0.0);
        return test::build(in);
    };
    SimWorld sagging = world(), solved = world();
    auto report = solve_sag_free(solved);
    ASSERT_TRUE(report.ok()) << report.error().describe();
    EXPECT_EQ(report->groups, 1u);
    EXPECT_GT(target_change(solved.groups[0]), 0.001) << "the global targets moved";
    const SimGroupState& g = solved.groups[0];
    ASSERT_EQ(g.chain_rest().size(), g.groomed_positions_os.size());
    for (size_t i = 0; i < g.groomed_positions_os.size(); ++i) ASSERT_EQ(g.chain_rest()[i], g.groomed_positions_os[i]) << "the runs' rest is the groom";

    const auto [off, on, moved] = still_for_3_s(sagging, solved, *report, "curls");
    EXPECT_GT(off.mean, 0.003) << "the curls sag without it";
    EXPECT_LE(on.mean, 1e-3);
    EXPECT_LE(on.max, 5e-3);
    EXPECT_LE(moved, 1e-4) << "and stay still";
}

// A groom that lies inside a collision mesh's margin cannot rest there (the first step pushes it out): the
// solve lifts it out first, holds the lifted groom, reports the lift, and a solve without the field gives
// the groom as grown back. Strands combed out from the top of a 0.1 m ball, 3 degrees above level: their
// first 2.7 cm run within the 5 mm margin (1 mm above the ball at 1 cm, 3 mm at 2 cm).
TEST(SimSagFree, AGroomInsideTheMarginIsLiftedOutAndHeldThere) {
    const Mesh ball = make_sphere_mesh(0.1f, 48, 96);
    const SdfGrid field = test::build_test_field(ball, 48, 0.3);
    std::vector<glm::vec3> roots, dirs;
    for (int i = 0; i < 6; ++i) {
        const float a = float(i) * 1.0472f;
        roots.push_back({0.0f, 0.1005f, 0.0f});
        dirs.push_back({std::cos(a), 0.05f, std::sin(a)});
    }
    const GroomResult groom = test::make_straight_groom(roots, dirs, 0.2f, 32);
    SimulationParams p = combed_params();
    p.gpu_vertices_per_strand = 32;
    p.global_stiffness = 0.1;  // over the whole strand, as the curly scene holds its curls
    p.global_range = 1.0;
    p.sdf = {"ball"};
    auto world = [&](bool with_field) {
        SimWorldInputs in = test::world_inputs(groom, p);
        in.environment.gravity_mps2 = glm::dvec3(0.0, -9.81, 0.0);
        if (with_field) {
            in.sdfs.push_back({"ball", &field, 0.005});
        } else {
            in.groups[0].params.sdf.clear();
        }
        return test::build(in);
    };
    auto solve_and_rest = [&](SimWorld& w, uint32_t lift_frames) {
        SagFreeOptions o;
        o.lift_frames = lift_frames;
        auto report = solve_sag_free(w, o);
        EXPECT_TRUE(report.ok()) << report.error().describe();
        EXPECT_TRUE(run_frames(w, 180).ok());
        return report.ok() ? *report : SagFreeReport{};
    };
    SimWorld w = world(true), unlifted = world(true);
    const SagFreeReport report = solve_and_rest(w, SagFreeOptions{}.lift_frames);
    solve_and_rest(unlifted, 0);
    const SimGroupState& g = w.groups[0];
    double lifted = 0.0, inside = 1.0;
    for (size_t i = 0; i < g.groomed_positions_os.size(); ++i) {
        lifted = std::max<double>(lifted, glm::length(glm::vec3(g.groomed_positions_os[i] - g.grown_positions_os[i])));
        if (g.groomed_positions_os[i].w > 0.0f) inside = std::min<double>(inside, glm::length(glm::vec3(g.groomed_positions_os[i])) - 0.1);
    }
    const StyleError on = style_error(w), off = style_error(unlifted);
    std::printf("lifted %u vertices, mean %.3g m, largest %.3g m; nearest free groom vertex %.3g m over the ball; still 3 s after "
                "the solve: style error mean %.3g m, largest %.3g m (without the lift %.3g m, %.3g m)\n",
                report.lifted_vertices, report.lift_mean_m, report.lift_max_m, inside, on.mean, on.max, off.mean, off.max);
    EXPECT_GE(report.lifted_vertices, 6u * 3u) << "at least the first few free vertices of every strand";
    EXPECT_GT(report.lift_max_m, 0.002);
    EXPECT_NEAR(lifted, report.lift_max_m, 1e-6) << "the groom is where the lift left it";
    EXPECT_GT(inside, 0.0045) << "outside the margin, to the field's rounding";
    EXPECT_LE(on.mean, 1e-3);
    EXPECT_LE(on.max, 5e-3);
    EXPECT_GT(off.max, 2.0 * on.max) << "a groom inside the margin is not where the hair can rest";

    // Solved again without the field: the groom as grown again.
    SimWorld bare = world(false);
    bare.groups[0].groomed_positions_os = g.groomed_positions_os;
    ASSERT_TRUE(solve_sag_free(bare).ok());
    for (size_t i = 0; i < g.grown_positions_os.size(); ++i) ASSERT_EQ(bare.groups[0].groomed_positions_os[i], g.grown_positions_os[i]) << i;
}

// A step that fails in the middle of the solve (a GPU lost, a position gone non-finite) returns its error
// with the world as it was: positions, clock and motion.
TEST(SimSagFree, AFailingStepGivesTheWorldBack) {
    const Fixture f;
    SimWorld w = make_world(f, combed_params());
    w.motion.type = MotionType::Procedural;
    ASSERT_TRUE(run_frames(w, 5).ok());
    const std::vector<glm::vec4> pos = w.groups[0].positions;
    const uint64_t steps = w.clock.steps;
    int calls = 0;
    SagFreeStepper stepper;
    stepper.run = [&](SimWorld& world, uint32_t frames) -> Status {
        if (++calls == 3) return make_error(ErrorCode::DeviceLost, "the device was lost");
        return run_frames(world, frames);
    };
    auto r = solve_sag_free(w, {}, stepper);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::DeviceLost);
    EXPECT_EQ(w.clock.steps, steps);
    EXPECT_EQ(w.motion.type, MotionType::Procedural);
    EXPECT_EQ(w.groups[0].positions, pos);
}

TEST(SimSagFree, CancelledThroughProgress) {
    const Fixture f;
    SimWorld w = make_world(f, combed_params());
    Progress progress;
    progress.request_cancel();
    auto r = solve_sag_free(w, {}, {}, &progress);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::Cancelled);
    EXPECT_EQ(w.clock.steps, 0u);
}

}  // namespace
}  // namespace tressel
