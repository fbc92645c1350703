#include "sim/sim_passes.h"

#include <array>
#include <limits>

#include "shared/shape_match.h"
#include "shared/sim_sdf.h"

namespace tressel::sim_passes {

using namespace gpu_shared;

namespace {

glm::vec4 with_w(glm::vec3 v, float w) { return glm::vec4(v, w); }

}  // namespace

void strand_data(uint32_t strand, const SimGroupParams& p, std::span<const glm::mat4> root_now,
                 std::span<const glm::mat4> root_prev, std::span<const glm::vec4> rest_os,
                 std::span<SimStrandData> data, std::span<const GuideFrame> frames_rest, std::span<GuideFrame> frames_world) {
    const uint32_t n = p.vertices_per_strand;
    const glm::mat4& now = root_of(root_now, strand);
    const glm::mat4& before = root_of(root_prev, strand);
    const glm::vec4 q_now = sim_quat_from_mat(now);
    const glm::vec4 q_before = sim_quat_from_mat(before);
    const glm::vec3 r0 = sim_xyz(rest_os[size_t(strand) * n]);
    const glm::vec3 r1 = sim_xyz(rest_os[size_t(strand) * n + 1]);
    const glm::vec3 root_old = sim_transform_point(before, r0);
    const glm::vec3 root_new = sim_transform_point(now, r0);
    const glm::vec3 disp = sim_transform_point(now, r1) - sim_transform_point(before, r1);
    SimStrandData& d = data[strand];
    const float blend = sim_vsp_blend(disp, sim_xyz(d.root_disp_m), p.gravity_mps2.w, p.vsp_coeff, p.vsp_threshold_mps2);
    d.root_frame_q = q_now;
    d.vsp_q = sim_quat_normalize(sim_quat_mul(q_now, sim_quat_conj(q_before)));
    d.vsp_t_m = with_w(root_new - root_old, blend);
    d.root_disp_m = with_w(disp, 0.0f);
    if (strand < frames_rest.size()) {
        const GuideFrame& r = frames_rest[strand];
        GuideFrame& w = frames_world[strand];
        w.tangent = with_w(sim_quat_rotate(q_now, sim_xyz(r.tangent)), 0.0f);
        w.bitangent = with_w(sim_quat_rotate(q_now, sim_xyz(r.bitangent)), 0.0f);
        w.normal = with_w(sim_quat_rotate(q_now, sim_xyz(r.normal)), 0.0f);
    }
}

glm::vec4 volume_frame(const SimGroupParams& p, std::span<const glm::vec4> pos) {
    glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
    for (const glm::vec4& x : pos) {
        lo = glm::min(lo, sim_xyz(x));
        hi = glm::max(hi, sim_xyz(x));
    }
    if (pos.empty()) lo = hi = glm::vec3(0.0f);
    return sim_volume_frame(lo, hi, p.volume_nodes);
}

void volume_splat(uint32_t vertex, const SimGroupParams& p, const glm::vec4& frame, std::span<const glm::vec4> pos,
                  std::span<const glm::vec4> prev, std::span<const float> rest_lengths, std::span<int32_t> grid) {
    const uint32_t n = p.vertices_per_strand;
    const uint32_t k = vertex % n;
    const float len = sim_volume_vertex_length(k > 0 ? rest_lengths[vertex - 1] : 0.0f, rest_lengths[vertex]);
    const glm::vec3 x = sim_xyz(pos[vertex]);
    const glm::vec3 d = x - sim_xyz(prev[vertex]);
    const glm::ivec4 cell = sim_volume_cell(x, frame, p.volume_nodes);
    const glm::vec3 f = sim_volume_fraction(x, frame, cell);
    auto add = [&](uint32_t i, int32_t v) { grid[i] = int32_t(uint32_t(grid[i]) + uint32_t(v)); };
    for (uint32_t c = 0; c < 8; ++c) {
        const uint32_t node = sim_volume_node(cell, c, p.volume_nodes);
        const float wl = sim_volume_weight(f, c) * len;
        add(node, sim_volume_fixed(wl, kSimVolumeLengthScale));
        add(node + 1, sim_volume_fixed(wl * d.x, kSimVolumeMomentumScale));
        add(node + 2, sim_volume_fixed(wl * d.y, kSimVolumeMomentumScale));
        add(node + 3, sim_volume_fixed(wl * d.z, kSimVolumeMomentumScale));
    }
}

void volume_gradient(uint32_t node, const SimGroupParams& p, const glm::vec4& frame, std::span<const int32_t> grid,
                     std::span<glm::vec4> gradient) {
    const uint32_t n = p.volume_nodes;
    const glm::uvec3 at(node % n, (node / n) % n, node / (n * n));
    auto over = [&](glm::uvec3 q) {
        return sim_volume_overdensity(grid[((q.z * n + q.y) * n + q.x) * kSimVolumeNodeInts], frame.w, p.volume_target_per_m2);
    };
    glm::vec3 lo(0.0f), hi(0.0f), span(1.0f);
    for (int a = 0; a < 3; ++a) {
        glm::uvec3 l = at, h = at;
        l[a] = at[a] > 0u ? at[a] - 1u : 0u;
        h[a] = at[a] + 1u < n ? at[a] + 1u : at[a];
        lo[a] = over(l);
        hi[a] = over(h);
        span[a] = float(h[a] - l[a]);
    }
    gradient[node] = glm::vec4(sim_volume_node_gradient(lo, hi, span), 0.0f);
}

gpu_shared::SimVolumeSample volume_sample(const SimGroupParams& p, const glm::vec4& frame, std::span<const int32_t> grid,
                                          std::span<const glm::vec4> gradient, const glm::vec3& x) {
    const glm::ivec4 cell = sim_volume_cell(x, frame, p.volume_nodes);
    const glm::vec3 f = sim_volume_fraction(x, frame, cell);
    gpu_shared::SimVolumeSample s = sim_volume_sample_zero();
    for (uint32_t c = 0; c < 8; ++c) {
        const uint32_t node = sim_volume_node(cell, c, p.volume_nodes);
        s = sim_volume_add(s, glm::ivec4(grid[node], grid[node + 1], grid[node + 2], grid[node + 3]),
                           sim_xyz(gradient[node / kSimVolumeNodeInts]), f, c);
    }
    return s;
}

void integrate(uint32_t vertex, const SimGroupParams& p, std::span<const glm::vec4> pos, std::span<const glm::vec4> prev,
               std::span<const glm::vec4> rest_os, std::span<const glm::mat4> root_now, std::span<glm::vec4> out,
               std::span<const int32_t> volume_grid, std::span<const glm::vec4> volume_gradient, const glm::vec4& volume_frame,
               const FrictionFields& friction) {
    const uint32_t n = p.vertices_per_strand;
    const uint32_t strand = vertex / n;
    const uint32_t k = vertex % n;
    const glm::vec4 x = pos[vertex];
    if (x.w <= 0.0f) {
        out[vertex] = with_w(sim_transform_point(root_of(root_now, strand), sim_xyz(rest_os[vertex])), x.w);
        return;
    }
    const float dt = p.gravity_mps2.w;
    glm::vec3 xp = sim_xyz(prev[vertex]);
    glm::vec3 push(0.0f);
    if (p.volume_nodes > 0u && !volume_grid.empty()) {
        const gpu_shared::SimVolumeSample s = volume_sample(p, volume_frame, volume_grid, volume_gradient, sim_xyz(x));
        xp = sim_volume_smoothed_prev(sim_xyz(x), xp, sim_volume_mean_disp(s), sim_volume_has_hair(s), p.volume_friction);
        push = sim_volume_push(s.grad_cells, p.volume_pressure, volume_frame.w, dt);
    }
    const glm::vec3 v = (sim_xyz(x) - xp) / dt;
    // Tangent: the neighbours' chord (the previous segment at the tip).
    const glm::vec3 ahead = k + 1 < n ? sim_xyz(pos[vertex + 1]) : sim_xyz(x);
    const glm::vec3 tangent = sim_safe_normalize(ahead - sim_xyz(pos[vertex - 1]), glm::vec3(0.0f));
    const glm::vec3 accel = sim_xyz(p.gravity_mps2) + sim_wind_accel(sim_wind_velocity(p, strand), v, tangent, p.wind_drag_per_s);
    glm::vec3 predicted = sim_integrate(sim_xyz(x), xp, accel, p.damping_decay, dt) + push;
    const glm::vec3 normal = sim_contact_normal(prev[vertex].w);
    if (normal != glm::vec3(0.0f) && !friction.frames.empty() && (p.friction_static > 0.0f || p.friction_kinetic > 0.0f)) {
        const SimSdfFrame& f = friction.frames[friction_field(friction, strand, sim_xyz(x))];
        predicted = sim_coulomb_friction(predicted, sim_transform_point(f.step_motion, sim_xyz(x)), normal, tangent,
                                         p.friction_static, p.friction_kinetic);
    }
    for (uint32_t c = 0; c < p.collider_count && c < friction.colliders.size(); ++c)
        predicted = sim_collider_friction(predicted, sim_xyz(x), tangent, friction.colliders[c], p.particle_radius_m);
    out[vertex] = with_w(predicted, x.w);
}

uint32_t friction_field(const FrictionFields& f, uint32_t strand, const glm::vec3& x) {
    uint32_t best = 0;
    if (f.frames.size() < 2) return best;
    float deepest = -std::numeric_limits<float>::infinity();
    for (uint32_t i = 0; i < f.frames.size(); ++i) {
        if (strand < f.exempt.size() && (f.exempt[strand] >> i) & 1u) continue;
        const float d = sim_sdf_margin_depth(f.fields[i], f.grids[i], f.frames[i], x);
        if (d > deepest) deepest = d, best = i;
    }
    return best;
}

void global_shape(uint32_t vertex, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> rest_os,
                  std::span<const glm::mat4> root_now) {
    const uint32_t n = p.vertices_per_strand;
    glm::vec4& x = pos[vertex];
    if (x.w <= 0.0f || p.global_stiffness <= 0.0f || !sim_in_global_range(vertex % n, n, p.global_range)) return;
    const glm::vec3 target = sim_transform_point(root_of(root_now, vertex / n), sim_xyz(rest_os[vertex]));
    x = with_w(sim_global_shape(sim_xyz(x), target, p.global_stiffness), x.w);
}

void vsp(uint32_t vertex, const SimGroupParams& p, std::span<const SimStrandData> data, std::span<const glm::vec4> rest_os,
         std::span<const glm::mat4> root_prev, std::span<const glm::mat4> root_now, std::span<glm::vec4> pos,
         std::span<glm::vec4> prev) {
    const uint32_t n = p.vertices_per_strand;
    const uint32_t strand = vertex / n;
    const SimStrandData& d = data[strand];
    const float blend = d.vsp_t_m.w;
    if (pos[vertex].w <= 0.0f || blend <= 0.0f) return;
    const glm::vec3 r0 = sim_xyz(rest_os[size_t(strand) * n]);
    const glm::vec3 root_old = sim_transform_point(root_of(root_prev, strand), r0);
    const glm::vec3 root_new = sim_transform_point(root_of(root_now, strand), r0);
    pos[vertex] = with_w(sim_vsp_apply(sim_xyz(pos[vertex]), d.vsp_q, root_old, root_new, blend), pos[vertex].w);
    prev[vertex] = with_w(sim_vsp_apply(sim_xyz(prev[vertex]), d.vsp_q, root_old, root_new, blend), prev[vertex].w);
}

void local_shape(uint32_t strand, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<glm::vec4> prev,
                 std::span<const glm::vec4> ref_vectors, std::span<const glm::vec4> rest_root_frame_q,
                 std::span<const SimStrandData> data) {
    const uint32_t n = p.vertices_per_strand;
    const size_t base = size_t(strand) * n;
    if (p.local_stiffness_iter <= 0.0f) return;
    const glm::vec4 frame0 = sim_quat_normalize(sim_quat_mul(data[strand].root_frame_q, rest_root_frame_q[strand]));
    // The reaction: a child moves only in its own joint's corrections, so the sum of those over the
    // iterations is its net move; the joint takes kSimShapeVelocityCorrection of it once, as -before here
    // and +after below (the GPU passes write it the same way, outside the sweeps' dependency chain).
    for (uint32_t k = 0; k + 2 < n; ++k)
        prev[base + k + 1] = sim_shape_reaction(prev[base + k + 1], pos[base + k + 1], pos[base + k + 2], -kSimShapeVelocityCorrection);
    for (uint32_t it = 0; it < p.local_iterations; ++it) {
        glm::vec4 frame = frame0;
        for (uint32_t k = 0; k + 2 < n; ++k) {
            const glm::vec4 a = pos[base + k + 1];
            const glm::vec4 b = pos[base + k + 2];
            const glm::vec3 target = sim_xyz(a) + sim_quat_rotate(frame, sim_xyz(ref_vectors[base + k + 2]));
            const glm::vec4 moved = sim_shape_child(b, target, p.local_stiffness_iter);
            pos[base + k + 2] = moved;
            frame = sim_frame_advance(frame, sim_xyz(moved) - sim_xyz(a));
        }
    }
    for (uint32_t k = 0; k + 2 < n; ++k)
        prev[base + k + 1] = sim_shape_reaction(prev[base + k + 1], pos[base + k + 1], pos[base + k + 2], kSimShapeVelocityCorrection);
}

void bend(uint32_t strand, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> ref_vectors,
          std::span<const glm::vec4> rest_root_frame_q, std::span<const SimStrandData> data, std::span<const float> rest_lengths) {
    const uint32_t n = p.vertices_per_strand;
    const size_t base = size_t(strand) * n;
    if (p.bend_mode == kSimBendLocalShape) return;
    glm::vec4 frame = sim_quat_normalize(sim_quat_mul(data[strand].root_frame_q, rest_root_frame_q[strand]));
    if (p.bend_mode == kSimBendRigid) {
        // Rigid: each child exactly where its rest segment hangs off its joint's frame, root to tip.
        for (uint32_t k = 0; k + 2 < n; ++k) {
            const glm::vec4 a = pos[base + k + 1];
            const glm::vec4 moved = sim_shape_child(pos[base + k + 2], sim_xyz(a) + sim_quat_rotate(frame, sim_xyz(ref_vectors[base + k + 2])), 1.0f);
            pos[base + k + 2] = moved;
            frame = sim_frame_advance(frame, sim_xyz(moved) - sim_xyz(a));
        }
        return;
    }
    // Forward: joint j's weight and residual (frames carried along the predicted strand), and row j - 1
    // of the factorisation once the three joints on it are known; z = D^-1 L^-1 r kept per row.
    std::array<glm::vec3, kSimMaxVerticesPerStrand> z{};
    std::array<glm::vec2, kSimMaxVerticesPerStrand> lf{};  // L_(i,i-1), L_(i,i-2)
    float k_prev2 = 0.0f, k_prev = 0.0f, d1 = 1.0f, d2 = 1.0f;
    glm::vec3 res_prev2(0.0f), res_prev(0.0f), y1(0.0f), y2(0.0f);
    for (uint32_t j = 1; j <= n; ++j) {
        float k = 0.0f;
        glm::vec3 res(0.0f);
        if (j + 1 < n) {
            const glm::vec3 xm = sim_xyz(pos[base + j - 1]), x0 = sim_xyz(pos[base + j]), xp = sim_xyz(pos[base + j + 1]);
            if (j >= 2) frame = sim_frame_advance(frame, x0 - xm);
            k = sim_bend_weight(p.bend_rigidity_dt2, rest_lengths[base + j - 1], rest_lengths[base + j], j);
            res = sim_bend_residual(frame, sim_xyz(ref_vectors[base + j + 1]), rest_lengths[base + j - 1], xm, x0, xp);
        }
        const uint32_t i = j - 1;  // the row the joints up to j complete
        if (i >= kSimPinnedVertices) {
            const float mass = sim_bend_mass(rest_lengths[base + i - 1], i + 1 < n ? rest_lengths[base + i] : 0.0f);
            const glm::vec4 f = sim_bend_factor_row(i, mass, k_prev2, k_prev, k, d1, lf[i - 1].x, d2);
            const glm::vec3 r = k_prev2 * res_prev2 - 2.0f * k_prev * res_prev + k * res;
            const glm::vec3 y = r - f.x * y1 - f.y * y2;
            lf[i] = glm::vec2(f.x, f.y);
            z[i] = y / f.z;
            y2 = y1;
            y1 = y;
            d2 = d1;
            d1 = f.z;
        }
        k_prev2 = k_prev;
        k_prev = k;
        res_prev2 = res_prev;
        res_prev = res;
    }
    // Back, tip to root: d_i = z_i - L_(i+1,i) d_(i+1) - L_(i+2,i) d_(i+2).
    glm::vec3 e1(0.0f), e2(0.0f);
    for (uint32_t i = n; i-- > kSimPinnedVertices;) {
        const glm::vec3 d = z[i] - (i + 1 < n ? lf[i + 1].x : 0.0f) * e1 - (i + 2 < n ? lf[i + 2].y : 0.0f) * e2;
        if (pos[base + i].w > 0.0f) pos[base + i] = with_w(sim_xyz(pos[base + i]) + d, pos[base + i].w);
        e2 = e1;
        e1 = d;
    }
}

namespace {

void collide_strand(const SimGroupParams& p, size_t base, std::span<glm::vec4> pos, std::span<const glm::vec4> prev,
                    std::span<const SimCollider> colliders, float friction_scale) {
    for (uint32_t k = 0; k < p.vertices_per_strand; ++k) {
        glm::vec4& x = pos[base + k];
        if (x.w <= 0.0f) continue;
        for (uint32_t c = 0; c < p.collider_count; ++c)
            x = with_w(sim_collide_primitive(sim_xyz(x), sim_xyz(prev[base + k]), colliders[c], p.particle_radius_m, friction_scale), x.w);
    }
}

}  // namespace

void length_and_colliders(uint32_t strand, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> prev,
                          std::span<const float> rest_lengths, std::span<const SimCollider> colliders) {
    const uint32_t n = p.vertices_per_strand;
    const size_t base = size_t(strand) * n;
    for (uint32_t it = 0; it < p.length_iterations; ++it) {
        for (uint32_t k = 0; k + 1 < n; ++k) {
            const SimPair r = sim_length_pair(pos[base + k], pos[base + k + 1], rest_lengths[base + k]);
            pos[base + k] = r.a;
            pos[base + k + 1] = r.b;
        }
        collide_strand(p, base, pos, prev, colliders, 0.0f);  // friction: at integration (sim_collider_friction)
    }
}

void chain_match_run(uint32_t run, const SimGroupParams& p, std::span<const SimStrandData> data, std::span<const glm::vec4> pos,
                     std::span<const glm::vec4> rest_os, std::span<glm::vec4> chain_q, std::span<glm::vec4> chain_t) {
    const uint32_t n = p.vertices_per_strand;
    const uint32_t span = p.chain_span;
    const uint32_t k = run % n;
    if (span == 0u || k < kSimChainFirstVertex || k + span > n) return;
    glm::vec3 c(0.0f), cr(0.0f);
    for (uint32_t i = 0; i < span; ++i) {
        c += sim_xyz(pos[run + i]);
        cr += sim_xyz(rest_os[run + i]);
    }
    const float inv = 1.0f / float(span);
    c *= inv;
    cr *= inv;
    glm::mat3 a(0.0f);
    for (uint32_t i = 0; i < span; ++i) a += sm_outer(sim_xyz(pos[run + i]) - c, sim_xyz(rest_os[run + i]) - cr);
    const glm::vec4 q = sm_extract_rotation(a, sm_warm_start(data[run / n].vsp_q, chain_q[run]), kShapeMatchRotationIterations);
    chain_q[run] = q;
    chain_t[run] = with_w(sm_translation(c, q, cr), 0.0f);
}

void chain_match_vertex(uint32_t vertex, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> rest_os,
                        std::span<const glm::vec4> chain_q, std::span<const glm::vec4> chain_t) {
    const uint32_t n = p.vertices_per_strand;
    const uint32_t span = p.chain_span;
    const glm::vec4 x = pos[vertex];
    if (span == 0u || x.w <= 0.0f) return;
    const uint32_t k = vertex % n;
    const uint32_t first = sim_chain_first_run(k, span), last = sim_chain_last_run(k, n, span);
    if (first > last) return;
    const uint32_t base = vertex - k;
    glm::vec3 sum(0.0f);
    for (uint32_t j = first; j <= last; ++j) sum += sm_goal(chain_q[base + j], sim_xyz(chain_t[base + j]), sim_xyz(rest_os[vertex])) - sim_xyz(x);
    pos[vertex] = with_w(sim_xyz(x) + sum * (p.chain_stiffness / float(span)), x.w);
}

void clamp_delta(uint32_t vertex, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<const glm::vec4> prev,
                 std::span<glm::vec4> contact) {
    contact[vertex] = glm::vec4(0.0f);
    glm::vec4& x = pos[vertex];
    if (x.w <= 0.0f) return;
    x = with_w(sim_clamp_delta(sim_xyz(x), sim_xyz(prev[vertex]), p.max_delta_m), x.w);
}

namespace {

// The child's last word (sim_passes::ftl_contact): the follow-the-leader target kept outside its contact
// plane (sim_ftl_contact's .a), then outside each primitive collider, turned back onto the sphere about its
// parent.
glm::vec4 ftl_contact_child(const SimGroupParams& p, glm::vec4 a, glm::vec4 target, glm::vec3 b_prev, float rest_m,
                            std::span<const SimCollider> colliders) {
    glm::vec3 t = sim_xyz(target);
    for (uint32_t c = 0; c < p.collider_count; ++c)
        t = sim_keep_distance(sim_collide_primitive(t, b_prev, colliders[c], p.particle_radius_m, 0.0f), sim_xyz(a), rest_m);
    return with_w(t, target.w);
}

}  // namespace

void ftl_contact(uint32_t strand, const SimGroupParams& p, std::span<glm::vec4> pos, std::span<glm::vec4> prev,
                 std::span<const float> rest_lengths, std::span<const SimCollider> colliders, std::span<const glm::vec4> contact) {
    const uint32_t n = p.vertices_per_strand;
    const size_t base = size_t(strand) * n;
    for (uint32_t k = 0; k + 1 < n; ++k) {
        const glm::vec4 a = pos[base + k];
        const glm::vec4 b = pos[base + k + 1];
        if (b.w <= 0.0f) continue;
        const SimPair f = sim_ftl_contact(a, b, rest_lengths[base + k], sim_xyz(contact[base + k + 1]));
        const glm::vec3 d = sim_xyz(f.b);
        pos[base + k + 1] = ftl_contact_child(p, a, f.a, sim_xyz(prev[base + k + 1]), rest_lengths[base + k], colliders);
        prev[base + k + 1].w = sim_contact_code(sim_xyz(contact[base + k + 1]));
        if (a.w > 0.0f) prev[base + k] = with_w(sim_xyz(prev[base + k]) + d * kSimFtlVelocityCorrection, prev[base + k].w);
    }
}

void sdf_vertex(uint32_t vertex, uint32_t n, const SdfGridParams& g, const float* field, const SimSdfFrame& f,
                std::span<glm::vec4> pos, std::span<glm::vec4> prev, std::span<const float> rest_lengths, std::span<glm::vec4> contact) {
    glm::vec4& x = pos[vertex];
    if (x.w <= 0.0f) return;
    const SimContact r = sim_sdf_collide_vertex(field, g, f, sim_xyz(x), sim_xyz(prev[vertex]));
    if (r.normal == glm::vec4(0.0f)) return;
    glm::vec3 moved = sim_xyz(r.moved);
    glm::vec4 c = r.normal;
    if (vertex % n > 0 && pos[vertex - 1].w <= 0.0f) {
        moved = sim_keep_distance(moved, sim_xyz(pos[vertex - 1]), rest_lengths[vertex - 1]);
        c = with_w(sim_contact_lifted(sim_xyz(r.normal), sim_xyz(r.moved), moved, f.params.x), 0.0f);
    }
    prev[vertex] = with_w(sim_xyz(prev[vertex]) + sim_sdf_prev_shift(sim_xyz(r.dep), moved - sim_xyz(x)), prev[vertex].w);
    x = with_w(moved, x.w);
    contact[vertex] = c;
}

void sdf_midpoint(uint32_t segment, uint32_t parity, uint32_t n, const SdfGridParams& g, const float* field,
                  const SimSdfFrame& f, std::span<glm::vec4> pos, std::span<glm::vec4> prev, std::span<const float> rest_lengths,
                  std::span<glm::vec4> contact) {
    const uint32_t strand = segment / (n - 1);
    const uint32_t k = segment % (n - 1);
    if ((k & 1u) != parity) return;
    const size_t ia = size_t(strand) * n + k;
    glm::vec4& a = pos[ia];
    glm::vec4& b = pos[ia + 1];
    if (a.w <= 0.0f || b.w <= 0.0f) return;
    const glm::vec3 mid = (sim_xyz(a) + sim_xyz(b)) * 0.5f;
    const glm::vec3 push = sim_sdf_displacement(field, g, f, mid);
    if (push == glm::vec3(0.0f)) return;
    const glm::vec3 mid_start = sim_transform_point(f.step_motion, (sim_xyz(prev[ia]) + sim_xyz(prev[ia + 1])) * 0.5f);
    const glm::vec3 dep = sim_sdf_depenetration(push, mid - mid_start);
    glm::vec3 moved_a = sim_xyz(a) + push;
    const glm::vec4 normal = with_w(sim_safe_normalize(push, glm::vec3(0.0f)), 0.0f);
    glm::vec4 contact_a = normal;
    // Next to a pinned vertex: rotate about it rather than stretch (as sdf_vertex does).
    if (k > 0 && pos[ia - 1].w <= 0.0f) {
        moved_a = sim_keep_distance(moved_a, sim_xyz(pos[ia - 1]), rest_lengths[ia - 1]);
        contact_a = with_w(sim_contact_lifted(sim_xyz(normal), sim_xyz(a) + push, moved_a, f.params.x), 0.0f);
    }
    prev[ia] = with_w(sim_xyz(prev[ia]) + sim_sdf_prev_shift(dep, moved_a - sim_xyz(a)), prev[ia].w);
    prev[ia + 1] = with_w(sim_xyz(prev[ia + 1]) + dep, prev[ia + 1].w);
    a = with_w(moved_a, a.w);
    b = with_w(sim_xyz(b) + push, b.w);
    contact[ia] = contact_a;
    contact[ia + 1] = normal;
}

void follow_vertex(uint32_t vertex, uint32_t n, std::span<const FollowDescriptor> descriptors,
                   std::span<const GuideFrame> frames_world, std::span<const glm::vec4> guides, std::span<glm::vec4> out,
                   std::span<const glm::vec4> corrections) {
    const uint32_t follow = vertex / n;
    const uint32_t k = vertex % n;
    const FollowDescriptor& d = descriptors[follow];
    const glm::vec3 g0 = sim_xyz(guides[size_t(d.guides.x) * n + k]);
    const glm::vec3 g1 = sim_xyz(guides[size_t(d.guides.y) * n + k]);
    const glm::vec3 g2 = sim_xyz(guides[size_t(d.guides.z) * n + k]);
    const float s = float(k) / float(n - 1);
    glm::vec3 x = follow_point(d, frames_world[d.guides.x], g0, g1, g2, s);
    if (d.guides.w != 0u) x += follow_correction(frames_world[d.guides.x], corrections[size_t(d.guides.w - 1u) * n + k]);
    out[vertex] = with_w(x, k < kSimPinnedVertices ? 0.0f : 1.0f);
}

void follow_sdf_vertex(uint32_t vertex, uint32_t n, const SdfGridParams& g, const float* field, const SimSdfFrame& f,
                       std::span<glm::vec4> follow_pos) {
    if (vertex % n < kSimPinnedVertices) return;
    glm::vec4& x = follow_pos[vertex];
    x = with_w(sim_sdf_push_follow(field, g, f, sim_xyz(x)), x.w);
}

}  // namespace tressel::sim_passes
