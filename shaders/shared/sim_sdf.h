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

// The displacement (world, metres) that moves world point x out to `margin` of the field: zero when x is
// outside that margin, outside the grid, or where the gradient vanishes (no direction to push in).
SIM_FN vec3 sim_sdf_displacement_to(SDF_FIELD_PARAM SdfGridParams g, SimSdfFrame f, vec3 x, float margin) {
    vec3 p = sim_transform_point(f.world_to_rest, x);
    if (!sim_sdf_in_grid(g, p)) return vec3(0.0f);
    float d = sdf_sample_distance_m(SDF_FIELD_ARG g, p);
    if (d >= margin) return vec3(0.0f);
    vec3 grad = sdf_gradient_central(SDF_FIELD_ARG g, p, f.params.y);
    vec3 n_rest = sim_safe_normalize(grad, vec3(0.0f));
    vec3 n = sim_safe_normalize(sim_transform_dir(f.rest_to_world, n_rest), vec3(0.0f));
    return sim_sdf_push(d, n, margin);
}

// The displacement that moves world point x out to the collision margin (params.x).
SIM_FN vec3 sim_sdf_displacement(SDF_FIELD_PARAM SdfGridParams g, SimSdfFrame f, vec3 x) {
    return sim_sdf_displacement_to(SDF_FIELD_ARG g, f, x, f.params.x);
}


// A follow hair's vertex pushed out of the field: pushed again while it is still inside the margin, at
// most kSimFollowSdfPushes times. Follows are blended from guides, and guides on both sides of a head
// blend to a point centimetres inside it; from there one push along the sampled gradient can land short
// (the trilinear field bends across the medial axis: a point on a box's diagonal gets a diagonal normal
// and keeps 29% of its depth per push). Guides do not need it: pushed each step, they never get deep.
TRESSEL_CONST(int, kSimFollowSdfPushes, 4);
SIM_FN vec3 sim_sdf_push_follow(SDF_FIELD_PARAM SdfGridParams g, SimSdfFrame f, vec3 x) {
    for (int i = 0; i < kSimFollowSdfPushes; ++i) {
        vec3 push = sim_sdf_displacement(SDF_FIELD_ARG g, f, x);
        if (push.x == 0.0f && push.y == 0.0f && push.z == 0.0f) break;
        x = x + push;
    }
    return x;
}

// The contact recorded for a vertex whose push (to `margin_m` outside the surface) was turned back onto
// the sphere about its pinned neighbour (sim_keep_distance): the push's unit normal n, lengthened, where
// the turn took it back by more than half the margin, by that pull-back: sim_ftl_contact_target reads the
// plane through the pushed point. Where a skinned body's
// deformation carries the pinned vertex in (a root on the base of the neck as the arms come down), the
// turn lands inside again, and a plane through the turned point kept it there: CesiumMan blending into his
// walk held such a vertex 8.5 mm inside his body. With the pushed point's plane the last sweep turns it
// out onto it, at no extra field sample. (Pushing and turning again while inside cost Rat Boy's step
// 14-17% on an H200, his fur touching the body at every third vertex.) Tried and not kept: a plane lifted
// on every turn gave the lift as velocity to hair resting on a head (the default scene with hair volume,
// still: 2.7 mm/s RMS and 0.27 m/s at most against 1 mm/s and 1 cm/s); a plane lifted only to the surface
// left CesiumMan's vertex 6.1 mm in (the neck curves away from it), and a lift only for pull-backs beyond
// the whole margin 4.3 mm. Resting hair's turns pull back far less than half a margin: its rest figures are
// those without the lift, to the digit. The length carries the height because the fused pass keeps three
// floats per contact.
SIM_FN vec3 sim_contact_lifted(vec3 n, vec3 pushed, vec3 turned, float margin_m) {
    float pull_back = dot(pushed - turned, n);
    return pull_back > 0.5f * max(margin_m, 0.0f) ? n * (1.0f + pull_back) : n;
}

// How deep world point x lies in the field's collision margin (params.x), in margins: <= 0 outside the
// margin, (0, 1] within it (the solver pushes it out), > 1 inside the mesh; kSimNoDepth outside the grid.
// The margin counts as at least 1 mm, so a zero margin still reads a depth inside the mesh.
TRESSEL_CONST(float, kSimNoDepth, -1.0e30f);
SIM_FN float sim_sdf_margin_depth(SDF_FIELD_PARAM SdfGridParams g, SimSdfFrame f, vec3 x) {
    vec3 p = sim_transform_point(f.world_to_rest, x);
    if (!sim_sdf_in_grid(g, p)) return kSimNoDepth;
    float d = sdf_sample_distance_m(SDF_FIELD_ARG g, p);
    float m = max(f.params.x, 0.001f);
    return (f.params.x - d) / m;
}

// The part of an SDF push (world, metres) that is depenetration rather than collision response: what is
// left after the point's inward travel over the step relative to the surface (`travel` = its position
// minus its start-of-step position carried by the surface's motion). A point that arrived from outside
// this step gets none (its whole push is response and becomes velocity, as in any position-based
// contact); overlap the step did not cause - a groom combed into the head, a collision mesh dragged into
// the hair, a margin raised - gets the push beyond its travel. Moving the previous position by it as well
// removes that overlap without launching the hair.
SIM_FN vec3 sim_sdf_depenetration(vec3 push, vec3 travel) {
    float l = sqrt(dot(push, push));
    if (l <= 0.0f) return vec3(0.0f);
    vec3 n = push / l;
    float inward = max(-dot(travel, n), 0.0f);
    return n * max(l - inward, 0.0f);
}

// Per free vertex: pushed out to the margin, then friction (params.z) against the surface's motion over
// the step (x_prev carried by step_motion).
// Returns the new position, the depenetration share of the push (sim_sdf_depenetration) that the previous
// position moves by too, and the push's unit normal (all zero when there is no contact).
SIM_FN SimContact sim_sdf_collide_vertex(SDF_FIELD_PARAM SdfGridParams g, SimSdfFrame f, vec3 x, vec3 x_prev) {
    SimContact r;
    r.moved = vec4(x.x, x.y, x.z, 0.0f);
    r.dep = vec4(0.0f);
    r.normal = vec4(0.0f);
    vec3 push = sim_sdf_displacement(SDF_FIELD_ARG g, f, x);
    float l = sqrt(dot(push, push));
    if (l <= 0.0f) return r;
    vec3 n = push / l;
    vec3 carried = sim_transform_point(f.step_motion, x_prev);
    vec3 dep = sim_sdf_depenetration(push, x - carried);
    vec3 moved = sim_friction(x + push, carried, n, f.params.z);
    r.moved = vec4(moved.x, moved.y, moved.z, 0.0f);
    r.dep = vec4(dep.x, dep.y, dep.z, 0.0f);
    r.normal = vec4(n.x, n.y, n.z, 0.0f);
    return r;
}

// The previous-position shift that goes with moving a point by `moved` when `dep` of a push was
// depenetration: never more than the point actually moved along the push (a vertex next to a pinned one
// may be turned back by sim_keep_distance).
SIM_FN vec3 sim_sdf_prev_shift(vec3 dep, vec3 moved) {
    float l = sqrt(dot(dep, dep));
    if (l <= 0.0f) return vec3(0.0f);
    vec3 n = dep / l;
    return n * clamp(dot(moved, n), 0.0f, l);
}

TRESSEL_SHARED_END

#endif
