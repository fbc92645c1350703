// CPU reference of the hair simulation (DESIGN.md "Simulation", TressFX 4.1 pass order, seeds 001 / 002),
// laid out for a pass-by-pass GPU port: the state is the GPU's buffers (fixed vertex count per strand,
// float4 positions with w = inverse mass), every per-item formula is in shaders/shared/sim.h and
// sim_sdf.h, and the passes (sim_passes.h) are plain functions per vertex / segment / strand. README.md
// lists the passes and how each maps to a dispatch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "groom/grow.h"
#include "groom/scene_groom.h"
#include "io/mesh.h"
#include "scene/scene_types.h"
#include "sdf/sdf.h"
#include "sim/cloth.h"
#include "shared/groom.h"
#include "shared/sim.h"

namespace tressel {

// The state of one hair group (GPU layout). Vertex k of strand s is at index s * n + k.
struct SimGroupState {
    std::string name;
    SimulationParams params;
    std::string scalp_mesh;                     // mesh name the roots are attached to (motion test)
    uint32_t n = 0;                             // vertices per strand (4..64)
    uint32_t strand_count = 0;

    std::vector<glm::vec4> positions;           // world, metres; w = inverse mass (0 pinned)
    std::vector<glm::vec4> prev_positions;      // world, metres, at the start of the last step
    std::vector<glm::vec4> scratch;             // integration output before the buffers rotate
    // Per vertex, within a step: the outward unit normal of the vertex's last SDF contact (zero: none),
    // written by the SDF passes and kept by the last follow-the-leader sweep (sim_passes::ftl_contact).
    std::vector<glm::vec4> contact_normals;
    // The shape targets (global shape; the pinned vertices' places), scalp-mesh
    // space, metres; w = inverse mass. The groom's positions unless a sag-free solve moved the free
    // vertices' targets so that the groom hangs still under gravity (sag_free.h).
    std::vector<glm::vec4> rest_positions_os;
    // The groom the hair rests in (scalp-mesh space, w = inverse mass): where reset_to_rest places the hair
    // and what the style error is measured against. The groom as grown (grown_positions_os) unless a sag-free
    // solve lifted the vertices it puts inside a collision mesh's margin out of it (sag_free.h), which no
    // step lets hair rest in. rest_positions_os is a copy of it until a sag-free solve.
    std::vector<glm::vec4> groomed_positions_os;
    std::vector<glm::vec4> grown_positions_os;  // the groom as grown, kept for the next solve
    // Chain shape matching's rest shape: the groom (its runs hold the curl as grown; a sag-free solve moves
    // the global targets by each vertex's sag, which would bend every run's rest shape with them).
    const std::vector<glm::vec4>& chain_rest() const {
        return groomed_positions_os.size() == rest_positions_os.size() ? groomed_positions_os : rest_positions_os;
    }
    std::vector<float> rest_lengths_m;          // per vertex k: rest |x(k+1) - x(k)|; 0 for the last vertex
    // Per vertex k >= 2: rest segment (k-1 -> k) in the rest frame of segment (k-2 -> k-1); frames are
    // propagated by minimal rotations from the root frame (sim_frame_advance). Zero for k < 2.
    std::vector<glm::vec4> ref_vectors_m;
    std::vector<glm::vec4> groomed_ref_vectors_m;  // ref_vectors_m of groomed_positions_os (sag-free moves ref_vectors_m)
    std::vector<glm::vec4> grown_ref_vectors_m;    // and of grown_positions_os
    std::vector<glm::vec4> rest_root_frame_q;   // per strand: frame of segment 0 in scalp space (x along it)
    std::vector<uint32_t> strand_flags;         // per strand: StrandFlags (kStrandDegenerate kept, simulated)
    // Chain shape matching (shared/shape_match.h), per run at the slot of its first vertex: the rotation of
    // the run's rest shape (scalp space) onto the world, kept from step to step as the next step's warm
    // start, and within a step the translation of its goals (w = 0).
    std::vector<glm::vec4> chain_q;
    std::vector<glm::vec4> chain_t;
    // Hair volume (shared/sim_volume.h), when on: the step's grid (volume_nodes^3 x kSimVolumeNodeInts
    // fixed-point sums) and where it sits (first node xyz, cell w), built from the positions at the step's
    // start; kept after the step for the bake's density figures.
    std::vector<int32_t> volume_grid;
    std::vector<glm::vec4> volume_gradient;     // per node: the overdensity gradient (sim_passes::volume_gradient)
    glm::vec4 volume_frame{0.0f};

