// Every file of every seed corpus (tests/fuzz/corpus/<harness>/: small real files, and every input that
// ever broke a loader, kept as a regression case) through its harness, in the normal build: a loader change
// that brings an old finding back fails here without clang.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/file_io.h"
#include "harness.h"
#include "test_paths.h"

namespace tressel::fuzz {
namespace {

TEST(FuzzReplay, EveryCorpusFileKeepsItsLoadersContract) {
    const std::filesystem::path root = TRESSEL_FUZZ_CORPUS;
    size_t files = 0;
    for (const Harness& h : harnesses()) {
        const auto dir = root / h.name;
        ASSERT_TRUE(std::filesystem::is_directory(dir)) << "no seed corpus for harness " << h.name;
        size_t here = 0;
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {
            if (!entry.is_regular_file()) continue;
            auto bytes = read_file_bytes(entry.path());
            ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
            EXPECT_EQ(h.run(*bytes), "") << h.name << ": " << entry.path().filename().string();
            ++here;
        }
        EXPECT_GT(here, 0u) << h.name;
        files += here;
    }
    std::printf("%zu corpus files replayed through %zu harnesses\n", files, harnesses().size());
}

// The broken real files of the test data (../shared/testdata/negative) through the harness of their
// extension: each refused with a message naming it, or read within its contract.
TEST(FuzzReplay, BrokenRealFilesKeepTheirLoadersContract) {
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::testdata("negative"))) {
        std::string ext = entry.path().extension().string();
        if (ext.size() < 2) continue;
        const Harness* h = find_harness(ext.substr(1));
        if (!h) continue;
        auto bytes = read_file_bytes(entry.path());
        ASSERT_TRUE(bytes.ok());
        EXPECT_EQ(h->run(*bytes), "") << entry.path().filename().string();
        ++files;
    }
    EXPECT_GE(files, 4u);
}

}  // namespace
}  // namespace tressel::fuzz
