#include "sim/cloth.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <queue>
#include <unordered_map>

#include "scene/param_check.h"
#include "shared/sim_roots.h"
#include "sim/mesh_oracle.h"
#include "sim/soft_body.h"

namespace tressel {

using gpu_shared::ClothConstraint;
using gpu_shared::ClothStepParams;
using gpu_shared::ClothVertex;

namespace {

std::string fmt_vec(const glm::vec3& p) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "(%.4g, %.4g, %.4g)", double(p.x), double(p.y), double(p.z));
    return buf;
}

struct Vec3Key {
    uint32_t x, y, z;
    bool operator==(const Vec3Key&) const = default;
};
struct Vec3KeyHash {
    size_t operator()(const Vec3Key& k) const { return (size_t(k.x) * 73856093u) ^ (size_t(k.y) * 19349663u) ^ (size_t(k.z) * 83492791u); }
};
Vec3Key key_of(glm::vec3 p) {
    // +0 and -0 are the same position.
    if (p.x == 0.0f) p.x = 0.0f;
    if (p.y == 0.0f) p.y = 0.0f;
    if (p.z == 0.0f) p.z = 0.0f;
    Vec3Key k;
    std::memcpy(&k.x, &p.x, 4);
    std::memcpy(&k.y, &p.y, 4);
    std::memcpy(&k.z, &p.z, 4);
    return k;
}


}  // namespace

Mesh make_cloth_sheet(const std::string& name, glm::vec3 corner, glm::vec3 u, glm::vec3 v, uint32_t nu, uint32_t nv) {
    Mesh m;
    m.name = name;
    for (uint32_t j = 0; j <= nv; ++j)
        for (uint32_t i = 0; i <= nu; ++i) m.positions.push_back(corner + u * (float(i) / float(nu)) + v * (float(j) / float(nv)));
    const glm::vec3 n = glm::normalize(glm::cross(u, v));
    m.normals.assign(m.positions.size(), n);
    auto at = [&](uint32_t i, uint32_t j) { return j * (nu + 1) + i; };
    for (uint32_t j = 0; j < nv; ++j)
        for (uint32_t i = 0; i < nu; ++i) {
            const uint32_t a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
            if ((i + j) % 2 == 0)
                m.indices.insert(m.indices.end(), {a, b, c, a, c, d});
            else
                m.indices.insert(m.indices.end(), {a, b, d, b, c, d});
        }
    return m;
}

Mesh cloth_mesh(const ClothState& c) {
    Mesh m;
    m.name = c.name;
    if (c.soft_body) {
        m.positions.resize(c.render_vertices.size());
        m.normals.resize(c.render_vertices.size());
        for (uint32_t r = 0; r < c.render_vertices.size(); ++r) soft_passes::render_vertex(r, c, m.positions[r], m.normals[r]);
        m.indices = c.render_indices;
        return m;
    }
    m.positions.reserve(c.positions.size());
    for (const glm::vec4& p : c.positions) m.positions.push_back(glm::vec3(p));
    m.indices.reserve(c.triangles.size() * 3);
    for (const glm::uvec4& t : c.triangles) m.indices.insert(m.indices.end(), {t.x, t.y, t.z});
    return m;
}

Result<std::vector<bool>> select_pins(const Mesh& mesh, const AccessoryPins& pins, const MeshDistanceOracle* attach) {
    std::vector<bool> out(mesh.positions.size(), false);
    switch (pins.mode) {
    case PinMode::None:
        break;
    case PinMode::VertexColor:
        if (mesh.colors.size() != mesh.positions.size())
            return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "' has no vertex colours to pin by");
        for (size_t i = 0; i < out.size(); ++i) out[i] = double(mesh.colors[i].r) >= pins.color_threshold;
        break;
    case PinMode::Box:
        for (size_t i = 0; i < out.size(); ++i) {
            const glm::dvec3 p(mesh.positions[i]);
            out[i] = glm::all(glm::greaterThanEqual(p, pins.box_min_m)) && glm::all(glm::lessThanEqual(p, pins.box_max_m));
        }
        break;
    case PinMode::NearMesh:
        if (!attach) return make_error(ErrorCode::InvalidArgument, "pins near a mesh need the mesh the accessory is attached to");
        for (size_t i = 0; i < out.size(); ++i)
            out[i] = std::isfinite(mesh.positions[i].x) && double(std::abs(attach->signed_distance_m(mesh.positions[i]))) <= pins.distance_m;
        break;
    }
    return out;
}

