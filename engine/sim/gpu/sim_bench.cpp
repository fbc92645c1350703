#include "sim/gpu/sim_bench.h"

#include <algorithm>
#include <vector>

#include "core/stats.h"
#include "gpu/warm_up.h"

namespace tressel {

namespace {

// Steps recorded back to back in one submission, as the editor records a frame's substeps: one step per
// submission left the GPU idle while the host waited, and its clocks (so the times) varied from run to run.
constexpr int kStepsPerSubmit = 10;

Result<SimBenchModeResult> bench_mode(gpu::Device& device, const SimGpuPipelines& pipelines, SimWorld& world, int steps,
                                      SimGpuMode mode) {
    auto sim = SimGpu::create(device, pipelines, world, kStepsPerSubmit, mode);
    if (!sim) return sim.error();
    auto whole = gpu::TimestampQueries::create(device, 1);
    // Split passes: at most 64 a step per group (9 fixed, 5 per SDF).
    auto passes = gpu::TimestampQueries::create(device, uint32_t(kStepsPerSubmit) * 64u * std::max<uint32_t>(1, uint32_t(world.groups.size())));
    if (!whole) return whole.error();
    if (!passes) return passes.error();
    if (!whole->supported()) return make_error(ErrorCode::Unsupported, "the GPU has no timestamp queries");

    SimBenchModeResult r;
    const int submits = (steps + kStepsPerSubmit - 1) / kStepsPerSubmit;
    std::vector<double> totals;
    std::map<std::string, std::vector<double>> per_pass;
    Status warm = gpu::warm_up([&]() -> Status {
        auto cmd = device.begin_commands();
        if (!cmd) return cmd.error();
        TRESSEL_TRY(sim->record_steps(*cmd, world, kStepsPerSubmit, nullptr));
        auto serial = device.submit(std::move(*cmd));
        if (!serial) return serial.error();
        return device.wait(*serial);
    });
    if (!warm) return warm.error();
    for (int run = 0; run < 2; ++run) {
        const bool detailed = run == 1;
        for (int s = 0; s < submits; ++s) {
            auto cmd = device.begin_commands();
            if (!cmd) return cmd.error();
            gpu::TimestampQueries& ts = detailed ? *passes : *whole;
            ts.reset(*cmd);
            if (!detailed) ts.begin(*cmd, "step");
            TRESSEL_TRY(sim->record_steps(*cmd, world, kStepsPerSubmit, detailed ? &*passes : nullptr));
            if (!detailed) ts.end(*cmd);
            auto serial = device.submit(std::move(*cmd));
            if (!serial) return serial.error();
            TRESSEL_TRY(device.wait(*serial));
            auto times = ts.read();
            if (!times) return times.error();
            if (!detailed) {
                totals.push_back(times->front().ms / kStepsPerSubmit);
            } else {
                std::map<std::string, double> sum;
                for (auto& t : *times) sum[t.name] += t.ms / kStepsPerSubmit;
                for (auto& [k, v] : sum) per_pass[k].push_back(v);
            }
        }
    }
    r.step_ms = median(totals);
    for (auto& [k, v] : per_pass) r.pass_ms[k] = median(v);
    return r;
}

}  // namespace

Result<SimBenchResult> bench_sim_gpu(gpu::Device& device, const SimGpuPipelines& pipelines, SimWorld& world, int steps,
                                     bool phase_clocks) {
    SimBenchResult r;
    for (const SimGroupState& g : world.groups) {
        r.guide_vertices += g.positions.size();
        r.follow_vertices += g.follow_positions.size();
    }
    r.steps = steps;
    {
        auto sim = SimGpu::create(device, pipelines, world, 1, SimGpuMode::Fused);
        if (!sim) return sim.error();
        for (size_t g = 0; g < sim->group_count(); ++g)
            r.strands_pipeline_statistics.push_back(device.pipeline_statistics(*sim->group(g).strands_pipeline));
    }
    auto fused = bench_mode(device, pipelines, world, steps, SimGpuMode::Fused);
    if (!fused) return fused.error();
    auto split = bench_mode(device, pipelines, world, steps, SimGpuMode::Split);
    if (!split) return split.error();
    r.fused = std::move(*fused);
    r.split = std::move(*split);
    if (phase_clocks) {
        // Right after the timed runs, with the clocks still up: the cycles of memory-bound phases depend on
        // the SM clock (memory keeps its own).
        auto sim = SimGpu::create(device, pipelines, world, kStepsPerSubmit, SimGpuMode::Fused, true);
        if (!sim) return sim.error();
        for (int s = 0; s < 4; ++s) {
            auto cmd = device.begin_commands();
            if (!cmd) return cmd.error();
            TRESSEL_TRY(sim->record_steps(*cmd, world, kStepsPerSubmit, nullptr));
            auto serial = device.submit(std::move(*cmd));
            if (!serial) return serial.error();
            TRESSEL_TRY(device.wait(*serial));
        }
        auto cycles = sim->phase_cycles(device);
        if (!cycles) return cycles.error();
        r.phase_cycles = std::move(*cycles);
    }
    r.step_ms = r.fused.step_ms;
    r.vertex_steps_per_ms = r.step_ms > 0.0 ? double(r.guide_vertices) / r.step_ms : 0.0;
    return r;
}

}  // namespace tressel
