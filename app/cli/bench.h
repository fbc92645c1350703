// `tressel-cli bench <workload>`: each workload fills a JSON object; cmd_bench.cpp prints or writes it.
// Benchmarks are not tests: nothing asserts a time.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "commands.h"

namespace tressel::cli {

// Where the benchmark assets live: --testdata, else TRESSEL_TESTDATA, else the build-time test data path.
std::string bench_testdata_dir();

int bench_sdf(const Args& args, nlohmann::json& out);
int bench_sim(const Args& args, nlohmann::json& out);
int bench_anim(const Args& args, nlohmann::json& out);
int bench_render_json(const Args& args, nlohmann::json& out);  // cmd_render.cpp

}  // namespace tressel::cli
