// `tressel-cli bench <workload>`: each workload fills a JSON object; cmd_bench.cpp prints or writes it.
// Benchmarks are not tests: nothing asserts a time.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "commands.h"
#include "scene/scene_types.h"

namespace tressel::cli {

// Where the benchmark assets live: --testdata, else TRESSEL_TESTDATA, else the build-time test data path.
std::string bench_testdata_dir();

int bench_sdf(const Args& args, nlohmann::json& out);
int bench_sim(const Args& args, nlohmann::json& out);
// bench sim's Rat Boy case: Ratboy_body.tfxmesh (50 cells, margin 2 mm) turning procedurally, the mohawk's
// 2,228 guides x 32 from Ratboy_mohawk.tfx with 2 TressFX follows each, 37,747 fur guides x 8 with 1 each.
// `body_cells`: the body field's cells_x; TressFX's own 50 (with 0.8 padding) by default, otherwise with a
// tenth of a metre of cells around the body (padding 0.2).
Scene ratboy_bench_scene(const std::filesystem::path& data, int body_cells = 50);
int bench_anim(const Args& args, nlohmann::json& out);
int bench_cloth(const Args& args, nlohmann::json& out);
int bench_render_json(const Args& args, nlohmann::json& out);  // cmd_render.cpp

}  // namespace tressel::cli
