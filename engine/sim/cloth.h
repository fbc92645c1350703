// Cloth accessories (seed 004): a triangle mesh simulated as position-based cloth in the hair's world,
// sharing its time stepping, motion, SDFs and primitive colliders. The formulas are in
// shaders/shared/cloth.h (one text for this CPU reference and the GPU passes); README.md "Cloth" gives
// the model, the parallel scheme and the figures.
//
//   ClothBuildInputs in{.name = "scarf", .mesh = &scarf, .params = params, .pinned = pins};
//   auto cloth = build_cloth(in);                 // validates the mesh, welds it, builds the constraints
//   world.cloths.push_back(std::move(*cloth));    // then step_once(world) steps it with the hair
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "io/mesh.h"
#include "scene/scene_types.h"
#include "shared/cloth.h"

namespace tressel {

class MeshDistanceOracle;

// The state of one cloth (GPU layout: what the GPU passes keep in buffers).
struct ClothState {
    std::string name;
    ClothParams params;
    std::string attach_mesh;                    // pins follow this mesh's motion ("" = world)
    std::vector<glm::vec4> positions;           // world, metres; w = inverse mass (0 pinned)
    std::vector<glm::vec4> prev_positions;      // world: with positions, the velocity (x - x_prev) / small step dt
    std::vector<glm::vec4> work_a, work_b;      // within a step: a small step's prediction and its start
    std::vector<gpu_shared::ClothVertex> vertices;
    std::vector<gpu_shared::ClothConstraint> constraints;  // edges
    std::vector<uint32_t> adjacency;            // per vertex, its edges (ClothVertex::first ...)
    std::vector<glm::uvec2> bend_terms;         // per vertex, its bending stencil (ClothVertex::bend_first ...): neighbour, coefficient (float bits, 1/m^2)
    std::vector<glm::vec4> bend_rest;           // per vertex: (Q x_rest)_v in its rest frame (xyz, 1/m), the stencil's bound G_v (w, 1/m^2)
    std::vector<glm::vec4> frames;              // within a step, 2 per vertex: its normal and its bending target (predict)
    std::vector<glm::uvec4> triangles;          // xyz: welded vertex indices; w: 0
    std::vector<uint32_t> vertex_triangles;     // per vertex, its triangles (ClothVertex::tri_first ...)
    std::vector<uint32_t> source_vertex;        // per welded vertex, one vertex of the input mesh it came from
    std::vector<uint32_t> welded_of_source;     // per input vertex, its welded vertex (render mesh mapping)
    uint32_t edge_count = 0, hinge_count = 0;  // edges; interior edges in the bending energy
    std::vector<uint32_t> sdf_indices;          // into SimWorld::sdfs
    std::vector<uint32_t> collider_indices;     // into SimWorld::colliders
    glm::mat4 pin_transform{1.0f};              // rest -> world of the attach mesh now (pins)
    // Pins on a skin: each pinned vertex carried by the skinned triangle under it (SimWorld::cloth_pin_driver)
    // instead of by pin_transform. pin_places: the step's places, 2 per vertex (a pinned one's at the
    // step's start and end, world; free ones unused), set by each step from StepFrame::Cloth.
    bool pins_on_skin = false;
    std::vector<glm::vec4> pin_places;
    float total_mass_kg = 0.0f;

    // Soft bodies (soft_body.h): the vertices are particles, vertex v's adjacency its cluster's members
    // (itself included), edge constraints the lattice's links (measured, not solved), no triangles.
    bool soft_body = false;
    SoftBodyParams soft;
    std::vector<glm::vec4> cluster_rest;        // per cluster (one per particle): rest centroid, attach space
    std::vector<glm::vec4> clusters;            // per cluster: rotation q, translation t of its goals now
    std::vector<gpu_shared::SoftRenderVertex> render_vertices;  // the accessory mesh's vertices, bound to clusters
    std::vector<uint32_t> render_indices;       // its triangles

