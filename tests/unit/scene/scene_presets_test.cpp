#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scene/presets.h"
#include "scene/scene_io.h"
#include "scene_test_util.h"
#include "test_paths.h"

namespace tressel {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

// Two hair groups with non-default values everywhere a preset could touch, two collision meshes.
Scene two_group_scene() {
    json doc = test::minimal_scene_doc();
    doc["meshes"].push_back({{"name", "body"}, {"path", "body.obj"}});
    doc["collision_meshes"].push_back({{"mesh", "body"}, {"cells_x", 32}, {"margin", 0.01}, {"sign", "winding"}});
    doc["hair_groups"][0]["simulation"]["damping"] = 0.11;
    doc["hair_groups"][0]["simulation"]["vsp_coeff"] = 0.5;
    doc["hair_groups"][0]["shading"]["kd"] = 0.3;
    json second = doc["hair_groups"][0];
    second["name"] = "beard";
    second["simulation"]["damping"] = 0.21;
    second["simulation"]["global_stiffness"] = 0.7;
    second["simulation"]["sdf"] = {"head", "body"};
    doc["hair_groups"].push_back(second);
    Diagnostics d;
    auto s = scene_from_json(doc, "/project/scenes", d);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return *s;
}

json simulation_preset(json values) { return {{"format", "tressel-preset"}, {"kind", "simulation"}, {"values", std::move(values)}}; }

TEST(ScenePreset, MergesOverTheSceneAndKeepsEverythingElse) {
    Scene s = two_group_scene();
    Diagnostics d;
    auto r = apply_preset(s, json{{"environment", {{"wind", {{"speed", 3.0}, {"direction", {0, 0, 1}}}}}}}, d);
    ASSERT_TRUE(r.ok()) << r.error().message;
    Scene expected = s;
    expected.environment.wind.speed_mps = 3.0;
    expected.environment.wind.direction = {0, 0, 1};
    EXPECT_TRUE(*r == expected);
    EXPECT_EQ(r->origin.dir, s.origin.dir);
    EXPECT_TRUE(d.items.empty());

    // null removes a key: it takes its default again.
    auto reset = apply_preset(s, json{{"hair_groups", nullptr}}, d);
    ASSERT_TRUE(reset.ok()) << reset.error().message;
    EXPECT_TRUE(reset->hair_groups.empty());
}

TEST(ScenePreset, InvalidValuesAreRejectedWithTheirPath) {
    Scene s = two_group_scene();
    Diagnostics d;
    auto r = apply_preset(s, json{{"environment", {{"substeps", 0}}}}, d);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("environment.substeps: 0 is out of range [1, 64]"));
    auto wrong = apply_preset(s, json{{"version", 3}}, d);
    ASSERT_FALSE(wrong.ok());
    EXPECT_THAT(wrong.error().message, HasSubstr("version: 3 is not supported"));
    auto section = apply_preset(s, simulation_preset(json::object()), d);
    ASSERT_FALSE(section.ok());
    EXPECT_THAT(section.error().message, HasSubstr("section preset"));
    auto unknown = apply_preset(s, json{{"view", {{"zoom", 2}}}}, d);
    ASSERT_TRUE(unknown.ok());
    ASSERT_EQ(d.items.size(), 1u);
    EXPECT_EQ(d.items[0].where, "view.zoom");
}

// A preset is a document from anywhere: wrong types in any top-level key are errors naming the key, never
// an exception out of the library (the CLI checks "format" first; apply_preset must not rely on it).
TEST(ScenePreset, WrongTypesAnywhereAreErrorsNotExceptions) {
    Scene s = two_group_scene();
    const json hostile[] = {
        {{"format", {{"a", 1}}}},  {{"format", 7}},          {{"format", json::array()}}, {{"version", "1"}},
        {{"units", {{"m", 1}}}},   {{"up_axis", 3}},         {{"meshes", 5}},             {{"meshes", {1, 2}}},
        {{"hair_groups", "x"}},    {{"environment", 1.5}},   {{"view", json::array()}},   {{"motion", "spin"}},
        {{"collision_meshes", {{{"mesh", 5}}}}},             {{"colliders", {nullptr}}},
    };
    for (const json& preset : hostile) {
        Diagnostics d;
        Result<Scene> r = make_error(ErrorCode::Cancelled, "not run");
        EXPECT_NO_THROW(r = apply_preset(s, preset, d)) << preset.dump();
        ASSERT_FALSE(r.ok()) << preset.dump() << " was accepted";
        EXPECT_THAT(r.error().message, HasSubstr(preset.begin().key())) << "the error names the key";
    }
}

TEST(SectionPreset, SimulationPresetChangesOnlyTheKeysItNames) {
    Scene s = two_group_scene();
    Scene before = s;
    Diagnostics d;
    ASSERT_TRUE(apply_section_preset(s, PresetKind::Simulation, 1, simulation_preset({{"damping", 0.3}, {"local_iterations", 7}}), d).ok());
    Scene expected = before;
    expected.hair_groups[1].simulation.damping = 0.3;
    expected.hair_groups[1].simulation.local_iterations = 7;
    EXPECT_TRUE(s == expected) << "group 0, group 1's other simulation keys and everything else must be untouched";
    EXPECT_EQ(s.hair_groups[1].simulation.global_stiffness, 0.7);
    EXPECT_EQ(s.hair_groups[0].simulation.damping, 0.11);
    EXPECT_EQ(s.origin.dir, before.origin.dir);
    EXPECT_TRUE(d.items.empty());
}

