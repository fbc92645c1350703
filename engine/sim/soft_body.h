// Soft-body accessories (seed 003: shape matching): a closed mesh (a bun, bow or pompom) sampled to
// particles on a lattice inside it, each particle the centre of a cluster of its lattice neighbours that
// is matched to its rest shape every small step (shaders/shared/shape_match.h). A soft body is a
// ClothState (cloth.h) whose vertices are the particles: it shares the step's constants, the contacts,
// the GPU buffers and everything that steps, draws and reports cloths; its clusters and render mesh are
// the ClothState's soft-body members. README.md "Soft bodies" gives the model and the figures.
//
//   SoftBodyBuildInputs in{.name = "bun", .mesh = &bun, .params = params, .pins = pins, .attach = &head};
//   auto body = build_soft_body(in);            // samples the mesh, builds clusters and the render binding
//   world.cloths.push_back(std::move(*body));   // then step_once(world) steps it with the hair
#pragma once

#include "sim/cloth.h"

namespace tressel {

// The spacing a soft body's stiffness is stated at (SoftBodyParams::stiffness): finer sampling gets
// stiffer clusters so that the body is as firm.
inline constexpr double kSoftReferenceSpacing_m = 0.01;

struct SoftBodyBuildInputs {
    std::string name;
    const Mesh* mesh = nullptr;                 // required: closed, in the attach mesh's rest space, metres
    SoftBodyParams params;
    AccessoryPins pins;                         // which particles follow the attach mesh (none: free body)
    const MeshDistanceOracle* attach = nullptr; // the attach mesh's distance (pins near_mesh)
    std::string attach_mesh;
};

// Validates the parameters and the mesh, samples particles at the centres of the lattice cells inside
// it, builds each particle's cluster, the pins and the render mesh's binding to the clusters.
// InvalidArgument naming the body and the problem: no triangles, an index out of range, a non-finite
// position, a mesh that is not closed (inside is undefined), a spacing that leaves no particle inside or
// asks for more than kSoftMaxParticles, a pin set that holds every particle.
Result<ClothState> build_soft_body(const SoftBodyBuildInputs& in);

// The step's constants of a soft body (make_cloth_params' shared part: dt, gravity, pins, contacts;
// thickness half the particle spacing; shape stiffness per small step).
gpu_shared::ClothStepParams make_soft_body_params(const ClothState& body, const Environment& env, double dt_s, double t_end_s,
                                                  const glm::mat4& pin_before, const glm::mat4& pin_now, uint32_t collider_count,
                                                  uint32_t sdf_count);

namespace soft_passes {

// Per cluster c: matched to the positions x (its members' centroid, covariance and rotation, warm-started
// from its rotation in `clusters`); writes its rotation and translation there.
void cluster(uint32_t c, const ClothState& body, const std::vector<glm::vec4>& x, std::vector<glm::vec4>& clusters);

// Per particle, small step s: the pull toward the mean of its clusters' goals, the contacts, then the
// next small step's prediction (as cloth_passes::substep, whose buffers it reads and writes).
void substep(uint32_t v, const gpu_shared::ClothStepParams& p, uint32_t s, const ClothState& body, const std::vector<glm::vec4>& pred,
             const std::vector<glm::vec4>& start, std::vector<glm::vec4>& out_a, std::vector<glm::vec4>& out_b,
             const std::vector<gpu_shared::SimCollider>& colliders, const std::vector<cloth_passes::SdfRef>& sdfs);

// Vertex r of the render mesh now: the weighted goals of its clusters (position) and their rotations of
// its rest normal.
void render_vertex(uint32_t r, const ClothState& body, glm::vec3& position, glm::vec3& normal);

}  // namespace soft_passes

// One step of the world for a soft body: predict, then per small step the cluster pass and the particle
// pass, then the clusters matched to the step's end (what is drawn, and the next step's warm start).
void step_soft_body(ClothState& body, const gpu_shared::ClothStepParams& p, const std::vector<gpu_shared::SimCollider>& colliders,
                    const std::vector<cloth_passes::SdfRef>& sdfs);

// Puts the clusters at the rest pose under `pin_transform` (place_cloth_at_rest calls it for soft bodies).
void place_clusters_at_rest(ClothState& body, const glm::mat4& pin_transform);

// Energy figures of a soft body: its particles' mean height (m, along -gravity) and kinetic energy per
// kg over the last step (cloth_kinetic_energy).
double soft_body_mean_height(const ClothState& body, glm::vec3 up);

}  // namespace tressel
