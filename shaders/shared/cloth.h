// Cloth accessories (seed 004: position-based cloth; here extended position-based dynamics, Macklin,
// Mueller & Chentanez 2016): structs and per-item formulas shared by the CPU reference (engine/sim/cloth)
// and the GPU passes (engine/sim/gpu/cloth_gpu, shaders/sim/cloth_*.comp). One text for C++ and GLSL.
//
// A cloth is a triangle mesh whose vertices are particles (float4, w = inverse mass, 0 = pinned). Its
// edges are distance constraints with a compliance; its bending is the quadratic energy of Bergou,
// Wardetzky, Harmon, Zorin & Grinspun 2006 ("A quadratic bending model for inextensible surfaces"):
// each interior edge's hinge adds k w |sum_i g_i x_i - R k_rest|^2 / 2 (g: the rest hinge's dihedral
// gradients, constant; k_rest its rest curvature vector), which makes a vertex's bending force a fixed
// stencil over its neighbours (ClothVertex::bend_terms) less its rest curvature turned by its frame.
// A step of the world is split into `substeps` small steps (Macklin, Storey, Lu, Terdiman, Chentanez,
// Jeschke & Mueller 2019, "Small steps in physics simulation"), each a prediction and one Jacobi
// iteration: every vertex gathers, from the predicted positions, the correction each of its edges asks
// of it and its bending's, and moves by the edges' average plus the bending's step; with one iteration
// per small step every multiplier starts and ends it at zero, so none is stored. Nothing depends on the
// order of anything, so the GPU's step is the CPU's to rounding. A long-range attachment (tether) keeps
// each free vertex within its rest distance along the cloth of its nearest pin, which carries the weight
// of a hanging cloth to the pins at once.
#ifndef TRESSEL_SHARED_CLOTH_H
#define TRESSEL_SHARED_CLOTH_H
#include "shared/sim.h"
#include "shared/sim_sdf.h"

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kClothWorkgroupSize, 64u);
TRESSEL_CONST(uint, kClothNone, 0xffffffffu);        // no tether / no vertex
TRESSEL_CONST(uint, kClothEdge, 0u);                 // ClothConstraint kind (rest.z)
// Bending's Jacobi step takes at most 1 / this of a mode's way (cloth_bend_delta).
TRESSEL_CONST(float, kClothBendBoundScale, 2.0f);
// A vertex is in contact with a surface while it is within thickness + margin + this of it (metres): the
// step's last pass applies friction and takes the depenetration out of its velocity there.
TRESSEL_CONST(float, kClothContactTolerance_m, 0.0005f);
// Rest triangles of less area than this (square metres) are refused: they have no normal and no hinge.
TRESSEL_CONST(float, kClothMinTriangleArea_m2, 1e-12f);

