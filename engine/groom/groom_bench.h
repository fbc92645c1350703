// The regrow benchmark printed by `tressel-cli bench groom`: 10,000 guides x 32 vertices plus 100,000
// barycentric follow descriptors on a head (the real scalp when given, else a procedural sphere head),
// timed over several repeats on the calling thread. Target: under 100 ms per regrow (Release).
#pragma once

#include <string>

#include "core/result.h"
#include "groom/grow.h"
#include "io/mesh.h"

namespace tressel {

struct GroomBenchOptions {
    const Mesh* scalp = nullptr;   // null: a procedural UV-sphere head (radius 0.1 m, 17,640 triangles)
    ScalpRegion region{RegionType::Cap, {0.0, 1.0, 0.2}, 70.0};
    int guides = 10000;
    int vertices_per_strand = 32;
    int follows = 100000;
    int repeats = 5;
    double clearance_m = -1.0;     // >= 0: also keep the guides this far outside the scalp (groom/clearance.h)
};

struct GroomBenchResult {
    std::string mesh;              // name of the scalp used
    double clearance_m = -1.0;
    size_t guides = 0, guide_points = 0, follows = 0;
    int repeats = 0;
    double total_ms_min = 0.0, total_ms_median = 0.0;   // wall clock
    double cpu_ms_min = 0.0;                            // process CPU time (robust on a loaded machine)
    GroomTimings best;             // phases of the fastest run
};

// A sphere head for benchmarks and tests: positions, normals and UVs, `rings` x `segments` quads.
Mesh make_sphere_mesh(float radius_m, int rings, int segments);

Result<GroomBenchResult> run_groom_bench(const GroomBenchOptions& options);
std::string to_json(const GroomBenchResult& r);

}  // namespace tressel
