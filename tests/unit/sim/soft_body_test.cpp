// Soft-body accessories (engine/sim/soft_body.h): sampling, clusters, the render binding, the refused
// inputs, and the CPU reference's behaviour dropped on a ball, pinned under gravity and carried by motion.
#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include "groom/groom_bench.h"
#include "hair_cloth_world.h"
#include "sim/mesh_oracle.h"
#include "sim/sim.h"
#include "sim/soft_body.h"
#include "sim_test_util.h"

namespace tressel {
namespace {


// A closed box of half extents `half` centred at `centre` (12 triangles, outward winding).
Mesh box_mesh(glm::vec3 centre, glm::vec3 half) {
    Mesh m;
    m.name = "box";
    for (int i = 0; i < 8; ++i) m.positions.push_back(centre + half * glm::vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
    const uint32_t f[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                               {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    for (const auto& t : f) m.indices.insert(m.indices.end(), {t[0], t[1], t[2]});
    return m;
}

// A closed torus about the y axis: major radius R, tube radius r.
Mesh torus_mesh(float big_r, float r, int rings = 24, int sides = 12) {
    Mesh m;
    m.name = "ring";
    const float tau = 6.2831853f;
    for (int i = 0; i < rings; ++i)
        for (int j = 0; j < sides; ++j) {
            const float u = tau * float(i) / float(rings), v = tau * float(j) / float(sides);
            m.positions.push_back({(big_r + r * std::cos(v)) * std::cos(u), r * std::sin(v), (big_r + r * std::cos(v)) * std::sin(u)});
        }
    auto at = [&](int i, int j) { return uint32_t((i % rings) * sides + (j % sides)); };
    for (int i = 0; i < rings; ++i)
        for (int j = 0; j < sides; ++j) {
            const uint32_t a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
            m.indices.insert(m.indices.end(), {a, c, b, a, d, c});
        }
    return m;
}

Result<ClothState> build(const Mesh& m, const SoftBodyParams& params = {}, const AccessoryPins& pins = {PinMode::None}) {
    SoftBodyBuildInputs in;
    in.name = "bun";
    in.mesh = &m;
    in.params = params;
    in.pins = pins;
    return build_soft_body(in);
}

ClothState must_build(const Mesh& m, const SoftBodyParams& params = {}, const AccessoryPins& pins = {PinMode::None}) {
    auto b = build(m, params, pins);
    EXPECT_TRUE(b.ok()) << b.error().describe();
    return b.ok() ? std::move(*b) : ClothState{};
}

std::string build_error(const Mesh& m, const SoftBodyParams& params = {}, const AccessoryPins& pins = {PinMode::None}) {
    auto b = build(m, params, pins);
    return b.ok() ? std::string() : b.error().message;
}

SimWorld body_world(ClothState body, const std::vector<SimSdfInputs>& sdfs = {}, const std::vector<Collider>& colliders = {}) {
    SimWorldInputs in;
    in.sdfs = sdfs;
    in.colliders = colliders;
    SimWorld w = test::build(in);
    for (uint32_t i = 0; i < sdfs.size(); ++i) body.sdf_indices.push_back(i);
    for (uint32_t i = 0; i < colliders.size(); ++i) body.collider_indices.push_back(i);
    w.cloths.push_back(std::move(body));
    return w;
}

glm::vec3 centroid(const ClothState& b) {
    glm::dvec3 s(0.0);
    for (const glm::vec4& p : b.positions) s += glm::dvec3(glm::vec3(p));
    return glm::vec3(s / double(b.positions.size()));
}

// Mean distance of the particles from their centroid: the body's size, whatever its pose.
double spread(const ClothState& b) {
    const glm::vec3 c = centroid(b);
    double s = 0.0;
    for (const glm::vec4& p : b.positions) s += glm::length(glm::vec3(p) - c);
    return s / double(b.positions.size());
}

TEST(SoftBodyBuild, FillsTheMeshWithALatticeOfClustersAndBindsItsVertices) {
    const float r = 0.04f;
    const Mesh ball = make_sphere_mesh(r, 16, 24);
    SoftBodyParams params;
    params.particle_spacing_m = 0.01;
    const ClothState b = must_build(ball, params);
    ASSERT_TRUE(b.soft_body);
    // As many particles as cells of the spacing fit the ball's volume (the faceted ball is a little smaller).
    const double expected = 4.0 / 3.0 * 3.14159265 * r * r * r / 1e-6;
    EXPECT_NEAR(double(b.vertex_count()), expected, 0.15 * expected);
    EXPECT_NEAR(b.total_mass_kg, params.density_kg_m3 * 1e-6 * double(b.vertex_count()), 1e-6);
    // Every particle is inside; an interior one has the full 3 x 3 x 3 cluster, itself included.
    const MeshDistanceOracle inside(ball);
    uint32_t full = 0;
    for (uint32_t v = 0; v < b.vertex_count(); ++v) {
        EXPECT_LT(inside.signed_distance_m(glm::vec3(b.positions[v])), 0.0f);
        const auto& cv = b.vertices[v];
        EXPECT_GE(cv.edges, 1u);
        EXPECT_LE(cv.edges, 27u);
        bool self = false;
        for (uint32_t i = 0; i < cv.edges; ++i) self = self || b.adjacency[cv.first + i] == v;
        EXPECT_TRUE(self);
        full += cv.edges == 27u ? 1u : 0u;
    }
    EXPECT_GT(full, 0u);
    // The render mesh at rest is the mesh: every cluster's goal of a point is the point itself.
    ASSERT_EQ(b.render_vertices.size(), ball.positions.size());
    const Mesh drawn = cloth_mesh(b);
    ASSERT_EQ(drawn.positions.size(), ball.positions.size());
    EXPECT_EQ(drawn.indices, ball.indices);
    for (size_t i = 0; i < ball.positions.size(); ++i) {
        const auto& rv = b.render_vertices[i];
        EXPECT_NEAR(glm::dot(rv.w0, glm::vec4(1.0f)) + glm::dot(rv.w1, glm::vec4(1.0f)), 1.0f, 1e-5f);
        EXPECT_LT(glm::length(drawn.positions[i] - ball.positions[i]), 1e-6f);
        EXPECT_GT(glm::dot(drawn.normals[i], ball.normals[i]), 0.9999f);
    }
}

TEST(SoftBodyBuild, BadMeshesSpacingsAndPinSetsAreRefusedWithTheirReason) {
    const Mesh ball = make_sphere_mesh(0.04f, 12, 16);
    Mesh open = ball;
    open.indices.resize(open.indices.size() - 3);
    EXPECT_NE(build_error(open).find("not closed"), std::string::npos) << build_error(open);
    Mesh none = ball;
    none.indices.clear();
    EXPECT_NE(build_error(none).find("no triangles"), std::string::npos);
    Mesh nan = ball;
    nan.positions[5].y = std::nanf("");
    EXPECT_NE(build_error(nan).find("not finite"), std::string::npos);
    Mesh bad_index = ball;
    bad_index.indices[4] = 100000;
    EXPECT_NE(build_error(bad_index).find("past its"), std::string::npos);
    // A ring of 5 cm with a 1 cm tube sampled 10 cm apart: the lattice's cells are centred off the tube.
    SoftBodyParams coarse;
    coarse.particle_spacing_m = 0.1;
    const Mesh ring = torus_mesh(0.05f, 0.01f);
    EXPECT_NE(build_error(ring, coarse).find("no particle fits"), std::string::npos) << build_error(ring, coarse);
    coarse.particle_spacing_m = 0.005;
    EXPECT_EQ(build_error(ring, coarse), "");
    SoftBodyParams fine;
    fine.particle_spacing_m = 0.001;
    const Mesh big = box_mesh(glm::vec3(0.0f), glm::vec3(0.5f));
    EXPECT_NE(build_error(big, fine).find("raise particle_spacing"), std::string::npos) << build_error(big, fine);
    SoftBodyParams out_of_range;
    out_of_range.stiffness = 2.0;
    EXPECT_NE(build_error(ball, out_of_range).find("stiffness"), std::string::npos);
    AccessoryPins all{PinMode::Box};
    all.box_min_m = glm::dvec3(-1.0);
    all.box_max_m = glm::dvec3(1.0);
    EXPECT_NE(build_error(ball, {}, all).find("every particle is pinned"), std::string::npos);
    AccessoryPins empty{PinMode::Box};
    empty.box_min_m = glm::dvec3(5.0);
    empty.box_max_m = glm::dvec3(6.0);
    EXPECT_NE(build_error(ball, {}, empty).find("selects no particle"), std::string::npos);
    EXPECT_NE(build_error(ball, {}, AccessoryPins{PinMode::VertexColor}).find("no vertex colours"), std::string::npos);
}

TEST(SoftBodySim, CarriedByItsPinsRigidlyWhenTheAttachMeshMoves) {
    // A box pinned at one end, attach mesh turned 90 degrees and moved: at rest under that transform the
    // particles and the render mesh are the transformed rest shape.
    const Mesh bar = box_mesh(glm::vec3(0.05f, 0.0f, 0.0f), glm::vec3(0.05f, 0.01f, 0.01f));
    AccessoryPins pins{PinMode::Box};
    pins.box_min_m = glm::dvec3(-1.0);
    pins.box_max_m = glm::dvec3(0.012, 1.0, 1.0);
    SoftBodyParams params;
    params.particle_spacing_m = 0.005;
    ClothState b = must_build(bar, params, pins);
    glm::mat4 t = glm::translate(glm::mat4(1.0f), glm::vec3(0.3f, -0.2f, 0.1f)) * glm::rotate(glm::mat4(1.0f), 1.5707963f, glm::vec3(0, 1, 0));
    place_cloth_at_rest(b, t);
    const Mesh drawn = cloth_mesh(b);
    for (size_t i = 0; i < bar.positions.size(); ++i)
        EXPECT_LT(glm::length(drawn.positions[i] - glm::vec3(t * glm::vec4(bar.positions[i], 1.0f))), 1e-5f);
}

// A free ball of 4 cm dropped from 5 cm onto a slab (its SDF), then left to settle.
struct Drop {
    double deepest_m = 1e9;       // smallest particle distance above the slab, less its collision radius
    double energy_growth = 0.0;   // largest potential + kinetic energy per kg above the drop's (J/kg; the elastic energy is not counted)
    double energy_lost = 0.0;     // drop's energy less the final one (J/kg)
    double final_ke = 0.0;        // J/kg
    double spread_ratio = 0.0;    // body size at the end / at rest
    double rest_drift_m = 0.0;    // centroid motion over the last half second
};

Drop drop_on_slab(double stiffness, const std::vector<SimSdfInputs>& sdfs) {
    const float r = 0.04f;
    Mesh bun = make_sphere_mesh(r, 16, 24);
    for (glm::vec3& p : bun.positions) p.y += r + 0.05f;
    SoftBodyParams params;
    params.particle_spacing_m = 0.01;
    params.stiffness = stiffness;
    params.friction = 0.8;
    SimWorld w = body_world(must_build(bun, params), sdfs);
    const ClothState& b = w.cloths[0];
    const double rest_spread = spread(b);
    const double g = 9.81;
    auto energy = [&] { return g * soft_body_mean_height(b, glm::vec3(0, 1, 0)) + cloth_kinetic_energy(b, w.step_dt_s()); };
    Drop d;
    const double e0 = energy();
    glm::vec3 c_half(0.0f);
    const int frames = 150;
    for (int f = 0; f < frames; ++f) {
        EXPECT_TRUE(run_frames(w, 1).ok());
        for (size_t v = 0; v < b.vertex_count(); ++v) d.deepest_m = std::min(d.deepest_m, double(b.positions[v].y) - double(b.vertices[v].tether_m));
        d.energy_growth = std::max(d.energy_growth, energy() - e0);
        if (f == frames - 31) c_half = centroid(b);
    }
    d.final_ke = cloth_kinetic_energy(b, w.step_dt_s());
    d.energy_lost = e0 - energy();
    d.spread_ratio = spread(b) / rest_spread;
    d.rest_drift_m = glm::length(centroid(b) - c_half);
    return d;
}

TEST(SoftBodySim, DroppedOnASlabComesToRestWithoutSinkingInOrExploding) {
    const Mesh slab = box_mesh(glm::vec3(0.0f, -0.05f, 0.0f), glm::vec3(0.3f, 0.05f, 0.3f));
    const SdfGrid field = test::build_test_field(slab, 64, 0.3);
    const double margin = 0.004;
    for (double stiffness : {0.99, 0.999}) {
        const Drop d = drop_on_slab(stiffness, {{"slab", &field, margin}});
        std::printf("soft ball (stiffness %.3f) dropped on a slab: deepest %.5f m from the margin-less surface (margin %.3f), energy above the "
                    "drop's %.2e J/kg, lost %.3f J/kg, final KE %.2e J/kg, size %.3f of rest, drift %.5f m over 0.5 s\n",
                    stiffness, d.deepest_m, margin, d.energy_growth, d.energy_lost, d.final_ke, d.spread_ratio, d.rest_drift_m);
        // Never deeper into the slab than 0.1 x margin (each particle's radius counted), every frame.
        EXPECT_GT(d.deepest_m, -0.1 * margin);
        // Its energy never rises above the drop's (rounding only): contacts and shape matching add none;
        // the fall's energy is lost (friction, damping, inelastic contact), and it rests, its shape kept.
        EXPECT_LT(d.energy_growth, 1e-4);
        EXPECT_GT(d.energy_lost, 0.4);
        EXPECT_LT(d.final_ke, 1e-4);
        EXPECT_LT(d.rest_drift_m, 0.002);
        EXPECT_NEAR(d.spread_ratio, 1.0, 0.1);
    }
}

// A bar of 6 x 3 x 3 cm pinned at one end, held out sideways: how far its free end sags.
double bar_sag(double stiffness, int iterations, double spacing = 0.005) {
    const Mesh bar = box_mesh(glm::vec3(0.03f, 0.0f, 0.0f), glm::vec3(0.03f, 0.015f, 0.015f));
    AccessoryPins pins{PinMode::Box};
    pins.box_min_m = glm::dvec3(-1.0);
    pins.box_max_m = glm::dvec3(0.011, 1.0, 1.0);
    SoftBodyParams params;
    params.particle_spacing_m = spacing;
    params.stiffness = stiffness;
    params.iterations = iterations;
    params.damping = 0.2;
    SimWorld w = body_world(must_build(bar, params, pins));
    EXPECT_TRUE(run_frames(w, 240).ok());
    double tip = 0.0;
    int n = 0;
    for (size_t v = 0; v < w.cloths[0].vertex_count(); ++v)
        if (w.cloths[0].vertices[v].rest_os.x > 0.05f) tip += double(w.cloths[0].positions[v].y - w.cloths[0].vertices[v].rest_os.y), ++n;
    return -tip / n;
}

TEST(SoftBodySim, StiffnessMeansTheSameAt5And20Iterations) {
    // Where the compliance decides (up to about 0.9 at 5 mm; stiffer bodies are softer at few iterations,
    // where one Jacobi matching per small step has not converged: 0.040 against 0.029 m at 0.95).
    const double s5 = bar_sag(0.8, 5), s20 = bar_sag(0.8, 20), limp = bar_sag(0.5, 10), firm = bar_sag(0.95, 20);
    std::printf("pinned bar's tip sag: %.4f m at 5 iterations, %.4f at 20 (stiffness 0.8); %.4f at stiffness 0.5, %.4f at 0.95\n", s5, s20,
                limp, firm);
    EXPECT_GT(s5, 0.005);
    EXPECT_NEAR(s5, s20, 0.1 * s20);
    EXPECT_GT(limp, 1.5 * s20);
    EXPECT_LT(firm, 0.7 * s20);
}

TEST(SoftBodySim, FirmnessIsTheSameAt5And10MmSpacing) {
    const double fine = bar_sag(0.95, 10, 0.005), coarse = bar_sag(0.95, 10, 0.01);
    std::printf("pinned bar's tip sag at stiffness 0.95: %.4f m sampled 5 mm apart, %.4f at 10 mm\n", fine, coarse);
    EXPECT_NEAR(fine, coarse, 0.3 * coarse);
}

// Hair against a soft body (add_accessory_field: the signed field of its drawn surface, rebuilt every
// step): strands swinging up into a soft ball pinned at its top stay outside its surface (the exact
// distance to the drawn mesh, every 5th of 40 frames); without the field they pass into it.
TEST(SoftBodyHair, HairSwingingIntoASoftBallStaysOutsideIt) {
    for (bool collide : {true, false}) {
        auto h = test::make_hair_against_soft_ball(collide);
        SimWorld& w = h->world;
        ASSERT_EQ(w.accessory_fields.size(), collide ? 1u : 0u);
        EXPECT_FALSE(h->field.desc.shell) << "a closed surface: a signed distance";
        const double limit = w.groups[0].params.particle_radius_m;
        size_t inside = 0, near = 0;
        double deepest = 0.0;
        ASSERT_TRUE(run_frames(w, 30).ok());  // past the field's half-second ease-in
        for (int f = 0; f < 8; ++f) {
            ASSERT_TRUE(run_frames(w, 5).ok());
            const MeshDistanceOracle ball(cloth_mesh(w.cloths[0]));
            for (const glm::vec4& p : w.groups[0].positions) {
                const double d = ball.signed_distance_m(glm::vec3(p));
                near += d < 0.01 ? 1 : 0;
                inside += d < -limit ? 1 : 0;
                deepest = std::max(deepest, -d);
            }
        }
        std::printf("hair against a soft ball (%s): %zu vertex-frames within 1 cm of its surface, %zu inside it by more than %.4f m, deepest %.4f m\n",
                    collide ? "colliding" : "not colliding", near, inside, limit, deepest);
        EXPECT_GT(near, 50u) << "the strands reach the ball";
        if (collide) {
            EXPECT_EQ(inside, 0u);
            EXPECT_LT(deepest, limit);
        } else {
            EXPECT_GT(inside, 50u) << "the strands swing through where the ball is";
        }
    }
}

// Hair that starts inside a soft body (lying under a bun) is let out while its field eases in over half a
// second (SimSdfState::ease_in_s), not pushed out in one step: the strands lying through a ball (swinging
// up, gravity pulling up) move no faster than without the ball, where its field pushing at once whips
// them, and are out of it once the ease-in is over.
TEST(SoftBodyHair, HairStartingInsideIsLetOutWithoutLaunch) {
    const glm::vec3 centre(0.07f, 0.05f, 0.0f);  // on the strands lying along +x, their roots outside it
    double fastest[3] = {0.0, 0.0, 0.0};        // eased in, pushed at once, no field
    for (int run = 0; run < 3; ++run) {
        auto h = test::make_hair_against_soft_ball(run < 2, centre);
        SimWorld& w = h->world;
        SimGroupState& g = w.groups[0];
        EXPECT_TRUE(g.sdf_exempt.empty()) << "every root is outside the ball";
        if (run == 1) w.sdfs.back().ease_in_s = 0.0, w.sdfs.back().margin_offset_m = 0.0;
        for (int f = 0; f < 40; ++f) {
            const std::vector<glm::vec4> before = g.positions;
            ASSERT_TRUE(run_frames(w, 1).ok());
            for (size_t v = 0; v < g.positions.size(); ++v)
                fastest[run] = std::max(fastest[run], double(glm::length(glm::vec3(g.positions[v] - before[v]))) / w.frame_dt_s());
        }
        if (run == 0) {
            const MeshDistanceOracle ball(cloth_mesh(w.cloths[0]));
            size_t inside = 0;
            for (size_t v = 0; v < g.positions.size(); ++v)
                if (v % g.n >= gpu_shared::kSimPinnedVertices) inside += ball.signed_distance_m(glm::vec3(g.positions[v])) < -g.params.particle_radius_m ? 1 : 0;
            EXPECT_EQ(inside, 0u) << "out of the ball after the ease-in";
        }
    }
    std::printf("strands lying through a ball, fastest vertex over 40 frames: %.3f m/s with its field eased in, %.3f m/s pushed at once, "
                "%.3f m/s without the ball\n", fastest[0], fastest[1], fastest[2]);
    EXPECT_LT(fastest[0], 1.25 * fastest[2]);
    EXPECT_GT(fastest[1], 2.0 * fastest[0]);
}

// A guide the growth left wedged in a body (kStrandWedged: grown around a bun and still in it where the bun
// meets the scalp) is left to that body's field like one rooted inside it, where its groomed shape lies
// deeper in the field than the margin; a wedged guide clear of the body, and any guide without the flag
// (HairStartingInsideIsLetOutWithoutLaunch: lying through the ball, let out), still collides.
TEST(SoftBodyHair, WedgedStrandsLyingInTheBodyAreLeftToIt) {
    const glm::vec3 centre(0.07f, 0.05f, 0.0f);  // on the strands lying along +x, their roots outside it
    auto h = test::make_hair_against_soft_ball(true, centre, /*wedged=*/true);
    auto free = test::make_hair_against_soft_ball(false, centre);
    SimWorld& w = h->world;
    const SimGroupState& g = w.groups[0];
    ASSERT_EQ(g.sdf_exempt.size(), size_t(g.strand_count + g.follow_count()));
    const MeshDistanceOracle ball(cloth_mesh(w.cloths[0]));
    size_t lying_in = 0, clear = 0;
    for (uint32_t s = 0; s < g.strand_count; ++s) {
        double nearest = 1e9;  // the strand's signed distance from the ball (its free vertices), metres
        for (uint32_t k = 1; k < g.n; ++k) nearest = std::min(nearest, double(ball.signed_distance_m(glm::vec3(g.positions[size_t(s) * g.n + k]))));
        const bool exempt = (g.sdf_exempt[s] >> (g.sdf_indices.size() - 1)) & 1u;
        // A cell (1 cm) either side of the field's threshold (2 mm inside), where the trilinear field may err.
        if (nearest < -0.012) {
            EXPECT_TRUE(exempt) << "strand " << s << " lies in the ball";
        }
        if (nearest > 0.008) {
            EXPECT_FALSE(exempt) << "strand " << s << " is clear of the ball";
        }
        lying_in += nearest < -0.012 ? 1 : 0;
        clear += nearest > 0.008 ? 1 : 0;
    }
    std::printf("wedged guides: %zu of %u lie in the ball (left to it), %zu clear of it (colliding)\n", lying_in, g.strand_count, clear);
    EXPECT_GT(lying_in, 0u);
    EXPECT_GT(clear, 0u);
    ASSERT_TRUE(run_frames(w, 40).ok());
    ASSERT_TRUE(run_frames(free->world, 40).ok());
    size_t different = 0;
    for (uint32_t s = 0; s < g.strand_count; ++s)
        if ((g.sdf_exempt[s] >> (g.sdf_indices.size() - 1)) & 1u)
            for (uint32_t k = 0; k < g.n; ++k)
                different += g.positions[size_t(s) * g.n + k] != free->world.groups[0].positions[size_t(s) * g.n + k] ? 1 : 0;
    EXPECT_EQ(different, 0u) << "a guide left to the ball moves as without its field";
}

// Strands rooted inside a soft body (hair grown under a bun pinned to the scalp) cannot leave it: its field
// leaves them alone (SimGroupState::sdf_exempt) instead of pushing them against their own roots every step;
// the strands rooted outside still collide with it. The exempt strands move exactly as without the field.
TEST(SoftBodyHair, StrandsRootedInsideTheBodyAreLeftToIt) {
    const glm::vec3 centre(-0.07f, 0.07f, 0.0f);  // over the roots' grid at y = 0.05
    auto h = test::make_hair_against_soft_ball(true, centre);
    auto free = test::make_hair_against_soft_ball(false, centre);
    SimWorld& w = h->world;
    const SimGroupState& g = w.groups[0];
    std::vector<bool> exempt(g.strand_count, false);
    {
        const MeshDistanceOracle ball(cloth_mesh(w.cloths[0]));
        size_t inside = 0;
        for (uint32_t s = 0; s < g.strand_count; ++s) {
            const bool in = ball.signed_distance_m(glm::vec3(g.positions[size_t(s) * g.n])) < kSoftFieldMarginM;
            exempt[s] = s < g.sdf_exempt.size() && g.sdf_exempt[s] == (1u << (g.sdf_indices.size() - 1));
            inside += in ? 1 : 0;
            EXPECT_EQ(in, exempt[s]) << "strand " << s;
        }
        std::printf("soft ball over the roots: %zu of %u strands rooted inside it\n", inside, g.strand_count);
        EXPECT_GE(inside, 4u);
        EXPECT_LE(inside, 30u);
    }
    ASSERT_TRUE(run_frames(w, 40).ok());
    ASSERT_TRUE(run_frames(free->world, 40).ok());
    const MeshDistanceOracle now(cloth_mesh(w.cloths[0]));
    size_t outside_inside = 0, different = 0, exempt_inside = 0;
    for (uint32_t s = 0; s < g.strand_count; ++s)
        for (uint32_t k = gpu_shared::kSimPinnedVertices; k < g.n; ++k) {
            const size_t v = size_t(s) * g.n + k;
            const bool in = now.signed_distance_m(glm::vec3(g.positions[v])) < -g.params.particle_radius_m;
            if (exempt[s]) {
                different += g.positions[v] != free->world.groups[0].positions[v] ? 1 : 0;
                exempt_inside += in ? 1 : 0;
            } else {
                outside_inside += in ? 1 : 0;
            }
        }
    std::printf("after 40 frames: %zu vertices of the exempt strands inside the ball, %zu of the others\n", exempt_inside, outside_inside);
    EXPECT_EQ(different, 0u) << "an exempt strand moves as without the field";
    EXPECT_GT(exempt_inside, 0u) << "the exempt strands stay in the ball";
    EXPECT_EQ(outside_inside, 0u) << "the strands rooted outside stay out of it";
}

}  // namespace
}  // namespace tressel
