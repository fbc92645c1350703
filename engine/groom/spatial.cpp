#include "groom/spatial.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/result.h"

namespace tressel {

glm::vec3 closest_point_on_triangle(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                    glm::vec3* bary) {
    const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) { *bary = {1, 0, 0}; return a; }
    const glm::vec3 bp = p - b;
    const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) { *bary = {0, 1, 0}; return b; }
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        const float v = d1 / (d1 - d3);
        *bary = {1 - v, v, 0};
        return a + v * ab;
    }
    const glm::vec3 cp = p - c;
    const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) { *bary = {0, 0, 1}; return c; }
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        const float w = d2 / (d2 - d6);
        *bary = {1 - w, 0, w};
        return a + w * ac;
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
        const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        *bary = {0, 1 - w, w};
        return b + w * (c - b);
    }
    const float sum = va + vb + vc;
    if (!(sum > 0.0f)) {  // degenerate triangle: fall back to the nearest vertex
        const float da = glm::dot(ap, ap), db = glm::dot(bp, bp), dc = glm::dot(cp, cp);
        if (da <= db && da <= dc) { *bary = {1, 0, 0}; return a; }
        if (db <= dc) { *bary = {0, 1, 0}; return b; }
        *bary = {0, 0, 1};
        return c;
    }
    const float denom = 1.0f / sum;
    const float v = vb * denom, w = vc * denom;
    *bary = {1.0f - v - w, v, w};
    return a + ab * v + ac * w;
}

TriangleBvh::TriangleBvh(std::span<const glm::vec3> positions, std::span<const uint32_t> indices,
                         std::span<const uint32_t> triangles)
    : pos_(positions), idx_(indices) {
    if (triangles.empty()) {
        tris_.resize(indices.size() / 3);
        for (size_t i = 0; i < tris_.size(); ++i) tris_[i] = static_cast<uint32_t>(i);
    } else {
        tris_.assign(triangles.begin(), triangles.end());
    }
    if (tris_.empty()) return;
    std::vector<glm::vec3> centroids(indices.size() / 3);
    for (uint32_t t : tris_)
        centroids[t] = (pos_[idx_[3 * t]] + pos_[idx_[3 * t + 1]] + pos_[idx_[3 * t + 2]]) * (1.0f / 3.0f);
    nodes_.reserve(2 * tris_.size());
    nodes_.push_back({});
    build(0, 0, static_cast<uint32_t>(tris_.size()), centroids);
}

void TriangleBvh::build(uint32_t node, uint32_t begin, uint32_t end, std::vector<glm::vec3>& centroids) {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    glm::vec3 clo = lo, chi = hi;
    for (uint32_t i = begin; i < end; ++i) {
        const uint32_t t = tris_[i];
        for (int k = 0; k < 3; ++k) {
            lo = glm::min(lo, pos_[idx_[3 * t + k]]);
            hi = glm::max(hi, pos_[idx_[3 * t + k]]);
        }
        clo = glm::min(clo, centroids[t]);
        chi = glm::max(chi, centroids[t]);
    }
    nodes_[node].lo = lo;
    nodes_[node].hi = hi;
    if (end - begin <= 4) {
        nodes_[node].first = begin;
        nodes_[node].count = end - begin;
        return;
    }
    const glm::vec3 ext = chi - clo;
    const int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
    const uint32_t mid = begin + (end - begin) / 2;
    std::nth_element(tris_.begin() + begin, tris_.begin() + mid, tris_.begin() + end, [&](uint32_t a, uint32_t b) {
        const float ca = centroids[a][axis], cb = centroids[b][axis];
        return ca < cb || (ca == cb && a < b);
    });
    const uint32_t left = static_cast<uint32_t>(nodes_.size());
    nodes_[node].first = left;
    nodes_[node].count = 0;
    nodes_.push_back({});
    nodes_.push_back({});
    build(left, begin, mid, centroids);
    build(left + 1, mid, end, centroids);
}

ClosestPoint TriangleBvh::closest(const glm::vec3& p) const { return search(p, std::numeric_limits<float>::infinity()); }

bool TriangleBvh::closest_within(const glm::vec3& p, float max_distance_m, ClosestPoint& out) const {
    // Just past the radius, so a triangle at exactly max_distance_m still counts.
    const float r = std::nextafter(max_distance_m, std::numeric_limits<float>::infinity());
    out = search(p, r * r);
    return out.distance_m <= max_distance_m;
}

