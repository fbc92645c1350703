// Runs the harness named on the command line over files and folders of inputs, without libFuzzer or the
// sanitizers: the normal build's way to put a campaign's whole corpus through a checker that sees inside the
// third-party parsers, which ASan does not instrument (`valgrind --error-exitcode=99 fuzz_run dae DIR`).
// Prints the inputs that break the loader's contract and exits 1 if any did.
#include <cstdio>
#include <filesystem>
#include <vector>

#include "core/file_io.h"
#include "harness.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: fuzz_run HARNESS FILE_OR_FOLDER...\n");
        return 2;
    }
    const tressel::fuzz::Harness* harness = tressel::fuzz::find_harness(argv[1]);
    if (!harness) {
        std::fprintf(stderr, "fuzz_run: no harness named %s\n", argv[1]);
        return 2;
    }
    std::vector<std::filesystem::path> inputs;
    for (int i = 2; i < argc; ++i) {
        const std::filesystem::path p = argv[i];
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec)) {
            for (const auto& entry : std::filesystem::directory_iterator(p, ec))
                if (entry.is_regular_file(ec)) inputs.push_back(entry.path());
        } else {
            inputs.push_back(p);
        }
    }
    int broken = 0;
    for (const auto& p : inputs) {
        auto bytes = tressel::read_file_bytes(p);
        if (!bytes.ok()) {
            std::fprintf(stderr, "%s: %s\n", p.string().c_str(), bytes.error().describe().c_str());
            ++broken;
            continue;
        }
        const std::string problem = harness->run(*bytes);
        if (!problem.empty()) {
            std::fprintf(stderr, "%s: %s\n", p.string().c_str(), problem.c_str());
            ++broken;
        }
    }
    std::printf("%zu inputs through %s, %d broke its contract\n", inputs.size(), argv[1], broken);
    return broken ? 1 : 0;
}
