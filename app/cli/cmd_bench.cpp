// tressel-cli bench <workload>: benchmarks as JSON. GPU figures come from timestamp queries (medians over
// many frames); CPU figures from wall clocks. Nothing here is a test.
#include <cstdio>
#include <cstdlib>

#include "bench.h"
#include "core/file_io.h"

namespace tressel::cli {

const char* const kBenchUsage =
    "usage: tressel-cli bench <groom|brush|sdf|sim|anim|cloth|render> [options] [--out FILE]\n\n"
    "       tressel-cli bench groom [--mesh FILE] [--repeats N] [--clearance M] [--out FILE]\n"
    "groom: regrows 10,000 guides x 32 vertices plus 100,000 barycentric follow descriptors on one core\n"
    "       (on FILE's merged mesh with a cap region, else a procedural sphere head) and prints the timings\n"
    "       as JSON (to FILE with --out). --clearance M also keeps the guides M metres outside the scalp,\n"
    "       as scene grooms that collide with their scalp mesh do.\n"
    "brush: one 300-pixel stroke of every brush (radius 60 px, strength 0.5, X symmetry, collision on)\n"
    "       on the scene's first hair group grown with 10,000 guides x 32 vertices (--scene FILE, default\n"
    "       presets/scenes/default.json; --guides N; --repeats N, default 9): median wall ms per stroke and\n"
    "       per dab on one core\n"
    "sdf:   GPU SDF build of the Rat Boy body (Ratboy_body.tfxmesh, TressFX's 50 cells) and of the\n"
    "       armadillo at about 128^3 and 256^3 cells: median GPU ms per pass over --frames N (50).\n"
    "       --testdata DIR (default: TRESSEL_TESTDATA or the build's test data), --device NAME\n"
    "sim:   GPU simulation step at Rat Boy scale (Ratboy_mohawk.tfx 2,228 x 32 with 2 follows each, plus\n"
    "       37,747 x 8 fur guides with 1 follow each, SDF collision with Ratboy_body.tfxmesh) and at 1M,\n"
    "       4M and 16M guide vertices: median GPU ms of a whole step and per pass over --frames N (100)\n"
    "       steps; --only NAME runs one case (ratboy, 1M_guide_vertices, ...); --phases adds the SM\n"
    "       cycles per workgroup of each phase of the fused strand pass (needs VK_KHR_shader_clock);\n"
    "       --chain turns chain shape matching on in every group (runs of 9 vertices), for its cost;\n"
    "       --rod makes every group bend as a rod (simulation.bending \"rod\"), for the cost of its solve;\n"
    "       --volume turns hair volume on in every group (32 cells, default pressure), for its cost;\n"
    "       --ratboy-cells N builds the Rat Boy body's field at N cells across (default 128, which sees his\n"
    "       face; TressFX's demo uses 50, which misses 3% of his surface);\n"
    "       --strand-threads N runs the fused strand pass in workgroups of at most N threads (default 512);\n"
    "       --sweep-items N has each stage of its pipelined sweeps take N items per barrier step (1-8,\n"
    "       default 1: the result is the same, the steps fewer and longer);\n"
    "       --save-scene FILE writes the Rat Boy case's scene (or --only NAME's) as a scene file to open\n"
    "       in the editor or bake, and runs nothing\n"
    "anim:  an animated character's whole step at Rat Boy scale (bench sim's hair on Ratboy_body.tfxmesh,\n"
    "       25,814 triangles skinned by its own bone weights under a procedural sway): skinning, root update,\n"
    "       SDF rebuild (refit and build at 50 cells, the narrow band only and every cell, copied into the\n"
    "       simulation) and one simulation step,\n"
    "       median GPU ms each over --frames N (200); and the walking scene (--scene FILE, default\n"
    "       presets/scenes/walking.json) stepped as `bake` steps it: wall ms a frame. --only ratboy|walking\n"
    "cloth: 64 x 64, 128 x 128 and 256 x 256 vertex cloths pinned at their centre over a ball's SDF (64\n"
    "       cells), in wind, and a soft ball of 4,224 particles resting on it: median GPU ms of one\n"
    "       simulation substep over --frames N (200), at 10 and 20 iterations (--iterations N for one\n"
    "       count), with each cloth's tiles and the passes' pipeline statistics; --only cloth leaves out\n"
    "       the soft ball; --sides A,B sheets of those vertices a side instead; --device NAME\n"
    "render: synthetic hair of 20K, 100K, 300K and 1M strands x 32 vertices at 1920 x 1080 (4x MSAA,\n"
    "       shadows), drawn by the compute rasterizer and by the ribbons: median GPU ms per render pass over\n"
    "       --frames N (20); --counts A,B,.. strand counts; --renderers compute,ribbons; --scene FILE also\n"
    "       times FILE's scene (e.g. presets/scenes/default.json) framed as `render` frames it; --size WxH\n"
    "       (default 1920x1080); --tile-kernel auto|shared|direct (as render's); --device NAME\n"
    "The GPU workloads time their frames after two seconds of untimed work, when the GPU's clocks have\n"
    "settled.\n";

std::string bench_testdata_dir() {
    const char* env = std::getenv("TRESSEL_TESTDATA");
    if (env && *env) return env;
    return TRESSEL_TESTDATA_DIR;
}

int run_bench(const std::vector<std::string>& argv) {
    if (argv.empty()) return fail("bench needs a workload: groom, brush, sdf, sim, anim, cloth or render (see tressel-cli bench --help)", 2);
    const std::string workload = argv[0];
    if (workload == "groom") return run_bench_groom(argv);
    if (workload == "brush") return run_bench_brush(std::vector<std::string>(argv.begin() + 1, argv.end()));
    auto args = Args::parse(std::vector<std::string>(argv.begin() + 1, argv.end()),
                            {{"out", true}, {"frames", true}, {"testdata", true}, {"device", true}, {"only", true}, {"phases", false}, {"chain", false}, {"volume", false}, {"rod", false}, {"save-scene", true}, {"ratboy-cells", true}, {"strand-threads", true}, {"sweep-items", true},
                             {"counts", true}, {"renderers", true}, {"tile-kernel", true}, {"scene", true},
                             {"size", true}, {"iterations", true}, {"sides", true}});
    if (!args) return fail(args.error().message, 2);
    nlohmann::json out = nlohmann::json::object();
    int rc = 0;
    if (workload == "sdf")
        rc = bench_sdf(*args, out);
    else if (workload == "sim")
        rc = bench_sim(*args, out);
    else if (workload == "anim")
        rc = bench_anim(*args, out);
    else if (workload == "cloth")
        rc = bench_cloth(*args, out);
    else if (workload == "render")
        rc = bench_render_json(*args, out);
    else
        return fail("unknown bench workload '" + workload + "' (groom, brush, sdf, sim, anim, cloth or render)", 2);
    if (rc != 0 || out.empty()) return rc;
    const std::string text = out.dump(2) + "\n";
    if (auto path = args->get("out")) {
        auto st = write_file_atomic(*path, std::string_view(text));
        if (!st) return fail(st.error().message);
    } else {
        std::printf("%s", text.c_str());
    }
    return 0;
}

}  // namespace tressel::cli