    size_t vertex_count() const { return positions.size(); }
};

struct ClothBuildInputs {
    std::string name;
    const Mesh* mesh = nullptr;                 // required: the cloth in the attach mesh's rest space, metres
    ClothParams params;
    std::vector<bool> pinned;                   // per input mesh vertex: pinned (follows the attach mesh)
    std::string attach_mesh;
};

// A rectangular sheet: (nu + 1) x (nv + 1) vertices from `corner` along u and v (metres), each quad split
// into two triangles along alternating diagonals (no preferred fold direction). Tests and benchmarks.
Mesh make_cloth_sheet(const std::string& name, glm::vec3 corner, glm::vec3 u, glm::vec3 v, uint32_t nu, uint32_t nv);

// The cloth as a mesh now: its welded vertices at their positions and its triangles (what is drawn); a
// soft body's render mesh carried by its clusters.
Mesh cloth_mesh(const ClothState& cloth);

// Which vertices of `mesh` a pin rule selects. NearMesh needs the attach mesh's distance oracle (nullptr:
// InvalidArgument); Box uses the box in the mesh's space; VertexColor the red channel (InvalidArgument
// when the mesh has no colours). None pins nothing.
Result<std::vector<bool>> select_pins(const Mesh& mesh, const AccessoryPins& pins, const MeshDistanceOracle* attach);

// An accessory's mesh, checked: InvalidArgument naming `who` and the problem for no triangles, a
// non-finite vertex or an index out of range.
Status check_accessory_mesh(const Mesh& mesh, const std::string& who);

// Validates the cloth's parameters (the declared ranges) and its mesh, and builds the cloth. Vertices at
// the same position are welded (seams of UVs or normals split vertices the cloth must keep together).
// InvalidArgument naming the cloth and the problem: no triangles, an index out of range, a non-finite
// position, a triangle of (almost) zero area, an edge shared by more than two triangles (non-manifold),
// a pin set that is empty or holds every vertex.
Result<ClothState> build_cloth(const ClothBuildInputs& in);

// The step's constants for `cloth` (dt, gravity, wind and time from the world, compliances from its
// parameters, per small step of dt_s / iterations). `pin_before` / `pin_now`: the attach mesh's rest ->
// world transform at the step's start and end.
gpu_shared::ClothStepParams make_cloth_params(const ClothParams& params, const Environment& env, double dt_s, double t_end_s,
                                              const glm::mat4& pin_before, const glm::mat4& pin_now, uint32_t collider_count,
                                              uint32_t sdf_count, uint32_t vertex_count);

// Puts every vertex at its rest position under the pin transform, at rest.
void place_cloth_at_rest(ClothState& cloth, const glm::mat4& pin_transform);

namespace cloth_passes {

struct SdfRef {
    const float* field = nullptr;
    gpu_shared::SdfGridParams grid{};
    gpu_shared::SimSdfFrame frame{};
};

// Per vertex, the first pass of a step: small step 0's prediction from the state (pos, prev): pinned
// vertices to their place at its end, free ones a Verlet step with gravity, damping and the wind across
// the cloth. Writes the prediction to `pred`, the start (pos) to `start`, and the vertex's frame for the
// step to frames[2v] (its unit normal, which the wind reads in every small step) and frames[2v + 1] (its
// bending target: its rest curvature turned into its frame now, w its stencil's bound).
void predict(uint32_t v, const gpu_shared::ClothStepParams& p, const ClothState& c, const std::vector<glm::vec4>& pos,
             const std::vector<glm::vec4>& prev, std::vector<glm::vec4>& pred, std::vector<glm::vec4>& start, std::vector<glm::vec4>& frames);

// The contacts of a particle that ends a small step at y, having started it at yp: pushed out of the
// colliders and SDFs to thickness_m (its collision radius) + margin, then each contact's friction and
// launch-free depenetration (cloth_contact_finish). Returns (y, yp) after them in .a / .b (xyz).
gpu_shared::SimPair contacts(const gpu_shared::ClothStepParams& p, glm::vec3 y, glm::vec3 yp, float thickness_m,
                             const std::vector<gpu_shared::SimCollider>& colliders, const std::vector<SdfRef>& sdfs);

// The parts of a small step every particle accessory shares (cloth and soft body):
// a pinned particle's small step (to its pin's place at the small step's end); false for a free one.
// Where pinned vertex v is at the end of small step s: under p.pin_transform's blend, or between its own
// places where the pins are on a skin (p.pin_places, c.pin_places).
glm::vec3 pin_place(const gpu_shared::ClothStepParams& p, const ClothState& c, uint32_t v, uint32_t s);
bool pinned_small_step(uint32_t v, const gpu_shared::ClothStepParams& p, uint32_t s, const ClothState& c, const std::vector<glm::vec4>& pred,
                       const std::vector<glm::vec4>& start, std::vector<glm::vec4>& out_a, std::vector<glm::vec4>& out_b);
// A free particle's end of small step s at y (from y_start): its contacts, then the next small step's
// prediction (with the surface `normal` for the wind) and this one's end, or after the last the state.
void end_small_step(uint32_t v, const gpu_shared::ClothStepParams& p, uint32_t s, float w, glm::vec3 y, glm::vec3 y_start, float thickness_m,
                    glm::vec3 normal, const std::vector<gpu_shared::SimCollider>& colliders, const std::vector<SdfRef>& sdfs,
                    std::vector<glm::vec4>& out_a, std::vector<glm::vec4>& out_b);

// Per vertex, small step s: one Jacobi iteration over the prediction (the averaged corrections of its
// edges and its bending's step against c.frames), the tether, the colliders and SDFs (pushed out to thickness + margin), the contacts'
// friction and launch-free depenetration (cloth_contact_finish); then, unless s is the last small step,
// small step s + 1's prediction. Writes (out_a, out_b) = (the next prediction, this small step's end), or
// after the last one the state (position, previous position).
void substep(uint32_t v, const gpu_shared::ClothStepParams& p, uint32_t s, const ClothState& c, const std::vector<glm::vec4>& pred,
             const std::vector<glm::vec4>& start, std::vector<glm::vec4>& out_a, std::vector<glm::vec4>& out_b,
             const std::vector<gpu_shared::SimCollider>& colliders, const std::vector<SdfRef>& sdfs);

}  // namespace cloth_passes

// One step of the world for the cloth: predict, then params.substeps small steps (the passes above, in
// the order the GPU runs them, reading one buffer pair and writing the other).
void step_cloth(ClothState& cloth, const gpu_shared::ClothStepParams& p, const std::vector<gpu_shared::SimCollider>& colliders,
                const std::vector<cloth_passes::SdfRef>& sdfs);

// Figures of a cloth now: the largest and mean edge strain (|x0 - x1| / rest - 1); kinetic energy per kg
// at the velocity of the last small step (dt_s: the world's step, which the small steps divide).
struct ClothStretch {
    double max_strain = 0.0, mean_strain = 0.0;
};
ClothStretch measure_cloth_stretch(const ClothState& cloth);
double cloth_kinetic_energy(const ClothState& cloth, double dt_s);

}  // namespace tressel
