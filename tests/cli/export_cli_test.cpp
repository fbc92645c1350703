// End to end: `tressel-cli export` on the default scene for every format, read back with the engine's
// readers; `tressel-cli preset save|apply|check`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/export_gltf.h"
#include "io/hair_files.h"
#include "io/tfxbone.h"
#include "io/tfxmesh.h"
#include "io/usda.h"
#include "run_process.h"
#include "scene/scene_io.h"
#include "test_paths.h"

namespace tressel::test {
namespace {

std::string cli() { return quote(TRESSEL_CLI); }
std::string scene() { return quote(source("presets/scenes/default.json").string()); }

// The default scene: one group "main" of 2,000 guides x 16 vertices, 12,000 barycentric follows.
constexpr size_t kGuides = 2000, kFollows = 12000;

TEST(CliExport, EveryFormatOnTheDefaultScene) {
    const auto dir = scratch_dir("cli_export");
    auto run = [&](const std::string& args) {
        auto r = run_process(cli() + " export " + scene() + " " + args);
        EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
        return r;
    };
    auto tfx = run("--format tfx --out " + quote((dir / "main.tfx").string()));
    EXPECT_NE(tfx.out.find("main.tfxbone"), std::string::npos) << tfx.out;
    auto t = read_tfx_file(dir / "main.tfx");
    ASSERT_TRUE(t.ok()) << t.error().describe();
    EXPECT_EQ(t->strand_count(), kGuides);
    EXPECT_EQ(t->strand_offsets[1], 16u) << "simulation.gpu_vertices_per_strand";
    EXPECT_EQ(t->strand_uvs.size(), kGuides);
    auto bones = read_tfxbone_file(dir / "main.tfxbone");
    ASSERT_TRUE(bones.ok()) << bones.error().describe();
    EXPECT_EQ(bones->strands.size(), kGuides);
    auto head = read_tfxmesh(dir / "main_head.tfxmesh");
    ASSERT_TRUE(head.ok()) << head.error().describe();
    EXPECT_EQ(head->mesh.triangle_count(), 17684u);

    run("--format hair --all --out " + quote((dir / "main.hair").string()));
    auto h = read_hair_file(dir / "main.hair");
    ASSERT_TRUE(h.ok()) << h.error().describe();
    EXPECT_EQ(h->strand_count(), kGuides + kFollows);
    // The guides are the same strands in both files (16 vertices each: no resampling for the .tfx).
    for (size_t i = 0; i < kGuides * 16; ++i) ASSERT_EQ(h->points[i], t->points[i]) << i;

    run("--format usda --all --out " + quote((dir / "main.usda").string()));
    auto u = read_usda_file(dir / "main.usda");
    ASSERT_TRUE(u.ok()) << u.error().describe();
    ASSERT_EQ(u->curves.size(), 2u);
    EXPECT_EQ(u->curves[0].vertex_counts.size(), kGuides);
    EXPECT_EQ(u->curves[1].vertex_counts.size(), kFollows);
    EXPECT_EQ(u->up_axis, "Y");

    run("--format gltf --guides --out " + quote((dir / "main.glb").string()));
    auto g = read_gltf_strands(dir / "main.glb");
    ASSERT_TRUE(g.ok()) << g.error().describe();
    ASSERT_EQ(g->size(), 1u);
    EXPECT_EQ((*g)[0].strand_count(), kGuides);
    for (size_t i = 0; i < kGuides * 16; ++i) ASSERT_EQ((*g)[0].points_m[i], t->points[i]) << i;

    run("--format preset --out " + quote((dir / "tressfx.json").string()));
    auto p = read_json_file(dir / "tressfx.json");
    ASSERT_TRUE(p.ok()) << p.error().describe();
    EXPECT_EQ((*p)["format"], "tressel-tressfx-settings");
    EXPECT_EQ((*p)["groups"][0]["simulation"]["numVerticesPerStrand"], 16);
    EXPECT_GT((*p)["groups"][0]["collision"][0]["collisionMargin"].get<double>(), 0.0);
}

TEST(CliExport, ErrorsPrintOneLineAndWriteNothing) {
    const auto dir = scratch_dir("cli_export_errors");
    struct Case { std::string args; int code; std::string says; };
    const Case cases[] = {
        {"--format tfx --frame 2 --out " + quote((dir / "a.tfx").string()), 1, "--frame 2"},
        {"--format tfx --out " + quote((dir / "missing" / "a.tfx").string()), 1, "missing"},
        {"--format tfx --out /proc/x/a.tfx", 1, "/proc/x"},
        {"--format tfx --group nobody --out " + quote((dir / "a.tfx").string()), 1, "nobody"},
        {"--format obj --out " + quote((dir / "a.obj").string()), 2, "obj"},
        {"--format gltf --out " + quote((dir / "a.txt").string()), 1, ".gltf or .glb"},
        {"--format tfx", 2, "--out"},
    };
    for (const auto& c : cases) {
        auto r = run_process(cli() + " export " + scene() + " " + c.args);
        EXPECT_EQ(r.exit_code, c.code) << c.args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << c.args << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir));
}

TEST(CliPreset, SaveApplyCheck) {
    const auto dir = scratch_dir("cli_preset");
    const auto saved = (dir / "sim.json").string();
    auto s = run_process(cli() + " preset save " + scene() + " --kind simulation --out " + quote(saved));
    ASSERT_EQ(s.exit_code, 0) << s.err;
    auto doc = read_json_file(saved);
    ASSERT_TRUE(doc.ok());
    EXPECT_EQ((*doc)["kind"], "simulation");
    EXPECT_EQ((*doc)["values"]["gpu_vertices_per_strand"], 16) << "the default scene's value";

    const auto out = (dir / "scene.json").string();
    auto a = run_process(cli() + " preset apply " + scene() + " " + quote(source("presets/sim/curly.json").string()) + " " +
                         quote(source("presets/shading/red.json").string()) + " --out " + quote(out));
    ASSERT_EQ(a.exit_code, 0) << a.err;
    auto applied = load_scene(out);
    ASSERT_TRUE(applied.ok()) << applied.error().describe();
    const HairGroup& g = applied->scene.hair_groups[0];
    EXPECT_EQ(g.simulation.gpu_vertices_per_strand, 64);
    EXPECT_EQ(g.simulation.local_iterations, 6);
    EXPECT_EQ(g.shading.root_color, glm::dvec3(0.3, 0.065, 0.03));
    EXPECT_EQ(g.growth.guides, 2000) << "sections the presets do not name are untouched";

    auto c = run_process(cli() + " preset check " + quote(saved) + " " + quote(source("presets/sim/fur.json").string()));
    EXPECT_EQ(c.exit_code, 0) << c.err;
    auto bad = run_process(cli() + " preset check " + quote(source("presets/scenes/default.json").string()));
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_EQ(bad.err.rfind("error: ", 0), 0u) << bad.err;
}

}  // namespace
}  // namespace tressel::test
