// The passes of one simulation step as plain functions, one call per GPU invocation (per vertex, per
// segment or per strand), over the flat arrays of SimGroupState. Each pass reads only what the previous
// passes wrote (or its own item), so invocations of one pass may run in any order; the per-strand passes
// are sequential inside a strand (GPU: one invocation per strand, its vertices in shared memory, as TressFX
// 4.1's local shape pass). Every formula is in shaders/shared/sim.h / sim_sdf.h. Order (README.md):
//   strand_data -> integrate (roots, Verlet, wind, gravity) -> global shape -> vsp -> local shape x N
//   -> length x N with primitive colliders -> chain shape matching (runs, then vertices) -> clamp -> sdf vertices -> sdf midpoints (even, odd)
//   -> follow-the-leader with the contacts (the last word on every guide position) -> follow hairs
//   -> follow sdf.
#pragma once

#include <cstdint>
#include <span>

#include <glm/glm.hpp>

#include "shared/groom.h"
#include "shared/sim.h"
#include "shared/sdf.h"
#include "shared/sim_volume.h"

namespace tressel::sim_passes {

using gpu_shared::SimCollider;
using gpu_shared::SimGroupParams;
using gpu_shared::SimSdfFrame;
using gpu_shared::SimStrandData;

// The root transform of `strand` in a group's `roots`: one transform for every strand (rigid motion), or one
// per strand (skinning).
inline const glm::mat4& root_of(std::span<const glm::mat4> roots, uint32_t strand) {
    return roots[roots.size() == 1 ? 0 : strand];
}

// Per strand: root rotation and VSP motion over the step from the root transforms (previous -> now) and
// the rest root vertices; updates root_disp_m for the next step's acceleration test. Also turns the
// guide's rest frame into the world (for follow hairs).
void strand_data(uint32_t strand, const SimGroupParams& p, std::span<const glm::mat4> root_now,
                 std::span<const glm::mat4> root_prev, std::span<const glm::vec4> rest_os,
                 std::span<SimStrandData> data, std::span<const gpu_shared::GuideFrame> frames_rest,
                 std::span<gpu_shared::GuideFrame> frames_world);

// Hair volume (shared/sim_volume.h), when p.volume_nodes > 0, before integration. The grid of the step:
// its first node and cell (sim_volume_frame) from the bounds of every vertex of the group.
glm::vec4 volume_frame(const SimGroupParams& p, std::span<const glm::vec4> pos);
// Per vertex (pinned ones too): its hair length and momentum added to the 8 nodes around it (fixed point,
// wrapping int32 sums: the GPU's atomic adds give the same grid in any order). `grid` holds
// volume_nodes^3 x kSimVolumeNodeInts ints, zeroed before the first vertex.
void volume_splat(uint32_t vertex, const SimGroupParams& p, const glm::vec4& frame, std::span<const glm::vec4> pos,
                  std::span<const glm::vec4> prev, std::span<const float> rest_lengths, std::span<int32_t> grid);
// Per node (z * nodes + y) * nodes + x, after the splat: its overdensity gradient (sim_volume_node_gradient)
// into `gradient` (one vec4 per node).
void volume_gradient(uint32_t node, const SimGroupParams& p, const glm::vec4& frame, std::span<const int32_t> grid,
                     std::span<glm::vec4> gradient);
// What integration reads back at x (sim_volume_add over the 8 corners).
gpu_shared::SimVolumeSample volume_sample(const SimGroupParams& p, const glm::vec4& frame, std::span<const int32_t> grid,
                                          std::span<const glm::vec4> gradient, const glm::vec3& x);

// The fields a group's guides collide with, for Coulomb friction in integrate: per field of the group (its
// slot), the grid, its samples and its frame this step; `exempt` the strands' exemption bits
// (SimGroupState::sdf_exempt; empty: none).
struct FrictionFields {
    std::span<const gpu_shared::SdfGridParams> grids;
    std::span<const float* const> fields;
    std::span<const SimSdfFrame> frames;
    std::span<const uint32_t> exempt;
    std::span<const SimCollider> colliders;  // the group's primitive colliders (sim_collider_friction)
};

// The slot of the field whose surface a contact at world point x touches: the only one, or the one x lies
// deepest in (sim_sdf_margin_depth; the contact left x on that field's margin and outside the others).
uint32_t friction_field(const FrictionFields& f, uint32_t strand, const glm::vec3& x);

// Per vertex: pinned vertices go to root transform x rest; free ones take a Verlet step with damping,
// gravity and wind drag (the tangent from the current neighbours). Reads pos / prev, writes out (ping-pong).
// A free vertex whose previous position holds a contact (sim_contact_code, written by ftl_contact) then
// takes Coulomb's friction against that field's surface motion (sim_coulomb_friction), and one that starts
// on a primitive collider against the collider's (sim_collider_friction).
// With hair volume on (a non-empty `volume_grid` from volume_splat and its `volume_gradient`, at
// `volume_frame`), a free vertex's
// velocity is first pulled toward the hair's there (internal friction) and the step adds the pressure push.
void integrate(uint32_t vertex, const SimGroupParams& p, std::span<const glm::vec4> pos, std::span<const glm::vec4> prev,
               std::span<const glm::vec4> rest_os, std::span<const glm::mat4> root_now, std::span<glm::vec4> out,
               std::span<const int32_t> volume_grid = {}, std::span<const glm::vec4> volume_gradient = {},
               const glm::vec4& volume_frame = glm::vec4(0.0f), const FrictionFields& friction = {});

// Per free vertex within the global range: toward root transform x rest by global_stiffness.
void global_shape(uint32_t vertex, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> rest_os,
                  std::span<const glm::mat4> root_now);

// Per free vertex: velocity shock propagation (TressFX): position and previous position carried with the
// root's rigid motion over the step, blended by the strand's VSP blend.
void vsp(uint32_t vertex, const SimGroupParams& p, std::span<const SimStrandData> data, std::span<const glm::vec4> rest_os,
         std::span<const glm::mat4> root_prev, std::span<const glm::mat4> root_now, std::span<glm::vec4> pos,
         std::span<glm::vec4> prev);

// Per strand: local_iterations sweeps root to tip; each pulls vertex k+2 toward x(k+1) + F_k ref(k+2)
// with the per-iteration stiffness (Han & Harada 2012 / TressFX 4.1 local shape constraints; the child
// alone moves, see sim_shape_child), and writes the reaction into the joint's previous position
// (kSimShapeVelocityCorrection, as DFTL does for length).
void local_shape(uint32_t strand, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<glm::vec4> prev,
                 std::span<const glm::vec4> ref_vectors, std::span<const glm::vec4> rest_root_frame_q,
                 std::span<const SimStrandData> data);

// Per strand: length_iterations times, a root-to-tip sweep of distance constraints (split by inverse mass)
// followed by the primitive colliders on every free vertex (TressFX 4.1 LengthConstraintsWindAndCollision).
// Per strand: rod bending (simulation.bending "rod"), solved implicitly: the free vertices moved to the
// minimum of inertia plus the bending energy of the rest second differences (shared/sim.h, "rod
// bending"), one L D L^T solve root to tip and back; kSimBendRigid places every child on its rest segment
// from its joint's frame. Nothing for kSimBendLocalShape.
void bend(uint32_t strand, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> ref_vectors,
          std::span<const glm::vec4> rest_root_frame_q, std::span<const SimStrandData> data, std::span<const float> rest_lengths);

void length_and_colliders(uint32_t strand, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> prev,
                          std::span<const float> rest_lengths, std::span<const SimCollider> colliders);

// Chain shape matching (shared/shape_match.h), when p.chain_span > 0. Per run, indexed by the slot of its
// first vertex (slots that start no run return): the rotation of the run's rest shape onto its current
// vertices, warm-started from chain_q turned by the root's rotation over the step (strand data) and
// written back there, and its goals' translation into chain_t.
void chain_match_run(uint32_t run, const SimGroupParams& p, std::span<const SimStrandData> data, std::span<const glm::vec4> pos,
                     std::span<const glm::vec4> rest_os, std::span<glm::vec4> chain_q, std::span<glm::vec4> chain_t);
// Then per free vertex: chain_stiffness x (sum over its runs of (goal - x)) / span (Jacobi: every run was
// matched to the same positions, so vertices may move in any order; each run's pulls sum to zero).
void chain_match_vertex(uint32_t vertex, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> rest_os,
                        std::span<const glm::vec4> chain_q, std::span<const glm::vec4> chain_t);

// Per free vertex: movement over the step clamped to max_delta_m; clears the vertex's contact normal for
// the SDF passes that follow.
void clamp_delta(uint32_t vertex, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> prev,
                 std::span<glm::vec4> contact);

// Per free vertex of one SDF: pushed out to the margin with friction (sim_sdf_collide_vertex); the
// depenetration share of the push moves the previous position too (no velocity from overlap the step did
// not cause), and the push's normal is recorded in `contact` for ftl_contact. Pinned vertices are exempt
// (roots may sit just inside a collision mesh), and a free vertex next to a pinned one keeps its rest
// distance to it (sim_keep_distance), so a root inside the mesh never stretches its segment; its contact
// keeps the plane through the pushed point where the turn left it below the surface (sim_contact_lifted),
// which ftl_contact turns it out onto.
void sdf_vertex(uint32_t vertex, uint32_t n, const gpu_shared::SdfGridParams& g, const float* field, const SimSdfFrame& f,
                std::span<glm::vec4> pos, std::span<glm::vec4> prev, std::span<const float> rest_lengths, std::span<glm::vec4> contact);

// Per segment of one parity (segment k joins vertices k and k+1 of a strand; parity = k & 1), so no two
// invocations touch the same vertex: the midpoint's push moves both ends (and their previous positions by
// its depenetration share, as sdf_vertex) and records its normal as both ends' contact. Segments touching a
// pinned vertex are exempt; the end next to a pinned vertex keeps its distance to it. `segment` indexes
// strand * (n - 1) + k.
void sdf_midpoint(uint32_t segment, uint32_t parity, uint32_t n, const gpu_shared::SdfGridParams& g, const float* field,
                  const SimSdfFrame& f, std::span<glm::vec4> pos, std::span<glm::vec4> prev, std::span<const float> rest_lengths,
                  std::span<glm::vec4> contact);

// Per strand, the step's last sweep: follow-the-leader (Mueller, Kim & Chentanez 2012) that puts every free
// vertex at exactly its rest length from its parent, root to tip, while keeping it outside the contact
// plane its SDF push left (sim_ftl_contact_target) and outside the primitive colliders (pushed, then turned
// back onto the sphere about the parent). The parent's previous position takes DFTL's velocity correction
// of the length correction alone (a contact's reaction is not passed up the strand). Contact is therefore
// resolved inside the solve: a step ends with every segment at its rest length and every contact held.
// Each free vertex's contact goes to the w of its previous position (sim_contact_code) for the next step's
// friction.
void ftl_contact(uint32_t strand, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<glm::vec4> prev,
                 std::span<const float> rest_lengths, std::span<const SimCollider> colliders, std::span<const glm::vec4> contact);

// Per follow vertex (follow * n + k): follow_point over the guides' current positions and frames, plus its
// rest correction (follow_correction) where the descriptor names a row of `corrections` (n per row).
void follow_vertex(uint32_t vertex, uint32_t n, std::span<const gpu_shared::FollowDescriptor> descriptors,
                   std::span<const gpu_shared::GuideFrame> frames_world, std::span<const glm::vec4> guides,
                   std::span<glm::vec4> out, std::span<const glm::vec4> corrections = {});

// Per follow vertex with k >= 2: pushed out of one SDF, again while still inside (sim_sdf_push_follow; no
// friction: follows carry no velocity).
void follow_sdf_vertex(uint32_t vertex, uint32_t n, const gpu_shared::SdfGridParams& g, const float* field,
                       const SimSdfFrame& f, std::span<glm::vec4> follow_pos);

}  // namespace tressel::sim_passes
