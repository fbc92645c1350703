// GPU SDF benchmark: the whole build recorded and submitted `frames` times on one prepared field, with
// the median GPU time per pass (timestamp queries). Used by `tressel-cli bench sdf`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sdf/gpu/sdf_gpu.h"

namespace tressel {

struct SdfBenchCase {
    std::string name;
    const Mesh* mesh = nullptr;
    int cells_x = 50;
    double padding = 0.8;
    SignMethod sign = SignMethod::Auto;
};

struct SdfBenchResult {
    std::string name;
    glm::ivec3 dims{0};
    uint64_t cells = 0, triangles = 0, inside_cells = 0;
    int frames = 0;
    std::map<std::string, double> median_ms;  // per pass
    double narrow_band_ms = 0.0;              // the band scatter, "sdf band" (median); its scratch is cleared
                                              // by the previous build's finalize, counted there
    double total_ms = 0.0;                    // median of the per-frame sums
};

Result<SdfBenchResult> bench_sdf_gpu(gpu::Device& device, const SdfGpuPipelines& pipelines, const SdfBenchCase& c,
                                     int frames);

}  // namespace tressel
