#include "sim/sag_free.h"

#include <algorithm>
#include <cmath>

#include "sim/sim_passes.h"

namespace tressel {

namespace {

using gpu_shared::sim_xyz;

// The rotation taking unit direction a onto unit direction b (the shortest arc).
glm::vec4 quat_between(glm::vec3 a, glm::vec3 b) {
    const float d = glm::dot(a, b);
    if (d < -0.999999f) {  // opposite: half a turn about any axis across a
        glm::vec3 axis = glm::cross(glm::vec3(1, 0, 0), a);
        if (glm::dot(axis, axis) < 1e-8f) axis = glm::cross(glm::vec3(0, 1, 0), a);
        return glm::vec4(glm::normalize(axis), 0.0f);
    }
    const glm::vec3 c = glm::cross(a, b);
    return gpu_shared::sim_quat_normalize(glm::vec4(c, 1.0f + d));
}

// Largest turn of a reference vector away from the groom's, and largest move of a global target as a
// multiple of the vertex's distance along the strand from its root: a vertex nothing holds (no local or
// global stiffness reaches it) would otherwise have its targets moved without end.
constexpr float kMaxTurnCos = 0.0f;  // 90 degrees
constexpr float kMaxMoveOfArc = 1.0f;

struct Errors {
    double sum = 0.0, max = 0.0;
    size_t count = 0;
    void add(double e) {
        sum += e;
        max = std::max(max, e);
        ++count;
    }
    double mean() const { return count ? sum / double(count) : 0.0; }
};

glm::mat4 inverse_root(const SimGroupState& g, uint32_t s) { return glm::inverse(sim_passes::root_of(g.root_transforms, s)); }

// The settled pose of strand s in scalp space (its root's frame).
void strand_in_scalp_space(const SimGroupState& g, uint32_t s, std::vector<glm::vec3>& out) {
    const glm::mat4 inv = glm::inverse(sim_passes::root_of(g.root_transforms, s));
    out.resize(g.n);
    for (uint32_t k = 0; k < g.n; ++k) out[k] = gpu_shared::sim_transform_point(inv, sim_xyz(g.positions[size_t(s) * g.n + k]));
}

void measure(const SimGroupState& g, Errors& e) {
    std::vector<glm::vec3> x;
    for (uint32_t s = 0; s < g.strand_count; ++s) {
        strand_in_scalp_space(g, s, x);
        for (uint32_t k = 0; k < g.n; ++k) {
            const size_t i = size_t(s) * g.n + k;
            if (g.groomed_positions_os[i].w <= 0.0f) continue;
            e.add(glm::length(sim_xyz(g.groomed_positions_os[i]) - x[k]));
        }
    }
}

// The groom of g where its hair is now (the lift's end): free vertices moved by more than kLiftedMin_m
// take their place (and are counted in `moved`), the others keep the groom's; the reference vectors follow
// the new groom, and the targets are its copy.
constexpr float kLiftedMin_m = 1e-4f;
void lift_groom(SimGroupState& g, Errors& moved) {
    using namespace gpu_shared;
    std::vector<glm::vec3> x;
    for (uint32_t s = 0; s < g.strand_count; ++s) {
        strand_in_scalp_space(g, s, x);
        const size_t base = size_t(s) * g.n;
        bool any = false;
        for (uint32_t k = 0; k < g.n; ++k) {
            glm::vec4& p = g.groomed_positions_os[base + k];
            const float d = glm::length(x[k] - sim_xyz(p));
            if (p.w <= 0.0f || d <= kLiftedMin_m) continue;
            moved.add(d);
            p = glm::vec4(x[k], p.w);
            any = true;
        }
        if (!any) continue;
        glm::vec4 frame = g.rest_root_frame_q[s];
        for (uint32_t k = kSimPinnedVertices; k < g.n; ++k) {
            const glm::vec3 seg = sim_xyz(g.groomed_positions_os[base + k]) - sim_xyz(g.groomed_positions_os[base + k - 1]);
            g.groomed_ref_vectors_m[base + k] = glm::vec4(sim_quat_rotate(sim_quat_conj(frame), seg), 0.0f);
            frame = sim_frame_advance(frame, seg);
        }
    }
    g.rest_positions_os = g.groomed_positions_os;
    g.ref_vectors_m = g.groomed_ref_vectors_m;
}

// One correction of g's targets from its settled pose.
void correct(SimGroupState& g) {
    using namespace gpu_shared;
    std::vector<glm::vec3> x;
    for (uint32_t s = 0; s < g.strand_count; ++s) {
        strand_in_scalp_space(g, s, x);
        const size_t base = size_t(s) * g.n;
        // Local shape: each reference vector turns by what takes the settled segment onto the groomed one,
        // both seen from the frame the local shape carries to its joint along the settled strand.
        glm::vec4 frame = g.rest_root_frame_q[s];  // the pinned root segment is the groom's
        for (uint32_t k = kSimPinnedVertices; k < g.n; ++k) {
            const size_t i = base + k;
            const glm::vec3 seg = x[k] - x[k - 1];
            const glm::vec3 settled = sim_quat_rotate(sim_quat_conj(frame), seg);
            const glm::vec3 want = sim_xyz(g.groomed_ref_vectors_m[i]);
            const float ls = glm::length(settled), lw = glm::length(want);
            frame = sim_frame_advance(frame, seg);
            if (g.groomed_positions_os[i].w <= 0.0f || ls <= kSimTinyLength_m || lw <= kSimTinyLength_m) continue;
            glm::vec3 ref = sim_quat_rotate(quat_between(settled / ls, want / lw), sim_xyz(g.ref_vectors_m[i]));
            const float lr = glm::length(ref);
            if (lr > kSimTinyLength_m && glm::dot(ref / lr, want / lw) < kMaxTurnCos) {  // within a quarter turn
                const glm::vec3 ortho = ref / lr - glm::dot(ref / lr, want / lw) * (want / lw);
                const float lo = glm::length(ortho);
                ref = lo > 1e-6f ? ortho / lo * lr : want / lw * lr;
            }
            g.ref_vectors_m[i] = glm::vec4(ref, 0.0f);
        }
        // Global shape: a target within its range moves by the error (the others stay the groom's).
        if (g.params.global_stiffness <= 0.0) continue;
        float arc = 0.0f;
        for (uint32_t k = 1; k < g.n; ++k) {
            const size_t i = base + k;
            arc += g.rest_lengths_m[i - 1];
            if (g.groomed_positions_os[i].w <= 0.0f || !sim_in_global_range(k, g.n, float(g.params.global_range))) continue;
            // The target moves by the error, groomed - settled, except into a surface that holds the vertex
            // (its contact normal, kept by the step in the w of the previous position): a groom inside the
            // margin would otherwise take the target into the head with every correction, up to the arc's
            // reach, and the pull press the vertex into the contact, where it shakes (curls beside their
            // roots). Out of the surface and along it the target moves as anywhere.
            const glm::vec3 groomed = sim_xyz(g.groomed_positions_os[i]);
            glm::vec3 error = groomed - x[k];
            if (i < g.prev_positions.size()) {
                const glm::vec3 n_world = sim_contact_normal(g.prev_positions[i].w);
                if (glm::dot(n_world, n_world) > 0.0f) {
                    const glm::vec3 n = glm::normalize(gpu_shared::sim_transform_dir(inverse_root(g, s), n_world));
                    error -= n * std::min(glm::dot(error, n), 0.0f);
                }
            }
            glm::vec3 offset = sim_xyz(g.rest_positions_os[i]) - groomed + error;
            const float limit = kMaxMoveOfArc * arc;  // within reach
            const float len = glm::length(offset);
            if (len > limit) offset *= limit / len;
            g.rest_positions_os[i] = glm::vec4(groomed + offset, g.rest_positions_os[i].w);
        }
    }
}

// The rod's bending (simulation.bending "rod") is preloaded in one static solve: the rest second
// differences that make the groom, at rest, a static equilibrium of the step. With u_j the bending force of
// joint j (k_j ((L x)_j - t_j), shared/sim.h), a still strand at its groom x balances gravity where
// L^T u = m g at every free vertex, less the share global shape pulls back where it reaches (it moves the
// predicted vertex that fraction of the way back to its target, the groom): solved from the tip (the tip's
// only joint is the last), u_(i-1) = m_i g + 2 u_i - u_(i+1); then t_j = (L x)_j - u_j / k_j, turned into
// the frames the step carries along the strand it predicts from rest at the groom (the reference vectors
// the step reads). Length and follow-the-leader are at rest at the groom; contacts are left to the
// corrections that follow. Whether it preloaded g (a rod that bends: not rigid, not without stiffness).
bool preload_rod(SimGroupState& g, glm::vec3 gravity_world, float dt) {
    using namespace gpu_shared;
    const float rigidity = sim_bend_rigidity(float(g.params.local_stiffness));
    if (g.params.bending != BendingModel::Rod || rigidity <= 0.0f || g.params.local_stiffness >= 1.0) return false;
    const uint32_t n = g.n;
    std::vector<glm::vec3> u(n + 1, glm::vec3(0.0f)), predicted(n);
    for (uint32_t s = 0; s < g.strand_count; ++s) {
        const size_t base = size_t(s) * n;
        // Gravity in the scalp's frame: the root's rotation alone (a scaled root scales no force).
        const glm::vec4 root_q = sim_quat_from_mat(sim_passes::root_of(g.root_transforms, s));
        const glm::vec3 gravity = sim_quat_rotate(sim_quat_conj(sim_quat_normalize(root_q)), gravity_world);
        auto x = [&](uint32_t k) { return sim_xyz(g.groomed_positions_os[base + k]); };
        auto len = [&](uint32_t k) { return g.rest_lengths_m[base + k]; };
        // Global shape takes its share of each step's fall back before the bend sees it: the rod holds the rest.
        auto held = [&](uint32_t k) {
            return sim_in_global_range(k, n, float(g.params.global_range)) ? 1.0f - float(g.params.global_stiffness) : 1.0f;
        };
        std::fill(u.begin(), u.end(), glm::vec3(0.0f));
        for (uint32_t i = n - 1; i >= kSimPinnedVertices; --i)
            u[i - 1] = held(i) * sim_bend_mass(len(i - 1), i + 1 < n ? len(i) : 0.0f) * gravity + 2.0f * u[i] - u[i + 1];
        // The frames the step carries: along the strand as predicted from rest at the groom.
        for (uint32_t k = 0; k < n; ++k) predicted[k] = x(k) + (k < kSimPinnedVertices ? 0.0f : held(k) * dt * dt) * gravity;
        glm::vec4 frame = g.rest_root_frame_q[s];
        for (uint32_t j = 1; j + 1 < n; ++j) {
            if (j >= 2) frame = sim_frame_advance(frame, predicted[j] - predicted[j - 1]);
            const float k = sim_bend_weight(rigidity, len(j - 1), len(j), j);
            const glm::vec3 t = (x(j - 1) - 2.0f * x(j) + x(j + 1)) - u[j] / k;
            g.ref_vectors_m[base + j + 1] = glm::vec4(sim_quat_rotate(sim_quat_conj(frame), t) + glm::vec3(len(j - 1), 0.0f, 0.0f), 0.0f);
        }
    }
    return true;
}

}  // namespace

bool sag_free_applies(const SimGroupState& g) {
    return g.params.sag_free && g.params.enabled && g.n > gpu_shared::kSimPinnedVertices && g.strand_count > 0 &&
           g.groomed_positions_os.size() == g.rest_positions_os.size() && g.groomed_ref_vectors_m.size() == g.ref_vectors_m.size();
}

void clear_sag_free(SimGroupState& g) {
    if (g.grown_positions_os.size() == g.groomed_positions_os.size()) g.groomed_positions_os = g.grown_positions_os;
    if (g.grown_ref_vectors_m.size() == g.groomed_ref_vectors_m.size()) g.groomed_ref_vectors_m = g.grown_ref_vectors_m;
    if (g.groomed_positions_os.size() == g.rest_positions_os.size()) g.rest_positions_os = g.groomed_positions_os;
    if (g.groomed_ref_vectors_m.size() == g.ref_vectors_m.size()) g.ref_vectors_m = g.groomed_ref_vectors_m;
}

Result<SagFreeReport> solve_sag_free(SimWorld& world, const SagFreeOptions& options, const SagFreeStepper& stepper, Progress* progress) {
    SagFreeReport report;
    std::vector<size_t> solved;
    for (size_t gi = 0; gi < world.groups.size(); ++gi) {
        clear_sag_free(world.groups[gi]);
        if (sag_free_applies(world.groups[gi])) solved.push_back(gi);
    }
    if (stepper.targets_changed) TRESSEL_TRY(stepper.targets_changed(world));
    report.groups = uint32_t(solved.size());
    if (solved.empty() || glm::length(world.environment.gravity_mps2) <= 0.0) {
        report.converged = true;
        return report;
    }

    // The world as it is, given back at the end with the solved targets: the solve runs a still head
    // without wind from the groom, the groups without sag_free stepped as they are.
    const std::vector<SimGroupState> saved_groups = world.groups;
    const Motion saved_motion = world.motion;
    const Environment saved_environment = world.environment;
    const SimClock saved_clock = world.clock;
    const bool saved_step_follows = world.step_follows;
    const auto saved_driver = world.root_driver;
    const auto saved_collider_driver = world.collider_driver;
    // Accessories are not part of the solve: out of the world while it steps (nothing steps them, on the
    // CPU or the GPU), back as they were after it.
    std::vector<ClothState> saved_cloths = std::move(world.cloths);
    world.cloths.clear();
    // Nor do the hair's fields of the cloths (appended last to every group's fields) take part: the solve is
    // the groom's under gravity and the collision meshes alone. The groups come back with them.
    for (SimGroupState& g : world.groups)
        for (const SimAccessoryField& a : world.accessory_fields) std::erase(g.sdf_indices, a.sdf);
    auto restore = [&]() -> Status {
        world.cloths = std::move(saved_cloths);
        for (size_t gi : solved) {
            std::vector<glm::vec4> rest = std::move(world.groups[gi].rest_positions_os);
            std::vector<glm::vec4> ref = std::move(world.groups[gi].ref_vectors_m);
            std::vector<glm::vec4> groomed = std::move(world.groups[gi].groomed_positions_os);
            std::vector<glm::vec4> groomed_ref = std::move(world.groups[gi].groomed_ref_vectors_m);
            world.groups[gi] = saved_groups[gi];
            world.groups[gi].rest_positions_os = std::move(rest);
            world.groups[gi].ref_vectors_m = std::move(ref);
            world.groups[gi].groomed_positions_os = std::move(groomed);
            world.groups[gi].groomed_ref_vectors_m = std::move(groomed_ref);
        }
        for (size_t gi = 0; gi < world.groups.size(); ++gi)
            if (!std::count(solved.begin(), solved.end(), gi)) world.groups[gi] = saved_groups[gi];
        world.motion = saved_motion;
        world.environment = saved_environment;
        world.clock = saved_clock;
        world.step_follows = saved_step_follows;
        world.root_driver = saved_driver;
        world.collider_driver = saved_collider_driver;
        if (stepper.targets_changed) TRESSEL_TRY(stepper.targets_changed(world));
        if (stepper.state_changed) TRESSEL_TRY(stepper.state_changed(world));
        return {};
    };
    world.motion = Motion{};
    world.root_driver = nullptr;  // the rest state is the scalp's bind pose: no skinned roots either
    world.collider_driver = nullptr;  // nor colliders on joints
    world.environment.wind.speed_mps = 0.0;
    world.step_follows = false;  // the rest state is the guides'
    // Under gravity and contact: hair volume pushes the hair out of the groom on play, as it is meant to,
    // rather than being held back by targets solved against it.
    for (size_t gi : solved) world.groups[gi].params.volume = false;
    reset_to_rest(world);
    if (stepper.state_changed) TRESSEL_TRY(stepper.state_changed(world));
    auto run = [&](uint32_t frames) -> Status {
        report.frames += frames;
        return stepper.run ? stepper.run(world, frames) : run_frames(world, frames);
    };
    auto measure_all = [&]() {
        Errors e;
        for (size_t gi : solved) measure(world.groups[gi], e);
        return e;
    };

    // The groom lifted out of the collision meshes' margins: a groom that puts vertices inside a margin (curls
    // lying along the scalp beside their roots) cannot rest there - the first step pushes them out - so the
    // solve holds the groom as the contacts leave it after a few frames without gravity, from the groom as
    // grown. Where nothing lies inside a margin the hair does not move and the groom stays as grown.
    bool fields = false;
    for (size_t gi : solved) fields = fields || !world.groups[gi].sdf_indices.empty();
    if (fields && options.lift_frames > 0) {
        // Quasi-static: each frame's velocity is taken out before the next, so that the pushes lift the hair
        // where it lies instead of swinging whole strands about their roots.
        const glm::dvec3 gravity = world.environment.gravity_mps2;
        world.environment.gravity_mps2 = glm::dvec3(0.0);
        Status lift;
        for (uint32_t f = 0; f < options.lift_frames && lift.ok(); ++f) {
            lift = run(1);
            if (!lift.ok()) break;
            for (size_t gi : solved) {
                SimGroupState& g = world.groups[gi];
                for (size_t i = 0; i < g.positions.size(); ++i) g.prev_positions[i] = glm::vec4(sim_xyz(g.positions[i]), g.prev_positions[i].w);
            }
            if (stepper.state_changed) lift = stepper.state_changed(world);
        }
        world.environment.gravity_mps2 = gravity;
        if (!lift.ok()) {
            TRESSEL_TRY(restore());
            return lift.error();
        }
        Errors moved;
        for (size_t gi : solved) lift_groom(world.groups[gi], moved);
        report.lifted_vertices = uint32_t(moved.count);
        report.lift_mean_m = moved.mean();
        report.lift_max_m = moved.max;
        reset_to_rest(world);
        if (stepper.targets_changed) TRESSEL_TRY(stepper.targets_changed(world));
        if (stepper.state_changed) TRESSEL_TRY(stepper.state_changed(world));
    }
    Status st = run(options.settle_frames);
    if (!st.ok()) {
        TRESSEL_TRY(restore());
        return st.error();
    }
    Errors e = measure_all();
    report.sag_mean_m = e.mean();
    report.sag_max_m = e.max;
    // Groups that bend as a rod are preloaded by their static solve (the first correction), from the groom.
    bool preloaded = false;
    for (size_t gi : solved) preloaded = preload_rod(world.groups[gi], glm::vec3(world.environment.gravity_mps2), float(world.step_dt_s())) || preloaded;
    if (preloaded) {
        ++report.iterations;
        reset_to_rest(world);
        if (stepper.targets_changed) st = stepper.targets_changed(world);
        if (st.ok() && stepper.state_changed) st = stepper.state_changed(world);
        if (st.ok()) st = run(options.frames_per_iteration);
        if (!st.ok()) {
            TRESSEL_TRY(restore());
            return st.error();
        }
        e = measure_all();
    }
    // Stops when every vertex is within the tolerance, or when the mean is and the largest error has not
    // shrunk for `patience` corrections (a tip that a contact holds, or one that slides on the head).
    double best_max = e.max;
    uint32_t since_best = 0;
    while (e.max > options.tolerance_m && report.iterations < options.max_iterations &&
           !(e.mean() <= options.mean_tolerance_m && since_best >= options.patience)) {
        if (progress) {
            if (progress->cancelled()) {
                TRESSEL_TRY(restore());
                return make_error(ErrorCode::Cancelled, "sag-free solve cancelled");
            }
            progress->set(float(report.iterations) / float(std::max(1u, options.max_iterations)), "sag-free rest state");
        }
        for (size_t gi : solved) correct(world.groups[gi]);
        ++report.iterations;
        if (stepper.targets_changed) st = stepper.targets_changed(world);
        if (st.ok()) st = run(options.frames_per_iteration);
        if (!st.ok()) {
            TRESSEL_TRY(restore());
            return st.error();
        }
        e = measure_all();
        if (e.max < 0.9 * best_max) {
            best_max = e.max;
            since_best = 0;
        } else {
            ++since_best;
        }
    }
    report.error_mean_m = e.mean();
    report.error_max_m = e.max;
    report.converged = e.max <= options.tolerance_m;
    TRESSEL_TRY(restore());
    // A world that has not stepped yet starts from its groom: the lifted one now (a reset later places the
    // hair there too, and a run from the start must not depend on whether it was reset).
    if (saved_clock.steps == 0 && report.lifted_vertices > 0) {
        reset_to_rest(world);
        if (stepper.state_changed) TRESSEL_TRY(stepper.state_changed(world));
    }
    return report;
}

}  // namespace tressel
