#include "sdf/sdf_passes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <unordered_map>

#include "shared/float_order.h"
#include "shared/sdf_refit.h"
#include "shared/sdf_sample.h"

namespace tressel::sdf_passes {

using gpu_shared::float_to_ordered;
using gpu_shared::kSdfNoTriangle;
using gpu_shared::kSdfUnwrittenOrdered;
using gpu_shared::ordered_to_float;

namespace {

glm::vec3 xyz(const glm::vec4& v) { return glm::vec3(v); }

struct PosKey {
    uint32_t x, y, z;
    bool operator==(const PosKey&) const = default;
};
struct PosHash {
    size_t operator()(const PosKey& k) const {
        uint64_t h = k.x * 0x9E3779B97F4A7C15ull;
        h ^= (k.y + 0x7F4A7C159E3779B9ull) * 0xC2B2AE3D27D4EB4Full;
        h ^= (k.z + 0x165667B19E3779F9ull) * 0x27D4EB2F165667C5ull;
        return size_t(h ^ (h >> 29));
    }
};

}  // namespace

namespace {
void build_fwn_tree(MeshData& m);
}  // namespace

MeshData prepare_mesh(const Mesh& mesh) {
    MeshData m;
    std::unordered_map<PosKey, uint32_t, PosHash> weld;
    weld.reserve(mesh.positions.size());
    std::vector<uint32_t> remap(mesh.positions.size());
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        glm::vec3 p = mesh.positions[i] + glm::vec3(0.0f);  // -0 becomes +0
        PosKey key{std::bit_cast<uint32_t>(p.x), std::bit_cast<uint32_t>(p.y), std::bit_cast<uint32_t>(p.z)};
        auto [it, inserted] = weld.try_emplace(key, uint32_t(m.positions_m.size()));
        if (inserted) {
            m.positions_m.push_back(glm::vec4(p, 0.0f));
            m.weld_source.push_back(uint32_t(i));
        }
        remap[i] = it->second;
    }
    const size_t tris_in = mesh.indices.size() / 3;
    m.indices.reserve(tris_in * 3);
    for (size_t t = 0; t < tris_in; ++t) {
        uint32_t a = remap[mesh.indices[3 * t]], b = remap[mesh.indices[3 * t + 1]], c = remap[mesh.indices[3 * t + 2]];
        if (a == b || b == c || c == a) {
            ++m.dropped_triangles;
            continue;
        }
        m.indices.insert(m.indices.end(), {a, b, c});
    }
    const size_t nt = m.triangle_count();

    // Edges keyed by (min, max) welded vertex; first use records its direction.
    struct EdgeUse {
        uint32_t id;
        uint32_t count;
        uint32_t from;  // start vertex of the first traversal
        uint32_t same_direction;
    };
    std::unordered_map<uint64_t, EdgeUse> edges;
    edges.reserve(nt * 2);
    m.tri_edges.resize(nt * 3);
    uint32_t edge_count = 0;
    for (size_t t = 0; t < nt; ++t) {
        for (int e = 0; e < 3; ++e) {
            uint32_t u = m.indices[3 * t + e], v = m.indices[3 * t + (e + 1) % 3];
            uint64_t key = (uint64_t(std::min(u, v)) << 32) | std::max(u, v);
            auto [it, inserted] = edges.try_emplace(key, EdgeUse{edge_count, 0, u, 0});
            if (inserted) ++edge_count;
            it->second.count++;
            if (!inserted && it->second.from == u) it->second.same_direction++;
            m.tri_edges[3 * t + e] = it->second.id;
        }
    }
    // Edge id -> up to two triangles, in triangle order: neighbours across each edge.
    std::vector<uint32_t> edge_tri(size_t(edge_count) * 2, kSdfNoTriangle);
    for (size_t t = 0; t < nt; ++t)
        for (int e = 0; e < 3; ++e) {
            uint32_t* slot = &edge_tri[2 * m.tri_edges[3 * t + e]];
            if (slot[0] == kSdfNoTriangle) slot[0] = uint32_t(t);
            else if (slot[1] == kSdfNoTriangle) slot[1] = uint32_t(t);
        }
    m.tri_neighbours.resize(nt * 3);
    for (size_t t = 0; t < nt; ++t)
        for (int e = 0; e < 3; ++e) {
            const uint32_t* slot = &edge_tri[2 * m.tri_edges[3 * t + e]];
            m.tri_neighbours[3 * t + e] = slot[0] == uint32_t(t) ? slot[1] : slot[0];
        }
    m.vertex_tri_offsets.assign(m.positions_m.size() + 1, 0u);
    for (uint32_t v : m.indices) m.vertex_tri_offsets[v + 1]++;
    for (size_t v = 0; v < m.positions_m.size(); ++v) m.vertex_tri_offsets[v + 1] += m.vertex_tri_offsets[v];
    m.vertex_tris.resize(m.indices.size());
    {
        std::vector<uint32_t> fill(m.vertex_tri_offsets.begin(), m.vertex_tri_offsets.end() - 1);
        for (size_t t = 0; t < nt; ++t)
            for (int k = 0; k < 3; ++k) m.vertex_tris[fill[m.indices[3 * t + k]]++] = uint32_t(t);
    }
    for (const auto& [key, use] : edges) {
        (void)key;
        if (use.count == 1) ++m.open_edges;
        if (use.count > 2) ++m.non_manifold_edges;
        if (use.count == 2 && use.same_direction) ++m.inconsistent_edges;
    }