TEST(SectionPreset, OutOfRangeValueIsRejectedWithItsPathAndTheSceneIsUnchanged) {
    Scene s = two_group_scene();
    Scene before = s;
    Diagnostics d;
    auto r = apply_section_preset(s, PresetKind::Simulation, 0, simulation_preset({{"damping", 0.2}, {"local_iterations", 0}}), d);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("values.local_iterations: 0 is out of range [1, 32]"));
    EXPECT_TRUE(s == before);

    auto type = apply_section_preset(s, PresetKind::Simulation, 0, simulation_preset({{"enabled", "yes"}}), d);
    ASSERT_FALSE(type.ok());
    EXPECT_THAT(type.error().message, HasSubstr("values.enabled: must be true or false"));

    // References are checked against the scene once merged.
    auto dangling = apply_section_preset(s, PresetKind::Simulation, 0, simulation_preset({{"sdf", {"tail"}}}), d);
    ASSERT_FALSE(dangling.ok());
    EXPECT_THAT(dangling.error().message, HasSubstr("hair_groups[0].simulation.sdf[0]: no collision mesh named \"tail\""));
    EXPECT_TRUE(s == before);
}

TEST(SectionPreset, DocumentChecks) {
    Scene s = two_group_scene();
    Diagnostics d;
    json doc = simulation_preset({{"damping", 0.2}});
    auto kind = apply_section_preset(s, PresetKind::Shading, 0, doc, d);
    ASSERT_FALSE(kind.ok());
    EXPECT_THAT(kind.error().message, HasSubstr("kind: the preset is a \"simulation\" preset, not \"shading\""));
    auto group = apply_section_preset(s, PresetKind::Simulation, 2, doc, d);
    ASSERT_FALSE(group.ok());
    EXPECT_THAT(group.error().message, HasSubstr("hair_groups[2]: no such hair group"));

    json bad = doc;
    bad["format"] = "tressel-scene";
    EXPECT_THAT(parse_section_preset(bad, d).error().message, HasSubstr("format: \"tressel-scene\" is not a section preset"));
    bad = doc;
    bad["kind"] = "hairdo";
    EXPECT_THAT(parse_section_preset(bad, d).error().message, HasSubstr("kind: \"hairdo\" is not valid"));
    bad = doc;
    bad.erase("values");
    EXPECT_THAT(parse_section_preset(bad, d).error().message, HasSubstr("values: missing"));

    Diagnostics warnings;
    json extra = simulation_preset({{"dampnig", 0.2}});
    extra["author"] = "me";
    ASSERT_TRUE(parse_section_preset(extra, warnings).ok());
    std::vector<std::string> where;
    for (const auto& w : warnings.items) where.push_back(w.where);
    EXPECT_THAT(where, ::testing::UnorderedElementsAre("values.dampnig", "author"));
}

TEST(SectionPreset, CollisionPresetChangesEveryCollisionMeshButNotItsMesh) {
    Scene s = two_group_scene();
    Diagnostics d;
    json doc{{"format", "tressel-preset"}, {"kind", "collision"}, {"values", {{"margin", 0.002}, {"cells_x", 96}}}};
    ASSERT_TRUE(apply_section_preset(s, PresetKind::Collision, -1, doc, d).ok());
    ASSERT_EQ(s.collision_meshes.size(), 2u);
    EXPECT_EQ(s.collision_meshes[0].mesh, "head");
    EXPECT_EQ(s.collision_meshes[1].mesh, "body");
    for (const auto& cm : s.collision_meshes) {
        EXPECT_EQ(cm.margin_m, 0.002);
        EXPECT_EQ(cm.cells_x, 96);
    }
    EXPECT_EQ(s.collision_meshes[1].sign, SignMethod::Winding) << "keys the preset does not name stay";

    doc["values"]["mesh"] = "body";
    auto r = apply_section_preset(s, PresetKind::Collision, -1, doc, d);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("values.mesh"));
}

TEST(SectionPreset, MadePresetReproducesTheSection) {
    Scene from = two_group_scene();
    Scene to = two_group_scene();
    to.hair_groups[0].shading = Shading{};
    json doc = make_section_preset(from, PresetKind::Shading, 0);
    Diagnostics d;
    ASSERT_TRUE(apply_section_preset(to, PresetKind::Shading, 0, doc, d).ok());
    EXPECT_EQ(to.hair_groups[0].shading, from.hair_groups[0].shading);
    EXPECT_EQ(to.hair_groups[0].shading.kd, 0.3);
    EXPECT_FALSE(make_section_preset(from, PresetKind::Collision, 0)["values"].contains("mesh"));
}

TEST(SectionPreset, LoadingAFileValidatesWithThePath) {
    auto dir = test::scratch_dir("section_preset_file");
    test::write_text(dir / "stiff.json", simulation_preset({{"global_stiffness", 0.9}, {"vsp_coeff", 0.1}}).dump(2));
    Diagnostics d;
    auto ok = load_section_preset(dir / "stiff.json", d);
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    EXPECT_EQ(ok->kind, PresetKind::Simulation);
    EXPECT_EQ(ok->values["vsp_coeff"], 0.1);

    test::write_text(dir / "bad.json", simulation_preset({{"vsp_coeff", 1.5}}).dump(2));
    auto bad = load_section_preset(dir / "bad.json", d);
    ASSERT_FALSE(bad.ok());
    EXPECT_THAT(bad.error().message, HasSubstr("bad.json: values.vsp_coeff: 1.5 is out of range [0, 1]"));

    test::write_text(dir / "broken.json", "{\n\"format\": \"tressel-preset\"\n\"kind\": \"simulation\"}");
    auto broken = load_section_preset(dir / "broken.json", d);
    ASSERT_FALSE(broken.ok());
    EXPECT_THAT(broken.error().message, HasSubstr("broken.json:3:"));
}

}  // namespace
}  // namespace tressel