// The GPU passes (shaders/sim/cloth_*.comp): one set-0 layout. The state is a pair of buffers (positions,
// previous positions) and a second pair holds a small step's prediction and start; each pass reads one
// pair and writes the other.
TRESSEL_CONST(uint, kClothBindParams, 0u);        // ClothStepParams per slot
TRESSEL_CONST(uint, kClothBindVertices, 1u);      // ClothVertex per vertex
TRESSEL_CONST(uint, kClothBindConstraints, 2u);   // ClothConstraint
TRESSEL_CONST(uint, kClothBindAdjacency, 3u);     // uint: each vertex's constraints
TRESSEL_CONST(uint, kClothBindTriangles, 4u);     // uvec4 per triangle
TRESSEL_CONST(uint, kClothBindVertexTriangles, 5u); // uint: each vertex's triangles
TRESSEL_CONST(uint, kClothBindInA, 6u);           // vec4 per vertex: position / prediction read
TRESSEL_CONST(uint, kClothBindInB, 7u);           // vec4 per vertex: previous position / small step start read
TRESSEL_CONST(uint, kClothBindOutA, 8u);          // written
TRESSEL_CONST(uint, kClothBindOutB, 9u);
TRESSEL_CONST(uint, kClothBindColliders, 10u);    // SimCollider: per slot, max_colliders
TRESSEL_CONST(uint, kClothBindSdfFrames, 11u);    // SimSdfFrame: per slot, max_sdfs
TRESSEL_CONST(uint, kClothBindSdfGrids, 12u);     // SdfGridParams per SDF of the cloth
TRESSEL_CONST(uint, kClothBindSdfFields, 13u);    // float: every SDF's distances, concatenated
TRESSEL_CONST(uint, kClothBindSdfOffsets, 14u);   // uint per SDF: its first float in the fields
TRESSEL_CONST(uint, kClothBindClusterRest, 15u);  // soft bodies: vec4 per cluster, its rest centroid (attach space)
TRESSEL_CONST(uint, kClothBindClusters, 16u);     // soft bodies: 2 vec4 per cluster, its rotation q and translation t now
TRESSEL_CONST(uint, kClothBindRenderVertices, 17u); // soft bodies: SoftRenderVertex per vertex of the render mesh
TRESSEL_CONST(uint, kClothBindTiles, 18u);        // tiled small steps (cloth_tile.comp, sim/cloth_tiles.h): ClothTile per tile
TRESSEL_CONST(uint, kClothBindTileVertices, 19u); // uvec4 per tile-local vertex
TRESSEL_CONST(uint, kClothBindTileEdges, 20u);    // uvec4 per tile edge
TRESSEL_CONST(uint, kClothBindTileBend, 21u);     // uvec4 per group of 3 bending terms of an owned vertex
TRESSEL_CONST(uint, kClothBindTileOwned, 22u);    // 2 uvec4 per owned vertex
TRESSEL_CONST(uint, kClothBindBendRest, 23u);     // vec4 per vertex: its rest curvature term and stencil bound
TRESSEL_CONST(uint, kClothBindBendTerms, 24u);    // uvec2 per bending term: x neighbour, y coefficient (float bits)
TRESSEL_CONST(uint, kClothBindFrames, 25u);       // 2 vec4 per vertex, written by the predict pass: its normal, its bending target
TRESSEL_CONST(uint, kClothBindPinPlaces, 26u);    // pins on a skin: per slot, 2 vec4 per vertex (a pinned one's place at the step's start, end)
TRESSEL_CONST(uint, kClothBindingCount, 27u);

// Tiles (cloth_tile.comp): a workgroup of kClothTileThreads owns up to that many vertices and holds in
// shared memory the predictions of at most kClothTileMaxVertices (owned and reached) and the corrections
// of at most kClothTileMaxEntries edge slots of its owned vertices (a regular grid's 6 a vertex): 12.8
// KB. Each owned vertex's bending stencil (a regular grid's 12 neighbours) is read into registers, in
// groups of 3 terms, before the first barrier. Sizes matter where they push tiles out of one wave: on an
// H200 a 256 x 256 cloth's 1,024 tiles of 64 owned vertices all run at once (engine/sim/README.md "Tiles").
TRESSEL_CONST(uint, kClothTileThreads, 64u);
TRESSEL_CONST(uint, kClothTileMaxVertices, 192u);
TRESSEL_CONST(uint, kClothTileMaxEntries, 768u);
TRESSEL_CONST(uint, kClothTileBendGroupsAhead, 4u);  // bending groups a thread loads before the first barrier (12 terms)
TRESSEL_CONST(uint, kClothTileNoEntry, 0xffffu);  // a constraint slot whose vertex the tile does not own
TRESSEL_CONST(uint, kClothTileSharedBytes, kClothTileMaxVertices * 20u + kClothTileMaxEntries * 12u);