    m.edge_tri_offsets.assign(size_t(edge_count) + 1, 0u);
    for (uint32_t e : m.tri_edges) m.edge_tri_offsets[e + 1]++;
    for (size_t e = 0; e < size_t(edge_count); ++e) m.edge_tri_offsets[e + 1] += m.edge_tri_offsets[e];
    m.edge_tris.resize(m.tri_edges.size());
    {
        std::vector<uint32_t> fill(m.edge_tri_offsets.begin(), m.edge_tri_offsets.end() - 1);
        for (size_t t = 0; t < nt; ++t)
            for (int k = 0; k < 3; ++k) m.edge_tris[fill[m.tri_edges[3 * t + k]]++] = uint32_t(t);
    }

    std::vector<glm::vec4> source(mesh.positions.size());
    for (size_t i = 0; i < source.size(); ++i) source[i] = glm::vec4(mesh.positions[i] + glm::vec3(0.0f), 0.0f);
    refit_mesh(m, source);
    double volume6 = 0.0;
    for (size_t t = 0; t < nt; ++t) {
        glm::dvec3 p[3] = {glm::dvec3(xyz(m.positions_m[m.indices[3 * t]])), glm::dvec3(xyz(m.positions_m[m.indices[3 * t + 1]])),
                           glm::dvec3(xyz(m.positions_m[m.indices[3 * t + 2]]))};
        volume6 += glm::dot(p[0], glm::cross(p[1], p[2]));
    }
    m.orientation = volume6 < 0.0 ? -1.0f : 1.0f;
    build_fwn_tree(m);
    return m;
}

void refit_mesh(MeshData& m, std::span<const glm::vec4> source) {
    using gpu_shared::sdf_corner_angle;
    using gpu_shared::sdf_face_normal;
    using gpu_shared::sdf_unit_or_zero;
    const size_t nv = m.weld_source.size(), nt = m.triangle_count();
    m.positions_m.resize(nv);
    for (size_t v = 0; v < nv; ++v) m.positions_m[v] = glm::vec4(xyz(source[m.weld_source[v]]), 0.0f);
    m.face_normals.resize(nt);
    m.tri_spheres.resize(nt);
    for (size_t t = 0; t < nt; ++t) {
        glm::vec3 p[3] = {xyz(m.positions_m[m.indices[3 * t]]), xyz(m.positions_m[m.indices[3 * t + 1]]),
                          xyz(m.positions_m[m.indices[3 * t + 2]])};
        m.face_normals[t] = glm::vec4(sdf_face_normal(p[0], p[1], p[2]), 0.0f);
        m.tri_spheres[t] = gpu_shared::sdf_triangle_sphere(p[0], p[1], p[2]);
    }
    // Each sum in triangle order, as the GPU pass adds them.
    m.vertex_pseudonormals.resize(nv);
    for (size_t v = 0; v < nv; ++v) {
        glm::vec3 sum(0.0f);
        for (uint32_t i = m.vertex_tri_offsets[v]; i < m.vertex_tri_offsets[v + 1]; ++i) {
            const uint32_t t = m.vertex_tris[i];
            int k = 0;
            while (k < 2 && m.indices[3 * t + k] != v) ++k;
            const glm::vec3 a = xyz(m.positions_m[m.indices[3 * t + k]]), b = xyz(m.positions_m[m.indices[3 * t + (k + 1) % 3]]),
                            c = xyz(m.positions_m[m.indices[3 * t + (k + 2) % 3]]);
            sum += sdf_corner_angle(a, b, c) * xyz(m.face_normals[t]);
        }
        m.vertex_pseudonormals[v] = glm::vec4(sdf_unit_or_zero(sum), 0.0f);
    }
    const size_t ne = m.edge_tri_offsets.empty() ? 0 : m.edge_tri_offsets.size() - 1;
    m.edge_pseudonormals.resize(ne);
    for (size_t e = 0; e < ne; ++e) {
        glm::vec3 sum(0.0f);
        for (uint32_t i = m.edge_tri_offsets[e]; i < m.edge_tri_offsets[e + 1]; ++i) sum += xyz(m.face_normals[m.edge_tris[i]]);
        m.edge_pseudonormals[e] = glm::vec4(sdf_unit_or_zero(sum), 0.0f);
    }
    if (!m.fwn_nodes.empty()) refit_fwn_nodes(m);
}