// Branch and bound over the tree: nodes and triangles no closer than the best so far (initially max_d2)
// are skipped. distance_m is infinity when nothing was found.
ClosestPoint TriangleBvh::search(const glm::vec3& p, float max_d2) const {
    ClosestPoint best;
    best.distance_m = std::numeric_limits<float>::infinity();
    if (tris_.empty()) return best;
    float best_d2 = max_d2;
    bool found = false;
    auto box_d2 = [&](const Node& n) {
        const glm::vec3 d = glm::max(glm::max(n.lo - p, p - n.hi), glm::vec3(0.0f));
        return glm::dot(d, d);
    };
    uint32_t stack[128];
    int sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const Node& n = nodes_[stack[--sp]];
        if (box_d2(n) >= best_d2) continue;
        if (n.count > 0) {
            for (uint32_t i = n.first; i < n.first + n.count; ++i) {
                const uint32_t t = tris_[i];
                glm::vec3 b;
                const glm::vec3 q = closest_point_on_triangle(p, pos_[idx_[3 * t]], pos_[idx_[3 * t + 1]], pos_[idx_[3 * t + 2]], &b);
                const float d2 = glm::dot(q - p, q - p);
                if (d2 < best_d2 || (found && d2 == best_d2 && t < best.triangle)) {
                    found = true;
                    best_d2 = d2;
                    best.triangle = t;
                    best.barycentric = b;
                    best.point = q;
                }
            }
            continue;
        }
        const uint32_t l = n.first, r = n.first + 1;
        const float dl = box_d2(nodes_[l]), dr = box_d2(nodes_[r]);
        if (sp + 2 > 128) continue;  // unreachable for median-split trees (depth <= 64)
        if (dl <= dr) {
            stack[sp++] = r;
            stack[sp++] = l;
        } else {
            stack[sp++] = l;
            stack[sp++] = r;
        }
    }
    if (found) best.distance_m = std::sqrt(best_d2);
    return best;
}

PointGrid::PointGrid(const glm::vec3& lo_m, const glm::vec3& hi_m, float cell_m, size_t max_cells) : lo_(lo_m) {
    const glm::vec3 ext = glm::max(hi_m - lo_m, glm::vec3(1e-6f));
    float cell = std::max(cell_m, 1e-6f);
    for (;;) {
        dims_ = glm::max(glm::ivec3(glm::ceil(ext / cell)), glm::ivec3(1));
        if (size_t(dims_.x) * size_t(dims_.y) * size_t(dims_.z) <= max_cells) break;
        cell *= 1.26f;
    }
    cell_ = cell;
    head_.assign(size_t(dims_.x) * dims_.y * dims_.z, -1);
}

glm::ivec3 PointGrid::cell_of(const glm::vec3& p) const {
    glm::ivec3 c(glm::floor((p - lo_) / cell_));
    return glm::clamp(c, glm::ivec3(0), dims_ - 1);
}

void PointGrid::insert(uint32_t id, const glm::vec3& p) {
    const size_t f = flat(cell_of(p));
    next_.push_back(head_[f]);
    head_[f] = static_cast<int32_t>(pts_.size());
    pts_.push_back(p);
    ids_.push_back(id);
}

void PointGrid::compact() {
    TRESSEL_ASSERT(cell_start_.empty(), "PointGrid::compact called twice");
    const size_t cells = head_.size();
    cell_start_.assign(cells + 1, 0);
    std::vector<glm::vec3> pts(pts_.size());
    std::vector<uint32_t> ids(ids_.size());
    uint32_t at = 0;
    for (size_t c = 0; c < cells; ++c) {
        cell_start_[c] = at;
        // Linked lists run newest first: reverse them so a cell keeps insertion order.
        const uint32_t begin = at;
        for (int32_t i = head_[c]; i >= 0; i = next_[i]) {
            pts[at] = pts_[i];
            ids[at] = ids_[i];
            ++at;
        }
        std::reverse(pts.begin() + begin, pts.begin() + at);
        std::reverse(ids.begin() + begin, ids.begin() + at);
    }
    cell_start_[cells] = at;
    pts_ = std::move(pts);
    ids_ = std::move(ids);
    head_.clear();
    head_.shrink_to_fit();
    next_.clear();
}

template <class F>
void PointGrid::for_each_in_cell(size_t cell, F&& f) const {
    if (!cell_start_.empty()) {
        for (uint32_t i = cell_start_[cell], e = cell_start_[cell + 1]; i < e; ++i) f(int32_t(i));
    } else {
        for (int32_t i = head_[cell]; i >= 0; i = next_[i]) f(i);
    }
}