struct ClothTile {
    uint first_vertex;          // its vertices at [first_vertex, + vertex_count) of the tile vertices, owned first
    uint vertex_count;
    uint owned_count;
    uint first_owned;           // its owned vertices' records at 2 x [first_owned, + owned_count)
    uint first_edge;            // its edges at [first_edge, + edge_count)
    uint edge_count;
    uint pad0;
    uint pad1;
};
TRESSEL_CHECK_SIZE(ClothTile, 32)

struct ClothPush {
    uint count;                 // vertices
    uint slot;                  // the step's slot of constants
    uint substep;               // small step of this pass (cloth_substep.comp)
    uint max_colliders;
    uint max_sdfs;
    uint pad0;
    uint pad1;
    uint pad2;
};
TRESSEL_CHECK_SIZE(ClothPush, 32)

// Per cloth or soft body and per step of the world (one small step is 1 / substeps of it).
struct ClothStepParams {
    vec4 gravity_mps2;          // xyz: gravity, m/s^2, world; w: small step dt in seconds
    vec4 wind_mps;              // xyz: mean air velocity, m/s, world; w: turbulence 0..1
    mat4 pin_transform;         // rest -> world at the step's end: where pinned vertices go (the attach mesh's motion)
    mat4 pin_transform_prev;    // rest -> world at the step's start
    float damping_decay;        // exp(-damping * dt * 60) per small step, as the hair's
    float stretch_compliance;   // 1 / (stretch stiffness N/m x dt^2): alpha~ of every edge
    float bend_compliance;      // 1 / (bend stiffness N m x dt^2): alpha~ of a vertex's bending (cloth_bend_delta); 0 = off
    float relaxation;           // Jacobi over-relaxation of the averaged corrections
    uint vertex_count;
    uint collider_count;
    uint sdf_count;
    uint substeps;              // small steps per step of the world
    float thickness_m;          // the cloth's collision radius around each vertex (a soft body's: per particle, ClothVertex::tether_m)
    float friction;             // 0..1 of the tangential slip removed at an SDF contact per small step
    float tether_limit;         // a tether lets its vertex reach this x its rest distance; 0 = tethers off
    float wind_drag_per_s;      // drag rate of air moving across the cloth (along its normal)
    float time_s;               // simulation time at the end of the step (wind gusts)
    float collider_friction_exponent;  // 1 / substeps: a collider's per-step friction f is 1 - (1 - f)^this per small step
    uint pin_places;            // 1: pinned vertices go to their places of the pin places buffer (pins on a skin), not pin_transform's
    float shape_stiffness;      // soft bodies: fraction of the way to its clusters' goals a particle moves per small step
};
TRESSEL_CHECK_SIZE(ClothStepParams, 224)

// A constraint: an edge (v.x, v.y; v.z, v.w unused).
struct ClothConstraint {
    uvec4 v;
    vec4 rest;                  // x: rest length (m); y: 1; z: kind (kClothEdge); w: 0
    vec4 split_w;               // x, y: v.x's and v.y's split inverse mass for edges (cloth_edge_deltas); 0 pinned
};
TRESSEL_CHECK_SIZE(ClothConstraint, 48)

// Per vertex, constant.
struct ClothVertex {
    vec4 rest_os;               // xyz: rest position in the attach mesh's space (m); w: inverse mass (1/kg), 0 pinned
    uint first;                 // its edges: constraint indices at [first, first + edges) of the adjacency list
    uint edges;
    uint bend_terms;            // its bending stencil: (neighbour, coefficient) at [bend_first, + bend_terms) of the terms
    uint tether;                // the nearest pinned vertex along the cloth (kClothNone: none)
    float tether_m;             // rest distance to it along the cloth's edges; a soft body's particle: its collision radius (m)
    uint tri_first;             // its triangles: indices at [tri_first, tri_first + tri_count) of the triangle list
    uint tri_count;
    uint bend_first;
};
TRESSEL_CHECK_SIZE(ClothVertex, 48)

