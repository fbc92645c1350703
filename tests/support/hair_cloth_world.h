// Hair against accessories, for the tests of hair against accessories (CPU reference and GPU): 36 strands
// rooted on a 6 x 6 grid at y = 0.05 m, lying along +x, gravity pulling up so that they swing up; over them
// a 0.4 m sheet at y = 0.1 m pinned along its border (which bulges up a little), or a soft ball pinned at
// its top.
#pragma once

#include <gtest/gtest.h>

#include "groom/groom_bench.h"
#include "groom/grow.h"
#include "sim/cloth.h"
#include "sim/sim.h"
#include "sim/soft_body.h"

namespace tressel::test {

// Appends a straight guide of `points` evenly spaced points from root to tip (identity frame) to the groom.
inline void add_straight_guide(GroomResult& groom, glm::vec3 root, glm::vec3 tip, uint32_t points) {
    Strands& s = groom.guides;
    for (uint32_t k = 0; k < points; ++k) s.points_os_m.push_back(glm::mix(root, tip, float(k) / float(points - 1)));
    s.strand_offsets.push_back(uint32_t(s.points_os_m.size()));
    s.roots.push_back({});
    s.seeds.push_back(uint32_t(s.seeds.size()));
    s.flags.push_back(0u);
    groom.guide_frames.push_back({glm::vec4(1, 0, 0, 0), glm::vec4(0, 1, 0, 0), glm::vec4(0, 0, 1, 0)});
}

// The 36 rising strands' world; false (with a test failure) when it cannot be built.
inline bool build_rising_hair(GroomResult& groom, SimWorld& world) {
    for (int j = 0; j < 6; ++j)
        for (int i = 0; i < 6; ++i) {
            const glm::vec3 root(-0.12f + 0.02f * float(i), 0.05f, -0.05f + 0.02f * float(j));
            add_straight_guide(groom, root, root + glm::vec3(0.14f, 0.0f, 0.0f), 16);
        }
    SimWorldInputs in;
    SimGroupInputs g;
    g.name = "hair";
    g.groom = &groom;
    g.params.gpu_vertices_per_strand = 16;
    g.params.global_stiffness = 0.0;
    g.params.local_stiffness = 0.0;
    g.params.vsp_coeff = 0.0;
    g.params.damping = 0.1;
    in.groups.push_back(g);
    in.environment.gravity_mps2 = glm::dvec3(0.0, 9.81, 0.0);
    auto w = build_sim_world(in);
    EXPECT_TRUE(w.ok()) << w.error().describe();
    if (!w.ok()) return false;
    world = std::move(*w);
    return true;
}

struct HairUnderCloth {
    GroomResult groom;      // what the world's group points into: keep it alive with the world
    SimWorld world;
    SimAccessoryField field;  // the sheet's hair field as built (what measure_hair_under_cloth reads)
};

// The hair's field of accessory 0 (add_accessory_field) built into h.field; with `collide` it stays in the
// world and the hair reads it, without it is taken out again (for measuring only).
inline void attach_field(HairUnderCloth& h, bool collide, glm::vec3 lo, glm::vec3 hi, double cell_m, glm::vec3 under_m) {
    auto field = add_accessory_field(h.world, 0, lo, hi, cell_m, under_m);
    EXPECT_TRUE(field.ok()) << field.error().describe();
    if (!field.ok()) return;
    h.field = h.world.accessory_fields.back();
    if (!collide) {
        for (SimGroupState& gs : h.world.groups) std::erase(gs.sdf_indices, *field);
        h.world.accessory_fields.clear();
    }
}

// `collide`: the hair's field of the sheet (add_accessory_field) is in the world and read by the hair; off,
// it is built (for measuring: `field`) and taken out of the world again.
inline std::unique_ptr<HairUnderCloth> make_hair_under_cloth(bool collide) {
    auto h = std::make_unique<HairUnderCloth>();
    if (!build_rising_hair(h->groom, h->world)) return h;
    const Mesh sheet = make_cloth_sheet("sheet", glm::vec3(-0.2f, 0.1f, -0.2f), glm::vec3(0.4f, 0, 0), glm::vec3(0, 0, 0.4f), 8, 8);
    ClothBuildInputs cb;
    cb.name = "sheet";
    cb.mesh = &sheet;
    for (const glm::vec3& p : sheet.positions) cb.pinned.push_back(std::abs(p.x) > 0.199f || std::abs(p.z) > 0.199f);
    auto cloth = build_cloth(cb);
    EXPECT_TRUE(cloth.ok()) << cloth.error().describe();
    if (!cloth.ok()) return h;
    h->world.cloths.push_back(std::move(*cloth));
    attach_field(*h, collide, glm::vec3(-0.25f, 0.0f, -0.25f), glm::vec3(0.25f, 0.2f, 0.25f), 0.015, glm::vec3(0.0f, 0.05f, 0.0f));
    return h;
}

// The rising strands against a soft ball of 4.5 cm radius centred at `centre` (1 cm particles, firmness
// 0.999), pinned at its top (particles more than 3 cm above its centre): at (0, 0.12, 0) most strands swing
// into it. `collide`: the hair's field of the ball (add_accessory_field) is in the world; off, built
// (`field`) and taken out.
// wedged: every guide carries kStrandWedged, as the growth marks guides it could not turn out of a body.
inline std::unique_ptr<HairUnderCloth> make_hair_against_soft_ball(bool collide, glm::vec3 centre = glm::vec3(0.0f, 0.12f, 0.0f),
                                                                   bool wedged = false) {
    auto h = std::make_unique<HairUnderCloth>();
    if (!build_rising_hair(h->groom, h->world)) return h;
    if (wedged)
        for (uint32_t& f : h->world.groups[0].strand_flags) f |= kStrandWedged;
    Mesh ball = make_sphere_mesh(0.045f, 16, 24);
    ball.name = "ball";
    for (glm::vec3& p : ball.positions) p += centre;
    SoftBodyBuildInputs sb;
    sb.name = "ball";
    sb.mesh = &ball;
    sb.pins.mode = PinMode::Box;
    sb.pins.box_min_m = glm::dvec3(centre) + glm::dvec3(-0.1, 0.03, -0.1);
    sb.pins.box_max_m = glm::dvec3(centre) + glm::dvec3(0.1, 0.1, 0.1);
    auto body = build_soft_body(sb);
    EXPECT_TRUE(body.ok()) << body.error().describe();
    if (!body.ok()) return h;
    h->world.cloths.push_back(std::move(*body));
    attach_field(*h, collide, glm::vec3(-0.1f, 0.04f, -0.1f), glm::vec3(0.1f, 0.2f, 0.1f), 0.01, glm::vec3(0.0f));
    return h;
}

}  // namespace tressel::test
