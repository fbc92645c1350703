// Hair against a collision mesh's SDF (seed 000, TressFX CollideHairVerticesWithSdf, with our fixes):
// per vertex and per segment midpoint, in the mesh's rest frame. One text for C++ and GLSL; the field is
// read through SDF_FETCH as in shared/sdf_sample.h (C++: a `const float*` first argument).
//
// Under rigid motion the field is never rebuilt: a point goes to the rest frame (SimSdfFrame.world_to_rest),
// the distance and gradient are sampled there, and the push direction goes back with rest_to_world.
#ifndef TRESSEL_SHARED_SIM_SDF_H
#define TRESSEL_SHARED_SIM_SDF_H
#include "shared/sdf_sample.h"
#include "shared/sim.h"

TRESSEL_SHARED_BEGIN

// Whether p (rest frame, metres) lies inside the grid's cell-centre box; outside it the clamped sample is
// only a lower bound of the distance, and the grid is padded well past the mesh, so nothing collides there.
SIM_FN bool sim_sdf_in_grid(SdfGridParams g, vec3 p_rest_m) {
    vec3 u = sdf_grid_coords(g, p_rest_m);
    return u.x >= 0.0f && u.y >= 0.0f && u.z >= 0.0f && u.x <= float(g.dims.x - 1) &&
           u.y <= float(g.dims.y - 1) && u.z <= float(g.dims.z - 1);
}

// The displacement (world, metres) that moves world point x out to the margin of the field: zero when x
// is outside the margin, outside the grid, or where the gradient vanishes (no direction to push in).
SIM_FN vec3 sim_sdf_displacement(SDF_FIELD_PARAM SdfGridParams g, SimSdfFrame f, vec3 x) {
    vec3 p = sim_transform_point(f.world_to_rest, x);
    if (!sim_sdf_in_grid(g, p)) return vec3(0.0f);
    float d = sdf_sample_distance_m(SDF_FIELD_ARG g, p);
    float margin = f.params.x;
    if (d >= margin) return vec3(0.0f);
    vec3 grad = sdf_gradient_central(SDF_FIELD_ARG g, p, f.params.y);
    vec3 n_rest = sim_safe_normalize(grad, vec3(0.0f));
    vec3 n = sim_safe_normalize(sim_transform_dir(f.rest_to_world, n_rest), vec3(0.0f));
    return sim_sdf_push(d, n, margin);
}

// Per free vertex: pushed out to the margin, then friction (params.z) against the surface's motion over
// the step (x_prev carried by step_motion). Returns the new position.
SIM_FN vec3 sim_sdf_collide_vertex(SDF_FIELD_PARAM SdfGridParams g, SimSdfFrame f, vec3 x, vec3 x_prev) {
    vec3 push = sim_sdf_displacement(SDF_FIELD_ARG g, f, x);
    float l = sqrt(dot(push, push));
    if (l <= 0.0f) return x;
    vec3 n = push / l;
    return sim_friction(x + push, sim_transform_point(f.step_motion, x_prev), n, f.params.z);
}

TRESSEL_SHARED_END

#endif
