// An exact signed-distance oracle for bake metrics, independent of any grid: the distance is the exact
// closest point over every triangle (a BVH), the sign the angle-weighted pseudonormal of the closest
// feature (Baerentzen & Aanaes 2005: exact for closed, consistently oriented meshes); for open or
// non-manifold meshes the sign falls back to the exact generalized winding number (slow: O(triangles)).
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
    bool exact_sign() const;  // true when the pseudonormal sign applies (closed manifold mesh)
    SimSdfOracle as_function() const {
        return [this](glm::vec3 p) { return signed_distance_m(p); };
    }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tressel
