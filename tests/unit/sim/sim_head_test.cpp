// The simulation on real assets: a small groom on the Infinite head scan (0.9 m wide, metres) colliding
// with its SDF, measured against an independent oracle (exact distance to the triangles by a BVH, sign
// near the surface from the exact winding number); and Rat Boy's mohawk roots, half of them just inside Ratboy_body.tfxmesh.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

#include "groom/grow.h"
#include "groom/spatial.h"
#include "io/hair_files.h"
#include "io/tfxmesh.h"
#include "sdf/sdf.h"
#include "sdf/sdf_oracle.h"
#include "sim/sim.h"
#include "real_head.h"
#include "sim/mesh_oracle.h"
#include "sim/sim_metrics.h"
#include "sim_test_util.h"
#include "test_paths.h"

namespace tressel {
namespace {

// Signed distance oracle independent of the simulated field: exact unsigned distance (BVH over every
// triangle); the sign from the exact generalized winding number within 1 cm of the surface, from the
// field farther out (where a grid's sign is reliable).
struct Oracle {
    const Mesh* mesh = nullptr;
    const SdfGrid* far_sign = nullptr;
    std::unique_ptr<TriangleBvh> bvh;
    float operator()(glm::vec3 p) const {
        const float d = bvh->closest(p).distance_m;
        if (d < 0.01f) return std::abs(exact_winding_number(*mesh, glm::dvec3(p))) > 0.5 ? -d : d;
        return far_sign->sample_m(p) < 0.0f ? -d : d;
    }
};

struct Head {
    Mesh mesh;
    GroomResult groom;
    SdfGrid field;
    Oracle oracle;
    glm::vec3 centre{0.0f};
};

const Head& head() {
    static const std::unique_ptr<Head> instance = [] {
        auto h = std::make_unique<Head>();
        h->mesh = test::load_real_head();
        GroomInputs in;
        in.scalp = &h->mesh;
        in.group.scalp.region = {RegionType::Cap, {0.0, 1.0, -0.3}, 35.0};
        in.group.growth.guides = 48;
        in.group.growth.length_m = 0.18;
        in.group.growth.vertices_per_strand = 16;
        in.group.growth.comb = 0.4;
        in.group.growth.comb_direction = {0.0, -1.0, -0.5};
        in.group.follow.count = 100;
        in.group.follow.clump = 0.0;
        auto g = grow_group(in);
        EXPECT_TRUE(g.ok()) << g.error().describe();
        h->groom = std::move(*g);
        // 96 cells (9.4 mm) so the field resolves the ears the swinging hair reaches.
        h->field = test::build_test_field(h->mesh, 96, 0.1);
        h->oracle.mesh = &h->mesh;
        h->oracle.far_sign = &h->field;
        h->oracle.bvh = std::make_unique<TriangleBvh>(h->mesh.positions, h->mesh.indices);
        glm::vec3 lo(1e9f), hi(-1e9f);
        for (const glm::vec3& p : h->mesh.positions) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
        h->centre = 0.5f * (lo + hi);
        return h;
    }();
    return *instance;
}

SimWorldInputs head_inputs(const SimulationParams& p, bool shaking) {
    const Head& h = head();
    SimWorldInputs in;
    SimGroupInputs g;
    g.name = "crown";
    g.groom = &h.groom;
    g.scalp = &h.mesh;
    g.scalp_mesh = "head";
    g.params = p;
    g.params.gpu_vertices_per_strand = 16;
    g.params.sdf = {"head"};
    in.groups.push_back(g);
    in.sdfs.push_back({"head", &h.field, 0.004});
    if (shaking) {
        in.motion.type = MotionType::Procedural;
        in.motion.turn_deg = 35;
        in.motion.nod_deg = 15;
        in.motion.shake_deg = 12;
        in.motion.shake_frequency_hz = 3.0;
        in.motion.frequency_hz = 0.8;
        in.motion.translate_m = {0.03, 0.02, 0.0};
        in.motion.pivot_m = glm::dvec3(h.centre);
    }
    return in;
}

std::vector<SimSdfOracle> oracles() { return {[](glm::vec3 p) { return head().oracle(p); }}; }

TEST(SimHead, GroomIsSmallAndStartsOutside) {
    const Head& h = head();
    ASSERT_EQ(h.groom.guides.strand_count(), 48u);
    auto w = build_sim_world(head_inputs(SimulationParams{}, false));
    ASSERT_TRUE(w.ok()) << w.error().describe();
    const SimFrameMetrics m = measure_frame(*w, oracles());
    EXPECT_EQ(m.vertices_inside, 0u);
    EXPECT_EQ(m.follow_vertices_inside, 0u);
}

TEST(SimHead, EverySegmentKeepsItsRestLengthWhileShaking) {
    auto w = build_sim_world(head_inputs(SimulationParams{}, true));
    ASSERT_TRUE(w.ok()) << w.error().describe();
    double worst = 0.0, mean = 0.0;
    for (int f = 0; f < 300; ++f) {
        ASSERT_TRUE(run_frames(*w, 1).ok());
        const SimFrameMetrics m = measure_frame(*w, {});
        ASSERT_EQ(m.non_finite, 0u);
        worst = std::max(worst, m.max_stretch);
        mean += m.mean_stretch / 300.0;
    }
    // Contact is resolved inside the solve (the last follow-the-leader sweep keeps the contacts), so every
    // segment ends every step at its rest length to rounding, segments resting on the head included; when
    // the SDF pushes came after the sweeps a tip on the head ended its step up to 31% long.
    EXPECT_LE(worst, 1e-4) << "maximum relative segment stretch over 300 frames (mean " << mean << ")";
    EXPECT_LE(mean, 1e-5);
    EXPECT_GT(glm::length(glm::vec3(w->groups[0].positions[15]) - glm::vec3(w->groups[0].rest_positions_os[15])), 1e-3f)
        << "the hair must actually move";
}

TEST(SimHead, NoGuideOrFollowVertexSinksIntoTheHeadWhileShaking) {
    SimulationParams p;
    p.global_stiffness = 0.0;   // soft, so the hair falls and swings against the head
    p.local_stiffness = 0.3;
    auto w = build_sim_world(head_inputs(p, true));
    ASSERT_TRUE(w.ok()) << w.error().describe();
    const double margin = 0.004;
    double worst_vertex = 0.0, worst_follow = 0.0, worst_mid = 0.0;
    size_t near_surface = 0;
    for (int step = 0; step < 2 * 150; ++step) {
        ASSERT_TRUE(step_once(*w).ok());
        // Measured every other step: the exact oracle (a winding number over every triangle near the
        // surface) is what this test spends its time on, and the shake moves the hair smoothly.
        if (step % 2 == 1) continue;
        const SimFrameMetrics m = measure_frame(*w, oracles());
        worst_vertex = std::max(worst_vertex, m.max_depth_vertex_m);
        worst_follow = std::max(worst_follow, m.max_depth_follow_m);
        worst_mid = std::max(worst_mid, m.max_depth_midpoint_m);
        if (step % 20 == 0)
            for (const glm::vec4& x : w->groups[0].positions)
                if (x.w > 0 && head().oracle(glm::vec3(glm::inverse(w->sdfs[0].transform) * glm::vec4(glm::vec3(x), 1.0f))) < 0.01f) ++near_surface;
    }
    EXPECT_LE(worst_vertex, 0.1 * margin);
    EXPECT_LE(worst_mid, 0.1 * margin);
    // Follow hairs too: pushed out of the field per vertex, and kept out of the head in the rest pose
    // where the field is too coarse to see it (correct_follows_at_rest).
    std::printf("deepest over 300 steps (every other one measured): guide vertex %.3g m, midpoint %.3g m, follow vertex %.3g m\n", worst_vertex, worst_mid, worst_follow);
    EXPECT_LE(worst_follow, 0.1 * margin);
    EXPECT_GT(near_surface, 20u) << "the test needs hair that actually touches the head";
}

// The bake's penetration query against the exact mesh answers points clear of the surface from a lattice
// of cached exact distances (MeshDistanceOracle::penetration_distance_m): it must give the exact distance
// inside the head and near it, and a positive lower bound of it elsewhere, so that counts and depths stay
// those of the exact query; and measure_frame, which asks from several threads, must report the same
// frame as with the exact query asked one point at a time.
TEST(SimHead, PenetrationQueryIsExactInsideAndABoundOutside) {
    const Head& h = head();
    const MeshDistanceOracle exact(h.mesh);
    ASSERT_TRUE(exact.closed()) << "the head scan is closed";
    ASSERT_GT(exact.lattice_cell_m(), 0.0);
    // Points around the head (its bounds grown by 5 cm) and 0-2 cm off random vertices along random
    // directions (the shell where hair lies), half of them in each.
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (const glm::vec3& p : h.mesh.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<glm::vec3> points;
    for (int i = 0; i < 20000; ++i) {
        if (i % 2 == 0) {
            points.push_back(glm::mix(lo - 0.05f, hi + 0.05f, glm::vec3(u(rng), u(rng), u(rng))));
        } else {
            const glm::vec3 dir = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) - 0.5f);
            points.push_back(h.mesh.positions[size_t(u(rng) * float(h.mesh.positions.size() - 1))] + dir * (0.02f * u(rng)));
        }
    }
    size_t inside = 0, bounded = 0;
    for (int pass = 0; pass < 2; ++pass)  // the second pass reads the nodes the first computed
        for (const glm::vec3& p : points) {
            const float e = exact.signed_distance_m(p);
            const float q = exact.penetration_distance_m(p);
            if (e < 0.0f) {
                ASSERT_EQ(q, e) << "inside: the exact depth, at " << p.x << " " << p.y << " " << p.z;
                inside += pass == 0;
            } else {
                ASSERT_GT(q, 0.0f) << "outside: positive, at " << p.x << " " << p.y << " " << p.z;
                ASSERT_LE(q, e + 1e-6f) << "outside: never more than the exact distance";
                bounded += pass == 0 && q < e;
            }
        }
    EXPECT_GT(inside, 1000u);
    EXPECT_GT(bounded, 5000u) << "most points clear of the surface should be answered by the lattice";
    EXPECT_LT(exact.lattice_nodes_computed(), points.size()) << "nodes are shared between points";

