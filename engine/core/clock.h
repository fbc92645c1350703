// Wall-clock helpers for the timings the tool reports (never for test assertions).
#pragma once

#include <chrono>

namespace tressel {

// Milliseconds of steady-clock time since `t0`.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace tressel