void init_cell(uint32_t cell, std::span<uint32_t> dist_ordered, std::span<uint32_t> nearest) {
    dist_ordered[cell] = kSdfUnwrittenOrdered;
    nearest[cell] = kSdfNoTriangle;
}

void band_cell_range(const SdfGridParams& g, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::ivec3& lo, glm::ivec3& hi) {
    glm::vec3 mn = gpu_shared::sdf_grid_coords(g, glm::min(a, glm::min(b, c)));
    glm::vec3 mx = gpu_shared::sdf_grid_coords(g, glm::max(a, glm::max(b, c)));
    float band = float(g.dims.w);
    glm::ivec3 dims(g.dims);
    lo = glm::max(glm::ivec3(glm::floor(mn - band)), glm::ivec3(0));
    hi = glm::min(glm::ivec3(glm::ceil(mx + band)), dims - 1);
}

namespace {
struct Tri {
    glm::vec3 a, b, c;
};
Tri triangle(const MeshData& m, uint32_t t) {
    return {xyz(m.positions_m[m.indices[3 * t]]), xyz(m.positions_m[m.indices[3 * t + 1]]),
            xyz(m.positions_m[m.indices[3 * t + 2]])};
}

// The hierarchy's topology: depth first, each inner node's triangles split at the median of their
// centroids along the longest axis of the centroids' box (ties by triangle id, so the tree is the same on
// every run), down to kSdfFwnLeafSize triangles; then its geometry (refit_fwn_nodes).
void build_fwn_tree(MeshData& m) {
    const uint32_t nt = uint32_t(m.triangle_count());
    m.fwn_nodes.clear();
    m.fwn_tris.resize(nt);
    if (nt == 0) return;
    std::vector<glm::vec3> centroid(nt);
    for (uint32_t t = 0; t < nt; ++t) {
        const Tri tr = triangle(m, t);
        centroid[t] = (tr.a + tr.b + tr.c) / 3.0f;
        m.fwn_tris[t] = t;
    }
    m.fwn_nodes.reserve(2 * (nt / gpu_shared::kSdfFwnLeafSize + 1));
    auto new_node = [&] {
        m.fwn_nodes.push_back({});
        return uint32_t(m.fwn_nodes.size() - 1);
    };
    std::vector<uint32_t> depth;
    // Recursive: the depth is about log2(triangles / leaf size).
    std::function<void(uint32_t, uint32_t, uint32_t)> build = [&](uint32_t node, uint32_t first, uint32_t count) {
        if (depth.size() < m.fwn_nodes.size()) depth.resize(m.fwn_nodes.size(), 0u);
        if (count <= gpu_shared::kSdfFwnLeafSize) {
            m.fwn_nodes[node].range = glm::uvec4(first, count, uint32_t(m.fwn_nodes.size()), 0u);
            return;
        }
        glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
        for (uint32_t k = first; k < first + count; ++k) {
            lo = glm::min(lo, centroid[m.fwn_tris[k]]);
            hi = glm::max(hi, centroid[m.fwn_tris[k]]);
        }
        const glm::vec3 ext = hi - lo;
        const int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
        const uint32_t half = count / 2;
        auto begin = m.fwn_tris.begin() + first;
        std::nth_element(begin, begin + half, begin + count, [&](uint32_t a, uint32_t b) {
            return centroid[a][axis] < centroid[b][axis] || (centroid[a][axis] == centroid[b][axis] && a < b);
        });
        const uint32_t left = new_node();
        depth.resize(m.fwn_nodes.size());
        depth[left] = depth[node] + 1;
        build(left, first, half);
        const uint32_t right = new_node();
        depth.resize(m.fwn_nodes.size());
        depth[right] = depth[node] + 1;
        build(right, first + half, count - half);
        m.fwn_nodes[node].range = glm::uvec4(first, 0u, uint32_t(m.fwn_nodes.size()), 0u);
    };
    build(new_node(), 0, nt);
    depth.resize(m.fwn_nodes.size());
    // The refit's order: every leaf, then the inner nodes one level at a time, deepest first.
    uint32_t deepest = 0;
    for (uint32_t d : depth) deepest = std::max(deepest, d);
    m.fwn_order.clear();
    m.fwn_level_offsets.assign(1, 0u);
    for (uint32_t i = 0; i < m.fwn_nodes.size(); ++i)
        if (m.fwn_nodes[i].range.y > 0) m.fwn_order.push_back(i);
    m.fwn_level_offsets.push_back(uint32_t(m.fwn_order.size()));
    for (uint32_t d = deepest + 1; d-- > 0;) {
        for (uint32_t i = 0; i < m.fwn_nodes.size(); ++i)
            if (m.fwn_nodes[i].range.y == 0 && depth[i] == d) m.fwn_order.push_back(i);
        if (m.fwn_order.size() > m.fwn_level_offsets.back()) m.fwn_level_offsets.push_back(uint32_t(m.fwn_order.size()));
    }
    refit_fwn_nodes(m);
}
}  // namespace