Status check_accessory_mesh(const Mesh& m, const std::string& who) {
    if (m.indices.empty() || m.indices.size() % 3 != 0)
        return make_error(ErrorCode::InvalidArgument, who + ": mesh '" + m.name + "' has no triangles");
    for (size_t i = 0; i < m.positions.size(); ++i)
        if (!std::isfinite(m.positions[i].x) || !std::isfinite(m.positions[i].y) || !std::isfinite(m.positions[i].z))
            return make_error(ErrorCode::InvalidArgument, who + ": vertex " + std::to_string(i) + " of mesh '" + m.name + "' is not finite");
    for (uint32_t idx : m.indices)
        if (idx >= m.positions.size())
            return make_error(ErrorCode::InvalidArgument, who + ": mesh '" + m.name + "' has an index " + std::to_string(idx) +
                                                              " past its " + std::to_string(m.positions.size()) + " vertices");
    return {};
}

Result<ClothState> build_cloth(const ClothBuildInputs& in) {
    const std::string who = "cloth '" + in.name + "'";
    if (!in.mesh) return make_error(ErrorCode::InvalidArgument, who + ": no mesh");
    TRESSEL_TRY(check_params(in.params, "accessories['" + in.name + "'].cloth"));
    const Mesh& m = *in.mesh;
    TRESSEL_TRY(check_accessory_mesh(m, who));
    if (in.pinned.size() != m.positions.size())
        return make_error(ErrorCode::InvalidArgument, who + ": the pin set has " + std::to_string(in.pinned.size()) + " entries for " +
                                                          std::to_string(m.positions.size()) + " vertices");

    ClothState c;
    c.name = in.name;
    c.params = in.params;
    c.attach_mesh = in.attach_mesh;

    // Weld identical positions, keep only vertices that belong to a triangle.
    std::unordered_map<Vec3Key, uint32_t, Vec3KeyHash> by_pos;
    std::vector<uint32_t> weld(m.positions.size(), gpu_shared::kClothNone);
    std::vector<glm::vec3> pos;
    std::vector<bool> pinned;
    for (uint32_t idx : m.indices) {
        if (weld[idx] != gpu_shared::kClothNone) continue;
        auto [it, fresh] = by_pos.try_emplace(key_of(m.positions[idx]), uint32_t(pos.size()));
        if (fresh) {
            pos.push_back(m.positions[idx]);
            pinned.push_back(false);
            c.source_vertex.push_back(idx);
        }
        weld[idx] = it->second;
    }
    // Every input vertex at a welded position maps to it (vertices in no triangle map to none).
    for (size_t i = 0; i < m.positions.size(); ++i) {
        if (weld[i] != gpu_shared::kClothNone) continue;
        auto it = by_pos.find(key_of(m.positions[i]));
        if (it != by_pos.end()) weld[i] = it->second;
    }
    for (size_t i = 0; i < m.positions.size(); ++i)
        if (weld[i] != gpu_shared::kClothNone && in.pinned[i]) pinned[weld[i]] = true;
    c.welded_of_source = weld;
    const uint32_t nv = uint32_t(pos.size());

    // Triangles, areas, masses.
    const size_t nt = m.indices.size() / 3;
    std::vector<float> area(nt);
    std::vector<double> mass(nv, 0.0);
    for (size_t t = 0; t < nt; ++t) {
        const uint32_t a = weld[m.indices[3 * t]], b = weld[m.indices[3 * t + 1]], d = weld[m.indices[3 * t + 2]];
        const float ar = 0.5f * glm::length(gpu_shared::cloth_triangle_normal(pos[a], pos[b], pos[d]));
        if (!(ar > gpu_shared::kClothMinTriangleArea_m2))
            return make_error(ErrorCode::InvalidArgument, who + ": triangle " + std::to_string(t) + " of mesh '" + m.name +
                                                              "' has zero area (at " + fmt_vec(pos[a]) + ")");
        area[t] = ar;
        c.triangles.emplace_back(a, b, d, 0u);
        for (uint32_t v : {a, b, d}) mass[v] += double(ar) * in.params.density_kg_m2 / 3.0;
    }

    // Edges with the triangles on each side (the vertex opposite).
    struct EdgeSides {
        uint32_t tri[2] = {0, 0};
        uint32_t opposite[2] = {0, 0};
        uint32_t count = 0;
    };
    std::map<std::pair<uint32_t, uint32_t>, EdgeSides> edges;
    for (size_t t = 0; t < nt; ++t) {
        const glm::uvec4 tr = c.triangles[t];
        const uint32_t v[3] = {tr.x, tr.y, tr.z};
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = v[e], b = v[(e + 1) % 3], o = v[(e + 2) % 3];
            EdgeSides& s = edges[{std::min(a, b), std::max(a, b)}];
            if (s.count == 2)
                return make_error(ErrorCode::InvalidArgument, who + ": mesh '" + m.name + "' is not manifold: the edge " + fmt_vec(pos[a]) + " - " +
                                                                  fmt_vec(pos[b]) + " is shared by more than two triangles");
            s.tri[s.count] = uint32_t(t);
            s.opposite[s.count] = o;
            ++s.count;
        }
    }
    for (const auto& [e, s] : edges) {
        ClothConstraint k{};
        k.v = glm::uvec4(e.first, e.second, e.first, e.first);
        k.rest = glm::vec4(glm::length(pos[e.first] - pos[e.second]), 1.0f, float(gpu_shared::kClothEdge), 0.0f);
        c.constraints.push_back(k);
    }
    c.edge_count = uint32_t(c.constraints.size());

    // Bending (shared/cloth.h, Bergou et al. 2006): Q = sum over hinges of w g g^T with the rest hinge's
    // coefficients g and discrete shells' weight w = 3 |e|^2 / (A0 + A1) (Grinspun et al. 2003), so that a
    // small fold by theta costs k w theta^2 / 2, as a dihedral hinge of stiffness k w does. Per vertex, the
    // row's off-diagonal terms, its diagonal and (Q x_rest)_v, in double.
    std::vector<std::map<uint32_t, double>> q_row(nv);
    std::vector<double> q_diag(nv, 0.0);
    std::vector<glm::dvec3> q_rest(nv, glm::dvec3(0.0));
    for (const auto& [e, s] : edges) {
        if (s.count != 2) continue;
        const uint32_t id[4] = {e.first, e.second, s.opposite[0], s.opposite[1]};
        const glm::vec4 g4 = gpu_shared::cloth_bend_hinge_coefficients(pos[id[0]], pos[id[1]], pos[id[2]], pos[id[3]]);
        const double l = double(glm::length(pos[e.first] - pos[e.second]));
        const double w = 3.0 * l * l / (double(area[s.tri[0]]) + double(area[s.tri[1]]));
        const double g[4] = {g4.x, g4.y, g4.z, g4.w};
        if (g[2] == 0.0) continue;  // a degenerate hinge (refused above as a zero-area triangle, kept safe here)
        glm::dvec3 k_rest(0.0);
        for (int i = 0; i < 4; ++i) k_rest += g[i] * glm::dvec3(pos[id[i]]);
        for (int i = 0; i < 4; ++i) {
            q_rest[id[i]] += w * g[i] * k_rest;
            for (int j = 0; j < 4; ++j) {
                if (id[i] == id[j])
                    q_diag[id[i]] += w * g[i] * g[j];
                else
                    q_row[id[i]][id[j]] += w * g[i] * g[j];
            }
        }
        ++c.hinge_count;
    }

    // Pins.
    uint32_t pinned_count = 0;
    for (bool p : pinned) pinned_count += p ? 1u : 0u;
    if (pinned_count == 0)
        return make_error(ErrorCode::InvalidArgument, who + ": no vertex is pinned: the cloth would fall away (pin it near its attach mesh, by a box or by vertex colour)");
    if (pinned_count == nv)
        return make_error(ErrorCode::InvalidArgument, who + ": every vertex is pinned: nothing is left to simulate (pin fewer vertices)");

    // Per-vertex lists: edges and triangles.
    std::vector<std::vector<uint32_t>> per_edges(nv), per_tris(nv);
    for (uint32_t ci = 0; ci < c.constraints.size(); ++ci) {
        const ClothConstraint& k = c.constraints[ci];
        per_edges[k.v.x].push_back(ci);
        per_edges[k.v.y].push_back(ci);
    }
    for (uint32_t t = 0; t < c.triangles.size(); ++t)
        for (uint32_t v : {c.triangles[t].x, c.triangles[t].y, c.triangles[t].z}) per_tris[v].push_back(t);

    // Tethers: the nearest pin along the edges (Dijkstra from every pin at once).
    std::vector<double> dist(nv, std::numeric_limits<double>::infinity());
    std::vector<uint32_t> source(nv, gpu_shared::kClothNone);
    using Item = std::pair<double, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (uint32_t v = 0; v < nv; ++v)
        if (pinned[v]) {
            dist[v] = 0.0;
            source[v] = v;
            queue.push({0.0, v});
        }
    while (!queue.empty()) {
        auto [d, v] = queue.top();
        queue.pop();
        if (d > dist[v]) continue;
        for (uint32_t ci : per_edges[v]) {
            const ClothConstraint& k = c.constraints[ci];
            const uint32_t u = k.v.x == v ? k.v.y : k.v.x;
            const double nd = d + double(k.rest.x);
            if (nd < dist[u]) {
                dist[u] = nd;
                source[u] = source[v];
                queue.push({nd, u});
            }
        }
    }

    // Split inverse masses (cloth_edge_deltas).
    for (ClothConstraint& k : c.constraints) {
        auto split = [&](uint32_t v) { return pinned[v] ? 0.0f : float(double(per_edges[v].size()) / mass[v]); };
        k.split_w = glm::vec4(split(k.v.x), split(k.v.y), 0.0f, 0.0f);
    }

    c.vertices.resize(nv);
    for (uint32_t v = 0; v < nv; ++v) {
        ClothVertex& cv = c.vertices[v];
        const float w = pinned[v] ? 0.0f : float(1.0 / mass[v]);
        cv.rest_os = glm::vec4(pos[v], w);
        cv.first = uint32_t(c.adjacency.size());
        cv.edges = uint32_t(per_edges[v].size());
        c.adjacency.insert(c.adjacency.end(), per_edges[v].begin(), per_edges[v].end());
        cv.tether = pinned[v] ? gpu_shared::kClothNone : source[v];
        cv.tether_m = std::isfinite(dist[v]) ? float(dist[v]) : 0.0f;
        cv.tri_first = uint32_t(c.vertex_triangles.size());
        cv.tri_count = uint32_t(per_tris[v].size());
        c.vertex_triangles.insert(c.vertex_triangles.end(), per_tris[v].begin(), per_tris[v].end());
        c.total_mass_kg += float(mass[v]);
        // The bending stencil: the neighbours along its edges first (in its edges' order: the first is its
        // frame's reference), then the others by index; the rest term in its rest frame.
        cv.bend_first = uint32_t(c.bend_terms.size());
        std::vector<uint32_t> order;
        for (uint32_t ci : per_edges[v]) {
            const uint32_t u = c.constraints[ci].v.x == v ? c.constraints[ci].v.y : c.constraints[ci].v.x;
            if (q_row[v].count(u)) order.push_back(u);
        }
        for (const auto& [u, coef] : q_row[v])
            if (std::find(order.begin(), order.end(), u) == order.end()) order.push_back(u);
        double bound = q_diag[v];
        for (uint32_t u : order) {
            const float coef = float(q_row[v][u]);
            if (coef == 0.0f) continue;
            c.bend_terms.emplace_back(u, std::bit_cast<uint32_t>(coef));
            bound += std::abs(double(coef));
        }
        cv.bend_terms = uint32_t(c.bend_terms.size()) - cv.bend_first;
        glm::vec4 rest(0.0f);
        if (cv.bend_terms > 0) {
            glm::dvec3 n(0.0);
            for (uint32_t t : per_tris[v]) {
                const glm::uvec4 tr = c.triangles[t];
                n += glm::dvec3(gpu_shared::cloth_triangle_normal(pos[tr.x], pos[tr.y], pos[tr.z]));
            }
            const glm::dvec3 ref = glm::dvec3(pos[c.bend_terms[cv.bend_first].x]) - glm::dvec3(pos[v]);
            glm::dvec3 t = glm::length(n) > 0.0 ? ref - glm::normalize(n) * glm::dot(ref, glm::normalize(n)) : glm::dvec3(0.0);
            if (glm::length(t) > 0.0 && glm::length(n) > 0.0) {
                n = glm::normalize(n);
                t = glm::normalize(t);
                const glm::dvec3 b = glm::cross(n, t);
                rest = glm::vec4(float(glm::dot(q_rest[v], t)), float(glm::dot(q_rest[v], b)), float(glm::dot(q_rest[v], n)), float(bound));
            } else {
                rest.w = float(bound);
            }
        }
        c.bend_rest.push_back(rest);
    }
    place_cloth_at_rest(c, glm::mat4(1.0f));
    return c;
}

