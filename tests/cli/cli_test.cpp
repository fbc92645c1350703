// End to end: the built tressel-cli and tressel binaries, as a user runs them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <glm/glm.hpp>

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

TEST(Cli, BenchSimRejectsAWorkgroupSizeItCannotRun) {
    for (const char* bad : {"100", "32", "0", "4096"}) {
        auto r = run_process(cli() + " bench sim --only 1M_guide_vertices --frames 1 --strand-threads " + bad);
        EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("--strand-threads must be a power of two"), std::string::npos) << r.err;
    }
}

TEST(Cli, BenchSimRejectsSweepItemsItCannotRun) {
    for (const char* bad : {"0", "9", "two"}) {
        auto r = run_process(cli() + " bench sim --only 1M_guide_vertices --frames 1 --sweep-items " + bad);
        EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("--sweep-items must be 1 to 8"), std::string::npos) << r.err;
    }
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

// Recorded strokes through the CLI: the guides are taken into hand (placement "edited", a .tguides file
// beside the scene), the scene grows from them again, and bad strokes or a file that no longer matches the
// scene are clear errors that leave the files as they were.
TEST(Cli, BrushTakesGuidesIntoHandAndTheSceneGrowsFromThem) {
    const auto dir = scratch_dir("cli_brush");
    auto doc = nlohmann::json::parse(std::ifstream(source("presets/scenes/default.json")));
    doc["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    doc["collision_meshes"][0]["cells_x"] = 24;
    doc["hair_groups"][0]["growth"]["guides"] = 300;
    doc["hair_groups"][0]["growth"]["vertices_per_strand"] = 16;
    doc["hair_groups"][0]["follow"]["count"] = 600;
    const auto scene = dir / "head.json";
    std::ofstream(scene) << doc.dump(2);
    auto grown = run_process(cli() + " groom --out " + quote((dir / "before.json").string()) + " " + quote(scene.string()));
    ASSERT_EQ(grown.exit_code, 0) << grown.err;
    const auto before = nlohmann::json::parse(std::ifstream(dir / "before.json"))["groups"][0]["guides"];
    ASSERT_EQ(before.size(), 300u);
    // Look at the roots' centre from the side the strands leave the scalp.
    glm::dvec3 centre(0.0), facing(0.0);
    for (const auto& g : before) {
        const auto& p = g["points_m"];
        centre += glm::dvec3(p[0][0], p[0][1], p[0][2]) / 300.0;
        facing += glm::dvec3(p[1][0], p[1][1], p[1][2]) - glm::dvec3(p[0][0], p[0][1], p[0][2]);
    }
    const glm::dvec3 eye = centre + glm::normalize(facing) * 0.8;
    const double up_z = std::abs(glm::normalize(facing).y) > 0.9 ? -1.0 : 0.0;
    nlohmann::json strokes = {{"format", "tressel-strokes"}, {"version", 1}, {"group", doc["hair_groups"][0]["name"]},
                              {"view", {{"eye_m", {eye.x, eye.y, eye.z}}, {"target_m", {centre.x, centre.y, centre.z}},
                                        {"up", {0.0, up_z == 0.0 ? 1.0 : 0.0, up_z}}, {"fov_y_deg", 40}, {"viewport_px", {800, 600}}}},
                              {"strokes", {{{"brush", "comb"}, {"points_px", {{300, 300}, {400, 300}, {500, 300}}}, {"radius_px", 80}, {"strength", 0.8}},
                                           {{"brush", "cut"}, {"points_px", {{0, 330}, {800, 330}}}}}}};
    std::ofstream(dir / "strokes.json") << strokes.dump();
    auto r = run_process(cli() + " brush " + quote(scene.string()) + " " + quote((dir / "strokes.json").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto report = nlohmann::json::parse(r.out);
    EXPECT_GT(report["strokes"][0]["strands_changed"].get<int>(), 0) << r.out;
    EXPECT_GT(report["strokes"][1]["strands_changed"].get<int>(), 0) << r.out;
    const auto saved = nlohmann::json::parse(std::ifstream(scene));
    EXPECT_EQ(saved["hair_groups"][0]["growth"]["placement"], "edited");
    const std::string file = saved["hair_groups"][0]["growth"]["guide_file"];
    EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;

    // Grown again from the file: the same roots, brushed shapes.
    auto again = run_process(cli() + " groom --out " + quote((dir / "after.json").string()) + " " + quote(scene.string()));
    ASSERT_EQ(again.exit_code, 0) << again.err;
    const auto after = nlohmann::json::parse(std::ifstream(dir / "after.json"))["groups"][0]["guides"];
    ASSERT_EQ(after.size(), 300u);
    size_t differ = 0;
    for (size_t i = 0; i < 300; ++i) {
        EXPECT_EQ(after[i]["triangle"], before[i]["triangle"]);
        differ += after[i]["points_m"] != before[i]["points_m"] ? 1 : 0;
    }
    EXPECT_GT(differ, 0u);
    EXPECT_LT(differ, 300u);

    // A bad stroke: a clear error naming it; neither file changes.
    auto bytes = [](const std::filesystem::path& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string scene_bytes = bytes(scene), guides_bytes = bytes(dir / file);
    strokes["strokes"][1]["brush"] = "rake";
    std::ofstream(dir / "bad_strokes.json") << strokes.dump();
    auto bad = run_process(cli() + " brush " + quote(scene.string()) + " " + quote((dir / "bad_strokes.json").string()));
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_NE(bad.err.find("strokes[1].brush"), std::string::npos) << bad.err;
    EXPECT_EQ(bytes(scene), scene_bytes);
    EXPECT_EQ(bytes(dir / file), guides_bytes);

    // The scene and its guides file disagree: the count, then a truncated file, each named.
    auto edited = saved;
    edited["hair_groups"][0]["growth"]["guides"] = 299;
    std::ofstream(dir / "count.json") << edited.dump(2);
    auto count = run_process(cli() + " groom " + quote((dir / "count.json").string()));
    EXPECT_EQ(count.exit_code, 1);
    EXPECT_NE(count.err.find(file), std::string::npos) << count.err;
    EXPECT_NE(count.err.find("299"), std::string::npos) << count.err;
    std::ofstream(dir / file, std::ios::binary | std::ios::trunc) << guides_bytes.substr(0, guides_bytes.size() / 3);
    auto cut = run_process(cli() + " groom " + quote(scene.string()));
    EXPECT_EQ(cut.exit_code, 1);
    EXPECT_NE(cut.err.find(file), std::string::npos) << cut.err;
    EXPECT_NE(cut.err.find("truncated"), std::string::npos) << cut.err;
}

// 104 random strokes, 13 of each brush with random radius, strength, falloff, inversion and symmetry, on
// the default scene as shipped (2,000 guides of 32 points, its 96-cell field, margin 5 mm): no guide point
// ends deeper than 0.1 x the margin inside the head, and every root stays on the scalp within 1e-6 m.
TEST(Cli, RandomStrokesOfEveryBrushOnTheDefaultSceneKeepGuidesOutAndRootsOnTheScalp) {
    const auto dir = scratch_dir("cli_brush_default");
    auto doc = nlohmann::json::parse(std::ifstream(source("presets/scenes/default.json")));
    doc["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    const auto scene = dir / "default.json";
    std::ofstream(scene) << doc.dump(2);
    const double margin = doc["collision_meshes"][0].value("margin", 0.004);
    // Seen from behind and above, where the default groom is; strokes anywhere over the middle of the view.
    nlohmann::json strokes = {{"format", "tressel-strokes"}, {"version", 1},
                              {"view", {{"eye_m", {0.0, 1.3, -1.3}}, {"target_m", {0.0, 0.5, 0.0}}, {"fov_y_deg", 40}, {"viewport_px", {800, 600}}}},
                              {"strokes", nlohmann::json::array()}};
    uint64_t state = 20261128;
    auto rnd = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double(state >> 11) / double(1ull << 53);
    };
    const char* brushes[] = {"comb", "smooth", "grow", "cut", "puff", "clump", "add", "delete"};
    const char* falloffs[] = {"smooth", "linear", "constant", "sharp"};
    for (int i = 0; i < 104; ++i) {
        nlohmann::json pts = nlohmann::json::array();
        double x = 200 + 400 * rnd(), y = 150 + 300 * rnd();
        for (int k = 0; k < 6; ++k) {
            pts.push_back({x, y});
            x += (rnd() - 0.5) * 120, y += (rnd() - 0.3) * 120;
        }
        strokes["strokes"].push_back({{"brush", brushes[i % 8]}, {"points_px", pts}, {"radius_px", 20 + 100 * rnd()}, {"strength", rnd()},
                                      {"falloff", falloffs[int(rnd() * 4) % 4]}, {"invert", rnd() < 0.3}, {"symmetry_x", rnd() < 0.5}});
    }
    std::ofstream(dir / "strokes.json") << strokes.dump();
    auto r = run_process(cli() + " brush " + quote(scene.string()) + " " + quote((dir / "strokes.json").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto out = nlohmann::json::parse(r.out);
    size_t changed = 0;
    for (const auto& s : out["strokes"]) changed += s["strands_changed"].get<size_t>() + s["strands_added"].get<size_t>() + s["strands_removed"].get<size_t>();
    std::printf("%zu strand changes over 104 strokes; deepest point inside the head's field %.3g m (of guides no stroke touched: %.3g m), "
                "inside the exact mesh %.3g m; largest root offset %.3g m\n",
                changed, out["deepest_inside_m"].get<double>(), out["deepest_inside_untouched_m"].get<double>(),
                out["deepest_inside_mesh_m"].get<double>(), out["root_offset_max_m"].get<double>());
    EXPECT_GT(changed, 1000u) << "the strokes must reach the hair";
    EXPECT_EQ(out["collision_fields"].get<int>(), 1);
    // Against the field the brushes push with, over the guides they changed; against the exact mesh, over
    // every guide (the grown ones are kept out of the mesh, which the 9 mm field cells only approximate:
    // one point of the untouched groom reads 0.74 mm inside the field).
    EXPECT_LE(out["deepest_inside_m"].get<double>(), 0.1 * margin);
    EXPECT_LE(out["deepest_inside_mesh_m"].get<double>(), 0.1 * margin);
    EXPECT_LE(out["root_offset_max_m"].get<double>(), 1e-6);
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

// render draws a scene's accessories as they are at the frame: a soft-body bun (presets/scenes/bun.json's,
// coloured blue here) pinned to the back of the head is where the image turns blue, and without it no
// pixel is that blue.
TEST(CliRender, DrawsTheScenesAccessories) {
    auto dir = scratch_dir("cli_render_accessory");
    std::ifstream in(source("presets/scenes/bun.json"));
    nlohmann::json doc = nlohmann::json::parse(in);
    doc["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    doc["meshes"][1]["path"] = source("presets/assets/bun.obj").string();
    doc["hair_groups"][0]["growth"]["guides"] = 60;
    doc["hair_groups"][0]["follow"]["count"] = 240;
    doc["collision_meshes"][0]["cells_x"] = 48;
    doc["accessories"][0]["color"] = {0.05, 0.1, 0.9};
    std::ofstream(dir / "with.json") << doc.dump(2);
    doc.erase("accessories");
    std::ofstream(dir / "without.json") << doc.dump(2);
    auto blue = [&](const std::string& name) {
        const std::filesystem::path png = dir / (name + ".png");
        auto r = run_process(cli() + " render " + quote((dir / (name + ".json")).string()) +
                             " --frame 5 --width 200 --height 150 --camera 180,25,1.6 --out " + quote(png.string()));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        int w = 0, h = 0, n = 0;
        unsigned char* px = stbi_load(png.string().c_str(), &w, &h, &n, 4);
        EXPECT_NE(px, nullptr) << png;
        size_t count = 0;
        for (int i = 0; px && i < w * h; ++i) {
            const int r8 = px[4 * i], g8 = px[4 * i + 1], b8 = px[4 * i + 2];
            count += b8 > 60 && b8 > 2 * r8 && b8 > 2 * g8 ? 1u : 0u;
        }
        stbi_image_free(px);
        return count;
    };
    const size_t with = blue("with"), without = blue("without");
    std::printf("blue pixels of the bun: %zu with it, %zu without\n", with, without);
    EXPECT_GT(with, 200u) << "the bun is drawn";
    EXPECT_LT(without, 20u);
}

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