void refit_fwn_nodes(MeshData& m) {
    using namespace gpu_shared;
    // fwn_order lists the leaves, then the inner nodes deepest level first: every node after its children.
    for (uint32_t node : m.fwn_order) {
        SdfFwnNode& n = m.fwn_nodes[node];
        if (n.range.y > 0) {
            SdfFwnSums sums{glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(0.0f), 0.0f};
            for (uint32_t k = 0; k < n.range.y; ++k) {
                const Tri tr = triangle(m, m.fwn_tris[n.range.x + k]);
                sums = sdf_fwn_add_triangle(sums, tr.a, tr.b, tr.c);
            }
            const glm::vec3 centre = sdf_fwn_leaf_centre(sums, n.range.y);
            float radius = 0.0f;
            for (uint32_t k = 0; k < n.range.y; ++k) {
                const Tri tr = triangle(m, m.fwn_tris[n.range.x + k]);
                radius = sdf_fwn_reach(radius, centre, tr.a, tr.b, tr.c);
            }
            n.centre_radius = glm::vec4(centre, radius);
            n.area_vector = glm::vec4(sums.area_vector, sums.area);
        } else {
            const SdfFwnNode& l = m.fwn_nodes[node + 1];
            const SdfFwnNode& r = m.fwn_nodes[l.range.z];
            n.centre_radius = sdf_fwn_combine(l.centre_radius, l.area_vector.w, r.centre_radius, r.area_vector.w);
            n.area_vector = l.area_vector + r.area_vector;
        }
    }
}

float triangle_distance_m(const MeshData& m, uint32_t tri, glm::vec3 p_m) {
    Tri t = triangle(m, tri);
    return gpu_shared::sdf_triangle_distance_m(p_m, t.a, t.b, t.c);
}

void band_distance_triangle(uint32_t tri, const SdfGridParams& g, const MeshData& m, std::span<uint32_t> dist_ordered) {
    Tri t = triangle(m, tri);
    glm::ivec3 lo, hi;
    band_cell_range(g, t.a, t.b, t.c, lo, hi);
    const float limit = gpu_shared::sdf_band_limit_m(g);
    for (int k = lo.z; k <= hi.z; ++k)
        for (int j = lo.y; j <= hi.y; ++j)
            for (int i = lo.x; i <= hi.x; ++i) {
                glm::ivec3 cell(i, j, k);
                float d = gpu_shared::sdf_triangle_distance_m(gpu_shared::sdf_cell_centre_m(g, cell), t.a, t.b, t.c);
                if (!(d <= limit)) continue;
                uint32_t& slot = dist_ordered[gpu_shared::sdf_cell_index(g, cell)];
                slot = std::min(slot, float_to_ordered(d));  // GPU: atomicMin
            }
}

void band_nearest_triangle(uint32_t tri, const SdfGridParams& g, const MeshData& m,
                           std::span<const uint32_t> dist_ordered, std::span<uint32_t> nearest) {
    Tri t = triangle(m, tri);
    glm::ivec3 lo, hi;
    band_cell_range(g, t.a, t.b, t.c, lo, hi);
    for (int k = lo.z; k <= hi.z; ++k)
        for (int j = lo.y; j <= hi.y; ++j)
            for (int i = lo.x; i <= hi.x; ++i) {
                glm::ivec3 cell(i, j, k);
                uint32_t idx = gpu_shared::sdf_cell_index(g, cell);
                float d = gpu_shared::sdf_triangle_distance_m(gpu_shared::sdf_cell_centre_m(g, cell), t.a, t.b, t.c);
                if (float_to_ordered(d) == dist_ordered[idx] && d <= gpu_shared::sdf_band_limit_m(g)) nearest[idx] = std::min(nearest[idx], tri);  // atomicMin
            }
}

void band_flags_cell(uint32_t cell, const SdfGridParams& g, std::span<const uint32_t> dist_ordered,
                     std::span<uint8_t> flags) {
    uint32_t enc = dist_ordered[cell];
    uint8_t f = 0;
    if (enc != kSdfUnwrittenOrdered) {
        f |= uint8_t(gpu_shared::kSdfFlagWritten);
        if (ordered_to_float(enc) <= gpu_shared::sdf_band_limit_m(g)) f |= uint8_t(gpu_shared::kSdfFlagBand);
    }
    flags[cell] = f;
}

