// The shipped preset library and the TressFX settings conversion (docs/tressfx-export.md).
#include <gtest/gtest.h>

#include <algorithm>

#include "export/export_groom.h"
#include "scene/presets.h"
#include "scene/scene_io.h"
#include "scene/tressfx_preset.h"
#include "test_paths.h"

namespace tressel {
namespace {

std::vector<std::string> stems(const std::filesystem::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".json") out.push_back(e.path().stem().string());
    std::sort(out.begin(), out.end());
    return out;
}

TEST(PresetLibrary, EveryShippedPresetLoadsAppliesAndValidates) {
    const auto sim_dir = test::source("presets/sim"), shading_dir = test::source("presets/shading");
    EXPECT_EQ(stems(sim_dir), (std::vector<std::string>{"cloth_cotton", "cloth_denim", "cloth_leather", "cloth_silk", "curly", "fur",
                                                         "long_straight", "ponytail", "short_stiff"}));
    EXPECT_EQ(stems(shading_dir), (std::vector<std::string>{"black", "blonde", "brown", "red"}));
    auto scene = load_scene(test::source("presets/scenes/default.json"));
    ASSERT_TRUE(scene.ok()) << scene.error().describe();
    // Cloth presets (presets/sim/cloth_*) merge over every accessory's cloth: the default scene with one.
    Scene with_accessory = scene->scene;
    Accessory a;
    a.name = "scarf";
    a.mesh = "head";
    a.attach = "head";
    with_accessory.accessories.push_back(a);
    for (const auto& [dir, dir_kind] : {std::pair{sim_dir, PresetKind::Simulation}, std::pair{shading_dir, PresetKind::Shading}}) {
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            const bool cloth = e.path().stem().string().rfind("cloth_", 0) == 0;
            const PresetKind kind = cloth ? PresetKind::Cloth : dir_kind;
            Diagnostics diag;
            auto p = load_section_preset(e.path(), diag);
            ASSERT_TRUE(p.ok()) << e.path() << ": " << p.error().describe();
            EXPECT_EQ(p->kind, kind) << e.path();
            EXPECT_TRUE(diag.items.empty()) << e.path() << ": no unknown keys";
            Scene s = cloth ? with_accessory : scene->scene;
            auto doc = read_json_file(e.path());
            ASSERT_TRUE(doc.ok());
            ASSERT_TRUE(apply_section_preset(s, kind, 0, *doc, diag).ok()) << e.path();
            EXPECT_TRUE(validate_scene(s).ok()) << e.path();
            // Applied values are the file's: the saved section holds them again.
            const auto saved = make_section_preset(s, kind, 0);
            for (const auto& [key, value] : p->values.items()) EXPECT_EQ(saved["values"][key], value) << e.path() << " " << key;
        }
    }
}

TEST(PresetLibrary, LooksDifferWhereTheReadmeSaysTheyDo) {
    auto load = [](const std::string& rel) {
        Diagnostics d;
        auto p = load_section_preset(test::source(rel), d);
        TRESSEL_ASSERT(p.ok(), "shipped preset loads");
        return p->values;
    };
    const auto stiff = load("presets/sim/short_stiff.json"), longs = load("presets/sim/long_straight.json"),
               curly = load("presets/sim/curly.json"), fur = load("presets/sim/fur.json");
    EXPECT_GT(stiff["local_stiffness"].get<double>(), longs["local_stiffness"].get<double>());
    EXPECT_GT(stiff["global_range"].get<double>(), longs["global_range"].get<double>());
    EXPECT_GT(curly["gpu_vertices_per_strand"].get<int>(), longs["gpu_vertices_per_strand"].get<int>()) << "curls need resolution";
    EXPECT_LT(fur["gpu_vertices_per_strand"].get<int>(), stiff["gpu_vertices_per_strand"].get<int>());
    auto lum = [](const nlohmann::json& c) { return 0.2126 * c[0].get<double>() + 0.7152 * c[1].get<double>() + 0.0722 * c[2].get<double>(); };
    const auto blonde = load("presets/shading/blonde.json"), brown = load("presets/shading/brown.json"),
               black = load("presets/shading/black.json"), red = load("presets/shading/red.json");
    EXPECT_GT(lum(blonde["root_color"]), lum(brown["root_color"]));
    EXPECT_GT(lum(brown["root_color"]), lum(black["root_color"]));
    EXPECT_GT(red["root_color"][0].get<double>(), 3.0 * red["root_color"][1].get<double>()) << "red is red";
}

HairGroup tuned_group() {
    HairGroup g;
    g.name = "mohawk";
    g.simulation.damping = 0.068;
    g.simulation.local_stiffness = 0.908;
    g.simulation.local_iterations = 3;
    g.simulation.global_stiffness = 0.408;
    g.simulation.global_range = 0.308;
    g.simulation.length_iterations = 4;
    g.simulation.vsp_coeff = 0.758;
    g.simulation.vsp_threshold = 1.208;
    g.simulation.gpu_vertices_per_strand = 16;
    g.simulation.wind_scale = 0.5;
    g.simulation.max_position_delta_m = 0.3;
    g.simulation.sdf = {"body"};
    g.follow.tip_separation = 0.7;
    g.shading.fiber_radius_m = 0.0025;
    g.shading.fiber_ratio = 0.06;
    g.shading.kd = 0.3;
    g.shading.ks1 = 0.02;
    g.shading.ex1 = 30;
    g.shading.ks2 = 0.1;
    g.shading.ex2 = 9;
    g.shading.root_color = {0.1, 0.2, 0.3};
    return g;
}

