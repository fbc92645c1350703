// GPU simulation benchmark: one world stepped many times, 10 substeps back to back per submission. For each
// way of recording a step (fused, split: SimGpuMode) the median over submissions of the GPU time of a
// whole step (a timestamp pair around the 10, divided by 10) and, in a second run, the median per
// timestamped pass. Used by `tressel-cli bench sim`.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/gpu/sim_gpu.h"

namespace tressel {

struct SimBenchModeResult {
    double step_ms = 0.0;                      // median GPU ms of one whole substep (all groups)
    std::map<std::string, double> pass_ms;     // median per pass (summed over groups), from the second run
};

struct SimBenchResult {
    uint64_t guide_vertices = 0, follow_vertices = 0;
    int steps = 0;
    SimBenchModeResult fused, split;
    double step_ms = 0.0;                      // fused.step_ms: what the editor and the bake run
    // Per group: the driver's statistics of its fused strand pipeline (registers, spills...), if offered.
    std::vector<std::vector<std::pair<std::string, std::string>>> strands_pipeline_statistics;
    double vertex_steps_per_ms = 0.0;          // guide vertices / step_ms
    // With phase clocks: per group, the mean SM cycles per workgroup of each phase of the fused strand pass
    // (sim_phase_name), from the last of a run of steps after the timed ones.
    std::vector<std::array<double, gpu_shared::kSimPhaseCount>> phase_cycles;
};

// `phase_clocks`: also runs the fused step's clock-reading variant (DeviceInfo::shader_clock) for
// SimBenchResult::phase_cycles.
Result<SimBenchResult> bench_sim_gpu(gpu::Device& device, const SimGpuPipelines& pipelines, SimWorld& world, int steps,
                                     bool phase_clocks = false);

}  // namespace tressel
