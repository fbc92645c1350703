// An exact signed-distance oracle for bake metrics, independent of any grid: the distance is the exact
// closest point over every triangle (a BVH), the sign the generalized winding number (Jacobson et al.
// 2013: inside where its magnitude passes one half), evaluated by the fast winding numbers' hierarchy
// (Barill et al. 2018; exact over the triangles near the point). The angle-weighted pseudonormal of the
// closest feature (Baerentzen & Aanaes 2005) is exact only for a closed mesh that does not cross itself:
// the default head scan's eyelids pass through its eyeballs, and there it called points 6 mm inside the
// head outside.
#pragma once

#include <memory>

#include "sim/sim_metrics.h"

namespace tressel {

class MeshDistanceOracle {
public:
    // `mesh`: the collision mesh in its rest frame (the frame SimSdfOracle points are given in).
    explicit MeshDistanceOracle(const Mesh& mesh);
    ~MeshDistanceOracle();
    MeshDistanceOracle(const MeshDistanceOracle&) = delete;
    MeshDistanceOracle& operator=(const MeshDistanceOracle&) = delete;

    float signed_distance_m(glm::vec3 p_rest_m) const;
    bool closed() const;  // a closed manifold mesh: its winding number is a whole number off the surface

    // The penetration query (SimSdfOracle's contract): exactly signed_distance_m(p) wherever p is inside
    // the mesh or near its surface; elsewhere, on a closed manifold mesh, a positive lower bound of it. A
    // point outside the mesh's bounds gets its distance to them; one inside them the exact distance at the
    // nearest node of a lattice (cached, computed the first time a point near it asks), less its distance
    // from that node, when that is positive (the exact signed distance changes by at most the distance
    // moved). Hair lies millimetres over the surface, so most of a bake's points end there after the
    // first frames. Safe to call from several threads at once. Open meshes: always exact.
    float penetration_distance_m(glm::vec3 p_rest_m) const;
    double lattice_cell_m() const;          // the lattice's spacing (0: none, the mesh is not closed)
    size_t lattice_nodes_computed() const;  // how many of its nodes hold a distance so far

    SimSdfOracle as_function() const {
        return [this](glm::vec3 p) { return penetration_distance_m(p); };
    }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tressel