void place_cloth_at_rest(ClothState& cloth, const glm::mat4& pin_transform) {
    cloth.pin_transform = pin_transform;
    const size_t nv = cloth.vertices.size();
    cloth.positions.resize(nv);
    for (size_t v = 0; v < nv; ++v) {
        const ClothVertex& cv = cloth.vertices[v];
        const glm::vec4 r = cv.rest_os;
        cloth.positions[v] = glm::vec4(gpu_shared::sim_transform_point(pin_transform, glm::vec3(r)), r.w);
    }
    cloth.prev_positions = cloth.positions;
    cloth.work_a = cloth.positions;
    cloth.work_b = cloth.positions;
    cloth.frames.assign(2 * nv, glm::vec4(0.0f));
    if (cloth.soft_body) place_clusters_at_rest(cloth, pin_transform);
}

ClothStepParams make_cloth_params(const ClothParams& params, const Environment& env, double dt_s, double t_end_s, const glm::mat4& pin_before,
                                  const glm::mat4& pin_now, uint32_t collider_count, uint32_t sdf_count, uint32_t vertex_count) {
    ClothStepParams p{};
    const uint32_t substeps = uint32_t(std::max(params.iterations, 1));
    const double h = dt_s / double(substeps);
    p.gravity_mps2 = glm::vec4(glm::vec3(env.gravity_mps2), float(h));
    const glm::dvec3 dir = glm::length(env.wind.direction) > 0.0 ? glm::normalize(env.wind.direction) : glm::dvec3(0.0);
    p.wind_mps = glm::vec4(glm::vec3(dir * env.wind.speed_mps), float(env.wind.turbulence));
    p.pin_transform = pin_now;
    p.pin_transform_prev = pin_before;
    p.damping_decay = float(std::exp(-params.damping * h * 60.0));
    p.stretch_compliance = float(1.0 / (params.stretch_stiffness_n_m * h * h));
    p.bend_compliance = params.bend_stiffness_nm > 0.0 ? float(1.0 / (params.bend_stiffness_nm * h * h)) : 0.0f;
    p.relaxation = float(params.relaxation);
    p.vertex_count = vertex_count;
    p.collider_count = collider_count;
    p.sdf_count = sdf_count;
    p.substeps = substeps;
    p.thickness_m = float(params.thickness_m);
    // Friction is the fraction of the slip removed over a step of the world: per small step, the fraction
    // that compounds to it.
    p.friction = gpu_shared::sim_iteration_stiffness(float(params.friction), substeps);
    p.collider_friction_exponent = 1.0f / float(substeps);
    p.tether_limit = params.tether_slack >= 0.0 ? float(1.0 + params.tether_slack) : 0.0f;
    p.wind_drag_per_s = gpu_shared::kSimWindDragPerSecond * float(params.wind_scale);
    p.time_s = float(t_end_s);
    return p;
}

