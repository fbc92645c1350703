// Shape matching (Mueller, Heidelberger, Teschner & Gross 2005, "Meshless deformations based on shape
// matching"; seed 003): a cluster of particles is pulled toward its rest shape rotated and translated onto
// where the particles are now. The core every user of it evaluates, compiled as C++ and as GLSL:
//   - the cluster's covariance A = sum_i (x_i - c) (r_i - c_rest)^T, built from sm_outer terms (equal
//     masses: the clusters that use it today are runs of free hair vertices);
//   - its rotation R by iterative extraction (Mueller, Bender, Chentanez & Macklin 2016, "A robust method
//     to extract the rotational part of deformations"), warm-started from the previous step's quaternion:
//     no polar decomposition, no eigenvectors, no failure on flat or collinear clusters (a direction A
//     does not determine keeps the warm start's);
//   - the goal of a particle, c + R (r_i - c_rest), written as R r_i + t with t = c - R c_rest, so that a
//     cluster is two small values (q, t) and a particle's goal one rotation;
//   - the step stiffness, the fraction of the way to the goal a particle moves per step, from a stiffness
//     that is that fraction at 60 Hz, through a compliance: the same balance against a force at any
//     step rate.
// Goals of a cluster with equal masses sum to the particles' sum (R sum_i (r_i - c_rest) = 0): matching
// moves no cluster's centre of mass, so it creates no momentum.
#ifndef TRESSEL_SHARED_SHAPE_MATCH_H
#define TRESSEL_SHARED_SHAPE_MATCH_H
#include "shared/sim.h"

#ifdef __cplusplus
namespace tressel::gpu_shared {
using glm::abs;
}  // namespace tressel::gpu_shared
#endif

TRESSEL_SHARED_BEGIN

// Rotation extraction iterations per step. Warm-started from the last step, the rotation has moved by at
// most one step's motion, which 4 iterations recover to float precision (SimFormulas.ShapeMatch*).
TRESSEL_CONST(uint, kShapeMatchRotationIterations, 4u);
// Newton steps solve (trace(B) (1 + this) I - sym(B)) d = g: a step along a direction the cluster barely
// determines (the twist of a nearly straight run about its line) stays bounded instead of amplifying
// rounding (C++ and GLSL agreed to 1e-5 m after 100 steps with it, drifted 3 mm apart with 1e-4).
TRESSEL_CONST(float, kShapeMatchRegularization, 0.01f);
// Reference rate of the stiffness: s is the fraction of the shape error removed in one step at 60 Hz.
TRESSEL_CONST(float, kShapeMatchReferenceRate_hz, 60.0f);

// a b^T (columns a b.x, a b.y, a b.z).
SIM_FN mat3 sm_outer(vec3 a, vec3 b) { return mat3(a * b.x, a * b.y, a * b.z); }

SIM_FN mat3 sm_quat_to_mat3(vec4 q) {
    return mat3(sim_quat_rotate(q, vec3(1.0f, 0.0f, 0.0f)), sim_quat_rotate(q, vec3(0.0f, 1.0f, 0.0f)),
                sim_quat_rotate(q, vec3(0.0f, 0.0f, 1.0f)));
}

// The rotation R maximising trace(R^T A) (the rotational part of A), from the unit quaternion q, by
// `iterations` Newton steps on f(d) = trace((exp([d]) R)^T A) over a world-frame turn d. With B = A R^T,
// the gradient is g = sum_j R_j x A_j (columns j) and the Hessian -(trace(B) I - sym(B)), so the step
// solves (trace(B) I - sym(B)) d = g (regularised, kShapeMatchRegularization: a collinear run has no
// torque about its line, where the system is singular). Far from the optimum, where that matrix is not positive
// definite, the step is g / |trace(B)|, the iteration of Mueller, Bender, Chentanez & Macklin 2016 ("A
// robust method to extract the rotational part of deformations"), which always turns toward A but closes
// only part of an anisotropic cluster's error per iteration (a third of it for an isotropic one; a curl's
// run is a flat arc, and the twist about its chord converged 20 times slower). The turn is applied as the
// quaternion (d, 1 + sqrt(1 + |d|^2)) normalised: d's axis and the angle atan |d|, which is the exact
// turn for an isotropic cluster (there the step's length is the tangent of the error) and |d| to third
// order, never more than a quarter turn (a plain Newton step overshoots from far away), with no
// trigonometry, so C++ and GLSL evaluate the same arithmetic. A zero A (a cluster of coincident
// particles) keeps q.
// Flat and collinear clusters are fine; a start more than a quarter turn from the answer is not a warm
// start, and may take many more iterations (the gradient vanishes at the half turn).
SIM_FN vec4 sm_extract_rotation(mat3 A, vec4 q, uint iterations) {
    for (uint it = 0u; it < iterations; ++it) {
        mat3 R = sm_quat_to_mat3(q);
        vec3 g = cross(R[0], A[0]) + cross(R[1], A[1]) + cross(R[2], A[2]);
        float tr = dot(R[0], A[0]) + dot(R[1], A[1]) + dot(R[2], A[2]);
        mat3 B = sm_outer(A[0], R[0]) + sm_outer(A[1], R[1]) + sm_outer(A[2], R[2]);
        float d = tr * (1.0f + kShapeMatchRegularization);
        float h00 = d - B[0][0], h11 = d - B[1][1], h22 = d - B[2][2];
        float h01 = -0.5f * (B[0][1] + B[1][0]), h02 = -0.5f * (B[0][2] + B[2][0]), h12 = -0.5f * (B[1][2] + B[2][1]);
        float c00 = h11 * h22 - h12 * h12, c01 = h02 * h12 - h01 * h22, c02 = h01 * h12 - h02 * h11;
        float det = h00 * c00 + h01 * c01 + h02 * c02;
        // |step| <= 1e6 (a quarter turn to float precision) where the trace vanishes: a cluster exactly a
        // quarter turn away, or none at all (g = 0: no turn).
        vec3 step = g / max(max(abs(tr), 1e-6f * sqrt(dot(g, g))), 1e-30f);
        if (tr > 0.0f && h00 > 0.0f && h00 * h11 - h01 * h01 > 0.0f && det > 0.0f) {
            float c11 = h00 * h22 - h02 * h02, c12 = h01 * h02 - h00 * h12, c22 = h00 * h11 - h01 * h01;
            step = vec3(c00 * g.x + c01 * g.y + c02 * g.z, c01 * g.x + c11 * g.y + c12 * g.z, c02 * g.x + c12 * g.y + c22 * g.z) / det;
        }
        float w = 1.0f + sqrt(1.0f + dot(step, step));
        q = sim_quat_normalize(sim_quat_mul(vec4(step.x, step.y, step.z, w), q));
    }
    return q;
}

