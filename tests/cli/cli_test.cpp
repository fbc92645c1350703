// End to end: the built tressel-cli and tressel binaries, as a user runs them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>
#include <stb_image.h>

#include "run_process.h"
#include "test_paths.h"

namespace tressel::test {
namespace {

std::string cli() { return quote(TRESSEL_CLI); }

TEST(Cli, HelpListsSubcommands) {
    auto r = run_process(cli() + " --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("info"), std::string::npos) << r.out;
    auto none = run_process(cli());
    EXPECT_EQ(none.exit_code, 2) << "no command is a usage error";
    auto bad = run_process(cli() + " frobnicate");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("unknown command 'frobnicate'"), std::string::npos) << bad.err;
}

TEST(Cli, InfoOnTheDefaultScene) {
    auto r = run_process(cli() + " info --json " + quote(source("presets/scenes/default.json").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["meshes"].size(), 1u);
    const auto& report = doc["meshes"][0]["report"];
    // The Infinite head (testdata README): 8,844 positions, 17,684 triangles, closed, genus 0.
    EXPECT_EQ(report["triangles"].get<int>(), 17684);
    EXPECT_EQ(report["unique_positions"].get<int>(), 8844);
    EXPECT_TRUE(report["closed"].get<bool>());
    EXPECT_GE(doc["hair_groups"].size(), 1u);
    EXPECT_EQ(doc["collision_meshes"].size(), 1u);

    auto text = run_process(cli() + " info " + quote(source("presets/scenes/default.json").string()));
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("triangles 17684"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("closed"), std::string::npos);
}

TEST(Cli, InfoOnAMeshFileReportsTopology) {
    auto r = run_process(cli() + " info --json " + quote(testdata("heads/infinite_scalp_patch.obj").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["merged"]["triangles"].get<int>(), 760);
    EXPECT_EQ(doc["merged"]["open_edges"].get<int>(), 136) << "the scalp patch is an open disc";
    EXPECT_FALSE(doc["merged"]["closed"].get<bool>());
}

TEST(Cli, BrokenFilesFailCleanly) {
    for (const char* f : {"negative/LeePerrySmith_mangled.glb", "negative/Lucy100k_mangled.ply", "no/such/file.obj"}) {
        auto r = run_process(cli() + " info " + quote(testdata(f).string()));
        EXPECT_EQ(r.exit_code, 1) << f << ": " << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << f << " should print one clear error line: " << r.err;
    }
    auto dir = scratch_dir("cli_broken_scene");
    std::ofstream(dir / "bad.json") << "{ \"format\": \"tressel-scene\", \"version\": 1, \"meshes\": [ { \"name\": 3 } ] }";
    auto r = run_process(cli() + " info " + quote((dir / "bad.json").string()));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("meshes[0].name"), std::string::npos) << "the error names the JSON path: " << r.err;
}

#ifdef TRESSEL_EDITOR
bool have_display() { return std::getenv("DISPLAY") != nullptr; }

TEST(Editor, OpensTheDefaultSceneAndQuitsCleanly) {
    if (!have_display()) GTEST_SKIP() << "needs an X server (the test command runs under xvfb-run)";
    auto r = run_process(quote(TRESSEL_EDITOR) + " --frames 20 --validation");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("1 meshes loaded, 0 validation errors"), std::string::npos) << r.err;
}

TEST(Editor, BrokenSceneIsReportedNotFatal) {
    if (!have_display()) GTEST_SKIP() << "needs an X server (the test command runs under xvfb-run)";
    auto r = run_process(quote(TRESSEL_EDITOR) + " --frames 10 --validation " +
                         quote(testdata("negative/LeePerrySmith_mangled.glb").string()));
    EXPECT_EQ(r.exit_code, 4) << "exit code 4 = a load error was shown while the editor kept running: " << r.err;
    EXPECT_NE(r.err.find("10 frames"), std::string::npos) << "the editor must keep drawing: " << r.err;
}
#endif

// render --turntable N: N images around the character from the view's yaw, the first the same as a
// single render; opposite sides differ; a count outside 1..3600 is refused.
TEST(CliRender, TurntableWritesNImagesAroundTheCharacter) {
    auto dir = scratch_dir("cli_turntable");
    std::ifstream in(source("presets/scenes/default.json"));
    nlohmann::json doc = nlohmann::json::parse(in);
    doc["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    doc["hair_groups"][0]["growth"]["guides"] = 60;
    doc["hair_groups"][0]["follow"]["count"] = 240;
    doc["collision_meshes"][0]["cells_x"] = 24;
    std::ofstream(dir / "small.json") << doc.dump(2);
    const std::string scene = quote((dir / "small.json").string()), size = " --width 160 --height 120 --no-shadows";
    auto r = run_process(cli() + " render " + scene + size + " --turntable 4 --out " + quote((dir / "turn").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_process(cli() + " render " + scene + size + " --out " + quote((dir / "single.png").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto load = [](const std::filesystem::path& p) {
        int w = 0, h = 0, n = 0;
        unsigned char* px = stbi_load(p.string().c_str(), &w, &h, &n, 4);
        EXPECT_NE(px, nullptr) << p;
        std::vector<unsigned char> v;
        if (px) v.assign(px, px + size_t(w) * size_t(h) * 4);
        stbi_image_free(px);
        EXPECT_EQ(v.size(), 160u * 120u * 4u) << p;
        return v;
    };
    auto mean_diff = [](const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
        double d = 0.0;
        for (size_t i = 0; i < a.size() && i < b.size(); ++i) d += std::abs(int(a[i]) - int(b[i]));
        return a.empty() ? 0.0 : d / double(a.size());
    };
    std::vector<std::vector<unsigned char>> turn;
    for (int i = 0; i < 4; ++i) turn.push_back(load(dir / "turn" / ("turntable_00" + std::to_string(i) + ".png")));
    EXPECT_FALSE(std::filesystem::exists(dir / "turn" / "turntable_004.png"));
    const double same = mean_diff(turn[0], load(dir / "single.png")), opposite = mean_diff(turn[0], turn[2]);
    std::printf("turntable: first image vs a single render %.3f, front vs back %.3f (mean |difference| per channel)\n", same, opposite);
    EXPECT_LT(same, 0.5);
    EXPECT_GT(opposite, 3.0);
    for (const char* bad : {"0", "3601", "x"}) {
        r = run_process(cli() + " render " + scene + " --turntable " + bad + " --out " + quote((dir / "bad").string()));
        EXPECT_EQ(r.exit_code, 2) << bad;
        EXPECT_NE(r.err.find("--turntable"), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace tressel::test
