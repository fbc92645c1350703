// tressel-cli sdf end to end: the raw field and its JSON sidecar, a slice PNG, timings, and clear errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "run_process.h"
#include "test_paths.h"

namespace tressel::test {
namespace {

TEST(CliSdf, RawFieldSidecarSliceAndTimings) {
    auto dir = scratch_dir("cli_sdf");
    const auto raw = dir / "bunny.f32";
    const auto png = dir / "bunny.png";
    auto r = run_process(quote(TRESSEL_CLI) + " sdf " + quote(testdata("meshes/coarser_bunny.obj").string()) +
                         " --cells-x 24 --padding 0.2 --slice z:0.5 --png " + quote(png.string()) + " --raw " +
                         quote(raw.string()) + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto report = nlohmann::json::parse(r.out);
    EXPECT_EQ(report["unwritten_cells"].get<int>(), 0);
    EXPECT_GT(report["inside_cells"].get<int>(), 0);
    EXPECT_EQ(report["open_edges"].get<int>(), 0);
    EXPECT_TRUE(report["gpu_ms"].contains("sdf jump flooding")) << report["gpu_ms"].dump();

    std::ifstream meta_in(raw.string() + ".json");
    auto meta = nlohmann::json::parse(meta_in);
    const int nx = meta["dims"][0], ny = meta["dims"][1], nz = meta["dims"][2];
    EXPECT_EQ(std::vector<int>({nx, ny, nz}), report["dims"].get<std::vector<int>>());
    ASSERT_EQ(std::filesystem::file_size(raw), uint64_t(nx) * ny * nz * 4) << "float32 per cell";
    // The centre cell of the bunny's bounds is inside; a corner cell is outside, at about the distance
    // from the corner's centre to the mesh (positive, finite).
    std::ifstream in(raw, std::ios::binary);
    std::vector<float> d(size_t(nx) * ny * nz);
    in.read(reinterpret_cast<char*>(d.data()), std::streamsize(d.size() * 4));
    for (float v : d) ASSERT_TRUE(std::isfinite(v));
    EXPECT_GT(d[0], 0.0f);
    const double cell = meta["cell_size"];
    EXPECT_GT(d[0], 3.0 * cell) << "the corner lies padding cells away from the mesh";
    EXPECT_TRUE(std::filesystem::exists(png));
    EXPECT_GT(std::filesystem::file_size(png), 1000u);
}

TEST(CliSdf, BadParametersAndFilesAreClearErrors) {
    const std::string mesh = quote(testdata("meshes/icosphere.obj").string());
    for (const char* bad : {"--cells-x 0", "--cells-x -4", "--cells-x 100000", "--padding -1"}) {
        auto r = run_process(quote(TRESSEL_CLI) + " sdf " + mesh + " " + bad);
        EXPECT_EQ(r.exit_code, 1) << bad << ": " << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << bad << ": " << r.err;
    }
    auto flat = run_process(quote(TRESSEL_CLI) + " sdf " + quote(testdata("meshes/alligator.obj").string()) + " --cells-x 16 --padding 0.1");
    EXPECT_EQ(flat.exit_code, 0) << "a flat mesh gives a thin field, not a crash: " << flat.err;
    auto broken = run_process(quote(TRESSEL_CLI) + " sdf " + quote(testdata("negative/Lucy100k_mangled.ply").string()));
    EXPECT_EQ(broken.exit_code, 1);
    auto usage = run_process(quote(TRESSEL_CLI) + " sdf " + mesh + " --slice q:2 --png x.png");
    EXPECT_EQ(usage.exit_code, 2);
}

}  // namespace
}  // namespace tressel::test