namespace cloth_passes {

namespace {

glm::vec3 vertex_normal(const ClothState& c, const std::vector<glm::vec4>& x, uint32_t v) {
    const ClothVertex& cv = c.vertices[v];
    glm::vec3 n(0.0f);
    for (uint32_t i = 0; i < cv.tri_count; ++i) {
        const glm::uvec4 t = c.triangles[c.vertex_triangles[cv.tri_first + i]];
        n += gpu_shared::cloth_triangle_normal(glm::vec3(x[t.x]), glm::vec3(x[t.y]), glm::vec3(x[t.z]));
    }
    return gpu_shared::sim_safe_normalize(n, glm::vec3(0.0f));
}

}  // namespace

void predict(uint32_t v, const ClothStepParams& p, const ClothState& c, const std::vector<glm::vec4>& pos, const std::vector<glm::vec4>& prev,
             std::vector<glm::vec4>& pred, std::vector<glm::vec4>& start, std::vector<glm::vec4>& frames) {
    const glm::vec4 x = pos[v];
    const ClothVertex& cv = c.vertices[v];
    start[v] = x;
    const glm::vec3 n = vertex_normal(c, pos, v);
    frames[2 * size_t(v)] = glm::vec4(n, 0.0f);
    frames[2 * size_t(v) + 1] =
        cv.bend_terms > 0 ? glm::vec4(gpu_shared::cloth_bend_target(c.bend_rest[v], n, glm::vec3(x), glm::vec3(pos[c.bend_terms[cv.bend_first].x])),
                                      c.bend_rest[v].w)
                          : glm::vec4(0.0f);
    if (x.w <= 0.0f) {
        pred[v] = glm::vec4(pin_place(p, c, v, 0u), x.w);
        return;
    }
    pred[v] = glm::vec4(gpu_shared::cloth_predict(p, glm::vec3(x), glm::vec3(prev[v]), n), x.w);
}

gpu_shared::SimPair contacts(const ClothStepParams& p, glm::vec3 y, glm::vec3 yp, float thickness_m,
                             const std::vector<gpu_shared::SimCollider>& colliders, const std::vector<SdfRef>& sdfs) {
    for (uint32_t i = 0; i < p.collider_count; ++i) {
        const glm::vec4 d = gpu_shared::cloth_primitive_distance(y, colliders[i], thickness_m);
        if (d.w >= gpu_shared::kClothContactTolerance_m) continue;
        if (d.w < 0.0f) y -= glm::vec3(d) * d.w;
        const glm::vec3 carried = gpu_shared::cloth_primitive_carry(yp, y, colliders[i]);
        const float f = 1.0f - std::pow(1.0f - std::clamp(colliders[i].p1_m.w, 0.0f, 1.0f), p.collider_friction_exponent);
        const gpu_shared::SimPair r = gpu_shared::cloth_contact_finish(y, yp, carried, glm::vec3(d), f);
        y = glm::vec3(r.a);
        yp = glm::vec3(r.b);
    }
    for (uint32_t i = 0; i < p.sdf_count; ++i) {
        const float reach = thickness_m + sdfs[i].frame.params.x;
        const glm::vec4 d = gpu_shared::cloth_sdf_contact(sdfs[i].field, sdfs[i].grid, sdfs[i].frame, y, reach + gpu_shared::kClothContactTolerance_m);
        if (d.w >= reach + gpu_shared::kClothContactTolerance_m) continue;
        if (d.w < reach) y += glm::vec3(d) * (reach - d.w);
        const glm::vec3 carried = gpu_shared::sim_transform_point(sdfs[i].frame.step_motion, yp);
        const gpu_shared::SimPair r = gpu_shared::cloth_contact_finish(y, yp, carried, glm::vec3(d), p.friction);
        y = glm::vec3(r.a);
        yp = glm::vec3(r.b);
    }
    gpu_shared::SimPair out;
    out.a = glm::vec4(y, 0.0f);
    out.b = glm::vec4(yp, 0.0f);
    return out;
}

glm::vec3 pin_place(const ClothStepParams& p, const ClothState& c, uint32_t v, uint32_t s) {
    if (p.pin_places == 0u) return gpu_shared::cloth_pin_position(p, glm::vec3(c.vertices[v].rest_os), s);
    TRESSEL_ASSERT(c.pin_places.size() == 2 * c.vertex_count(), "cloth_passes::pin_place: the step's pin places were not set");
    return gpu_shared::cloth_pin_between(c.pin_places[2 * size_t(v)], c.pin_places[2 * size_t(v) + 1], s, p.substeps);
}

bool pinned_small_step(uint32_t v, const ClothStepParams& p, uint32_t s, const ClothState& c, const std::vector<glm::vec4>& pred,
                       const std::vector<glm::vec4>& start, std::vector<glm::vec4>& out_a, std::vector<glm::vec4>& out_b) {
    const glm::vec4 x = pred[v];
    if (x.w > 0.0f) return false;
    const bool last = s + 1 >= p.substeps;
    out_a[v] = last ? x : glm::vec4(pin_place(p, c, v, s + 1), x.w);
    out_b[v] = last ? start[v] : x;
    return true;
}

void end_small_step(uint32_t v, const ClothStepParams& p, uint32_t s, float w, glm::vec3 y, glm::vec3 y_start, float thickness_m,
                    glm::vec3 normal, const std::vector<gpu_shared::SimCollider>& colliders, const std::vector<SdfRef>& sdfs,
                    std::vector<glm::vec4>& out_a, std::vector<glm::vec4>& out_b) {
    // Collisions, then the contacts' friction and depenetration.
    const gpu_shared::SimPair r = contacts(p, y, y_start, thickness_m, colliders, sdfs);
    y = glm::vec3(r.a);
    const glm::vec3 yp = glm::vec3(r.b);
    if (s + 1 >= p.substeps) {
        out_a[v] = glm::vec4(y, w);
        out_b[v] = glm::vec4(yp, w);
        return;
    }
    out_a[v] = glm::vec4(gpu_shared::cloth_predict(p, y, yp, normal), w);
    out_b[v] = glm::vec4(y, w);
}

void substep(uint32_t v, const ClothStepParams& p, uint32_t s, const ClothState& c, const std::vector<glm::vec4>& pred,
             const std::vector<glm::vec4>& start, std::vector<glm::vec4>& out_a, std::vector<glm::vec4>& out_b,
             const std::vector<gpu_shared::SimCollider>& colliders, const std::vector<SdfRef>& sdfs) {
    const ClothVertex& cv = c.vertices[v];
    const glm::vec4 x = pred[v];
    if (pinned_small_step(v, p, s, c, pred, start, out_a, out_b)) return;
    // One Jacobi iteration: the edges' corrections summed in the vertex's adjacency order and the bending
    // stencil in its order (as both GPU passes sum them).
    glm::vec3 sum_e(0.0f);
    for (uint32_t i = 0; i < cv.edges; ++i) {
        const ClothConstraint& k = c.constraints[c.adjacency[cv.first + i]];
        const gpu_shared::SimPair d = gpu_shared::cloth_edge_deltas(k, glm::vec3(pred[k.v.x]), glm::vec3(pred[k.v.y]), p);
        sum_e += glm::vec3(k.v.x == v ? d.a : d.b);
    }
    const glm::vec3 xv(x);
    glm::vec3 stencil(0.0f);
    for (uint32_t i = 0; i < cv.bend_terms; ++i) {
        const glm::uvec2 t = c.bend_terms[cv.bend_first + i];
        stencil += std::bit_cast<float>(t.y) * (glm::vec3(pred[t.x]) - xv);
    }
    // The wind's normal is the step's (the predict pass's): read once, not from the triangles every small step.
    const glm::vec3 frame_normal(c.frames[2 * size_t(v)]);
    glm::vec3 y = xv + sum_e / float(std::max(cv.edges, 1u)) + gpu_shared::cloth_bend_delta(stencil, c.frames[2 * size_t(v) + 1], x.w, p);
    if (p.tether_limit > 0.0f && cv.tether != gpu_shared::kClothNone)
        y = gpu_shared::cloth_tether(y, glm::vec3(pred[cv.tether]), cv.tether_m, p.tether_limit);
    const glm::vec3 normal = s + 1 >= p.substeps ? glm::vec3(0.0f) : frame_normal;
    end_small_step(v, p, s, x.w, y, glm::vec3(start[v]), p.thickness_m, normal, colliders, sdfs, out_a, out_b);
}

}  // namespace cloth_passes

