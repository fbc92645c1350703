// tressel-cli subcommands. Each lives in its own cmd_<name>.cpp and is listed in kCommands (main.cpp).
// A command returns the process exit code: 0 success, 1 the input was bad or the work failed, 2 usage.
#pragma once

#include <string>
#include <vector>

namespace tressel::cli {

struct Command {
    const char* name;
    const char* summary;  // one line for --help
    const char* usage;    // full usage text for `tressel-cli <name> --help`
    int (*run)(const std::vector<std::string>& args);
};

int run_info(const std::vector<std::string>& args);
extern const char* const kInfoUsage;
int run_bake(const std::vector<std::string>& args);
extern const char* const kBakeUsage;
int run_sdf(const std::vector<std::string>& args);
extern const char* const kSdfUsage;
int run_groom(const std::vector<std::string>& args);
extern const char* const kGroomUsage;
int run_bench(const std::vector<std::string>& args);
extern const char* const kBenchUsage;
int run_export(const std::vector<std::string>& args);
extern const char* const kExportUsage;
int run_preset(const std::vector<std::string>& args);
extern const char* const kPresetUsage;
int run_render(const std::vector<std::string>& args);
extern const char* const kRenderUsage;
int run_bench_groom(const std::vector<std::string>& args);  // `bench groom ...` (cmd_groom.cpp)
int run_brush(const std::vector<std::string>& args);
extern const char* const kBrushUsage;
int run_bench_brush(const std::vector<std::string>& args);  // `bench brush ...` (cmd_brush.cpp)

// Prints "error: <message>" to stderr and returns 1 (or 2 for usage errors).
int fail(const std::string& message, int code = 1);

}  // namespace tressel::cli
