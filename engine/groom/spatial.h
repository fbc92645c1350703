// Spatial queries for grooming: closest point on a triangle mesh (a BVH over triangles) and nearest
// points / radius tests over a set of points (a uniform grid). Results never depend on thread timing or
// hash order; ties go to the lower index.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace tressel {

struct ClosestPoint {
    uint32_t triangle = 0;
    glm::vec3 barycentric{1.0f, 0.0f, 0.0f};  // of the closest point, in [0, 1], sums to 1
    glm::vec3 point{0.0f};                    // metres, mesh space
    float distance_m = 0.0f;
};

// Closest point on a triangle (Ericson, Real-Time Collision Detection 5.1.5), with its barycentric
// coordinates relative to (a, b, c).
glm::vec3 closest_point_on_triangle(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                    glm::vec3* barycentric);

class TriangleBvh {
public:
    // `triangles` lists the triangle indices (into indices / 3) to include; empty = every triangle.
    TriangleBvh(std::span<const glm::vec3> positions, std::span<const uint32_t> indices,
                std::span<const uint32_t> triangles = {});
    bool empty() const { return tris_.empty(); }
    ClosestPoint closest(const glm::vec3& p) const;
    // The closest point when some triangle lies within max_distance_m of p (false otherwise): the same
    // answer as closest(), with the search pruned to that radius.
    bool closest_within(const glm::vec3& p, float max_distance_m, ClosestPoint& out) const;

private:
    struct Node {
        glm::vec3 lo, hi;
        uint32_t first = 0;  // leaf: first index into tris_; inner: left child (right = left + 1)
        uint32_t count = 0;  // leaf: triangle count; 0 for inner nodes
    };
    void build(uint32_t node, uint32_t begin, uint32_t end, std::vector<glm::vec3>& centroids);
    ClosestPoint search(const glm::vec3& p, float max_d2) const;
    std::span<const glm::vec3> pos_;
    std::span<const uint32_t> idx_;
    std::vector<uint32_t> tris_;
    std::vector<Node> nodes_;
};

// Uniform grid over points inside a known box; points can be added one at a time (Poisson-disk dart
// throwing) or all at once.
class PointGrid {
public:
    PointGrid(const glm::vec3& lo_m, const glm::vec3& hi_m, float cell_m, size_t max_cells = size_t(1) << 22);
    void insert(uint32_t id, const glm::vec3& p);
    // Reorders the points cell by cell for faster queries; no insert afterwards.
    void compact();
    // True when some inserted point lies closer than radius_m to p.
    bool any_within(const glm::vec3& p, float radius_m) const;
    // The k nearest inserted points to p (k <= 8), closest first (ties: lower id first); returns how
    // many were found. Needs compact().
    // `seeded` > 0: ids[0..seeded) already hold points of this grid with their squared distances to p,
    // sorted as the output is (a warm start from a nearby query: cells farther than the seeds are
    // skipped). The result is the same as without seeds.
    int nearest(const glm::vec3& p, int k, uint32_t* ids, float* dist2, int seeded = 0) const;
    // Appends the ids and positions of every point within radius_m of p (any order). Needs compact().
    void collect_within(const glm::vec3& p, float radius_m, std::vector<uint32_t>& ids, std::vector<glm::vec3>& points) const;

private:
    glm::ivec3 cell_of(const glm::vec3& p) const;
    template <class F>
    void for_each_in_cell(size_t cell, F&& f) const;
    size_t flat(const glm::ivec3& c) const { return (size_t(c.z) * dims_.y + size_t(c.y)) * dims_.x + size_t(c.x); }
    glm::vec3 lo_;
    float cell_;
    glm::ivec3 dims_;
    std::vector<int32_t> head_;
    std::vector<int32_t> next_;
    std::vector<glm::vec3> pts_;
    std::vector<uint32_t> ids_;
    std::vector<uint32_t> cell_start_;  // after compact(): points of cell c are [cell_start_[c], cell_start_[c + 1])
};

}  // namespace tressel