    // Root transforms (scalp rest -> world), sim_passes::root_of: rigid motion keeps one, the scalp's, for
    // every strand; skinning one per strand (set_root_transforms). One step of rigid motion at 16M guide
    // vertices used to copy 64 MB of identical matrices here, which kept the GPU waiting on the host.
    std::vector<glm::mat4> root_transforms;
    std::vector<glm::mat4> root_transforms_prev;
    std::vector<gpu_shared::SimStrandData> strand_data;

    // Follow hairs: descriptors over the guides (shaders/shared/groom.h), evaluated every step.
    std::vector<gpu_shared::FollowDescriptor> follow_descriptors;
    std::vector<gpu_shared::GuideFrame> guide_frames_rest;  // scalp space
    std::vector<gpu_shared::GuideFrame> guide_frames;       // world, current (rest frames turned by the root)
    std::vector<glm::vec4> follow_positions;                // world, metres, n per follow; w = 0 for k < 2
    // Rest corrections of the follows the formula puts inside the scalp (shared/groom.h follow_correction):
    // n per corrected follow, the row named by its descriptor's guides.w (correct_follows_at_rest).
    std::vector<glm::vec4> follow_corrections;

    std::vector<uint32_t> sdf_indices;          // into SimWorld::sdfs
    std::vector<uint32_t> collider_indices;     // into SimWorld::colliders
    // Per guide strand, then per follow hair: bit i set = sdf_indices[i] does not act on it. Set by
    // add_accessory_field for strands rooted inside an accessory (hair grown under a bun pinned to the
    // scalp), which its field would push against their own roots. Empty: none.
    std::vector<uint32_t> sdf_exempt;

    // Skinning entry point: when non-empty (one per strand), the root transforms at the end of the next
    // frame; the frame's substeps blend from the previous ones. Consumed by the next frame.
    std::vector<glm::mat4> external_root_targets;

