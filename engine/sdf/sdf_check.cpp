#include "sdf/sdf_check.h"

#include <algorithm>
#include <cmath>

namespace tressel {

SdfCoverage check_sdf_coverage(const SdfGrid& grid, const Mesh& mesh, double margin_m) {
    SdfCoverage out;
    const float depth = float(0.5 * std::max(margin_m, 1e-4));
    const size_t tris = mesh.indices.size() / 3;
    auto valid = [&](size_t t) {
        return mesh.indices[3 * t] < mesh.positions.size() && mesh.indices[3 * t + 1] < mesh.positions.size() &&
               mesh.indices[3 * t + 2] < mesh.positions.size();
    };
    // Faces point out where the enclosed volume is positive; an inside-out mesh flips them.
    double volume6 = 0.0;
    for (size_t t = 0; t < tris; ++t)
        if (valid(t))
            volume6 += glm::dot(glm::dvec3(mesh.positions[mesh.indices[3 * t]]),
                                glm::cross(glm::dvec3(mesh.positions[mesh.indices[3 * t + 1]]), glm::dvec3(mesh.positions[mesh.indices[3 * t + 2]])));
    const float out_sign = volume6 < 0.0 ? -1.0f : 1.0f;
    for (size_t t = 0; t < tris; ++t) {
        if (!valid(t)) continue;
        const uint32_t ia = mesh.indices[3 * t], ib = mesh.indices[3 * t + 1], ic = mesh.indices[3 * t + 2];
        const glm::vec3 a = mesh.positions[ia], b = mesh.positions[ib], c = mesh.positions[ic];
        const glm::vec3 cr = glm::cross(b - a, c - a);
        const float twice_area = glm::length(cr);
        if (!(twice_area > 0.0f) || !std::isfinite(twice_area)) continue;
        const glm::vec3 inward = -out_sign * cr / twice_area;
        const glm::vec3 centre = (a + b + c) / 3.0f;
        const glm::vec3 points[4] = {centre, 0.5f * (centre + a), 0.5f * (centre + b), 0.5f * (centre + c)};
        const double area = 0.5 * double(twice_area);
        out.area_m2 += area;
        for (const glm::vec3& q : points) {
            const glm::vec3 p = q + inward * depth;
            const float d = grid.sample_m(p);
            ++out.samples;
            if (d > out.worst_reading_m) out.worst_reading_m = d, out.worst_m = p;
            if (d >= 0.0f) {
                ++out.missed_samples;
                out.missed_area_m2 += 0.25 * area;
            }
        }
    }
    return out;
}

SdfFieldCheck check_sdf_field(const SdfGrid& grid, double jump_tolerance) {
    SdfFieldCheck out;
    const glm::ivec3 d = grid.grid.dims;
    const size_t n = grid.distance_m.size();
    if (d.x <= 0 || d.y <= 0 || d.z <= 0 || n != size_t(d.x) * size_t(d.y) * size_t(d.z)) return out;
    out.marks.assign(n, kSdfCellOk);
    const std::vector<float>& dist = grid.distance_m;
    const double limit = jump_tolerance * grid.grid.cell_size_m;
    const size_t stride[3] = {1, size_t(d.x), size_t(d.x) * size_t(d.y)};

    // Sign jumps between face neighbours.
    for (int k = 0; k < d.z; ++k)
        for (int j = 0; j < d.y; ++j)
            for (int i = 0; i < d.x; ++i) {
                const size_t c = grid.index(i, j, k);
                const float a = dist[c];
                if (!std::isfinite(a)) continue;
                const int at[3] = {i, j, k};
                for (int axis = 0; axis < 3; ++axis) {
                    if (at[axis] + 1 >= d[axis]) continue;
                    const size_t o = c + stride[axis];
                    const float b = dist[o];
                    if (!std::isfinite(b) || (a < 0.0f) == (b < 0.0f)) continue;
                    if (double(std::abs(a)) + double(std::abs(b)) > limit) out.marks[c] = out.marks[o] = kSdfCellSignJump;
                }
            }

    // Outside cells reached from the border through outside cells.
    auto outside = [&](size_t c) { return std::isfinite(dist[c]) && dist[c] >= 0.0f; };
    std::vector<uint8_t> reached(n, 0);
    std::vector<size_t> queue;
    auto flood = [&](std::vector<size_t>& q, size_t head, auto&& visit) {
        while (head < q.size()) {
            const size_t c = q[head++];
            const int i = int(c % size_t(d.x)), j = int((c / size_t(d.x)) % size_t(d.y)), k = int(c / stride[2]);
            const int at[3] = {i, j, k};
            for (int axis = 0; axis < 3; ++axis)
                for (int s : {-1, 1}) {
                    const int x = at[axis] + s;
                    if (x < 0 || x >= d[axis]) continue;
                    const size_t o = s < 0 ? c - stride[axis] : c + stride[axis];
                    if (!reached[o] && outside(o)) {
                        reached[o] = 1;
                        visit(o);
                        q.push_back(o);
                    }
                }
        }
    };
    for (int k = 0; k < d.z; ++k)
        for (int j = 0; j < d.y; ++j)
            for (int i = 0; i < d.x; ++i) {
                const bool border = i == 0 || j == 0 || k == 0 || i == d.x - 1 || j == d.y - 1 || k == d.z - 1;
                const size_t c = grid.index(i, j, k);
                if (border && outside(c)) {
                    reached[c] = 1;
                    queue.push_back(c);
                }
            }
    flood(queue, 0, [](size_t) {});

    // The enclosed regions, one at a time: a cavity unless a jump borders it.
    std::vector<size_t> region;
    for (size_t c = 0; c < n; ++c) {
        if (reached[c] || !outside(c)) continue;
        region.assign(1, c);
        reached[c] = 1;
        flood(region, 0, [](size_t) {});
        bool jump = false;
        for (size_t r : region) {
            if (out.marks[r] == kSdfCellSignJump) { jump = true; break; }
        }
        const uint8_t mark = jump ? kSdfCellSignJump : kSdfCellCavity;
        for (size_t r : region) out.marks[r] = mark;
        if (jump) ++out.sign_jump_regions;
        else {
            ++out.cavity_regions;
            out.cavity_cells += region.size();
        }
    }
    for (uint8_t m : out.marks) out.sign_jump_cells += m == kSdfCellSignJump ? 1 : 0;
    return out;
}

MeshEdgeProblems find_mesh_edge_problems(const Mesh& mesh, size_t max_each) {
    MeshEdgeProblems out;
    const sdf_passes::MeshData m = sdf_passes::prepare_mesh(mesh);
    out.inside_out = m.orientation < 0.0f;
    const size_t edges = m.edge_tri_offsets.empty() ? 0 : m.edge_tri_offsets.size() - 1;
    // Each edge's directed ends as the triangle `t` traverses it.
    auto ends = [&](size_t t, uint32_t e, uint32_t* from, uint32_t* to) {
        for (int k = 0; k < 3; ++k)
            if (m.tri_edges[3 * t + k] == e) {
                *from = m.indices[3 * t + k];
                *to = m.indices[3 * t + (k + 1) % 3];
                return;
            }
    };
    auto keep = [&](std::vector<glm::vec3>& list, uint64_t& count, uint32_t a, uint32_t b) {
        if (++count <= max_each) {
            list.push_back(glm::vec3(m.positions_m[a]));
            list.push_back(glm::vec3(m.positions_m[b]));
        }
    };
    for (size_t e = 0; e < edges; ++e) {
        const uint32_t first = m.edge_tri_offsets[e], uses = m.edge_tri_offsets[e + 1] - first;
        if (uses == 0) continue;
        uint32_t a = 0, b = 0;
        ends(m.edge_tris[first], uint32_t(e), &a, &b);
        if (uses == 1) {
            keep(out.open_m, out.open, a, b);
        } else if (uses > 2) {
            keep(out.non_manifold_m, out.non_manifold, a, b);
        } else {
            uint32_t c = 0, dd = 0;
            ends(m.edge_tris[first + 1], uint32_t(e), &c, &dd);
            if (c == a && dd == b) keep(out.inconsistent_m, out.inconsistent, a, b);
        }
    }
    return out;
}

}  // namespace tressel
