// Sag-free rest state (what Unreal's groom calls gravity preloading; Hsu et al. 2023, "Sag-free
// initialization for strand-based hybrid hair simulation"): the shape targets of every group with
// `sag_free` on are moved so that the groom is where its hair comes to rest on a still head under gravity
// and contact. README.md "Sag-free rest state" gives the method and its figures.
//
// The solve steps the world itself (a still head, no wind, no hair volume) through a SagFreeStepper: the CPU reference by
// default, the GPU passes when the caller's stepper runs them. It first lifts the groom as grown out of the
// collision meshes' margins (a few frames without gravity, quasi-static), which no step lets hair rest in,
// and holds that groom. Between runs of frames it measures each free guide vertex's error in its root's
// frame and moves the targets by it:
//   - the global shape's target (rest_positions_os) by the error itself, never into a surface that holds
//     the vertex (chain runs keep the groom as their rest shape);
//   - the local shape's reference vector (ref_vectors_m) by the rotation that takes the settled segment,
//     in the frame the local shape carries along the strand, onto the groomed one.
// It repeats until the largest error is under the tolerance. The world's motion state (positions, clock,
// environment, motion) is what it was before; only the targets change.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/progress.h"
#include "core/result.h"
#include "sim/sim.h"

namespace tressel {

struct SagFreeOptions {
    uint32_t lift_frames = 10;            // frames without gravity that lift the groom out of the margins
    uint32_t settle_frames = 60;          // frames from the groom before the first correction
    uint32_t frames_per_iteration = 10;   // frames after each correction before the next measurement
    uint32_t max_iterations = 30;
    double tolerance_m = 1e-3;            // done when no free guide vertex is further than this from the groom
    double mean_tolerance_m = 0.05e-3;    // or when the mean is within this and the largest error has not
    uint32_t patience = 4;                //   shrunk by a tenth in this many corrections
};

struct SagFreeReport {
    uint32_t groups = 0;                  // groups solved (sag_free on, simulated, with gravity)
    uint32_t iterations = 0;              // corrections made
    uint32_t frames = 0;                  // frames stepped
    // Free guide vertices' distance from the groom in their root's frame, over the solved groups: before
    // the first correction (the sag without the solve) and at the last measurement.
    double sag_mean_m = 0.0, sag_max_m = 0.0;
    double error_mean_m = 0.0, error_max_m = 0.0;
    // The groom lifted out of the collision meshes' margins before the solve: free guide vertices moved by
    // more than 0.1 mm, and the largest and mean move over those (0 where the groom lies outside them).
    uint32_t lifted_vertices = 0;
    double lift_mean_m = 0.0, lift_max_m = 0.0;
    bool converged = false;
    std::string error;                    // set by a caller that could not solve (the targets are then the groom's)
};

struct SagFreeStepper {
    // Runs `frames` frames of the world; the groups' positions must be current on return. Unset: run_frames.
    std::function<Status(SimWorld&, uint32_t frames)> run;
    // The groups' rest_positions_os / ref_vectors_m changed (a GPU copy must be refreshed).
    std::function<Status(const SimWorld&)> targets_changed;
    // The groups' positions were set on the host (the solve's start, and the state restored at its end).
    std::function<Status(const SimWorld&)> state_changed;
};

// Whether `g` takes part in a solve: sag_free on, simulated, with free vertices. A group held by chain shape
// matching is solved through its global and local shape; its runs keep the groom (SimGroupState::chain_rest).
bool sag_free_applies(const SimGroupState& g);

// The groom of `g` back to the groom as grown, and its targets to the groom's (what a group with sag_free
// off uses).
void clear_sag_free(SimGroupState& g);

// Solves every group of the world that sag_free_applies() to (the others keep their targets, cleared to
// the groom's). With no gravity there is nothing to solve: targets are the groom's. Cancelled through
// `progress` it stops with the targets of the last correction (Cancelled).
Result<SagFreeReport> solve_sag_free(SimWorld& world, const SagFreeOptions& options = {}, const SagFreeStepper& stepper = {},
                                     Progress* progress = nullptr);

}  // namespace tressel
