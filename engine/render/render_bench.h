// The renderer benchmark: GPU milliseconds per pass (timestamp queries, median over frames) for synthetic
// heads of hair, by default 20K, 100K and 300K strands of 32 vertices at 1920 x 1080 with 4x MSAA,
// Kajiya-Kay and shadows on, plus one Marschner run at the first count. Not a test: nothing asserts a time.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/device.h"
#include "gpu/timestamps.h"

namespace tressel::render {

struct RenderBenchDesc {
    uint32_t width = 1920, height = 1080;
    uint32_t samples = 4;
    uint32_t shadow_size = 2048;
    std::vector<uint32_t> strand_counts{20'000, 100'000, 300'000};
    uint32_t vertices_per_strand = 32;
    int frames = 20;             // timed frames per configuration
    double warm_up_seconds = 2.0;  // untimed frames first, so that the GPU's clocks settle (gpu/warm_up.h)
};

struct RenderBenchRun {
    uint32_t strands = 0, vertices_per_strand = 0;
    std::string model;                         // "kajiya_kay" or "marschner"
    std::vector<gpu::PassTime> passes;         // median ms per pass
    double total_ms = 0.0;                     // sum of the medians
};

// Unsupported when the device has no timestamps.
Result<std::vector<RenderBenchRun>> bench_render(gpu::Device& device, const RenderBenchDesc& desc);

}  // namespace tressel::render
