// End to end: `tressel-cli export` on the default scene for every format, read back with the engine's
// readers; `tressel-cli preset save|apply|check`.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <glm/glm.hpp>

#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "export/export_gltf.h"
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
constexpr size_t kGuides = 2000, kFollows = 70000;

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

// Hair on skinned characters exports their skeleton: the .tfxbone names the joints and each strand's
// strongest bone is the head's, and the .tfxmesh of the body carries the same names with its weights.
// CesiumMan (the shipped walking scene: one skin) and RobotExpressive (19 parts: four hand skins and 15
// rigid parts under its joints, played as one skin), whose hair used to export as one "root" bone.
TEST(CliExport, SkinnedCharactersExportTheirSkeleton) {
    const auto dir = scratch_dir("cli_export_skinned");
    auto robot = read_json_file(source("presets/scenes/walking.json"));
    ASSERT_TRUE(robot.ok());
    (*robot)["meshes"] = nlohmann::json::array({{{"name", "man"}, {"path", testdata("gltf/RobotExpressive.glb").string()}}});
    (*robot)["accessories"] = nlohmann::json::array();  // the walking scene's cape is cut for CesiumMan
    (*robot)["hair_groups"][0]["scalp"]["region"] = {{"type", "cap"}, {"axis", {0, 1, 0}}, {"angle_deg", 12}};
    (*robot)["hair_groups"][0]["growth"]["guides"] = 200;
    (*robot)["hair_groups"][0]["follow"]["count"] = 0;
    (*robot)["motion"]["animation"] = "Running";
    ASSERT_TRUE(write_file_atomic(dir / "robot.json", robot->dump(1)).ok());
    struct Case {
        std::string scene, head;
        size_t bones;
    };
    for (const Case& c : {Case{source("presets/scenes/walking.json").string(), "Skeleton_neck_joint_2", 19},
                          Case{(dir / "robot.json").string(), "Head", 43}}) {
        const std::string base = (dir / std::filesystem::path(c.scene).stem()).string();
        auto r = run_process(cli() + " export " + quote(c.scene) + " --format tfx --out " + quote(base + ".tfx"));
        ASSERT_EQ(r.exit_code, 0) << c.scene << "\n" << r.err;
        auto bones = read_tfxbone_file(base + ".tfxbone");
        ASSERT_TRUE(bones.ok()) << bones.error().describe();
        EXPECT_EQ(bones->bone_names.size(), c.bones) << c.scene;
        std::map<std::string, size_t> strongest;
        for (const TfxStrandSkin& s : bones->strands) ++strongest[bones->bone_names.at(size_t(s.bones[0]))];
        size_t most = 0;
        std::string top;
        for (const auto& [name, n] : strongest)
            if (n > most) most = n, top = name;
        EXPECT_EQ(top, c.head) << c.scene;
        EXPECT_GT(most, bones->strands.size() / 2) << c.scene;
        auto body = read_tfxmesh(base + "_man.tfxmesh");
        ASSERT_TRUE(body.ok()) << body.error().describe();
        EXPECT_EQ(body->bone_names, bones->bone_names) << c.scene << ": one name mapping for both files";
        std::set<uint16_t> used;
        for (size_t v = 0; v < body->mesh.joints.size(); ++v)
            if (body->mesh.weights[v][0] > 0.0f) used.insert(body->mesh.joints[v][0]);
        EXPECT_GT(used.size(), c.bones / 2) << c.scene << ": the body's vertices follow its joints";
    }
}

// What `groom --out` writes for one group: guides and follow hairs as points per strand (metres).
struct GroomedGroup {
    std::vector<std::vector<glm::vec3>> guides, follows;
};
std::map<std::string, GroomedGroup> groomed(const std::filesystem::path& strands_json) {
    // Not read_json_file: that one is sized for scene files, and the default scene's strands are larger.
    auto text = read_file_text(strands_json);
    EXPECT_TRUE(text.ok());
    std::map<std::string, GroomedGroup> out;
    if (!text) return out;
    auto doc = std::optional<nlohmann::json>(nlohmann::json::parse(*text, nullptr, false));
    EXPECT_FALSE(doc->is_discarded()) << strands_json;
    if (doc->is_discarded()) return out;
    auto strands = [](const nlohmann::json& list) {
        std::vector<std::vector<glm::vec3>> v;
        for (const auto& s : list) {
            v.emplace_back();
            for (const auto& p : s["points_m"]) v.back().push_back(glm::vec3(p[0].get<float>(), p[1].get<float>(), p[2].get<float>()));
        }
        return v;
    };
    for (const auto& g : (*doc)["groups"]) out[g["group"]] = {strands(g["guides"]), strands(g["follows"])};
    return out;
}