    size_t vertex_count() const { return positions.size(); }
    size_t follow_count() const { return follow_descriptors.size(); }
};

struct SimSdfState {
    std::string mesh;                           // collision mesh name
    const SdfGrid* grid = nullptr;              // rest-frame field; not owned, outlives the world
    gpu_shared::SdfGridParams grid_params{};
    double margin_m = 0.004;
    bool moves = false;                         // follows the motion transform
    glm::mat4 transform{1.0f};                  // rest -> world now
    gpu_shared::SimSdfFrame frame{};            // per step (margin and friction filled per group)
    // Eased in (a soft body's field, add_accessory_field): from t = 0 the margin rises from
    // -ease_in_depth_m to margin_m over ease_in_s (smoothstep), so hair that starts inside is let out over
    // that time instead of pushed out in one step. margin_offset_m: how far below margin_m it is now.
    double ease_in_s = 0.0, ease_in_depth_m = 0.0, margin_offset_m = 0.0;
    // A field rebuilt in world space from an accessory's positions every step (add_accessory_field): the
    // grid stays put (moves false) while the surface in it moves with the accessory. Its step_motion (what
    // a contact's travel and friction are measured against) is then that accessory's attach mesh's rigid
    // motion over the step, not the identity: hair lying still under a kerchief on a turning head is not
    // dragged back by friction against the world. -1: not an accessory's field.
    int32_t surface_of_cloth = -1;
    // Where the field's grid stands now relative to where grid_params puts it, in the rest frame: a posed
    // body's field is built on a grid placed around each pose (the same cells and cell count, moved by whole
    // cells), and sampled through this offset. It moves the grid, not the surface: step_motion (a contact's
    // travel and friction) does not see it. Set it with set_sdf_placement.
    glm::vec3 placement_m{0.0f};
    // A cloth's field over a groom (add_cloth_hair_rest_field): the index of the collision mesh's field it was
    // built from, whose margin it takes at every step; -1 otherwise.
    int32_t rest_of = -1;
};

// Moves field `s`'s grid to `placement_m` from where its grid_params put it, taking effect now (the frame's
// rest_to_world and world_to_rest) and in every later step.
void set_sdf_placement(SimSdfState& s, glm::vec3 placement_m);

struct SimColliderState {
    Collider desc;                              // rest (world at t = 0)
    bool moves = false;
    gpu_shared::SimCollider gpu{};              // world now and at the previous step
};

struct SimGroupInputs {
    std::string name;
    const GroomResult* groom = nullptr;         // required: guides in scalp-mesh space (any point count)
    const Mesh* scalp = nullptr;                // optional: used to compute guide frames when the groom has none
    std::string scalp_mesh;                     // mesh name (decides whether the motion moves the roots)
    SimulationParams params;
};

struct SimSdfInputs {
    std::string mesh;                           // CollisionMesh::mesh: the name groups list in params.sdf
    const SdfGrid* grid = nullptr;              // required; built in the mesh's rest frame; not owned
    double margin_m = 0.004;
};

struct SimWorldInputs {
    std::vector<SimGroupInputs> groups;
    std::vector<SimSdfInputs> sdfs;
    std::vector<Collider> colliders;
    Environment environment;
    Motion motion;
    uint32_t max_frames_per_advance = 4;        // advance() drops time beyond this many frames per call
};

struct SimClock {
    uint64_t steps = 0;                         // substeps run since reset
    double accumulator_s = 0.0;                 // time not yet simulated
    uint64_t dropped_frames = 0;                // frames skipped by advance() to keep up
    double time_s(double step_dt_s) const { return double(steps) * step_dt_s; }
};

// Hair against an accessory (README.md "Hair against accessories"): a cloth's one-sided shell field
// (SdfBuildDesc::shell) or a soft body's signed band field of its drawn (closed) surface, on a fixed grid,
// rebuilt from the accessory's positions at the start of every step and read by every hair group as one
// more SDF, world.sdfs[sdf] (moves = false: the grid is in world space).
struct SimAccessoryField {
    uint32_t cloth = 0;                         // into SimWorld::cloths (a cloth or a soft body)
    uint32_t sdf = 0;                           // into SimWorld::sdfs
    Mesh mesh;                                  // the surface's topology at rest (the GPU plans its build from it)
    SdfBuildDesc desc;                          // shell (a cloth) or signed band (a soft body), fixed grid, band (desc.mesh unset)
    SdfBuildPlan plan;                          // refitted every step
    std::shared_ptr<SdfGrid> grid;              // the field now; a copied world copies it before rebuilding
    // The grid travels with the accessory's attach mesh (a character walking across the room): at each step
    // it is moved by whole cells by where the attach transform has carried `centre_m` (the surface's centre
    // when the field was added) since t = 0 (accessory_field_placement), from its origin then, `origin_m`.
    glm::vec3 centre_m{0.0f};
    glm::dvec3 origin_m{0.0};
    glm::vec3 placed_m{0.0f};                   // where the grid stands now (begin_step)
};


struct SimWorld {
    std::vector<SimGroupState> groups;
    std::vector<ClothState> cloths;             // cloth accessories, stepped after the hair (cloth.h)
    std::vector<SimSdfState> sdfs;
    std::vector<SimColliderState> colliders;
    std::vector<SimAccessoryField> accessory_fields;  // hair against cloths (add_accessory_field)
    std::vector<std::shared_ptr<const SdfGrid>> owned_fields;  // fields the world made (add_cloth_hair_rest_field)
    Environment environment;
    Motion motion;
    uint32_t max_frames_per_advance = 4;
    SimClock clock;
    bool step_follows = true;                   // off: steps leave the follow hairs where they are (guides-only solves)
    // Skinned scalps: called at the first substep of every frame with the time the frame ends; it sets the
    // groups' root targets for that frame (set_root_transforms). reset_to_rest calls it at t = 0 and puts
    // the roots there at once. Unset: roots follow the motion (rigid).
    std::function<void(SimWorld&, double t_frame_end_s)> root_driver;
    // Colliders attached to a skeleton's joint (Collider::attach_joint): when set and it returns true, the
    // transform of collider `index` at time t (rest -> world) instead of the motion's.
    std::function<bool(size_t index, double t_s, glm::mat4& out)> collider_driver;
    // Cloths and soft bodies pinned to a skeleton's joint (Accessory::attach_joint): when set and it returns
    // true, the attach transform of cloth `index` at time t (rest -> world) instead of its mesh's motion.
    std::function<bool(size_t index, double t_s, glm::mat4& out)> cloth_driver;
    // Cloths and soft bodies pinned to a skin (ClothState::pins_on_skin): when set and it returns true, per
    // vertex of cloth `index` the transform at time t (rest -> world) of the skinned triangle its pin lies
    // on (free vertices' are not read); begin_step takes each pinned vertex's place from it.
    std::function<bool(size_t index, double t_s, std::vector<glm::mat4>& out)> cloth_pin_driver;

