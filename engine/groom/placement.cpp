#include "groom/placement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "groom/rng.h"
#include "groom/spatial.h"

namespace tressel {

glm::vec3 attachment_point(const Mesh& mesh, const ScalpAttachment& a) {
    const uint32_t* t = &mesh.indices[3 * size_t(a.triangle)];
    return mesh.positions[t[0]] * a.barycentric.x + mesh.positions[t[1]] * a.barycentric.y +
           mesh.positions[t[2]] * a.barycentric.z;
}

glm::vec3 attachment_normal(const Mesh& mesh, const ScalpAttachment& a) {
    const uint32_t* t = &mesh.indices[3 * size_t(a.triangle)];
    const glm::vec3 face = glm::cross(mesh.positions[t[1]] - mesh.positions[t[0]], mesh.positions[t[2]] - mesh.positions[t[0]]);
    const float face_len = glm::length(face);
    const glm::vec3 face_n = face_len > 0.0f ? face / face_len : glm::vec3(0, 1, 0);
    if (!mesh.has_normals()) return face_n;
    const glm::vec3 n = mesh.normals[t[0]] * a.barycentric.x + mesh.normals[t[1]] * a.barycentric.y +
                        mesh.normals[t[2]] * a.barycentric.z;
    const float len = glm::length(n);
    return len > 1e-6f ? n / len : face_n;
}

glm::vec2 attachment_uv(const Mesh& mesh, const ScalpAttachment& a) {
    if (!mesh.has_uvs()) return glm::vec2(0.0f);
    const uint32_t* t = &mesh.indices[3 * size_t(a.triangle)];
    return mesh.uvs[t[0]] * a.barycentric.x + mesh.uvs[t[1]] * a.barycentric.y + mesh.uvs[t[2]] * a.barycentric.z;
}

void append_root(const Mesh& mesh, const ScalpAttachment& a, RootSet& out) {
    out.roots.push_back(a);
    out.points_m.push_back(attachment_point(mesh, a));
    out.normals.push_back(attachment_normal(mesh, a));
    out.uvs.push_back(attachment_uv(mesh, a));
}

RootSet place_per_vertex(const Mesh& mesh, const RegionInfo& region) {
    const size_t nv = mesh.vertex_count();
    // First triangle (and corner) using each vertex.
    std::vector<uint32_t> first_use(nv, std::numeric_limits<uint32_t>::max());
    for (size_t i = 0; i < mesh.indices.size(); ++i) {
        const uint32_t v = mesh.indices[i];
        if (first_use[v] == std::numeric_limits<uint32_t>::max()) first_use[v] = uint32_t(i);
    }
    // Vertices at identical positions share a guide: sort candidate vertices by position, then index.
    std::vector<uint32_t> cand;
    for (uint32_t v = 0; v < nv; ++v)
        if (region.vertex_in[v] && first_use[v] != std::numeric_limits<uint32_t>::max()) cand.push_back(v);
    auto pos_less = [&](uint32_t a, uint32_t b) {
        const glm::vec3 &pa = mesh.positions[a], &pb = mesh.positions[b];
        if (pa.x != pb.x) return pa.x < pb.x;
        if (pa.y != pb.y) return pa.y < pb.y;
        if (pa.z != pb.z) return pa.z < pb.z;
        return a < b;
    };
    std::vector<uint32_t> sorted = cand;
    std::sort(sorted.begin(), sorted.end(), pos_less);
    std::vector<uint32_t> rep(nv, std::numeric_limits<uint32_t>::max());  // representative (lowest index) per position
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i;
        while (j < sorted.size() && mesh.positions[sorted[j]] == mesh.positions[sorted[i]]) ++j;
        for (size_t k = i; k < j; ++k) rep[sorted[k]] = sorted[i];  // sorted[i] is the lowest index of the run
        i = j;
    }
    RootSet out;
    out.vertex_guide.assign(nv, -1);
    for (uint32_t v : cand) {  // ascending vertex order: guide order does not depend on the sort
        if (rep[v] != v) continue;
        const uint32_t use = first_use[v];
        ScalpAttachment a;
        a.triangle = use / 3;
        a.barycentric = glm::vec3(0.0f);
        a.barycentric[use % 3] = 1.0f;
        out.vertex_guide[v] = int32_t(out.size());
        append_root(mesh, a, out);
    }
    for (uint32_t v : cand) out.vertex_guide[v] = out.vertex_guide[rep[v]];
    return out;
}