// Every point of `file` (strand-major, guides then follows) equals the groomed strands' point, within
// `tol` metres (0 for the binary formats: the same float32 values).
void expect_same_strands(const std::vector<std::vector<glm::vec3>>& expected, const std::vector<glm::vec3>& points,
                         const std::vector<uint32_t>& offsets, size_t first_strand, float tol, const std::string& what) {
    ASSERT_GE(offsets.size(), first_strand + expected.size() + 1) << what;
    size_t bent = 0;
    float worst = 0.0f;
    for (size_t s = 0; s < expected.size(); ++s) {
        const uint32_t begin = offsets[first_strand + s], count = offsets[first_strand + s + 1] - begin;
        ASSERT_EQ(count, expected[s].size()) << what << " strand " << s;
        float d = 0.0f;
        for (uint32_t k = 0; k < count; ++k) d = std::max(d, glm::length(points[begin + k] - expected[s][k]));
        worst = std::max(worst, d);
        bent += d > tol;
    }
    EXPECT_EQ(bent, 0u) << what << ": " << bent << " of " << expected.size() << " strands differ from `groom --out`, by up to "
                        << worst << " m";
}

// The scene runtime grows every export: the files carry exactly the strands `groom --out` writes (and the
// viewport draws), guides kept clear of the scalp included, for every shipped scene.
TEST(CliExport, EveryShippedSceneExportsTheStrandsGroomShows) {
    const auto dir = scratch_dir("cli_export_groom");
    size_t scenes = 0, repeated = 0;
    std::vector<std::string> checked;  // each checked scene's strands file
    for (const auto& entry : std::filesystem::directory_iterator(source("presets/scenes"))) {
        if (entry.path().extension() != ".json") continue;
        ++scenes;
        const std::string name = entry.path().stem().string();
        const std::string sc = quote(entry.path().string());
        auto g = run_process(cli() + " groom " + sc + " --out " + quote((dir / (name + "_strands.json")).string()));
        ASSERT_EQ(g.exit_code, 0) << g.err;
        const auto groups = groomed(dir / (name + "_strands.json"));
        ASSERT_FALSE(groups.empty()) << name;
        // A scene that grows the same strands as one already checked (the scarf scene is the default
        // scene's hair under a cloth) exports what that scene's checks read: its strands are not
        // exported again.
        auto text = read_file_text(dir / (name + "_strands.json"));
        ASSERT_TRUE(text.ok()) << text.error().describe();
        const std::string& bytes = *text;
        if (std::find(checked.begin(), checked.end(), bytes) != checked.end()) {
            ++repeated;
            continue;
        }
        checked.push_back(bytes);
        for (const auto& [group, strands] : groups) {
            const std::string base = (dir / (name + "_" + group)).string();
            auto run = [&](const std::string& args) {
                auto r = run_process(cli() + " export " + sc + " --group " + quote(group) + " " + args);
                EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
            };
            run("--format hair --all --out " + quote(base + ".hair"));
            auto h = read_hair_file(base + ".hair");
            ASSERT_TRUE(h.ok()) << h.error().describe();
            ASSERT_EQ(h->strand_count(), strands.guides.size() + strands.follows.size());
            expect_same_strands(strands.guides, h->points, h->strand_offsets, 0, 0.0f, name + " " + group + " .hair guides");
            expect_same_strands(strands.follows, h->points, h->strand_offsets, strands.guides.size(), 0.0f,
                                name + " " + group + " .hair follows");

            run("--format tfx --out " + quote(base + ".tfx"));
            auto t = read_tfx_file(base + ".tfx");
            ASSERT_TRUE(t.ok()) << t.error().describe();
            ASSERT_EQ(t->strand_count(), strands.guides.size());
            if (t->strand_offsets[1] == strands.guides[0].size())  // not resampled to gpu_vertices_per_strand
                expect_same_strands(strands.guides, t->points, t->strand_offsets, 0, 0.0f, name + " " + group + " .tfx");

            run("--format usda --all --out " + quote(base + ".usda"));
            auto u = read_usda_file(base + ".usda");
            ASSERT_TRUE(u.ok()) << u.error().describe();
            ASSERT_EQ(u->curves.size(), strands.follows.empty() ? 1u : 2u);
            for (size_t c = 0; c < u->curves.size(); ++c) {
                std::vector<uint32_t> offsets{0};
                for (int n : u->curves[c].vertex_counts) offsets.push_back(offsets.back() + uint32_t(n));
                // Text, but the shortest decimal that reads back as the same float: exact too.
                expect_same_strands(c == 0 ? strands.guides : strands.follows, u->curves[c].points, offsets, 0, 0.0f,
                                    name + " " + group + " .usda curves " + std::to_string(c));
            }
        }
    }
    EXPECT_GE(scenes, 1u);
    EXPECT_LT(repeated, scenes);
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
    EXPECT_TRUE(g.simulation.chain_shape_matching);
    EXPECT_EQ(g.simulation.chain_span, 21);
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