    double step_dt_s() const { return 1.0 / (environment.sim_rate_hz * double(environment.substeps)); }
    double frame_dt_s() const { return 1.0 / environment.sim_rate_hz; }
    double time_s() const { return clock.time_s(step_dt_s()); }
};

// Where cloth (or soft body) `cloth` of `world` has its pins at time t (rest -> world): its joint's
// transform from world.cloth_driver when that knows it, else its attach mesh's motion.
glm::mat4 cloth_attach_now(const SimWorld& world, size_t cloth, double t_s);

// Validation of what the simulation is given: the declared checks scene loading applies
// (scene/param_check.h: finite, inside the ranges of docs/scene-schema.md, gpu_vertices_per_strand 4, 8,
// 16, 32 or 64), so a value the loader refuses is refused here with the same bound. InvalidArgument
// whose message starts with the parameter's JSON path, the object named instead of indexed:
// "hair_groups['long'].simulation.damping: 5 is out of range [0, 1]", "environment.wind.speed: ...",
// "colliders['neck'].radius: ...".
Status validate_sim_params(const SimulationParams& p, const std::string& group);
Status validate_environment(const Environment& e);
Status validate_collider(const Collider& c);

// One group's state from its groom: guides resampled to params.gpu_vertices_per_strand (resample_strands),
// the first two vertices pinned, rest lengths, frames and reference vectors, follow descriptors copied.
// Positions start at the rest pose under `root_transform`.
Result<SimGroupState> build_sim_group(const SimGroupInputs& in, const glm::mat4& root_transform = glm::mat4(1.0f));

// The world at t = 0: groups, SDFs and colliders, the groups' sdf / collider names resolved (NotFound
// naming the group and the name otherwise), every parameter validated (the functions above, the motion's
// and each SDF margin's declared ranges too).
Result<SimWorld> build_sim_world(const SimWorldInputs& in);

// Makes every hair group collide with accessory `cloth` of the world over a grid covering [bounds_min,
// bounds_max] (world, metres; the places it may reach) with cells of cell_m (larger where the grid would
// exceed kAccessoryFieldMaxCells on an axis). A cloth: its shell field with a band of
// kAccessoryFieldBandCells, the obstacle on the side of the cloth away from `under_m` (a point of what the
// hair lies on, e.g. the attach mesh's centre: where the area-weighted normals point away from it, their
// side), the hair kept the cloth's thickness under its surface. A soft body: the signed distance of its
// drawn surface (closed: the body's mesh carried by its clusters) in a band of kSoftFieldBandCells, the
// hair kept kSoftFieldMarginM outside it (under_m unused). Built from the positions now; step_once
// rebuilds it before every step. Returns the field's index in world.sdfs. InvalidArgument naming the
// accessory for a bad index or bounds, a failed build.
inline constexpr int kAccessoryFieldMaxCells = 96;
inline constexpr int kAccessoryFieldBandCells = 8;
inline constexpr int kSoftFieldBandCells = 4;
inline constexpr double kSoftFieldMarginM = kSoftBodyHairClearanceM;  // the hair's distance from a soft body's surface (as grown)
inline constexpr double kSoftFieldEaseInS = 0.5;     // a soft body's field eases in over this (SimSdfState::ease_in_s)
inline constexpr double kAccessoryFieldCellM = 0.01;  // the scene's cell size for these fields
Result<uint32_t> add_accessory_field(SimWorld& world, size_t cloth, glm::vec3 bounds_min, glm::vec3 bounds_max, double cell_m,
                                     glm::vec3 under_m);

// The hair holds a cloth up (README.md "Hair under a cloth"): replaces the field in slot `slot` of cloth
// `cloth`'s fields with a copy in which the guides of the groups rooted on that field's mesh, as they are
// now (call it with the world at rest: the groomed shape), are part of the obstacle: each guide point
// taller over the surface than the cloth's clearance (margin + hair_clearance - particle radius) is a
// column to the surface, widened by kClothHairRestSpreadM so that neighbouring strands close into one
// layer; the cloth rests its thickness over the hair's particle radius over it. The copy moves with the
// mesh as the field does; a posed body's field (rebuilt for every pose) must not be given. Returns the
// new field's index in world.sdfs. InvalidArgument for a bad cloth or slot; LimitExceeded, naming the
// size, when its working memory (about 30 bytes a cell of the field) would pass memory_cap_bytes.
inline constexpr double kClothHairRestSpreadM = 0.01;
Result<uint32_t> add_cloth_hair_rest_field(SimWorld& world, size_t cloth, size_t slot, uint64_t memory_cap_bytes = 512ull << 20);

// Where accessory field `a`'s grid belongs at time t relative to where it was built (whole cells): how far
// the attach transform has carried a.centre_m since t = 0 (pins on a skin: the pins' mean travel).
// begin_step moves the grid there (SimAccessoryField::placed_m, the field's SimSdfState::placement_m) when
// it is more than kAccessoryFieldRecentreCells cells from where the grid stands: a grid moved every step
// changes how the surface falls on its cells, and with it the pushes on hair held against it (the bun
// scene's turn: 6.4 m/s at most over the last second against 5.1 with the grid in place).
inline constexpr int kAccessoryFieldRecentreCells = 4;
glm::vec3 accessory_field_placement(const SimWorld& world, const SimAccessoryField& a, double t_s);

// Rebuilds every accessory field from its accessory's positions now (step_once calls it first).
Status rebuild_accessory_fields(SimWorld& world);

// The positions a field of the accessory is built from (vec4, w 1 or its inverse mass): a cloth's
// vertices, a soft body's drawn surface (its render mesh carried by the clusters).
std::vector<glm::vec4> accessory_surface(const ClothState& accessory);

// What one substep uses besides the state, computed once for the CPU and the GPU steps: every transform
// advanced to the step's end time (SDF frames, colliders, root transforms), then per enabled group its
// parameters, colliders and SDF frames (margin, gradient step and friction filled; follow hairs get the
// same frames without friction). Does not advance the clock.
struct StepFrame {
    double t_now_s = 0.0;
    struct Group {
        gpu_shared::SimGroupParams params{};
        std::vector<gpu_shared::SimCollider> colliders;       // in the group's collider order
        std::vector<gpu_shared::SimSdfFrame> sdf_frames;      // in the group's sdf order (guides)
        std::vector<gpu_shared::SimSdfFrame> follow_sdf_frames;
    };
    std::vector<Group> groups;  // one per world group (empty for disabled groups)
    struct Cloth {
        gpu_shared::ClothStepParams params{};
        std::vector<gpu_shared::SimCollider> colliders;       // in the cloth's collider order
        std::vector<gpu_shared::SimSdfFrame> sdf_frames;      // in the cloth's sdf order
        std::vector<glm::vec4> pin_places;  // pins on a skin (params.pin_places): 2 per vertex, a pinned one's place at the step's start and end
    };
    std::vector<Cloth> cloths;  // one per world cloth
};
StepFrame begin_step(SimWorld& world);

// A collision mesh's frame now as a group or a cloth reads it: margin, gradient step (half a cell) and the
// reader's friction.
gpu_shared::SimSdfFrame sdf_frame_now(const SimSdfState& sdf, double friction);

// The CPU reference of sim/field_depth.comp: per guide (or follow) vertex of `group`, the deepest it lies in
// the group's fields that act on its strand (SimGroupState::sdf_exempt), in margins
// (gpu_shared::sim_sdf_margin_depth; kSimNoDepth outside every grid).
std::vector<float> field_depths(const SimWorld& world, size_t group, bool follows);

// Runs one substep of dt = step_dt_s() ending at time (clock.steps + 1) * dt: transforms, then every pass
// in order for every group (README.md). Should a position ever become non-finite, that group is reset to
// its rest pose and InvalidArgument names it (the other groups keep their step).
Status step_once(SimWorld& world);

// Accumulates elapsed_s and runs whole frames (1 / sim_rate_hz, `substeps` steps each); at most
// max_frames_per_advance per call (the rest is dropped and counted). Returns the frames run. Deterministic:
// the same sequence of calls gives bit-identical positions. InvalidArgument for NaN / negative elapsed_s.
Result<uint32_t> advance(SimWorld& world, double elapsed_s);

// Runs exactly `frames` frames (ignoring the accumulator).
Status run_frames(SimWorld& world, uint32_t frames);

// Back to the rest pose at t = 0: positions = previous = root transform x rest, clock cleared.
void reset_to_rest(SimWorld& world);

// Skinning entry point: per-strand root transforms (scalp rest -> world) the group's roots reach at the end
// of the next frame. InvalidArgument when the count differs from the strand count or a value is not finite.
Status set_root_transforms(SimWorld& world, size_t group, std::span<const glm::mat4> transforms);

// Hair each guide of g stands for in the hair volume's density: itself and its share of the follow hairs.
double volume_hair_per_guide(const SimGroupState& g);

// Follow hairs outside the scalp in the rest pose: every follow of g evaluated at rest (scalp space) and
// walked from the root as grown guides are (groom/clearance.h: a point inside `scalp` or closer than
// clearance_m moves out along the surface normal, its segment turned, the rest of the strand carried);
// the moves are kept per follow vertex in its primary guide's root frame, so they turn with the root.
// The collision field cannot do this where the scalp is thinner than its cells (an ear under 1.4 cm cells).
// Replaces earlier corrections; returns the follows corrected. build_sim_world calls it for groups that
// collide with their scalp mesh, with that mesh's margin.
size_t correct_follows_at_rest(SimGroupState& g, const Mesh& scalp, float clearance_m);

// The per-step parameters of group g at step time t_end_s (what the GPU uploads).
gpu_shared::SimGroupParams make_group_params(const SimWorld& world, const SimGroupState& g, double t_end_s);

}  // namespace tressel