TEST(TressFXSettings, NamesUnitsAndTheInverse) {
    const HairGroup g = tuned_group();
    Environment env;
    env.gravity_mps2 = {0.0, -9.81, 0.0};
    env.wind.speed_mps = 4.0;
    env.wind.direction = {0.0, 0.0, 2.0};
    const CollisionMesh body{"body", 50, 0.8, 0.006, SignMethod::Auto};
    const TressFXConvertOptions opt{0.01};
    Diagnostics diag;
    const TressFXSettings s = to_tressfx(g, env, {{body, 0.012}}, opt, diag);
    EXPECT_TRUE(diag.items.empty());
    EXPECT_EQ(s.localConstraintStiffness, 0.908);
    EXPECT_EQ(s.localConstraintsIterations, 3);
    EXPECT_EQ(s.lengthConstraintsIterations, 4);
    EXPECT_EQ(s.globalConstraintsRange, 0.308);
    EXPECT_EQ(s.vspAccelThreshold, 1.208);
    EXPECT_EQ(s.damping, 0.068);
    EXPECT_NEAR(s.gravityMagnitude, 9.81 * 0.01, 1e-12);
    EXPECT_NEAR(s.windMagnitude, 2.0, 1e-12) << "speed x wind_scale";
    EXPECT_EQ(s.windDirection, glm::dvec3(0, 0, 1));
    EXPECT_EQ(s.numVerticesPerStrand, 16);
    EXPECT_EQ(s.fiberRatio, 0.06);
    ASSERT_EQ(s.collision.size(), 1u);
    EXPECT_EQ(s.collision[0].numCellsInXAxis, 50);
    EXPECT_NEAR(s.collision[0].collisionMargin, 0.5, 1e-12) << "6 mm over 12 mm cells";

    // Through the JSON document and back.
    const auto doc = tressfx_settings_to_json({s}, opt);
    EXPECT_EQ(doc["groups"][0]["simulation"]["localConstraintStiffness"], 0.908);
    EXPECT_EQ(doc["groups"][0]["rendering"]["Ks2"], 0.1);
    auto back = tressfx_settings_from_json(doc);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    ASSERT_EQ(back->size(), 1u);
    EXPECT_EQ(tressfx_settings_to_json(*back, opt), doc);

    // The inverse restores the group, the environment's gravity and wind, and the margin in metres.
    HairGroup g2;
    g2.simulation.wind_scale = g.simulation.wind_scale;
    Environment env2;
    std::vector<CollisionMesh> meshes{{"body", 64, 0.8, 0.0, SignMethod::Auto}};
    from_tressfx((*back)[0], opt, g2, env2, meshes);
    g2.name = g.name;
    g2.simulation.sdf = g.simulation.sdf;
    EXPECT_EQ(g2.simulation, g.simulation);
    EXPECT_EQ(g2.shading, g.shading);
    EXPECT_EQ(g2.follow.tip_separation, g.follow.tip_separation);
    EXPECT_NEAR(env2.gravity_mps2.y, -9.81, 1e-12);
    EXPECT_NEAR(env2.wind.speed_mps, 4.0, 1e-12);
    EXPECT_NEAR(meshes[0].margin_m, 0.006, 1e-15);
    EXPECT_EQ(meshes[0].cells_x, 50);
}

TEST(TressFXSettings, SidewaysGravityWarnsAndBadDocumentsNameThePath) {
    Environment env;
    env.gravity_mps2 = {3.0, -9.0, 0.0};
    Diagnostics diag;
    const auto s = to_tressfx(tuned_group(), env, {}, {}, diag);
    EXPECT_EQ(s.gravityMagnitude, 9.0);
    ASSERT_FALSE(diag.items.empty());
    EXPECT_NE(diag.items[0].message.find("-Y"), std::string::npos);
    auto doc = tressfx_settings_to_json({s}, {});
    doc["groups"][0]["simulation"]["damping"] = "high";
    auto r = tressfx_settings_from_json(doc);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.rfind("groups[0].simulation.damping:", 0), 0u) << r.error().message;
    EXPECT_FALSE(tressfx_settings_from_json(nlohmann::json{{"format", "other"}}).ok());
}

TEST(TressFXSettings, PresetExportUsesTheCollisionMeshGrid) {
    // A 0.2 m wide box: TressFX's rule gives a cell of 0.2 / cells_x.
    Mesh box;
    box.positions = {{0, 0, 0}, {0.2f, 0, 0}, {0, 0.1f, 0}, {0, 0, 0.1f}};
    box.indices = {0, 1, 2, 0, 2, 3};
    HairGroup g = tuned_group();
    g.simulation.sdf = {"box"};
    GroomResult groom;
    ExportDesc d;
    d.format = ExportFormat::Preset;
    d.out = test::scratch_dir("export_preset") / "tressfx.json";
    d.groups.push_back({&g, &groom, &box, {}, nullptr});
    d.collision.push_back({CollisionMesh{"box", 16, 0.8, 0.004, SignMethod::Auto}, &box, {}});
    d.collision.push_back({CollisionMesh{"other", 16, 0.8, 0.004, SignMethod::Auto}, &box, {}});
    auto r = export_groom(d);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    auto doc = read_json_file(d.out);
    ASSERT_TRUE(doc.ok());
    const auto& col = (*doc)["groups"][0]["collision"];
    ASSERT_EQ(col.size(), 1u) << "only the meshes the group collides with";
    EXPECT_NEAR(col[0]["cell_size_m"].get<double>(), 0.2 / 16, 1e-7);
    EXPECT_NEAR(col[0]["collisionMargin"].get<double>(), 0.004 / (0.2 / 16), 1e-5);
}

}  // namespace
}  // namespace tressel
