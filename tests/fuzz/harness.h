// One harness per file the tool reads: it runs the loader on bytes as the tool would and checks the
// loader's contract, not only that it did not crash. An error must name the file it was given; data that
// loads must be in range (finite positions, indices inside their arrays, counts that agree) and survive a
// save and load where the format has a writer. Shared by the libFuzzer targets (TRESSEL_FUZZ=ON, clang,
// ASan + UBSan) and by the corpus replay test that the normal build runs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tressel::fuzz {

struct Harness {
    const char* name;                                    // also the corpus directory: tests/fuzz/corpus/<name>
    std::string (*run)(std::span<const uint8_t> bytes);  // "" when the contract held, else what broke
};

// Every harness, in a fixed order.
const std::vector<Harness>& harnesses();
const Harness* find_harness(const std::string& name);

}  // namespace tressel::fuzz
