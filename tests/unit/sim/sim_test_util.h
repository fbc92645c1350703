// Small hand-built grooms for the simulation tests.
#pragma once

#include <vector>

#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "groom/grow.h"
#include "sdf/sdf.h"
#include "sim/sim.h"
#include "test_fields.h"

namespace tressel::test {

// Straight guides: strand i from roots[i] along dirs[i] (normalised) over length_m, `points` points.
inline GroomResult make_straight_groom(const std::vector<glm::vec3>& roots, const std::vector<glm::vec3>& dirs, float length_m,
                                       uint32_t points = 16) {
    GroomResult g;
    Strands& s = g.guides;
    for (size_t i = 0; i < roots.size(); ++i) {
        const glm::vec3 d = glm::normalize(dirs[i]);
        for (uint32_t k = 0; k < points; ++k) s.points_os_m.push_back(roots[i] + d * (length_m * float(k) / float(points - 1)));
        s.strand_offsets.push_back(uint32_t(s.points_os_m.size()));
        s.roots.push_back({});
        s.seeds.push_back(uint32_t(i));
        s.flags.push_back(0u);
        glm::vec3 b = glm::abs(d.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
        b = glm::normalize(b - d * glm::dot(b, d));
        g.guide_frames.push_back({glm::vec4(d, 0), glm::vec4(b, 0), glm::vec4(glm::cross(d, b), 0)});
    }
    return g;
}

// The world of `in`, which must build (a test failure otherwise).
inline SimWorld build(const SimWorldInputs& in) {
    auto w = build_sim_world(in);
    EXPECT_TRUE(w.ok()) << w.error().describe();
    return std::move(*w);
}

// Still scene: no gravity, no wind, 60 Hz with 2 substeps.
inline SimWorldInputs world_inputs(const GroomResult& groom, const SimulationParams& p) {
    SimWorldInputs in;
    SimGroupInputs g;
    g.name = "test";
    g.groom = &groom;
    g.scalp_mesh = "head";
    g.params = p;
    in.groups.push_back(g);
    in.environment.gravity_mps2 = glm::dvec3(0.0);
    return in;
}

inline SimulationParams soft_params() {
    SimulationParams p;
    p.gpu_vertices_per_strand = 16;
    p.global_stiffness = 0.0;
    p.local_stiffness = 0.0;
    p.vsp_coeff = 0.0;
    return p;
}

}  // namespace tressel::test