void step_cloth(ClothState& c, const ClothStepParams& p, const std::vector<gpu_shared::SimCollider>& colliders,
                const std::vector<cloth_passes::SdfRef>& sdfs) {
    if (c.soft_body) return step_soft_body(c, p, colliders, sdfs);
    const uint32_t nv = uint32_t(c.positions.size());
    c.pin_transform = p.pin_transform;
    for (uint32_t v = 0; v < nv; ++v) cloth_passes::predict(v, p, c, c.positions, c.prev_positions, c.work_a, c.work_b, c.frames);
    // The pairs alternate: (work_a, work_b) -> (positions, prev_positions) -> (work_a, work_b) ...
    std::vector<glm::vec4>* in[2] = {&c.work_a, &c.work_b};
    std::vector<glm::vec4>* out[2] = {&c.positions, &c.prev_positions};
    for (uint32_t s = 0; s < p.substeps; ++s) {
        for (uint32_t v = 0; v < nv; ++v) cloth_passes::substep(v, p, s, c, *in[0], *in[1], *out[0], *out[1], colliders, sdfs);
        std::swap(in[0], out[0]);
        std::swap(in[1], out[1]);
    }
    // The state ended in the pair last written (now `in`).
    if (in[0] != &c.positions) {
        std::swap(c.positions, c.work_a);
        std::swap(c.prev_positions, c.work_b);
    }
}