namespace {
// The best triangle so far for a point, with its exact distance and the closest feature on it.
struct Best {
    uint32_t tri = kSdfNoTriangle;
    float d = std::numeric_limits<float>::infinity();
    uint32_t feature = 0;
};

// Better of two candidates for point p: smaller exact distance, then smaller id (a total order, so the
// result does not depend on the order candidates are visited in).
void consider(uint32_t cand, glm::vec3 p, const MeshData& m, Best& b) {
    if (cand == kSdfNoTriangle || cand == b.tri) return;
    if (gpu_shared::sdf_sphere_beyond(p, m.tri_spheres[cand], b.d)) return;
    Tri t = triangle(m, cand);
    gpu_shared::SdfClosest q = gpu_shared::sdf_closest_on_triangle(p, t.a, t.b, t.c);
    glm::vec3 off = p - q.point_m;
    float d = std::sqrt(glm::dot(off, off));  // sdf_triangle_distance_m
    if (d < b.d || (d == b.d && cand < b.tri)) b = {cand, d, q.feature};
}
}  // namespace

void coarse_seed_cell(uint32_t coarse_cell, const SdfGridParams& g, const MeshData& m,
                      std::span<const uint32_t> dist_ordered, std::span<const uint32_t> nearest,
                      std::span<uint32_t> coarse) {
    const glm::ivec3 cd = coarse_dims(g);
    const glm::ivec3 c(int(coarse_cell % uint32_t(cd.x)), int((coarse_cell / uint32_t(cd.x)) % uint32_t(cd.y)),
                       int(coarse_cell / (uint32_t(cd.x) * uint32_t(cd.y))));
    const glm::ivec3 lo = c * gpu_shared::kSdfCoarseFactor;
    const glm::ivec3 hi = glm::min(lo + gpu_shared::kSdfCoarseFactor, glm::ivec3(g.dims));
    const glm::vec3 p = gpu_shared::sdf_coarse_sample_m(g, c);
    Best best;
    for (int k = lo.z; k < hi.z; ++k)
        for (int j = lo.y; j < hi.y; ++j)
            for (int i = lo.x; i < hi.x; ++i) {
                uint32_t idx = gpu_shared::sdf_cell_index(g, glm::ivec3(i, j, k));
                if (dist_ordered[idx] != kSdfUnwrittenOrdered) consider(nearest[idx], p, m, best);
            }
    coarse[coarse_cell] = best.tri;
}

std::vector<int> jfa_steps(glm::ivec3 dims) {
    int n = std::max(dims.x, std::max(dims.y, dims.z));
    int p = 1;
    while (p < n) p *= 2;
    std::vector<int> steps;
    for (int s = p / 2; s >= 1; s /= 2) steps.push_back(s);
    if (steps.empty()) steps.push_back(1);
    steps.push_back(1);
    return steps;
}

namespace {
// Greedy descent over the mesh from best's closest feature (fine_nearest_cell in sdf_passes.h).
void walk(glm::vec3 p, const MeshData& m, Best& best) {
    for (int step = 0; step < gpu_shared::kSdfWalkSteps && best.tri != kSdfNoTriangle; ++step) {
        const uint32_t from = best.tri, feature = best.feature;
        if (feature == gpu_shared::kSdfFeatureFace) break;
        if (feature <= gpu_shared::kSdfFeatureVertex2) {
            const uint32_t v = m.indices[3 * from + feature];
            for (uint32_t i = m.vertex_tri_offsets[v]; i < m.vertex_tri_offsets[v + 1]; ++i)
                consider(m.vertex_tris[i], p, m, best);
        } else {
            consider(m.tri_neighbours[3 * from + (feature - gpu_shared::kSdfFeatureEdge01)], p, m, best);
        }
        if (best.tri == from) break;
    }
}
}  // namespace

void coarse_jfa_cell(uint32_t coarse_cell, int step, const SdfGridParams& g, const MeshData& m,
                     std::span<const uint32_t> in, std::span<uint32_t> out) {
    const glm::ivec3 cd = coarse_dims(g);
    const glm::ivec3 c(int(coarse_cell % uint32_t(cd.x)), int((coarse_cell / uint32_t(cd.x)) % uint32_t(cd.y)),
                       int(coarse_cell / (uint32_t(cd.x) * uint32_t(cd.y))));
    const glm::vec3 p = gpu_shared::sdf_coarse_sample_m(g, c);
    Best best;
    consider(in[coarse_cell], p, m, best);
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                glm::ivec3 q = c + glm::ivec3(dx, dy, dz) * step;
                if (q.x < 0 || q.y < 0 || q.z < 0 || q.x >= cd.x || q.y >= cd.y || q.z >= cd.z) continue;
                consider(in[gpu_shared::sdf_coarse_index(cd, q)], p, m, best);
            }
    if (step <= gpu_shared::kSdfJfaWalkMaxStep) walk(p, m, best);
    out[coarse_cell] = best.tri;
}

