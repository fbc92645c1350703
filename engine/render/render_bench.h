// The renderer benchmark: GPU milliseconds per pass (timestamp queries, median over frames) for synthetic
// heads of hair, by default 20K, 100K, 300K and 1M strands of 32 vertices at 1920 x 1080 with 4x MSAA,
// Kajiya-Kay and shadows on, plus one Marschner run at the first count, each drawn by every hair renderer
// asked for (the compute rasterizer and the ribbons by default, for their ratio). Not a test: nothing
// asserts a time.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "render/renderer.h"

namespace tressel::render {

struct RenderBenchDesc {
    uint32_t width = 1920, height = 1080;
    uint32_t samples = 4;
    uint32_t shadow_size = 2048;
    std::vector<uint32_t> strand_counts{20'000, 100'000, 300'000, 1'000'000};
    std::vector<HairRenderer> renderers{HairRenderer::ComputeRaster, HairRenderer::Ribbons};
    RasterTileKernel tile_kernel = RasterTileKernel::Auto;
    uint32_t vertices_per_strand = 32;
    int frames = 20;             // timed frames per configuration
    double warm_up_seconds = 2.0;  // untimed frames first, so that the GPU's clocks settle (gpu/warm_up.h)
};

struct RenderBenchRun {
    uint32_t strands = 0, vertices_per_strand = 0;
    std::string renderer;                      // "compute" or "ribbons"
    HairLodStats lod;                          // what the hair pass drew
    std::string model;                         // "kajiya_kay" or "marschner"
    std::vector<gpu::PassTime> passes;         // median ms per pass
    double total_ms = 0.0;                     // sum of the medians
};

// Unsupported when the device has no timestamps.
Result<std::vector<RenderBenchRun>> bench_render(gpu::Device& device, const RenderBenchDesc& desc);

// One frame of an existing renderer (e.g. a scene's), timed like the runs above.
Result<RenderBenchRun> bench_render_frame(gpu::Device& device, Renderer& renderer, const FrameDesc& frame, int frames,
                                          double warm_up_seconds);

const char* renderer_name(HairRenderer renderer);   // "compute", "ribbons"

}  // namespace tressel::render