    // A shaken groom's frame: the same metrics as the exact query gives one point at a time.
    SimulationParams p;
    p.global_stiffness = 0.0;
    p.local_stiffness = 0.3;
    auto w = build_sim_world(head_inputs(p, true));
    ASSERT_TRUE(w.ok()) << w.error().describe();
    for (int step = 0; step < 120; ++step) ASSERT_TRUE(step_once(*w).ok());
    // Every 7th free guide and follow vertex moved 1.5 cm toward the head's centre: some inside, some
    // near the surface, most clear of it.
    size_t moved_inside = 0;
    for (std::vector<glm::vec4>* xs : {&w->groups[0].positions, &w->groups[0].follow_positions})
        for (size_t i = 2; i < xs->size(); i += 7) {
            glm::vec4& x = (*xs)[i];
            const glm::vec3 centre = glm::vec3(w->sdfs[0].transform * glm::vec4(h.centre, 1.0f));
            x = glm::vec4(glm::vec3(x) + glm::normalize(centre - glm::vec3(x)) * 0.015f, x.w);
            const glm::vec3 moved = glm::vec3(glm::inverse(w->sdfs[0].transform) * glm::vec4(glm::vec3(x), 1.0f));
            moved_inside += exact.signed_distance_m(moved) < 0.0f;
        }
    ASSERT_GT(moved_inside, 50u);
    const MeshDistanceOracle culled(h.mesh);
    const std::vector<SimSdfOracle> by_lattice = {culled.as_function()};
    const std::vector<SimSdfOracle> one_by_one = {[&exact](glm::vec3 x) { return exact.signed_distance_m(x); }};
    const SimFrameMetrics a = measure_frame(*w, by_lattice), b = measure_frame(*w, one_by_one);
    EXPECT_EQ(a.vertices_inside, b.vertices_inside);
    EXPECT_EQ(a.midpoints_inside, b.midpoints_inside);
    EXPECT_EQ(a.follow_vertices_inside, b.follow_vertices_inside);
    EXPECT_EQ(a.max_depth_vertex_m, b.max_depth_vertex_m);
    EXPECT_EQ(a.max_depth_midpoint_m, b.max_depth_midpoint_m);
    EXPECT_EQ(a.max_depth_follow_m, b.max_depth_follow_m);
    EXPECT_EQ(a.deepest_follow_hair, b.deepest_follow_hair);
    EXPECT_GT(a.vertices_inside + a.follow_vertices_inside, 50u);
}

// The default scene's kind of groom (a 45 degree cap, combed back and drooped, guides kept 5 mm out of
// the scalp): follow hairs blended between guides that pass on both sides of an ear start inside it,
// where the field (9.4 mm cells) does not see the ear at all. correct_follows_at_rest moves them out in
// the rest pose; measured against the exact mesh, not the field.
TEST(SimHead, FollowsBlendedAcrossAnEarStartOutsideIt) {
    const Head& h = head();
    auto groom = grow_group(test::combed_head_groom(h.mesh, 300, 6000));
    ASSERT_TRUE(groom.ok()) << groom.error().describe();
    SimWorldInputs in = head_inputs(SimulationParams{}, false);
    in.groups[0].groom = &*groom;
    in.sdfs[0].margin_m = 0.005;
    auto w = build_sim_world(in);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    const SimGroupState& g = w->groups[0];
    // The deepest follow vertex (k >= 2) of the corrected follows, against the exact mesh.
    auto deepest = [&](const SimGroupState& state) {
        double d = 0.0;
        for (size_t f = 0; f < state.follow_count(); ++f) {
            if (g.follow_descriptors[f].guides.w == 0u) continue;
            for (uint32_t k = 2; k < state.n; ++k) d = std::max(d, -double(h.oracle(glm::vec3(state.follow_positions[f * state.n + k]))));
        }
        return d;
    };
    size_t corrected = 0;
    for (const auto& d : g.follow_descriptors) corrected += d.guides.w != 0u ? 1u : 0u;
    ASSERT_EQ(g.follow_corrections.size(), corrected * g.n);
    const double with = deepest(g);
    SimWorld plain = *w;
    for (auto& d : plain.groups[0].follow_descriptors) d.guides.w = 0u;
    plain.groups[0].follow_corrections.clear();
    reset_to_rest(plain);
    const double without = deepest(plain.groups[0]);
    ASSERT_TRUE(step_once(*w).ok());
    const SimFrameMetrics m = measure_frame(*w, oracles());
    std::printf("%zu of %zu follows corrected; their deepest vertex at rest %.2f mm without the correction, %.3f mm with it; "
                "deepest follow vertex after a step %.3f mm\n",
                corrected, g.follow_count(), 1e3 * without, 1e3 * with, 1e3 * m.max_depth_follow_m);
    EXPECT_GT(corrected, 0u);
    EXPECT_GT(without, 0.5e-3) << "the groom must put follows inside the head for the test to mean anything";
    EXPECT_LE(with, 0.1 * 0.005);
    EXPECT_LE(m.max_depth_follow_m, 0.1 * 0.005);
}

TEST(SimHead, VerticesStartingInsideArePushedOut) {
    auto w = build_sim_world(head_inputs(SimulationParams{}, false));
    ASSERT_TRUE(w.ok()) << w.error().describe();
    SimGroupState& g = w->groups[0];
    const Head& h = head();
    // Bend the free vertices of every other strand into the head: behind the root, along the inward
    // normal of the root triangle, up to 2 cm deep.
    for (uint32_t s = 0; s < g.strand_count; s += 2) {
        const uint32_t* t = &h.mesh.indices[3 * h.groom.guides.roots[s].triangle];
        const glm::vec3 n = glm::normalize(glm::cross(h.mesh.positions[t[1]] - h.mesh.positions[t[0]], h.mesh.positions[t[2]] - h.mesh.positions[t[0]]));
        const glm::vec3 root(g.positions[size_t(s) * g.n]);
        for (uint32_t k = 2; k < g.n; ++k) {
            const glm::vec3 p = root - n * (0.02f * float(k) / float(g.n)) + glm::vec3(0.002f * float(k), 0, 0);
            g.positions[size_t(s) * g.n + k] = glm::vec4(p, 1.0f);
            g.prev_positions[size_t(s) * g.n + k] = glm::vec4(p, 1.0f);
        }
    }
    const SimFrameMetrics before = measure_frame(*w, oracles());
    ASSERT_GT(before.vertices_inside, 100u);
    ASSERT_TRUE(step_once(*w).ok());
    const SimFrameMetrics after = measure_frame(*w, oracles());
    EXPECT_LE(after.max_depth_vertex_m, 0.1 * 0.004) << after.vertices_inside << " vertices still inside after one step";
    ASSERT_TRUE(run_frames(*w, 120).ok());
    const SimFrameMetrics later = measure_frame(*w, oracles());
    EXPECT_EQ(later.vertices_inside, 0u);
    EXPECT_LE(later.max_depth_follow_m, 0.1 * 0.004);
}

// Overlap the step did not cause (here: the margin raised under resting hair, as an artist tuning it live
// does) is removed without becoming velocity; hair arriving from outside still gets the usual response.
TEST(SimHead, RaisingTheMarginPushesHairOutWithoutLaunchingIt) {
    SimulationParams p;
    p.global_stiffness = 0.0;
    p.local_stiffness = 0.2;
    p.damping = 0.5;
    auto w = build_sim_world(head_inputs(p, false));
    ASSERT_TRUE(w.ok()) << w.error().describe();
    const SimGroupState& g = w->groups[0];
    // Root-mean-square speed of the free vertices over a step: their displacement since `before` (x -
    // x_prev also holds the velocity corrections kept in the previous positions, which are not motion).
    std::vector<glm::vec4> before = g.positions;
    auto rms_speed = [&] {
        double sum = 0.0;
        size_t count = 0;
        for (size_t i = 0; i < g.positions.size(); ++i) {
            if (g.positions[i].w <= 0.0f) continue;
            const float v = glm::length(glm::vec3(g.positions[i] - before[i])) / float(w->step_dt_s());
            sum += double(v) * v;
            ++count;
        }
        before = g.positions;
        return float(std::sqrt(sum / double(count)));
    };
    ASSERT_TRUE(run_frames(*w, 149).ok());  // settle onto the head
    before = g.positions;
    ASSERT_TRUE(run_frames(*w, 1).ok());
    const float settled = rms_speed();
    const float margin = 0.015f;
    w->sdfs[0].margin_m = margin;
    // The first steps move the hair out to the new margin; what follows is whatever velocity that left.
    float fastest = 0.0f;
    for (int i = 0; i < 60; ++i) {
        ASSERT_TRUE(step_once(*w).ok());
        const float v = rms_speed();
        if (i >= 4) fastest = std::max(fastest, v);
    }
    size_t inside = 0, near = 0;
    for (size_t i = 0; i < g.positions.size(); ++i) {
        if (i % g.n < 4) continue;  // next to the roots, which sit within the new margin
        const float d = head().oracle(glm::vec3(g.positions[i]));
        inside += d < 0.5f * margin ? 1 : 0;
        near += d < 1.5f * margin ? 1 : 0;
    }
    std::printf("rms speed settled %.4f, after raising the margin at most %.4f m/s\n", settled, fastest);
    RecordProperty("rms_speed_after_mps", std::to_string(fastest));
    EXPECT_GT(near, 50u) << "the test needs hair resting near the head";
    EXPECT_EQ(inside, 0u) << "hair must move out to the raised margin";
    // Measured: 0.163 m/s settled (still swinging after 2.5 s), at most 0.094 from the fifth step after the
    // raise. (With x - x_prev as the speed, the measure before the velocity corrections were told apart
    // from motion, the whole push turned into velocity read 0.52 m/s against 0.199.)
    EXPECT_LT(fastest, settled + 0.1f) << "the push out to the new margin turned into velocity";
}

TEST(SimHead, FullGlobalStiffnessKeepsAStillGroomAtRest) {
    SimulationParams p;
    p.global_stiffness = 1.0;
    p.global_range = 1.0;
    auto w = build_sim_world(head_inputs(p, false));
    ASSERT_TRUE(w.ok()) << w.error().describe();
    ASSERT_TRUE(run_frames(*w, 120).ok());
    const SimGroupState& g = w->groups[0];
    float worst = 0.0f;
    for (size_t i = 0; i < g.positions.size(); ++i)
        worst = std::max(worst, glm::length(glm::vec3(g.positions[i]) - glm::vec3(g.rest_positions_os[i])));
    EXPECT_LE(worst, 1e-4f);
}

TEST(SimHead, ZeroStiffnessUnderGravityHangsTips) {
    SimulationParams p;
    p.global_stiffness = 0.0;
    p.local_stiffness = 0.0;
    p.vsp_coeff = 0.0;
    p.friction = 0.0;  // static friction holds limp hair lying on the crown where it lies
    p.static_friction = 0.0;
    auto w = build_sim_world(head_inputs(p, false));
    ASSERT_TRUE(w.ok()) << w.error().describe();
    ASSERT_TRUE(run_frames(*w, 240).ok());
    const SimGroupState& g = w->groups[0];
    size_t below = 0;
    for (uint32_t s = 0; s < g.strand_count; ++s)
        below += g.positions[size_t(s) * g.n + g.n - 1].y < g.positions[size_t(s) * g.n].y - 0.02f ? 1 : 0;
    EXPECT_EQ(below, size_t(g.strand_count)) << "every tip hangs below its root";
}

// Rat Boy: the mohawk's roots sit about 1 mm from the body, half of them just inside. Pinned roots are
// exempt from collision and must not disturb their free neighbours; the two degenerate strands must not
// poison anything.
TEST(SimRatboy, PinnedRootsInsideTheBodyAreExemptAndHarmless) {
    auto body = read_tfxmesh(test::testdata("tressfx/Ratboy_body.tfxmesh"));
    ASSERT_TRUE(body.ok()) << body.error().describe();
    const Mesh& mesh = body->mesh;
    GroomInputs gin;
    gin.scalp = &mesh;
    gin.group.growth.placement = Placement::File;
    gin.group.growth.guide_file = "Ratboy_mohawk.tfx";
    gin.base_dir = test::testdata("tressfx");
    gin.group.follow.mode = FollowMode::None;
    auto full = grow_group(gin);
    ASSERT_TRUE(full.ok()) << full.error().describe();
    const TriangleBvh bvh(mesh.positions, mesh.indices);
    auto field = std::make_unique<SdfGrid>(test::build_test_field(mesh, 100, 0.05));
    auto signed_d = [&](glm::vec3 p) {
        const float d = bvh.closest(p).distance_m;
        return field->sample_m(p) < 0.0f ? -d : d;
    };
    // A subset: the degenerate strands, 24 with the root inside the body, 24 with it outside.
    GroomResult sub;
    size_t inside = 0, outside = 0;
    for (size_t s = 0; s < full->guides.strand_count(); ++s) {
        const bool degenerate = (full->guides.flags[s] & kStrandDegenerate) != 0;
        const bool in = signed_d(full->guides.strand(s)[0]) < 0.0f;
        if (!degenerate && (in ? inside : outside) >= 24) continue;
        if (!degenerate) ++(in ? inside : outside);
        for (const glm::vec3& p : full->guides.strand(s)) sub.guides.points_os_m.push_back(p);
        sub.guides.strand_offsets.push_back(uint32_t(sub.guides.points_os_m.size()));
        sub.guides.roots.push_back(full->guides.roots[s]);
        sub.guides.seeds.push_back(full->guides.seeds[s]);
        sub.guides.flags.push_back(full->guides.flags[s]);
        sub.guide_frames.push_back(full->guide_frames[s]);
    }
    ASSERT_EQ(inside, 24u) << "Ratboy_mohawk.tfx should have roots just inside the body";
    ASSERT_EQ(sub.guides.strand_count(), 50u);

    SimWorldInputs in;
    SimGroupInputs g;
    g.name = "mohawk";
    g.groom = &sub;
    g.scalp_mesh = "body";
    // Rat Boy's own settings (FORMATS.md), under full gravity.
    g.params.gpu_vertices_per_strand = 32;
    g.params.damping = 0.068;
    g.params.global_stiffness = 0.408;
    g.params.global_range = 0.308;
    g.params.local_stiffness = 0.908;
    g.params.vsp_coeff = 0.758;
    g.params.sdf = {"body"};
    in.groups.push_back(g);
    const double margin = 0.002;
    in.sdfs.push_back({"body", field.get(), margin});
    in.environment.gravity_mps2 = {0.0, -9.81, 0.0};
    auto w = build_sim_world(in);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    const std::vector<SimSdfOracle> oracle = {signed_d};
    const SimGroupState& sg = w->groups[0];
    std::vector<glm::vec4> rest = sg.positions;
    double worst_depth = 0.0;
    for (int f = 0; f < 90; ++f) {
        ASSERT_TRUE(run_frames(*w, 1).ok());
        const SimFrameMetrics m = measure_frame(*w, oracle);
        ASSERT_EQ(m.non_finite, 0u);
        worst_depth = std::max(worst_depth, m.max_depth_vertex_m);
    }
    EXPECT_LE(worst_depth, 0.1 * margin);
    for (uint32_t s = 0; s < sg.strand_count; ++s) {
        const size_t b = size_t(s) * sg.n;
        // Roots stay exactly where the scalp puts them, inside or not.
        EXPECT_EQ(sg.positions[b], rest[b]);
        EXPECT_EQ(sg.positions[b + 1], rest[b + 1]);
        if (sg.strand_flags[s] & kStrandDegenerate) continue;
        // The first free vertex is not thrown away from its root: at most the segment length plus the margin
        // from the rest pose (it sags under gravity; an exempt-root bug would fling it).
        const float seg = sg.rest_lengths_m[b + 1];
        EXPECT_LE(glm::length(glm::vec3(sg.positions[b + 2]) - glm::vec3(rest[b + 2])), seg + float(margin)) << "strand " << s;
        EXPECT_NEAR(glm::length(glm::vec3(sg.positions[b + 2]) - glm::vec3(sg.positions[b + 1])), seg, 0.02f * seg + 1e-5f);
    }
}

}  // namespace
}  // namespace tressel
