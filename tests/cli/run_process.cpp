#include "run_process.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_paths.h"

namespace tressel::test {

std::string quote(const std::string& arg) {
    std::string q = "'";
    for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

ProcessResult run_process(const std::string& command) {
    static int counter = 0;
    auto dir = std::filesystem::path(TRESSEL_BINARY_DIR) / "test-scratch" / "process";
    std::filesystem::create_directories(dir);
    std::string tag = std::to_string(::getpid()) + "_" + std::to_string(counter++);
    auto out_path = dir / ("out_" + tag), err_path = dir / ("err_" + tag);
    std::string full = command + " >" + quote(out_path.string()) + " 2>" + quote(err_path.string());
    int status = std::system(full.c_str());
    ProcessResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    auto slurp = [](const std::filesystem::path& p) {
        std::ifstream f(p);
        std::stringstream ss;
        ss << f.rdbuf();
        return ss.str();
    };
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    std::filesystem::remove(out_path);
    std::filesystem::remove(err_path);
    return r;
}

}  // namespace tressel::test