// The warm start of a cluster carried by a rigid motion: last step's rotation q turned by the motion's
// rotation over the step (a strand's root, SimStrandData::vsp_q), so a fast head turn does not leave the
// extraction a large turn to close.
SIM_FN vec4 sm_warm_start(vec4 step_q, vec4 q) { return sim_quat_normalize(sim_quat_mul(step_q, q)); }

// The translation of the matched rest shape: goals are R r + t with t = c - R c_rest.
SIM_FN vec3 sm_translation(vec3 mean, vec4 q, vec3 rest_mean) { return mean - sim_quat_rotate(q, rest_mean); }

// The goal of a particle with rest position `rest` in a cluster matched by (q, t).
SIM_FN vec3 sm_goal(vec4 q, vec3 t, vec3 rest) { return sim_quat_rotate(q, rest) + t; }

// Fraction of the way to its goal a particle moves in one step of dt_s seconds, for a stiffness s that is
// that fraction at 60 Hz: compliance-based (XPBD, Macklin, Mueller & Chentanez 2016), with the compliance
// alpha = (1 - s) / s x (1/60 s)^2 that gives s at 60 Hz, and dt^2 / (dt^2 + alpha) at any step. A
// constant pull (gravity: g dt^2 per step) then holds a particle alpha g from its goal at any step rate;
// a fraction per time (1 - (1 - s)^(60 dt)) held it g dt^2 / fraction away, three times further at 1 step
// per frame than at 4 (SimChain.CurlRadiusIsTheSameAt1And2And4Substeps). 1 stays 1 (rigid), 0 stays 0.
SIM_FN float sm_step_stiffness(float s, float dt_s) {
    float c = clamp(s, 0.0f, 1.0f);
    if (c >= 1.0f) return 1.0f;
    if (c <= 0.0f) return 0.0f;
    float ref = 1.0f / kShapeMatchReferenceRate_hz;
    float alpha = (1.0f - c) / c * ref * ref;
    return dt_s * dt_s / (dt_s * dt_s + alpha);
}

// ---- chain shape matching along a strand ----
// A strand's runs: `span` consecutive vertices starting at every vertex k = 0 .. n - span, stored at the
// slot of their first vertex. The pinned root vertices are in the first runs and are never moved: they
// anchor the chain, so the curl's weight is carried to the root (runs of free vertices only turn and
// move freely about the root, and a curl hanging under gravity was pulled almost straight: radius 15 ->
// 4.4 mm in SimChain.CurlKeepsItsRadiusUnderGravity's set-up without local shape).
// A free vertex moves by stiffness x (sum over its runs of (goal - x)) / span: every run's pulls keep their
// zero sum (weighting each run by 1 / span for every vertex), where the mean of a vertex's goals gave the
// strand's last vertices, in fewer runs, a larger share of their runs' pulls: a net force that kept curls
// moving. A span of 0 turns it off.
TRESSEL_CONST(uint, kSimChainFirstVertex, 0u);

// Runs of a strand of n vertices with the given span: 0 when off or when the free part is shorter.
SIM_FN uint sim_chain_runs(uint n, uint span) {
    return span >= 2u && n >= kSimChainFirstVertex + span ? n - kSimChainFirstVertex - span + 1u : 0u;
}

// First and last run (by first vertex) that contain vertex k; first > last when none does.
SIM_FN uint sim_chain_first_run(uint k, uint span) {
    return k + 1u >= kSimChainFirstVertex + span ? k + 1u - span : kSimChainFirstVertex;
}
SIM_FN uint sim_chain_last_run(uint k, uint n, uint span) { return min(k, n - span); }

TRESSEL_SHARED_END

#endif
