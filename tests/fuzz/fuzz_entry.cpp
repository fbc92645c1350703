// A libFuzzer target: one harness (TRESSEL_FUZZ_HARNESS) on every input the fuzzer makes. A broken
// contract aborts with what broke, so the fuzzer keeps the input as a crash.
#include <cstdio>
#include <cstdlib>

#include "harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const tressel::fuzz::Harness* harness = tressel::fuzz::find_harness(TRESSEL_FUZZ_HARNESS);
    if (!harness) {
        std::fprintf(stderr, "no harness named %s\n", TRESSEL_FUZZ_HARNESS);
        std::abort();
    }
    const std::string problem = harness->run(std::span<const uint8_t>(data, size));
    if (!problem.empty()) {
        std::fprintf(stderr, "%s: %s\n", TRESSEL_FUZZ_HARNESS, problem.c_str());
        std::abort();
    }
    return 0;
}
