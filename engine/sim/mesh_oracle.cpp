#include "sim/mesh_oracle.h"

#include <cmath>

#include "groom/spatial.h"
#include "sdf/sdf_oracle.h"
#include "sdf/sdf_passes.h"

namespace tressel {

struct MeshDistanceOracle::Impl {
    Mesh mesh;                         // the original, for the winding fallback
    sdf_passes::MeshData data;         // welded, with pseudonormals
    std::vector<glm::vec3> positions;  // data.positions_m as vec3 (the BVH's span)
    std::unique_ptr<TriangleBvh> bvh;
};

MeshDistanceOracle::MeshDistanceOracle(const Mesh& mesh) : impl_(std::make_unique<Impl>()) {
    impl_->mesh = mesh;
    impl_->data = sdf_passes::prepare_mesh(mesh);
    for (const glm::vec4& p : impl_->data.positions_m) impl_->positions.push_back(glm::vec3(p));
    impl_->bvh = std::make_unique<TriangleBvh>(impl_->positions, impl_->data.indices);
}

MeshDistanceOracle::~MeshDistanceOracle() = default;

bool MeshDistanceOracle::exact_sign() const { return impl_->data.closed_manifold(); }

float MeshDistanceOracle::signed_distance_m(glm::vec3 p) const {
    const sdf_passes::MeshData& m = impl_->data;
    if (impl_->bvh->empty()) return std::numeric_limits<float>::infinity();
    const ClosestPoint c = impl_->bvh->closest(p);
    const float d = c.distance_m;
    if (!m.closed_manifold())
        return std::abs(exact_winding_number(impl_->mesh, glm::dvec3(p))) > 0.5 ? -d : d;
    const uint32_t t = c.triangle;
    const glm::vec3 a = impl_->positions[m.indices[3 * t]], b = impl_->positions[m.indices[3 * t + 1]],
                    cc = impl_->positions[m.indices[3 * t + 2]];
    const gpu_shared::SdfClosest q = gpu_shared::sdf_closest_on_triangle(p, a, b, cc);
    glm::vec4 n;
    if (q.feature == gpu_shared::kSdfFeatureFace) n = m.face_normals[t];
    else if (q.feature <= gpu_shared::kSdfFeatureVertex2) n = m.vertex_pseudonormals[m.indices[3 * t + q.feature]];
    else n = m.edge_pseudonormals[m.tri_edges[3 * t + (q.feature - gpu_shared::kSdfFeatureEdge01)]];
    const bool inside = glm::dot(p - q.point_m, glm::vec3(n)) * m.orientation < 0.0f;
    return inside ? -d : d;
}

}  // namespace tressel
