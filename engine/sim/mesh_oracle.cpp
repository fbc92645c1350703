#include "sim/mesh_oracle.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "groom/spatial.h"
#include "sdf/sdf_passes.h"

namespace tressel {
namespace {

// The lattice of cached exact distances: about 256 nodes along the mesh's longest side, none finer than a
// millimetre, at most 16M nodes (64 MiB).
constexpr double kLatticeNodesAlongLongest = 256.0;
constexpr double kLatticeFinest_m = 0.001;
constexpr double kLatticeMaxNodes = double(1u << 24);

}  // namespace

struct MeshDistanceOracle::Impl {
    Mesh mesh;                         // the original, for the winding fallback
    sdf_passes::MeshData data;         // welded, with pseudonormals
    std::vector<glm::vec3> positions;  // data.positions_m as vec3 (the BVH's span)
    std::unique_ptr<TriangleBvh> bvh;
    // The lattice (closed meshes only): node (i, j, k) at lo + h (i, j, k); NaN until computed.
    glm::vec3 lo{0.0f}, hi{0.0f};
    float h = 0.0f;
    glm::ivec3 nodes{0};
    std::unique_ptr<std::atomic<float>[]> cache;
    mutable std::atomic<size_t> computed{0};
};

MeshDistanceOracle::MeshDistanceOracle(const Mesh& mesh) : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.mesh = mesh;
    m.data = sdf_passes::prepare_mesh(mesh);
    for (const glm::vec4& p : m.data.positions_m) m.positions.push_back(glm::vec3(p));
    m.bvh = std::make_unique<TriangleBvh>(m.positions, m.data.indices);
    if (m.bvh->empty() || !m.data.closed_manifold()) return;
    m.lo = m.hi = m.positions.front();
    for (const glm::vec3& p : m.positions) m.lo = glm::min(m.lo, p), m.hi = glm::max(m.hi, p);
    const glm::dvec3 size = glm::dvec3(m.hi) - glm::dvec3(m.lo);
    const double longest = std::max({size.x, size.y, size.z});
    if (!(longest > 0.0) || !std::isfinite(longest)) return;
    double h = std::max(longest / kLatticeNodesAlongLongest, kLatticeFinest_m);
    auto count = [&](double cell) { return (std::floor(size.x / cell) + 2) * (std::floor(size.y / cell) + 2) * (std::floor(size.z / cell) + 2); };
    while (count(h) > kLatticeMaxNodes) h *= 1.25;
    m.h = float(h);
    m.nodes = glm::ivec3(glm::floor(size / h)) + 2;
    const size_t n = size_t(m.nodes.x) * size_t(m.nodes.y) * size_t(m.nodes.z);
    m.cache.reset(new std::atomic<float>[n]);
    for (size_t i = 0; i < n; ++i) m.cache[i].store(std::numeric_limits<float>::quiet_NaN(), std::memory_order_relaxed);
}

MeshDistanceOracle::~MeshDistanceOracle() = default;

bool MeshDistanceOracle::closed() const { return impl_->data.closed_manifold(); }

double MeshDistanceOracle::lattice_cell_m() const { return impl_->cache ? double(impl_->h) : 0.0; }

size_t MeshDistanceOracle::lattice_nodes_computed() const { return impl_->computed.load(std::memory_order_relaxed); }

float MeshDistanceOracle::signed_distance_m(glm::vec3 p) const {
    if (impl_->bvh->empty()) return std::numeric_limits<float>::infinity();
    const float d = impl_->bvh->closest(p).distance_m;
    return std::abs(sdf_passes::fast_winding_number(p, impl_->data)) > 0.5f ? -d : d;
}

float MeshDistanceOracle::penetration_distance_m(glm::vec3 p) const {
    const Impl& m = *impl_;
    if (!m.cache || !(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))) return signed_distance_m(p);
    // Outside the bounds: outside the (closed) mesh, at least as far from it as from the box.
    const glm::vec3 out = glm::max(m.lo - p, glm::max(p - m.hi, glm::vec3(0.0f)));
    if (out.x > 0.0f || out.y > 0.0f || out.z > 0.0f) return glm::length(out);
    const glm::ivec3 c = glm::clamp(glm::ivec3(glm::round((p - m.lo) / m.h)), glm::ivec3(0), m.nodes - 1);
    const size_t i = (size_t(c.z) * size_t(m.nodes.y) + size_t(c.y)) * size_t(m.nodes.x) + size_t(c.x);
    const glm::vec3 node = m.lo + glm::vec3(c) * m.h;
    float d = m.cache[i].load(std::memory_order_relaxed);
    if (std::isnan(d)) {
        // Two threads may both compute a node: the same value; the first to store it counts it.
        d = signed_distance_m(node);
        float unknown = std::numeric_limits<float>::quiet_NaN();
        if (m.cache[i].compare_exchange_strong(unknown, d, std::memory_order_relaxed)) m.computed.fetch_add(1, std::memory_order_relaxed);
    }
    // A margin of float rounding (a micrometre) keeps a point on the bound's edge exact.
    const float bound = d - glm::length(p - node) - 1e-6f;
    return bound > 0.0f ? bound : signed_distance_m(p);
}

}  // namespace tressel