ClothStretch measure_cloth_stretch(const ClothState& c) {
    ClothStretch s;
    double sum = 0.0;
    for (uint32_t i = 0; i < c.edge_count; ++i) {
        const ClothConstraint& k = c.constraints[i];
        const double l = glm::length(glm::vec3(c.positions[k.v.x]) - glm::vec3(c.positions[k.v.y]));
        const double strain = l / double(k.rest.x) - 1.0;
        s.max_strain = std::max(s.max_strain, strain);
        sum += std::abs(strain);
    }
    s.mean_strain = c.edge_count ? sum / c.edge_count : 0.0;
    return s;
}

double cloth_kinetic_energy(const ClothState& c, double dt_s) {
    // The previous positions are the last small step's start: the velocity is over dt / small steps.
    const double h = dt_s / double(std::max(c.soft_body ? c.soft.iterations : c.params.iterations, 1));
    double e = 0.0, mass = 0.0;
    for (size_t v = 0; v < c.positions.size(); ++v) {
        const float w = c.positions[v].w;
        if (w <= 0.0f) continue;
        const glm::vec3 vel = (glm::vec3(c.positions[v]) - glm::vec3(c.prev_positions[v])) / float(h);
        e += 0.5 * double(glm::dot(vel, vel)) / double(w);
        mass += 1.0 / double(w);
    }
    return mass > 0.0 ? e / mass : 0.0;
}

}  // namespace tressel