AreaSampler::AreaSampler(const Mesh& mesh, const RegionInfo& r) : region(&r) {
    const size_t n = r.triangles.size();
    accept.assign(n, 1.0);
    alias.resize(n);
    if (n == 0) return;
    std::vector<double> scaled(n);
    // Painted density weighs each triangle's area (when any weight is above zero).
    const bool weighted = r.triangle_density.size() == n && r.weighted_area_m2 > 0.0;
    for (size_t i = 0; i < n; ++i)
        scaled[i] = weighted ? triangle_area_m2(mesh, r.triangles[i]) * double(r.triangle_density[i]) * double(n) / r.weighted_area_m2
                             : triangle_area_m2(mesh, r.triangles[i]) * double(n) / r.area_m2;
    std::vector<uint32_t> small, large;
    for (size_t i = 0; i < n; ++i) {
        alias[i] = uint32_t(i);
        (scaled[i] < 1.0 ? small : large).push_back(uint32_t(i));
    }
    while (!small.empty() && !large.empty()) {
        const uint32_t s = small.back(), l = large.back();
        small.pop_back();
        accept[s] = scaled[s];
        alias[s] = l;
        scaled[l] = (scaled[l] + scaled[s]) - 1.0;
        if (scaled[l] < 1.0) {
            large.pop_back();
            small.push_back(l);
        }
    }
    // Leftovers (rounding) keep their own triangle with probability 1.
    for (uint32_t i : small) accept[i] = 1.0;
    for (uint32_t i : large) accept[i] = 1.0;
}

ScalpAttachment AreaSampler::sample(double u, float r1, float r2) const {
    const double x = u * double(accept.size());
    size_t i = std::min(size_t(x), accept.size() - 1);
    if (x - double(i) >= accept[i]) i = alias[i];
    const float s = std::sqrt(r1);
    ScalpAttachment a;
    a.triangle = region->triangles[i];
    a.barycentric = {1.0f - s, s * (1.0f - r2), s * r2};
    return a;
}

RootSet place_random(const Mesh& mesh, const RegionInfo& region, size_t count, uint32_t seed, double min_spacing_m,
                     Diagnostics& diag) {
    RootSet out;
    if (count == 0 || region.triangles.empty()) return out;
    const AreaSampler sampler(mesh, region);
    auto draw = [&](groom_rng::Stream stream, uint64_t i) {
        auto rng = groom_rng::item_rng(seed, stream, i);
        const double u = rng.next_double();
        const float r1 = rng.next_float(), r2 = rng.next_float();
        return sampler.sample(u, r1, r2);
    };
    if (!(min_spacing_m > 0.0)) {
        out.roots.reserve(count);
        for (size_t i = 0; i < count; ++i) append_root(mesh, draw(groom_rng::kStreamPlacement, i), out);
        return out;
    }
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (uint32_t t : region.triangles)
        for (int k = 0; k < 3; ++k) {
            lo = glm::min(lo, mesh.positions[mesh.indices[3 * t + k]]);
            hi = glm::max(hi, mesh.positions[mesh.indices[3 * t + k]]);
        }
    const float r = float(min_spacing_m);
    PointGrid grid(lo, hi, r);
    const size_t max_darts = count * 30;
    size_t darts = 0;
    for (; darts < max_darts && out.size() < count; ++darts) {
        const ScalpAttachment a = draw(groom_rng::kStreamPoisson, darts);
        const glm::vec3 p = attachment_point(mesh, a);
        if (grid.any_within(p, r)) continue;
        grid.insert(uint32_t(out.size()), p);
        append_root(mesh, a, out);
    }
    if (out.size() < count)
        diag.warn("growth.min_spacing_m", "placed " + std::to_string(out.size()) + " of " + std::to_string(count) +
                                             " guides: the region is full at a minimum spacing of " +
                                             std::to_string(min_spacing_m) + " m after " + std::to_string(darts) + " attempts");
    return out;
}

RootSet place_painted(const Mesh& mesh, const RegionInfo& region, double guides_per_m2, uint32_t seed) {
    RootSet out;
    const bool weighted = region.triangle_density.size() == region.triangles.size();
    for (size_t i = 0; i < region.triangles.size(); ++i) {
        const uint32_t t = region.triangles[i];
        const double expected = guides_per_m2 * triangle_area_m2(mesh, t) * (weighted ? double(region.triangle_density[i]) : 1.0);
        // The triangle's own stream: its count and points depend on nothing but its area, density and index.
        auto rng = groom_rng::item_rng(seed, groom_rng::kStreamPainted, t);
        const double whole = std::floor(expected);
        const size_t count = size_t(whole) + (rng.next_double() < expected - whole ? 1 : 0);
        for (size_t k = 0; k < count; ++k) {
            const float r1 = rng.next_float(), r2 = rng.next_float();
            const float s = std::sqrt(r1);
            append_root(mesh, ScalpAttachment{t, glm::vec3(1.0f - s, s * (1.0f - r2), s * r2)}, out);
        }
    }
    return out;
}

}  // namespace tressel