// XPBD (Macklin et al. 2016, eq. 18) for an edge C = |x0 - x1| - rest with its multiplier at zero (one
// iteration per small step): what it asks of its two vertices (.a, .b; xyz), given the step's
// compliance. The masses are split (Tonge, Benevolenski & Voroshilov 2012, "Mass splitting for
// jitter-free parallel rigid body simulation"): a vertex in n edges is n shares of inverse mass n w
// (c.split_w), each edge moves its shares, and the vertex moves by the average of its shares' moves.
// Averaging alone (Macklin et al. 2014) keeps a stiff constraint stable under Jacobi but divides a
// compliant one's force by the vertex's constraint count (a soft sheet hung 2.5 times farther than its
// stiffness says); split masses keep both: a stiff edge gets the averaged Jacobi step (times the
// relaxation, in the denominator), a compliant one its true force.
SIM_FN SimPair cloth_edge_deltas(ClothConstraint c, vec3 x0, vec3 x1, ClothStepParams p) {
    SimPair r;
    r.a = vec4(0.0f);
    r.b = vec4(0.0f);
    vec3 d = x0 - x1;
    float len = sqrt(dot(d, d));
    float wsum = (c.split_w.x + c.split_w.y) / p.relaxation + p.stretch_compliance;
    if (len <= kSimTinyLength_m || wsum <= 0.0f) return r;
    vec3 n = d * (1.0f / len);
    float dl = -(len - c.rest.x) / wsum;
    r.a = vec4(n * (c.split_w.x * dl), 0.0f);
    r.b = vec4(n * (-c.split_w.y * dl), 0.0f);
    return r;
}

// Bending (Bergou et al. 2006). A hinge p0-p1 between the triangles (p0, p1, p2) and (p1, p0, p3): the
// gradients of its dihedral angle when flat are normal to it and fixed by its intrinsic shape, a scalar
// per vertex: g2 = 1 / h2 and g3 = 1 / h3 (the wings' heights over the edge), g1 = -(s2 / h2 + s3 / h3) /
// |e| (s: the wings' projections on the edge from p0) and g0 = -(g1 + g2 + g3), so that sum g_i = 0 and
// sum g_i p_i = 0 over the unfolded hinge: the combination sum g_i x_i vanishes for any rigid motion of
// a flat hinge, and for a small fold by theta it is theta along the normal (a folded rest hinge's rest
// curvature vector is sum g_i x_rest_i). Returns (g0, g1, g2, g3); zero for a degenerate hinge.
SIM_FN vec4 cloth_bend_hinge_coefficients(vec3 p0, vec3 p1, vec3 p2, vec3 p3) {
    vec3 e = p1 - p0;
    float l = sqrt(dot(e, e));
    if (l <= kSimTinyLength_m) return vec4(0.0f);
    vec3 u = e * (1.0f / l);
    float s2 = dot(p2 - p0, u), s3 = dot(p3 - p0, u);
    vec3 r2 = p2 - p0 - u * s2, r3 = p3 - p0 - u * s3;
    float h2 = sqrt(dot(r2, r2)), h3 = sqrt(dot(r3, r3));
    if (h2 <= kSimTinyLength_m || h3 <= kSimTinyLength_m) return vec4(0.0f);
    float g2 = 1.0f / h2, g3 = 1.0f / h3;
    float g1 = -(s2 * g2 + s3 * g3) / l;
    return vec4(-(g1 + g2 + g3), g1, g2, g3);
}

// A vertex's bending target: its rest curvature term (bend_rest.xyz: (Q x_rest)_v in its rest frame)
// turned into its frame now: the unit normal, and the direction to its first stencil neighbour x_ref in
// the plane across it (then normal x that). Zero where the frame is degenerate.
SIM_FN vec3 cloth_bend_target(vec4 bend_rest, vec3 normal, vec3 x, vec3 x_ref) {
    vec3 t = x_ref - x;
    t = t - normal * dot(t, normal);
    float tl = sqrt(dot(t, t));
    if (tl <= kSimTinyLength_m || dot(normal, normal) <= 0.5f) return vec3(0.0f);
    t = t * (1.0f / tl);
    vec3 b = cross(normal, t);
    return t * bend_rest.x + b * bend_rest.y + normal * bend_rest.z;
}

