// Benchmarks time a GPU after its clocks have settled. An idle GPU runs at a fraction of its clock and
// takes a second or two of work to reach it (an H100: 345 -> 1,980 MHz over about 2 s), so a benchmark
// of a few hundred short submissions would time the ramp, and the figures then depend on what the GPU
// did just before (the simulation's 4M-vertex step measured 0.85 to 1.56 ms from one run to the next).
#pragma once

#include <chrono>

#include "core/result.h"

namespace tressel::gpu {

constexpr double kWarmUpSeconds = 2.0;

// Calls `submit_and_wait` (records, submits and waits for one batch of the benchmarked work) until
// `seconds` of wall time have passed, and at least twice.
template <class F>
Status warm_up(F&& submit_and_wait, double seconds = kWarmUpSeconds) {
    const auto start = std::chrono::steady_clock::now();
    for (int n = 0;; ++n) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (n >= 2 && elapsed >= seconds) return {};
        TRESSEL_TRY(submit_and_wait());
    }
}

}  // namespace tressel::gpu
