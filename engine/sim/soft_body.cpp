#include "sim/soft_body.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "scene/param_check.h"
#include "shared/shape_match.h"
#include "sim/mesh_oracle.h"

namespace tressel {

using gpu_shared::ClothConstraint;
using gpu_shared::ClothStepParams;
using gpu_shared::ClothVertex;
using gpu_shared::SoftRenderVertex;

namespace {


// Most lattice cells a body may be sampled over (each costs an exact inside test).
constexpr uint64_t kMaxLatticeCells = 4u << 20;

std::vector<glm::vec3> mesh_normals(const Mesh& m) {
    if (m.normals.size() == m.positions.size()) return m.normals;
    std::vector<glm::vec3> n(m.positions.size(), glm::vec3(0.0f));
    for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
        const uint32_t a = m.indices[t], b = m.indices[t + 1], c = m.indices[t + 2];
        const glm::vec3 f = glm::cross(m.positions[b] - m.positions[a], m.positions[c] - m.positions[a]);
        n[a] += f, n[b] += f, n[c] += f;
    }
    for (glm::vec3& v : n) v = gpu_shared::sim_safe_normalize(v, glm::vec3(0.0f, 1.0f, 0.0f));
    return n;
}

}  // namespace

Result<ClothState> build_soft_body(const SoftBodyBuildInputs& in) {
    const std::string who = "soft body '" + in.name + "'";
    if (!in.mesh) return make_error(ErrorCode::InvalidArgument, who + ": no mesh");
    TRESSEL_TRY(check_params(in.params, "accessories['" + in.name + "'].soft_body"));
    const Mesh& m = *in.mesh;
    TRESSEL_TRY(check_accessory_mesh(m, who));
    const MeshDistanceOracle inside(m);
    if (!inside.closed())
        return make_error(ErrorCode::InvalidArgument, who + ": mesh '" + m.name +
                                                          "' is not closed (it has open or non-manifold edges), so it has no inside to fill with particles");

    // The lattice: cells of the spacing over the mesh's bounds, centred on them.
    const float h = float(in.params.particle_spacing_m);
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (uint32_t idx : m.indices) lo = glm::min(lo, m.positions[idx]), hi = glm::max(hi, m.positions[idx]);
    const glm::ivec3 dims = glm::max(glm::ivec3(glm::ceil((hi - lo) / h)), glm::ivec3(1));
    const uint64_t cells = uint64_t(dims.x) * uint64_t(dims.y) * uint64_t(dims.z);
    if (cells > kMaxLatticeCells)
        return make_error(ErrorCode::InvalidArgument, who + ": a particle spacing of " + std::to_string(in.params.particle_spacing_m) + " m over mesh '" +
                                                          m.name + "' asks for " + std::to_string(cells) + " lattice cells (at most " +
                                                          std::to_string(kMaxLatticeCells) + "): raise particle_spacing");
    const glm::vec3 origin = 0.5f * (lo + hi) - 0.5f * h * glm::vec3(dims);
    auto cell_centre = [&](glm::ivec3 c) { return origin + (glm::vec3(c) + 0.5f) * h; };
    auto cell_index = [&](glm::ivec3 c) { return (size_t(c.z) * size_t(dims.y) + size_t(c.y)) * size_t(dims.x) + size_t(c.x); };
    std::vector<int32_t> particle_of_cell(cells, -1);
    std::vector<glm::ivec3> cell_of_particle;
    for (int z = 0; z < dims.z; ++z)
        for (int y = 0; y < dims.y; ++y)
            for (int x = 0; x < dims.x; ++x) {
                const glm::ivec3 c(x, y, z);
                if (inside.signed_distance_m(cell_centre(c)) >= 0.0f) continue;
                if (cell_of_particle.size() >= gpu_shared::kSoftMaxParticles)
                    return make_error(ErrorCode::InvalidArgument, who + ": a particle spacing of " + std::to_string(in.params.particle_spacing_m) +
                                                                      " m puts more than " + std::to_string(gpu_shared::kSoftMaxParticles) +
                                                                      " particles inside mesh '" + m.name + "': raise particle_spacing");
                particle_of_cell[cell_index(c)] = int32_t(cell_of_particle.size());
                cell_of_particle.push_back(c);
            }
    const uint32_t np = uint32_t(cell_of_particle.size());
    if (np == 0)
        return make_error(ErrorCode::InvalidArgument, who + ": mesh '" + m.name + "' is thinner than the particle spacing of " +
                                                          std::to_string(in.params.particle_spacing_m) + " m: no particle fits inside; lower particle_spacing");
    auto particle_at = [&](glm::ivec3 c) -> int32_t {
        if (glm::any(glm::lessThan(c, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(c, dims))) return -1;
        return particle_of_cell[cell_index(c)];
    };

    ClothState b;
    b.name = in.name;
    b.soft_body = true;
    b.soft = in.params;
    b.attach_mesh = in.attach_mesh;
    b.render_indices = m.indices;

    // The render mesh's binding: each vertex carried by the clusters of its nearest particles at rest,
    // weighted (1 - d^2 / d_s^2)^2 with d_s the distance of the next nearest, so weights fall to zero
    // where a particle leaves the nearest set (no jump across the mesh).
    const std::vector<glm::vec3> normals = mesh_normals(m);
    std::vector<bool> pinned(np, false);
    std::vector<float> skin(np, 0.5f * h);
    b.render_vertices.resize(m.positions.size());
    const uint32_t k_infl = gpu_shared::kSoftRenderInfluences;
    for (size_t r = 0; r < m.positions.size(); ++r) {
        const glm::vec3 p = m.positions[r];
        const glm::ivec3 c = glm::ivec3(glm::floor((p - origin) / h));
        std::vector<std::pair<float, uint32_t>> near;
        const int max_reach = std::max({dims.x, dims.y, dims.z}) + 1;
        for (int reach = 2;; reach += 2) {
            near.clear();
            for (int dz = -reach; dz <= reach; ++dz)
                for (int dy = -reach; dy <= reach; ++dy)
                    for (int dx = -reach; dx <= reach; ++dx) {
                        const int32_t q = particle_at(c + glm::ivec3(dx, dy, dz));
                        if (q >= 0) near.push_back({glm::length(p - cell_centre(cell_of_particle[size_t(q)])), uint32_t(q)});
                    }
            // Enough, and none nearer outside the searched cube (its faces are at least (reach - 1) h away).
            std::sort(near.begin(), near.end());
            const bool enough = near.size() > k_infl && near[k_infl].first <= float(reach - 1) * h;
            if (enough || reach > max_reach) break;
        }
        SoftRenderVertex rv{};
        rv.rest_os = glm::vec4(p, 0.0f);
        rv.normal_os = glm::vec4(normals[r], 0.0f);
        const size_t used = std::min<size_t>(k_infl, near.size());
        const float support = near.size() > k_infl ? std::max(near[k_infl].first, near[used - 1].first * 1.001f + 1e-6f)
                                                   : near[used - 1].first * 1.5f + h;
        float wsum = 0.0f;
        float w[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        uint32_t id[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (size_t k = 0; k < used; ++k) {
            const float t = 1.0f - (near[k].first * near[k].first) / (support * support);
            w[k] = t * t;
            id[k] = near[k].second;
            wsum += w[k];
        }
        for (float& x : w) x /= wsum;
        rv.p0 = glm::uvec4(id[0], id[1], id[2], id[3]);
        rv.p1 = glm::uvec4(id[4], id[5], id[6], id[7]);
        rv.w0 = glm::vec4(w[0], w[1], w[2], w[3]);
        rv.w1 = glm::vec4(w[4], w[5], w[6], w[7]);
        b.render_vertices[r] = rv;
        // A particle's collision radius reaches the farthest surface vertex it is nearest to: held that far
        // from a surface, the skin it carries stays out (half a spacing left a bun's skin 1.8 mm inside
        // the head where the lattice sits deep in the mesh).
        skin[id[0]] = std::max(skin[id[0]], near[0].first);
        // Pins by vertex colour: a coloured vertex pins its nearest particle.
        if (in.pins.mode == PinMode::VertexColor && r < m.colors.size() && double(m.colors[r].r) >= in.pins.color_threshold) pinned[id[0]] = true;
    }

    // Pins.
    switch (in.pins.mode) {
    case PinMode::None:
        break;
    case PinMode::VertexColor:
        if (m.colors.size() != m.positions.size())
            return make_error(ErrorCode::InvalidArgument, who + ".pins: mesh '" + m.name + "' has no vertex colours to pin by");
        break;
    case PinMode::Box:
        for (uint32_t i = 0; i < np; ++i) {
            const glm::dvec3 p(cell_centre(cell_of_particle[i]));
            pinned[i] = glm::all(glm::greaterThanEqual(p, in.pins.box_min_m)) && glm::all(glm::lessThanEqual(p, in.pins.box_max_m));
        }
        break;
    case PinMode::NearMesh:
        if (!in.attach) return make_error(ErrorCode::InvalidArgument, who + ".pins: near_mesh needs the mesh the accessory is attached to");
        // Particles sit up to half a spacing inside the surface the distance is meant from.
        for (uint32_t i = 0; i < np; ++i)
            pinned[i] = double(in.attach->signed_distance_m(cell_centre(cell_of_particle[i]))) <= in.pins.distance_m + 0.5 * double(h);
        break;
    }
    uint32_t pinned_count = 0;
    for (bool p : pinned) pinned_count += p ? 1u : 0u;
    if (pinned_count == np)
        return make_error(ErrorCode::InvalidArgument, who + ": every particle is pinned: nothing is left to simulate (pin fewer particles)");
    if (in.pins.mode != PinMode::None && pinned_count == 0)
        return make_error(ErrorCode::InvalidArgument, who + ": the pin rule selects no particle (pins.mode none makes a free body on purpose)");

    // Particles, clusters, lattice links.
    const double mass = in.params.density_kg_m3 * double(h) * double(h) * double(h);
    const int cr = in.params.cluster_radius;
    b.vertices.resize(np);
    b.cluster_rest.resize(np);
    for (uint32_t i = 0; i < np; ++i) {
        const glm::ivec3 c = cell_of_particle[i];
        ClothVertex& v = b.vertices[i];
        v.rest_os = glm::vec4(cell_centre(c), pinned[i] ? 0.0f : float(1.0 / mass));
        v.first = uint32_t(b.adjacency.size());
        v.tether = gpu_shared::kClothNone;
        v.tether_m = skin[i];
        glm::vec3 sum(0.0f);
        for (int dz = -cr; dz <= cr; ++dz)
            for (int dy = -cr; dy <= cr; ++dy)
                for (int dx = -cr; dx <= cr; ++dx) {
                    const int32_t q = particle_at(c + glm::ivec3(dx, dy, dz));
                    if (q < 0) continue;
                    b.adjacency.push_back(uint32_t(q));
                    sum += cell_centre(cell_of_particle[size_t(q)]);
                }
        v.edges = uint32_t(b.adjacency.size()) - v.first;
        b.cluster_rest[i] = glm::vec4(sum / float(v.edges), 0.0f);
        for (const glm::ivec3 d : {glm::ivec3(1, 0, 0), glm::ivec3(0, 1, 0), glm::ivec3(0, 0, 1)}) {
            const int32_t q = particle_at(c + d);
            if (q < 0) continue;
            ClothConstraint k{};
            k.v = glm::uvec4(i, uint32_t(q), i, i);
            k.rest = glm::vec4(h, 1.0f, float(gpu_shared::kClothEdge), 0.0f);
            b.constraints.push_back(k);
        }
        b.total_mass_kg += float(mass);
    }
    b.edge_count = uint32_t(b.constraints.size());
    b.clusters.assign(2 * size_t(np), glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    place_cloth_at_rest(b, glm::mat4(1.0f));
    return b;
}

ClothStepParams make_soft_body_params(const ClothState& body, const Environment& env, double dt_s, double t_end_s, const glm::mat4& pin_before,
                                      const glm::mat4& pin_now, uint32_t collider_count, uint32_t sdf_count) {
    const SoftBodyParams& sp = body.soft;
    ClothStepParams p{};
    const uint32_t substeps = uint32_t(std::max(sp.iterations, 1));
    const double h = dt_s / double(substeps);
    p.gravity_mps2 = glm::vec4(glm::vec3(env.gravity_mps2), float(h));
    p.wind_mps = glm::vec4(0.0f);  // a soft body has no normal to catch the wind across (cloth_wind_accel)
    p.pin_transform = pin_now;
    p.pin_transform_prev = pin_before;
    p.damping_decay = float(std::exp(-sp.damping * h * 60.0));
    p.relaxation = 1.0f;
    p.vertex_count = uint32_t(body.vertex_count());
    p.collider_count = collider_count;
    p.sdf_count = sdf_count;
    p.substeps = substeps;
    p.thickness_m = float(0.5 * sp.particle_spacing_m);  // the least of the particles' radii (ClothVertex::tether_m)
    p.friction = gpu_shared::sim_iteration_stiffness(float(sp.friction), substeps);
    p.collider_friction_exponent = 1.0f / float(substeps);
    p.time_s = float(t_end_s);
    // sm_step_stiffness's compliance, scaled by (spacing / reference)^2: a body's weight is carried
    // through as many clusters as it has layers, so at half the spacing twice the layers each give way
    // under the same strain only if each is a quarter as compliant (SoftBodySim.FirmnessIsTheSameAt5And10MmSpacing).
    const double s = std::clamp(sp.stiffness, 0.0, 1.0);
    if (s >= 1.0) {
        p.shape_stiffness = 1.0f;
    } else if (s > 0.0) {
        const double ref = 1.0 / double(gpu_shared::kShapeMatchReferenceRate_hz), scale = sp.particle_spacing_m / kSoftReferenceSpacing_m;
        const double alpha = (1.0 - s) / s * ref * ref * scale * scale;
        p.shape_stiffness = float(h * h / (h * h + alpha));
    }
    return p;
}

namespace soft_passes {

void cluster(uint32_t c, const ClothState& b, const std::vector<glm::vec4>& x, std::vector<glm::vec4>& clusters) {
    const ClothVertex& cv = b.vertices[c];
    glm::vec3 mean(0.0f);
    for (uint32_t i = 0; i < cv.edges; ++i) mean += glm::vec3(x[b.adjacency[cv.first + i]]);
    mean /= float(cv.edges);
    const glm::vec3 rest_mean = glm::vec3(b.cluster_rest[c]);
    glm::mat3 a(0.0f);
    for (uint32_t i = 0; i < cv.edges; ++i) {
        const uint32_t j = b.adjacency[cv.first + i];
        a += gpu_shared::sm_outer(glm::vec3(x[j]) - mean, glm::vec3(b.vertices[j].rest_os) - rest_mean);
    }
    const glm::vec4 q = gpu_shared::sm_extract_rotation(a, clusters[2 * size_t(c)], gpu_shared::kShapeMatchRotationIterations);
    clusters[2 * size_t(c)] = q;
    clusters[2 * size_t(c) + 1] = glm::vec4(gpu_shared::sm_translation(mean, q, rest_mean), 0.0f);
}

void substep(uint32_t v, const ClothStepParams& p, uint32_t s, const ClothState& b, const std::vector<glm::vec4>& pred,
             const std::vector<glm::vec4>& start, std::vector<glm::vec4>& out_a, std::vector<glm::vec4>& out_b,
             const std::vector<gpu_shared::SimCollider>& colliders, const std::vector<cloth_passes::SdfRef>& sdfs) {
    const ClothVertex& cv = b.vertices[v];
    const glm::vec4 x = pred[v];
    if (cloth_passes::pinned_small_step(v, p, s, b, pred, start, out_a, out_b)) return;
    glm::vec3 goal(0.0f);
    for (uint32_t i = 0; i < cv.edges; ++i) {
        const uint32_t j = b.adjacency[cv.first + i];
        goal += gpu_shared::sm_goal(b.clusters[2 * size_t(j)], glm::vec3(b.clusters[2 * size_t(j) + 1]), glm::vec3(cv.rest_os));
    }
    goal /= float(cv.edges);
    // No normal: a soft body does not catch the wind (make_soft_body_params).
    cloth_passes::end_small_step(v, p, s, x.w, gpu_shared::soft_pull(glm::vec3(x), goal, p.shape_stiffness), glm::vec3(start[v]), cv.tether_m,
                                 glm::vec3(0.0f), colliders, sdfs, out_a, out_b);
}

void render_vertex(uint32_t r, const ClothState& b, glm::vec3& position, glm::vec3& normal) {
    const SoftRenderVertex& rv = b.render_vertices[r];
    const uint32_t id[8] = {rv.p0.x, rv.p0.y, rv.p0.z, rv.p0.w, rv.p1.x, rv.p1.y, rv.p1.z, rv.p1.w};
    const float w[8] = {rv.w0.x, rv.w0.y, rv.w0.z, rv.w0.w, rv.w1.x, rv.w1.y, rv.w1.z, rv.w1.w};
    glm::vec3 x(0.0f), n(0.0f);
    for (uint32_t k = 0; k < gpu_shared::kSoftRenderInfluences; ++k) {
        const glm::vec4 q = b.clusters[2 * size_t(id[k])];
        x += gpu_shared::sm_goal(q, glm::vec3(b.clusters[2 * size_t(id[k]) + 1]), glm::vec3(rv.rest_os)) * w[k];
        n += gpu_shared::sim_quat_rotate(q, glm::vec3(rv.normal_os)) * w[k];
    }
    position = x;
    normal = gpu_shared::sim_safe_normalize(n, glm::vec3(0.0f, 1.0f, 0.0f));
}

}  // namespace soft_passes

void step_soft_body(ClothState& b, const ClothStepParams& p, const std::vector<gpu_shared::SimCollider>& colliders,
                    const std::vector<cloth_passes::SdfRef>& sdfs) {
    const uint32_t nv = uint32_t(b.positions.size());
    b.pin_transform = p.pin_transform;
    for (uint32_t v = 0; v < nv; ++v) cloth_passes::predict(v, p, b, b.positions, b.prev_positions, b.work_a, b.work_b, b.frames);
    std::vector<glm::vec4>* in[2] = {&b.work_a, &b.work_b};
    std::vector<glm::vec4>* out[2] = {&b.positions, &b.prev_positions};
    for (uint32_t s = 0; s < p.substeps; ++s) {
        for (uint32_t c = 0; c < nv; ++c) soft_passes::cluster(c, b, *in[0], b.clusters);
        for (uint32_t v = 0; v < nv; ++v) soft_passes::substep(v, p, s, b, *in[0], *in[1], *out[0], *out[1], colliders, sdfs);
        std::swap(in[0], out[0]);
        std::swap(in[1], out[1]);
    }
    if (in[0] != &b.positions) {
        std::swap(b.positions, b.work_a);
        std::swap(b.prev_positions, b.work_b);
    }
    for (uint32_t c = 0; c < nv; ++c) soft_passes::cluster(c, b, b.positions, b.clusters);
}

void place_clusters_at_rest(ClothState& b, const glm::mat4& t) {
    glm::mat3 r(t);
    for (int i = 0; i < 3; ++i) r[i] = gpu_shared::sim_safe_normalize(r[i], glm::vec3(0.0f));
    const glm::quat q = glm::normalize(glm::quat_cast(r));
    const glm::vec4 qv(q.x, q.y, q.z, q.w);
    b.clusters.resize(2 * b.vertices.size());
    for (size_t c = 0; c < b.vertices.size(); ++c) {
        const glm::vec3 rm = glm::vec3(b.cluster_rest[c]);
        b.clusters[2 * c] = qv;
        b.clusters[2 * c + 1] = glm::vec4(gpu_shared::sm_translation(gpu_shared::sim_transform_point(t, rm), qv, rm), 0.0f);
    }
}

double soft_body_mean_height(const ClothState& b, glm::vec3 up) {
    double s = 0.0;
    for (const glm::vec4& p : b.positions) s += double(glm::dot(glm::vec3(p), up));
    return b.positions.empty() ? 0.0 : s / double(b.positions.size());
}

}  // namespace tressel