// One Jacobi step on a vertex's bending energy (k/2) x^T Q x - k x^T R b: given its stencil's sum
// `stencil` = sum_j Q_vj (x_j - x_v) = (Q x)_v (the rows of Q sum to zero) and target = (R b_v, G_v),
// the move -g / (alpha~ / w + 2 G_v) with g = (Q x)_v - R b_v. G_v = Q_vv + sum_j |Q_vj| bounds the row
// (Gershgorin), so the step takes at most half of any mode's way at any stiffness. A Verlet prediction
// and one Jacobi step a small step are stable only while the steps taken together move a mode at most
// 4/3 of its way, and the edges' over-relaxed step (1.5 by default) moves the in-plane modes that
// bending's gradient also pulls on: with the bound alone (a step of up to a whole mode's way) a 0.3 m
// cantilever of 16 cells at 1e-2 N m reached 3,000% strain, and with it over-relaxed as the edges are,
// at 1e-3 N m within a second; with twice the bound every cantilever of 8 to 32 cells, 1e-4 to 1e-2 N m,
// 5 or 20 small steps comes to rest (at the edges' relaxation of 2, the range's end, stiff bending
// rings). Where the compliance decides (alpha~ / w >> G_v) the step is the force's own effect over the
// small step, -w k h^2 g; where G_v does, the smooth modes are left unconverged and the cloth is softer
// than its stiffness (engine/sim/README.md, "Cloth accessories").
SIM_FN vec3 cloth_bend_delta(vec3 stencil, vec4 target, float inv_mass, ClothStepParams p) {
    if (p.bend_compliance <= 0.0f || inv_mass <= 0.0f || target.w <= 0.0f) return vec3(0.0f);
    vec3 g = stencil - vec3(target.x, target.y, target.z);
    return g * (-1.0f / (p.bend_compliance / inv_mass + kClothBendBoundScale * target.w));
}

// Where a pinned vertex is at the end of small step `s` (0-based) of the step: its rest position under
// the attach mesh's transform blended from the step's start to its end.
SIM_FN vec3 cloth_pin_position(ClothStepParams p, vec3 rest_os, uint s) {
    float t = float(s + 1u) / float(max(p.substeps, 1u));
    vec3 a = sim_transform_point(p.pin_transform_prev, rest_os);
    vec3 b = sim_transform_point(p.pin_transform, rest_os);
    return a + (b - a) * t;
}

// The same for a pin with its own places at the step's start and end (world): a pin on a skinned mesh,
// carried by the skin's triangle under it rather than by one transform for the whole cloth.
SIM_FN vec3 cloth_pin_between(vec4 start, vec4 end, uint s, uint substeps) {
    float t = float(s + 1u) / float(max(substeps, 1u));
    vec3 a = sim_xyz(start);
    vec3 b = sim_xyz(end);
    return a + (b - a) * t;
}

// Which of the edge's vertices `vertex` is (0, 1).
SIM_FN uint cloth_slot_of(ClothConstraint c, uint vertex) { return c.v.x == vertex ? 0u : 1u; }

// The long-range attachment: x brought back within limit x rest of its pin (anchor), unchanged inside.
SIM_FN vec3 cloth_tether(vec3 x, vec3 anchor, float rest_m, float limit) {
    vec3 d = x - anchor;
    float l = sqrt(dot(d, d));
    float m = rest_m * limit;
    return l > m && l > kSimTinyLength_m ? anchor + d * (m / l) : x;
}