uint32_t fine_nearest_cell(uint32_t cell, const SdfGridParams& g, const MeshData& m,
                           std::span<const uint32_t> dist_ordered, std::span<const uint32_t> nearest,
                           std::span<const uint32_t> coarse) {
    if (dist_ordered[cell] != kSdfUnwrittenOrdered) return nearest[cell];
    const glm::ivec3 f = gpu_shared::sdf_cell_coords(g, cell);
    const glm::vec3 p = gpu_shared::sdf_cell_centre_m(g, f);
    const glm::ivec3 cd = coarse_dims(g);
    const glm::ivec3 c = f / gpu_shared::kSdfCoarseFactor;
    Best best;
    for (int n = 0; n < gpu_shared::kSdfCoarseNeighbours; ++n) {
        glm::ivec3 q = c + glm::ivec3(n % 3 - 1, (n / 3) % 3 - 1, n / 9 - 1);
        if (q.x < 0 || q.y < 0 || q.z < 0 || q.x >= cd.x || q.y >= cd.y || q.z >= cd.z) continue;
        consider(coarse[gpu_shared::sdf_coarse_index(cd, q)], p, m, best);
    }
    if (best.d <= gpu_shared::sdf_near_limit_m(g)) {
        // Near the band: the band triangles of the cells at {-r,0,r}^3 for r = 2, 4.
        for (int n = 0; n < gpu_shared::kSdfNearRings * gpu_shared::kSdfCoarseNeighbours; ++n) {
            const int r = gpu_shared::sdf_near_ring_radius(n / gpu_shared::kSdfCoarseNeighbours);
            const int o = n % gpu_shared::kSdfCoarseNeighbours;
            const glm::ivec3 q = f + glm::ivec3(o % 3 - 1, (o / 3) % 3 - 1, o / 9 - 1) * r;
            if (q.x < 0 || q.y < 0 || q.z < 0 || q.x >= g.dims.x || q.y >= g.dims.y || q.z >= g.dims.z) continue;
            const uint32_t idx = gpu_shared::sdf_cell_index(g, q);
            if (dist_ordered[idx] != kSdfUnwrittenOrdered) consider(nearest[idx], p, m, best);
        }
    }
    walk(p, m, best);
    return best.tri;
}

uint32_t block_consensus_cell(uint32_t cell, const SdfGridParams& g, const MeshData& m,
                              std::span<const uint32_t> dist_ordered, std::span<const uint32_t> first,
                              std::span<const float> first_d) {
    if (dist_ordered[cell] != kSdfUnwrittenOrdered) return first[cell];
    const glm::ivec3 f = gpu_shared::sdf_cell_coords(g, cell);
    const glm::vec3 p = gpu_shared::sdf_cell_centre_m(g, f);
    const glm::ivec3 lo = f / 2 * 2;
    const glm::ivec3 hi = glm::min(lo + 2, glm::ivec3(g.dims));
    Best best;
    consider(first[cell], p, m, best);
    if (!gpu_shared::sdf_consensus_applies(g, best.d)) return best.tri;
    const uint32_t own = best.tri;
    const float own_d = best.d;  // the filter uses the cell's own distance: no result depends on the order
    for (int k = lo.z; k < hi.z; ++k)
        for (int j = lo.y; j < hi.y; ++j)
            for (int i = lo.x; i < hi.x; ++i) {
                const glm::ivec3 q(i, j, k);
                const int axes = int(q.x != f.x) + int(q.y != f.y) + int(q.z != f.z);
                if (axes == 0) continue;
                const uint32_t idx = gpu_shared::sdf_cell_index(g, q);
                const float limit = own_d + gpu_shared::sdf_consensus_margin_cells(axes) * g.origin_m.w;
                if (first_d[idx] < limit) consider(first[idx], p, m, best);
            }
    if (best.tri != own) walk(p, m, best);
    return best.tri;
}