bool PointGrid::any_within(const glm::vec3& p, float radius_m) const {
    const glm::ivec3 a = cell_of(p - glm::vec3(radius_m)), b = cell_of(p + glm::vec3(radius_m));
    const float r2 = radius_m * radius_m;
    for (int z = a.z; z <= b.z; ++z)
        for (int y = a.y; y <= b.y; ++y)
            for (int x = a.x; x <= b.x; ++x) {
                bool hit = false;
                for_each_in_cell(flat({x, y, z}), [&](int32_t i) {
                    const glm::vec3 d = pts_[i] - p;
                    hit = hit || glm::dot(d, d) < r2;
                });
                if (hit) return true;
            }
    return false;
}

void PointGrid::collect_within(const glm::vec3& p, float radius_m, std::vector<uint32_t>& ids,
                               std::vector<glm::vec3>& points) const {
    TRESSEL_ASSERT(!cell_start_.empty() || pts_.empty(), "PointGrid::collect_within needs compact() after the inserts");
    if (pts_.empty()) return;
    const glm::ivec3 a = cell_of(p - glm::vec3(radius_m)), b = cell_of(p + glm::vec3(radius_m));
    const float r2 = radius_m * radius_m;
    for (int z = a.z; z <= b.z; ++z)
        for (int y = a.y; y <= b.y; ++y) {
            const size_t f0 = flat({a.x, y, z}), f1 = flat({b.x, y, z});
            for (uint32_t i = cell_start_[f0], e = cell_start_[f1 + 1]; i < e; ++i) {  // one row of cells is contiguous
                const glm::vec3 d = pts_[i] - p;
                if (glm::dot(d, d) <= r2) {
                    ids.push_back(ids_[i]);
                    points.push_back(pts_[i]);
                }
            }
        }
}

int PointGrid::nearest(const glm::vec3& p, int k, uint32_t* ids, float* dist2, int seeded) const {
    TRESSEL_ASSERT(!cell_start_.empty() || pts_.empty(), "PointGrid::nearest needs compact() after the inserts");
    k = std::clamp(k, 0, 8);
    if (k == 0 || pts_.empty()) return 0;
    int found = std::clamp(seeded, 0, k);
    const int seeds = found;
    uint32_t seed_ids[8];
    for (int s = 0; s < seeds; ++s) seed_ids[s] = ids[s];
    const glm::ivec3 c = cell_of(p);
    const int max_ring = std::max({dims_.x, dims_.y, dims_.z});
    for (int r = 0; r <= max_ring; ++r) {
        const glm::ivec3 a = c - r, b = c + r;
        bool any_cell = false;
        // Only the shell of cells at Chebyshev distance r: full rows on the z / y faces, two cells elsewhere.
        for (int z = std::max(a.z, 0); z <= std::min(b.z, dims_.z - 1); ++z)
            for (int y = std::max(a.y, 0); y <= std::min(b.y, dims_.y - 1); ++y) {
                const bool face = z == a.z || z == b.z || y == a.y || y == b.y;
                const int step = face || r == 0 ? 1 : 2 * r;
                for (int x = a.x; x <= b.x; x += step) {
                    if (x < 0 || x >= dims_.x) continue;
                    // Skip cells entirely farther than the current k-th distance.
                    const glm::vec3 lo = lo_ + glm::vec3(float(x), float(y), float(z)) * cell_;
                    const glm::vec3 d = glm::max(glm::max(lo - p, p - (lo + cell_)), glm::vec3(0.0f));
                    const float cell_d2 = glm::dot(d, d);
                    if (found == k && cell_d2 > dist2[k - 1]) continue;
                    any_cell = true;
                    const size_t f = flat({x, y, z});
                    for (uint32_t i = cell_start_[f], e = cell_start_[f + 1]; i < e; ++i) {
                        const glm::vec3 q = pts_[i] - p;
                        const float d2 = glm::dot(q, q);
                        const uint32_t id = ids_[i];
                        if (found == k && (d2 > dist2[k - 1] || (d2 == dist2[k - 1] && id > ids[k - 1]))) continue;
                        bool dup = false;
                        for (int s = 0; s < seeds; ++s) dup = dup || seed_ids[s] == id;
                        if (dup) continue;  // already in the list as a seed
                        int j = found < k ? found++ : k - 1;
                        while (j > 0 && (dist2[j - 1] > d2 || (dist2[j - 1] == d2 && ids[j - 1] > id))) {
                            dist2[j] = dist2[j - 1];
                            ids[j] = ids[j - 1];
                            --j;
                        }
                        dist2[j] = d2;
                        ids[j] = id;
                    }
                }
            }
        // Every cell of the next ring is at least r * cell_ away from p (p lies in the centre cell).
        if (found == k && (!any_cell || dist2[k - 1] <= (float(r) * cell_) * (float(r) * cell_))) break;
    }
    return found;
}

}  // namespace tressel