// Air velocity seen by the cloth: the mean wind with its speed varied by turbulence over time.
SIM_FN vec3 cloth_wind_velocity(ClothStepParams p) {
    vec3 w = sim_xyz(p.wind_mps);
    float turb = clamp(p.wind_mps.w, 0.0f, 1.0f);
    return w * (1.0f + turb * sim_gust(0u, 0u, p.time_s, 0.5f));
}

// Seed 004's wind: the air's velocity relative to the cloth, projected on the cloth's unit normal, times
// the drag rate (air sliding along a sheet does not push it).
SIM_FN vec3 cloth_wind_accel(vec3 air_velocity, vec3 vertex_velocity, vec3 normal, float drag_per_s) {
    return normal * (dot(air_velocity - vertex_velocity, normal) * drag_per_s);
}

// The prediction of a free vertex for a small step: Verlet with damping, gravity and the wind across the
// cloth (`normal`: the cloth's unit normal there, zero when unknown).
SIM_FN vec3 cloth_predict(ClothStepParams p, vec3 x, vec3 x_prev, vec3 normal) {
    float dt = p.gravity_mps2.w;
    vec3 vel = (x - x_prev) / dt;
    vec3 accel = sim_xyz(p.gravity_mps2) + cloth_wind_accel(cloth_wind_velocity(p), vel, normal, p.wind_drag_per_s);
    return sim_integrate(x, x_prev, accel, p.damping_decay, dt);
}

// Twice the area-weighted normal of a triangle.
SIM_FN vec3 cloth_triangle_normal(vec3 a, vec3 b, vec3 c) { return cross(b - a, c - a); }

// Contact response at the end of a step, for a vertex at x within the contact distance of a surface with
// outward unit normal n, whose previous position is x_prev and which that surface would have carried to
// `carried` over the step: `friction` of the slip along the surface removed from the position, and the
// previous position set so that the velocity keeps the tangential slip left and any motion into the
// surface, but not the motion out of it (that is depenetration, which never launches the cloth: contact
// without restitution). Returns the position (xyz) in .a and the previous position in .b.
SIM_FN SimPair cloth_contact_finish(vec3 x, vec3 x_prev, vec3 carried, vec3 n, float friction) {
    vec3 rel = x - carried;
    float rn = dot(rel, n);
    vec3 rt = rel - n * rn;
    float f = clamp(friction, 0.0f, 1.0f);
    vec3 moved = x - rt * f;
    vec3 surface = carried - x_prev;
    vec3 keep = rt * (1.0f - f) + n * min(rn, 0.0f);
    vec3 prev = moved - surface - keep;
    SimPair r;
    r.a = vec4(moved.x, moved.y, moved.z, 0.0f);
    r.b = vec4(prev.x, prev.y, prev.z, 0.0f);
    return r;
}

// A sphere or capsule collider's contact with a cloth vertex: the outward unit normal (xyz) and the
// distance from the surface grown by radius_m (w, negative inside); w = 1e30 when there is no direction.
SIM_FN vec4 cloth_primitive_distance(vec3 x, SimCollider c, float radius_m) {
    vec3 p0 = sim_xyz(c.p0_m);
    vec3 p1 = sim_xyz(c.p1_m);
    float t = c.p0_prev_m.w > 0.5f ? sim_segment_param(x, p0, p1) : 0.0f;
    vec3 d = x - (p0 + (p1 - p0) * t);
    float l = sqrt(dot(d, d));
    if (l <= kSimTinyLength_m) return vec4(0.0f, 0.0f, 0.0f, 1e30f);
    vec3 n = d / l;
    return vec4(n.x, n.y, n.z, l - (c.p0_m.w + radius_m));
}