void parity_triangle(uint32_t tri, int axis, const SdfGridParams& g, const MeshData& m, std::span<uint32_t> toggles) {
    const int ax = axis, bx = (axis + 1) % 3, cx = (axis + 2) % 3;
    Tri t = triangle(m, tri);
    glm::vec3 v[3] = {gpu_shared::sdf_grid_coords(g, t.a), gpu_shared::sdf_grid_coords(g, t.b),
                      gpu_shared::sdf_grid_coords(g, t.c)};
    glm::vec2 p[3] = {{v[0][bx], v[0][cx]}, {v[1][bx], v[1][cx]}, {v[2][bx], v[2][cx]}};
    float area = gpu_shared::sdf_edge_function(p[0], p[1], p[2]);
    if (area == 0.0f) return;
    float orient = area > 0.0f ? 1.0f : -1.0f;
    glm::ivec3 dims(g.dims);
    int b_lo = std::max(0, int(std::ceil(std::min(p[0].x, std::min(p[1].x, p[2].x)))));
    int b_hi = std::min(dims[bx] - 1, int(std::floor(std::max(p[0].x, std::max(p[1].x, p[2].x)))));
    int c_lo = std::max(0, int(std::ceil(std::min(p[0].y, std::min(p[1].y, p[2].y)))));
    int c_hi = std::min(dims[cx] - 1, int(std::floor(std::max(p[0].y, std::max(p[1].y, p[2].y)))));
    bool own[3] = {gpu_shared::sdf_owns_edge(p[0], p[1], orient), gpu_shared::sdf_owns_edge(p[1], p[2], orient), gpu_shared::sdf_owns_edge(p[2], p[0], orient)};
    for (int jc = c_lo; jc <= c_hi; ++jc)
        for (int jb = b_lo; jb <= b_hi; ++jb) {
            glm::vec2 q{float(jb), float(jc)};
            float w[3] = {orient * gpu_shared::sdf_edge_function(p[0], p[1], q), orient * gpu_shared::sdf_edge_function(p[1], p[2], q),
                          orient * gpu_shared::sdf_edge_function(p[2], p[0], q)};
            bool inside = true;
            for (int e = 0; e < 3; ++e) inside = inside && (w[e] > 0.0f || (w[e] == 0.0f && own[e]));
            if (!inside) continue;
            float sum = w[0] + w[1] + w[2];
            if (!(sum > 0.0f)) continue;
            // w[0] is opposite vertex 2, w[1] opposite vertex 0, w[2] opposite vertex 1.
            float hit = (w[1] * v[0][ax] + w[2] * v[1][ax] + w[0] * v[2][ax]) / sum;
            float first = std::floor(hit) + 1.0f;  // first cell centre strictly past the crossing
            if (first >= float(dims[ax])) continue;
            glm::ivec3 cell;
            cell[ax] = std::max(0, int(first));
            cell[bx] = jb;
            cell[cx] = jc;
            toggles[gpu_shared::sdf_parity_word_index(g, axis, cell)] ^= 1u << (cell[ax] % 32);  // GPU: atomicXor
        }
}

void parity_prefix_line(uint32_t line, const SdfGridParams& g, std::span<uint32_t> toggles,
                        std::span<uint32_t> prefixed) {
    int axis = 0;
    while (axis < 2 && line >= gpu_shared::sdf_parity_lines(g, axis)) line -= gpu_shared::sdf_parity_lines(g, axis++);
    const uint32_t words = gpu_shared::sdf_parity_line_words(g.dims[axis]);
    const uint32_t base = gpu_shared::sdf_parity_plane_base(g, axis) + line * words;
    bool carry = false;
    for (uint32_t w = 0; w < words; ++w) {
        uint32_t p = gpu_shared::sdf_prefix_xor_bits(toggles[base + w], carry);
        toggles[base + w] = 0u;
        prefixed[base + w] = p;
        carry = (p >> 31) != 0u;
    }
}

uint32_t parity_bits(uint32_t cell, const SdfGridParams& g, std::span<const uint32_t> prefixed) {
    const glm::ivec3 c = gpu_shared::sdf_cell_coords(g, cell);
    uint32_t bits = 0u;
    for (int a = 0; a < 3; ++a)
        bits |= ((prefixed[gpu_shared::sdf_parity_word_index(g, a, c)] >> (c[a] % 32)) & 1u) << a;
    return bits;
}

float winding_number(glm::vec3 p_m, const MeshData& m) {
    float w = 0.0f;
    const size_t nt = m.triangle_count();
    for (size_t t = 0; t < nt; ++t) {
        Tri tr = triangle(m, uint32_t(t));
        w += gpu_shared::sdf_triangle_winding(p_m, tr.a, tr.b, tr.c);
    }
    return w * m.orientation;
}

float fast_winding_number(glm::vec3 p_m, const MeshData& m, uint64_t* visits) {
    float w = 0.0f;
    uint64_t n = 0;
    const uint32_t count = uint32_t(m.fwn_nodes.size());
    for (uint32_t i = 0; i < count;) {
        const gpu_shared::SdfFwnNode& node = m.fwn_nodes[i];
        ++n;
        if (gpu_shared::sdf_fwn_far(p_m, node.centre_radius)) {
            w += gpu_shared::sdf_fwn_dipole(p_m, node.centre_radius, node.area_vector);
            i = node.range.z;
        } else if (node.range.y > 0) {
            for (uint32_t k = 0; k < node.range.y; ++k) {
                const Tri tr = triangle(m, m.fwn_tris[node.range.x + k]);
                w += gpu_shared::sdf_triangle_winding(p_m, tr.a, tr.b, tr.c);
            }
            n += node.range.y;
            i = node.range.z;
        } else {
            ++i;
        }
    }
    if (visits) *visits += n;
    return w * m.orientation;
}