// Where the collider's surface carries a point over the step (its translation at the point's nearest
// axis parameter).
SIM_FN vec3 cloth_primitive_carry(vec3 x_prev, vec3 x, SimCollider c) {
    vec3 p0 = sim_xyz(c.p0_m);
    vec3 p1 = sim_xyz(c.p1_m);
    float t = c.p0_prev_m.w > 0.5f ? sim_segment_param(x, p0, p1) : 0.0f;
    vec3 now = p0 + (p1 - p0) * t;
    vec3 before = sim_xyz(c.p0_prev_m) + (sim_xyz(c.p1_prev_m) - sim_xyz(c.p0_prev_m)) * t;
    return x_prev + (now - before);
}

// A collision mesh's field at world point x, for a cloth vertex: the outward unit normal (xyz, world) and
// the signed distance (w, metres) when the point is within `reach` of the surface; w = 1e30 when it is
// farther, outside the grid, or where the gradient vanishes (no direction).
SIM_FN vec4 cloth_sdf_contact(SDF_FIELD_PARAM SdfGridParams g, SimSdfFrame f, vec3 x, float reach) {
    vec4 none = vec4(0.0f, 0.0f, 0.0f, 1e30f);
    vec3 p = sim_transform_point(f.world_to_rest, x);
    if (!sim_sdf_in_grid(g, p)) return none;
    float d = sdf_sample_distance_m(SDF_FIELD_ARG g, p);
    if (d >= reach) return none;
    // Forward differences from the distance already read: 3 samples where central differences take 6
    // (TressFX's forward variant, seed 000); the 6 central samples' loads in flight held the cloth's tiled
    // pass at 162 registers a thread on an H200 (102 with these), too many to keep a 256 x 256 cloth's
    // tiles on the chip at once.
    float h = f.params.y;
    vec3 grad = vec3(sdf_sample_distance_m(SDF_FIELD_ARG g, p + vec3(h, 0.0f, 0.0f)) - d, sdf_sample_distance_m(SDF_FIELD_ARG g, p + vec3(0.0f, h, 0.0f)) - d,
                     sdf_sample_distance_m(SDF_FIELD_ARG g, p + vec3(0.0f, 0.0f, h)) - d);
    vec3 n_rest = sim_safe_normalize(grad, vec3(0.0f));
    if (dot(n_rest, n_rest) <= 0.0f) return none;
    vec3 n = sim_safe_normalize(sim_transform_dir(f.rest_to_world, n_rest), vec3(0.0f));
    return vec4(n.x, n.y, n.z, d);
}

// ---- soft bodies (seed 003: shape matching) ----
// A soft body is particles on a lattice inside a closed mesh (ClothVertex per particle, its cluster's
// members in the adjacency list at [first, first + edges), itself included). Each small step is two
// passes: every cluster is matched to the predicted positions of its members (shared/shape_match.h:
// centroid, covariance, rotation warm-started from its last rotation, translation), then every particle
// moves toward the mean of the goals its clusters give it by shape_stiffness, and meets the same contacts
// as a cloth vertex. The render mesh follows the clusters of the particles nearest each of its vertices.

// Clusters that carry a render vertex (the nearest particles at rest, SoftRenderVertex).
TRESSEL_CONST(uint, kSoftRenderInfluences, 8u);
// Most particles a soft body may have (the lattice is refined no further; a spacing that asks for more
// is refused with the count it would give).
TRESSEL_CONST(uint, kSoftMaxParticles, 262144u);

struct SoftRenderVertex {
    vec4 rest_os;               // xyz: rest position in the attach mesh's space (m); w: 0
    vec4 normal_os;             // xyz: rest normal; w: 0
    uvec4 p0;                   // clusters (particles) 0..3 carrying it
    uvec4 p1;                   // clusters 4..7
    vec4 w0;                    // their weights (sum 1; unused ones 0)
    vec4 w1;
};
TRESSEL_CHECK_SIZE(SoftRenderVertex, 96)

// A particle's move toward the mean of its clusters' goals.
SIM_FN vec3 soft_pull(vec3 x, vec3 goal_mean, float stiffness) { return x + (goal_mean - x) * stiffness; }

TRESSEL_SHARED_END

#endif