float CoarseWinding::at_cell(glm::ivec3 cell) const {
    glm::vec3 u = glm::vec3(cell) / float(stride);
    glm::ivec3 i0 = glm::clamp(glm::ivec3(glm::floor(u)), glm::ivec3(0), glm::max(dims - 2, glm::ivec3(0)));
    glm::ivec3 i1 = glm::min(i0 + 1, dims - 1);
    glm::vec3 f = glm::clamp(u - glm::vec3(i0), glm::vec3(0.0f), glm::vec3(1.0f));
    auto at = [&](int x, int y, int z) { return values[size_t(x) + size_t(dims.x) * (size_t(y) + size_t(dims.y) * size_t(z))]; };
    return gpu_shared::sdf_trilinear(at(i0.x, i0.y, i0.z), at(i1.x, i0.y, i0.z), at(i0.x, i1.y, i0.z),
                                     at(i1.x, i1.y, i0.z), at(i0.x, i0.y, i1.z), at(i1.x, i0.y, i1.z),
                                     at(i0.x, i1.y, i1.z), at(i1.x, i1.y, i1.z), f);
}

static_assert(uint32_t(CellSign::Winding) == gpu_shared::kSdfSignWinding &&
                  uint32_t(CellSign::FaceNormal) == gpu_shared::kSdfSignFaceNormal &&
                  uint32_t(CellSign::Shell) == gpu_shared::kSdfSignShell &&
                  uint32_t(CellSign::PseudonormalBandParityElsewhere) == gpu_shared::kSdfSignPseudonormalBandParityElsewhere,
              "CellSign must match the kSdfSign* constants");

void finalize_cell(uint32_t cell, const FinalizeInputs& in, std::span<float> distance_m, std::span<uint8_t> flags) {
    const SdfGridParams& g = *in.grid;
    const MeshData& m = *in.mesh;
    uint32_t tri = in.nearest[cell];
    if (tri == kSdfNoTriangle) {
        distance_m[cell] = std::numeric_limits<float>::infinity();
        return;
    }
    glm::vec3 p = gpu_shared::sdf_cell_centre_m(g, gpu_shared::sdf_cell_coords(g, cell));
    Tri t = triangle(m, tri);
    gpu_shared::SdfClosest q = gpu_shared::sdf_closest_on_triangle(p, t.a, t.b, t.c);
    glm::vec3 off = p - q.point_m;
    float d = std::sqrt(glm::dot(off, off));
    bool band = (flags[cell] & gpu_shared::kSdfFlagBand) != 0;
    glm::vec4 n;
    if (q.feature == gpu_shared::kSdfFeatureFace) n = m.face_normals[tri];
    else if (q.feature <= gpu_shared::kSdfFeatureVertex2) n = m.vertex_pseudonormals[m.indices[3 * tri + q.feature]];
    else n = m.edge_pseudonormals[m.tri_edges[3 * tri + (q.feature - gpu_shared::kSdfFeatureEdge01)]];
    if (in.sign == CellSign::Shell) {
        const float v = gpu_shared::sdf_shell_distance_m(off, xyz(n) * m.orientation, feature_on_rim(m, tri, q.feature),
                                                         gpu_shared::sdf_band_limit_m(g));
        distance_m[cell] = v;
        flags[cell] = uint8_t(flags[cell] | (v < 0.0f ? gpu_shared::kSdfFlagInside : 0u));
        return;
    }
    const bool pn_inside = glm::dot(off, xyz(n)) * m.orientation < 0.0f;
    const bool face_inside = glm::dot(off, xyz(m.face_normals[tri])) * m.orientation < 0.0f;
    const float w = in.sign == CellSign::Winding ? in.winding[cell] : 0.0f;
    const bool uses_parity = in.sign == CellSign::Parity || in.sign == CellSign::PseudonormalBandParityElsewhere;
    const uint32_t bits = uses_parity ? parity_bits(cell, g, in.parity) : 0u;
    const bool inside = gpu_shared::sdf_cell_inside(static_cast<uint32_t>(in.sign), band, bits, pn_inside, w,
                                                    face_inside);
    distance_m[cell] = inside ? -d : d;
    flags[cell] = uint8_t(flags[cell] | (inside ? gpu_shared::kSdfFlagInside : 0u));
}

bool feature_on_rim(const MeshData& m, uint32_t tri, uint32_t feature) {
    if (feature == gpu_shared::kSdfFeatureFace) return false;
    if (feature >= gpu_shared::kSdfFeatureEdge01) return m.tri_neighbours[3 * tri + (feature - gpu_shared::kSdfFeatureEdge01)] == kSdfNoTriangle;
    // A vertex: on the rim when an edge of one of its triangles that meets it has no neighbour.
    const uint32_t v = m.indices[3 * tri + feature];
    for (uint32_t i = m.vertex_tri_offsets[v]; i < m.vertex_tri_offsets[v + 1]; ++i) {
        const uint32_t t = m.vertex_tris[i];
        for (uint32_t k = 0; k < 3; ++k)
            if (m.indices[3 * t + k] == v &&
                (m.tri_neighbours[3 * t + k] == kSdfNoTriangle || m.tri_neighbours[3 * t + (k + 2) % 3] == kSdfNoTriangle))
                return true;
    }
    return false;
}

}  // namespace tressel::sdf_passes
