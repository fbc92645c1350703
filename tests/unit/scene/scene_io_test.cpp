#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "scene/params.h"
#include "scene/scene_fields.h"
#include "scene/scene_io.h"
#include "scene/scene_json.h"
#include "scene_test_util.h"
#include "test_paths.h"

namespace tressel {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Sets every field to a random value inside its declared range (enums: a random enumerator), using
// the same walk as the reader and writer, so a round trip exercises every key of the format.
class Randomizer {
public:
    explicit Randomizer(uint32_t seed) : rng_(seed) {}
    std::string table;

    void tag(std::string_view, std::string_view) {}
    void field(std::string_view key, double& m) { m = uniform(decl(key)); }
    void field(std::string_view key, int& m) { m = static_cast<int>(integer(decl(key))); }
    void field(std::string_view key, uint32_t& m) { m = static_cast<uint32_t>(integer(decl(key))); }
    void field(std::string_view, bool& m) { m = coin(); }
    void field(std::string_view key, glm::dvec3& m) {
        const ParamDecl& d = decl(key);
        m = {uniform(d), uniform(d), uniform(d)};
    }
    void scale_field(std::string_view key, glm::dvec3& m) {
        field(key, m);
        if (coin()) m = glm::dvec3(m.x);  // also the uniform (number) spelling
    }
    void field(std::string_view key, std::string& m) {
        const ParamDecl& d = decl(key);
        if (d.type == ParamType::Enum) {
            std::vector<std::string> values{""};
            std::string_view rest = d.enum_values;
            while (!rest.empty()) {
                size_t bar = rest.find('|');
                values.emplace_back(rest.substr(0, bar));
                rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
            }
            m = values[pick(values.size())];
        } else {
            m = "name_" + std::to_string(pick(1000)) + (coin() ? "/sub dir/é.png" : "");
        }
    }
    void field(std::string_view, std::vector<std::string>& m) { m = {"x"}; }
    template <SceneEnum E>
    void field(std::string_view, E& m) { m = static_cast<E>(pick(EnumNames<E>::names.size())); }
    template <class S>
    void object(std::string_view key, S& s) {
        std::string saved = table;
        table = scene_json::join(table, key);
        scene_fields::describe(*this, s);
        table = saved;
    }
    template <class S>
    void array(std::string_view key, std::vector<S>& v) {
        std::string saved = table;
        table = scene_json::join(table, key) + "[]";
        for (auto& item : v) scene_fields::describe(*this, item);
        table = saved;
    }

private:
    const ParamDecl& decl(std::string_view key) const {
        const ParamDecl* d = find_param_table(table)->find(key);
        EXPECT_NE(d, nullptr) << table << "." << key;
        return *d;
    }
    double uniform(const ParamDecl& d) { return std::uniform_real_distribution<double>(d.min, d.max)(rng_); }
    int64_t integer(const ParamDecl& d) {
        return std::uniform_int_distribution<int64_t>(static_cast<int64_t>(d.min), static_cast<int64_t>(d.max))(rng_);
    }
    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
    bool coin() { return pick(2) == 1; }
    std::mt19937 rng_;
};

// A valid scene with every value random: two of each array element, references patched to exist.
Scene random_scene(uint32_t seed) {
    Scene s;
    s.meshes.resize(2);
    s.collision_meshes.resize(2);
    s.colliders.resize(2);
    s.hair_groups.resize(2);
    Randomizer r(seed);
    scene_fields::describe(r, s);
    for (int i = 0; i < 2; ++i) {
        std::string n = std::to_string(i);
        s.meshes[i].name = "mesh" + n;
        s.meshes[i].skeleton = i ? "mesh0" : "";
        s.collision_meshes[i].mesh = "mesh" + n;
        s.colliders[i].name = "collider" + n;
        s.colliders[i].attach_to = i ? "mesh0" : "";
        if (!i) s.colliders[i].attach_joint.clear();  // a joint needs the mesh whose skin has it
        HairGroup& g = s.hair_groups[i];
        g.name = "group" + n;
        g.scalp.mesh = "mesh" + n;
        g.simulation.gpu_vertices_per_strand = 16 << i;
        g.simulation.sdf = {"mesh1", "mesh0"};
        g.simulation.colliders = {"collider" + n};
    }
    s.motion.mesh = "mesh1";
    s.view.slice_mesh = "mesh0";
    s.view.slice_group = "group1";
    return s;
}

// ---- round trips ----------------------------------------------------------------------------------

TEST(SceneRoundTrip, RandomScenesSurviveJsonAndTextExactly) {
    for (uint32_t seed = 1; seed <= 20; ++seed) {
        Scene s = random_scene(seed);
        ASSERT_TRUE(validate_scene(s).ok()) << "seed " << seed << ": " << validate_scene(s).error().message;
        Diagnostics d;
        auto back = scene_from_json(scene_to_json(s), "", d);
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_TRUE(*back == s) << "seed " << seed << ": scene_to_json / scene_from_json changed a value";
        EXPECT_EQ(d.items.size(), 0u);

        std::string text = scene_to_text(s);
        auto reparsed = scene_from_json(json::parse(text), "", d);
        ASSERT_TRUE(reparsed.ok()) << reparsed.error().message;
        EXPECT_TRUE(*reparsed == s) << "seed " << seed << ": doubles did not survive the text form";
        EXPECT_EQ(scene_to_text(*reparsed), text);
    }
}

TEST(SceneRoundTrip, SaveLoadSaveIsIdenticalAndKeepsPathsAsWritten) {
    auto dir = test::scratch_dir("scene_roundtrip");
    Scene s = random_scene(99);
    s.meshes[0].path = "assets/head.fbx";
    s.meshes[1].path = "/abs/body.obj";
    ASSERT_TRUE(save_scene(s, dir / "a.json").ok());
    auto loaded = load_scene(dir / "a.json");
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_TRUE(loaded->scene == s);
    EXPECT_TRUE(loaded->diagnostics.items.empty());
    EXPECT_EQ(loaded->scene.meshes[0].path, "assets/head.fbx");
    EXPECT_EQ(loaded->scene.meshes[1].path, "/abs/body.obj");

    ASSERT_TRUE(save_scene(loaded->scene, dir / "b.json").ok());
    auto a = read_file_text(dir / "a.json");
    auto b = read_file_text(dir / "b.json");
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*a, *b) << "re-saving a loaded scene must give the same bytes";
    EXPECT_NE(a->find("\"assets/head.fbx\""), std::string::npos);
}

TEST(SceneRoundTrip, TextStartsWithFormatAndVersionInDeclarationOrder) {
    std::string text = scene_to_text(Scene{});
    size_t format = text.find("\"format\""), version = text.find("\"version\""), view = text.find("\"view\"");
    ASSERT_NE(format, std::string::npos);
    EXPECT_LT(format, version);
    EXPECT_LT(version, view);
    EXPECT_EQ(text.back(), '\n');
}

TEST(SceneRoundTrip, ScaleIsANumberWhenUniform) {
    json doc = test::minimal_scene_doc();
    doc["meshes"][0]["transform"] = {{"scale", 0.5}};
    Diagnostics d;
    auto s = scene_from_json(doc, "", d);
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->meshes[0].transform.scale, glm::dvec3(0.5));
    EXPECT_TRUE(scene_to_json(*s)["meshes"][0]["transform"]["scale"].is_number());
    s->meshes[0].transform.scale = {1, 2, 3};
    EXPECT_EQ(scene_to_json(*s)["meshes"][0]["transform"]["scale"], json::array({1.0, 2.0, 3.0}));
}

TEST(SceneLoad, MissingKeysTakeTheDefaults) {
    Diagnostics d;
    auto s = scene_from_json(test::minimal_scene_doc(), "", d);
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->hair_groups[0].growth, Growth{});
    EXPECT_EQ(s->hair_groups[0].shading, Shading{});
    EXPECT_EQ(s->environment, Environment{});
    EXPECT_EQ(s->view, View{});
    EXPECT_EQ(s->collision_meshes[0].cells_x, CollisionMesh{}.cells_x);
    EXPECT_EQ(s->colliders[0].type, ColliderType::Capsule);
    EXPECT_TRUE(d.items.empty());
}

// ---- validation: one test per class of error ------------------------------------------------------

TEST(SceneValidation, WrongTypeNamesThePath) {
    json doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["damping"] = "high";
    std::string e = test::load_error(doc);
    EXPECT_THAT(e, HasSubstr("hair_groups[0].simulation.damping"));
    EXPECT_THAT(e, HasSubstr("must be a number"));

    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["local_iterations"] = 2.5;
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].simulation.local_iterations: must be an integer"));

    doc = test::minimal_scene_doc();
    doc["colliders"][0]["p0"] = {0, 1};
    EXPECT_THAT(test::load_error(doc), HasSubstr("colliders[0].p0: must be an array of 3 numbers"));

    doc = test::minimal_scene_doc();
    doc["view"]["show_grid"] = 1;
    EXPECT_THAT(test::load_error(doc), HasSubstr("view.show_grid: must be true or false"));

    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["growth"] = json::array();
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].growth: must be an object"));

    doc = test::minimal_scene_doc();
    doc["meshes"] = {{"name", "x"}};
    EXPECT_THAT(test::load_error(doc), HasSubstr("meshes: must be an array of objects"));

    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["sdf"] = "head";
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].simulation.sdf: must be an array of names"));
}

TEST(SceneValidation, OutOfRangeGivesThePathAndTheRange) {
    json doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["local_iterations"] = 0;
    std::string e = test::load_error(doc);
    EXPECT_THAT(e, HasSubstr("hair_groups[0].simulation.local_iterations"));
    EXPECT_THAT(e, HasSubstr("0 is out of range [1, 32]"));

    doc = test::minimal_scene_doc();
    doc["collision_meshes"][0]["margin"] = -0.001;
    EXPECT_THAT(test::load_error(doc), HasSubstr("collision_meshes[0].margin: -0.001 is out of range [0, 1] m"));

    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["shading"]["root_color"] = {0.1, 2.0, 0.1};
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].shading.root_color[1]: 2 is out of range [0, 1]"));

    // Boundaries are inclusive.
    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["local_iterations"] = 32;
    doc["hair_groups"][0]["simulation"]["damping"] = 1.0;
    EXPECT_EQ(test::load_error(doc), "");

    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["growth"]["seed"] = 4294967296ull;
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].growth.seed: 4294967296 is out of range"));
}

TEST(SceneValidation, NonFiniteNumbersAreRejected) {
    json doc = test::minimal_scene_doc();
    doc["environment"]["gravity"] = {0.0, -std::numeric_limits<double>::infinity(), 0.0};
    EXPECT_THAT(test::load_error(doc), HasSubstr("environment.gravity[1]: must be a finite number"));
    doc = test::minimal_scene_doc();
    doc["view"]["distance"] = std::nan("");
    EXPECT_THAT(test::load_error(doc), HasSubstr("view.distance: must be a finite number"));

    // JSON text cannot hold inf, but a huge literal overflows double: refused with its line.
    auto dir = test::scratch_dir("scene_overflow");
    test::write_text(dir / "big.json", "{\n  \"format\": \"tressel-scene\",\n  \"version\": 1,\n  \"view\": { \"distance\": 1e400 }\n}\n");
    auto r = load_scene(dir / "big.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::Parse);
    EXPECT_THAT(r.error().message, HasSubstr("big.json:4:"));
    EXPECT_THAT(r.error().message, HasSubstr("1e400"));
}

TEST(SceneValidation, BadEnumStringListsTheChoices) {
    json doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["follow"]["mode"] = "Barycentric";
    std::string e = test::load_error(doc);
    EXPECT_THAT(e, HasSubstr("hair_groups[0].follow.mode"));
    EXPECT_THAT(e, HasSubstr("\"barycentric\""));

    doc = test::minimal_scene_doc();
    doc["collision_meshes"][0]["sign"] = 2;
    EXPECT_THAT(test::load_error(doc), HasSubstr("collision_meshes[0].sign: a number is not one of"));

    doc = test::minimal_scene_doc();
    doc["meshes"][0]["units"] = "furlong";
    EXPECT_THAT(test::load_error(doc), HasSubstr("meshes[0].units: \"furlong\" is not one of"));
    doc["meshes"][0]["units"] = "cm";
    EXPECT_EQ(test::load_error(doc), "");
}

TEST(SceneValidation, FormatAndVersion) {
    json doc = test::minimal_scene_doc();
    doc.erase("format");
    EXPECT_THAT(test::load_error(doc), HasSubstr("format: missing"));
    doc["format"] = "tressel-preset";
    EXPECT_THAT(test::load_error(doc), HasSubstr("format: \"tressel-preset\" is not a scene file"));

    doc = test::minimal_scene_doc();
    doc["version"] = 2;
    Diagnostics d;
    auto r = scene_from_json(doc, "", d);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::Unsupported);
    EXPECT_THAT(r.error().message, HasSubstr("version: 2 is not supported"));
    doc.erase("version");
    EXPECT_THAT(test::load_error(doc), HasSubstr("version: missing"));
    EXPECT_THAT(test::load_error(json::array()), HasSubstr("must be a JSON object"));
}

// A skeletal clip: its keys load, round-trip through save, and are range-checked like every other key.
TEST(SceneValidation, AnimationMotionLoadsWithItsTiming) {
    json doc = test::minimal_scene_doc();
    doc["motion"] = {{"type", "animation"}, {"mesh", "head"}, {"animation", "walk"}, {"animation_start_s", 0.75},
                     {"animation_speed", 1.5},  {"animation_loop", false}};
    Diagnostics d;
    auto r = scene_from_json(doc, "", d);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->motion.type, MotionType::Animation);
    EXPECT_EQ(r->motion.animation, "walk");
    EXPECT_EQ(r->motion.animation_start_s, 0.75);
    EXPECT_EQ(r->motion.animation_speed, 1.5);
    EXPECT_FALSE(r->motion.animation_loop);
    EXPECT_TRUE(validate_scene(*r).ok());

    auto dir = test::scratch_dir("scene_animation_motion");
    ASSERT_TRUE(save_scene(*r, dir / "walk.json").ok());
    auto loaded = load_scene(dir / "walk.json");
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->scene.motion, r->motion);

    Diagnostics defaults;
    json bare = test::minimal_scene_doc();
    bare["motion"] = {{"type", "animation"}};
    auto b = scene_from_json(bare, "", defaults);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->motion.animation_start_s, 0.0);
    EXPECT_EQ(b->motion.animation_speed, 1.0);
    EXPECT_TRUE(b->motion.animation_loop);

    doc["motion"]["animation_speed"] = 0.0;
    EXPECT_THAT(test::load_error(doc), HasSubstr("motion.animation_speed: 0 is out of range"));
    doc["motion"]["animation_speed"] = 1.0;
    doc["motion"]["animation_start_s"] = -1.0;
    EXPECT_THAT(test::load_error(doc), HasSubstr("motion.animation_start_s: -1 is out of range"));
    doc["motion"]["animation_start_s"] = 0.0;
    doc["motion"]["mesh"] = "nobody";
    EXPECT_THAT(test::load_error(doc), HasSubstr("motion.mesh"));
}

TEST(SceneValidation, DuplicateAndEmptyNames) {
    json doc = test::minimal_scene_doc();
    doc["meshes"].push_back({{"name", "head"}, {"path", "other.obj"}});
    std::string e = test::load_error(doc);
    EXPECT_THAT(e, HasSubstr("meshes[1].name: duplicate name \"head\""));
    EXPECT_THAT(e, HasSubstr("meshes[0].name"));

    doc = test::minimal_scene_doc();
    doc["hair_groups"].push_back(doc["hair_groups"][0]);
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[1].name: duplicate name \"main\""));

    doc = test::minimal_scene_doc();
    doc["colliders"].push_back({{"name", "neck"}});
    EXPECT_THAT(test::load_error(doc), HasSubstr("colliders[1].name: duplicate"));

    doc = test::minimal_scene_doc();
    doc["collision_meshes"].push_back({{"mesh", "head"}});
    EXPECT_THAT(test::load_error(doc), HasSubstr("collision_meshes[1].mesh: mesh \"head\" already has a collision mesh"));

    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["sdf"] = {"head", "head"};
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].simulation.sdf[1]: \"head\" is listed twice"));

    doc = test::minimal_scene_doc();
    doc["meshes"][0].erase("name");
    EXPECT_THAT(test::load_error(doc), HasSubstr("meshes[0].name: is required"));
    doc = test::minimal_scene_doc();
    doc["meshes"][0]["path"] = "";
    EXPECT_THAT(test::load_error(doc), HasSubstr("meshes[0].path: is required"));
}

TEST(SceneValidation, DanglingReferences) {
    struct Case {
        std::function<void(json&)> edit;
        std::string expected;
    };
    std::vector<Case> cases{
        {[](json& d) { d["collision_meshes"][0]["mesh"] = "body"; }, "collision_meshes[0].mesh: no mesh named \"body\" (known: \"head\")"},
        {[](json& d) { d["hair_groups"][0]["scalp"]["mesh"] = "scalp"; }, "hair_groups[0].scalp.mesh: no mesh named \"scalp\""},
        {[](json& d) { d["hair_groups"][0]["simulation"]["sdf"] = {"body"}; }, "hair_groups[0].simulation.sdf[0]: no collision mesh named \"body\""},
        {[](json& d) { d["hair_groups"][0]["simulation"]["colliders"] = {"neck", "chin"}; },
         "hair_groups[0].simulation.colliders[1]: no collider named \"chin\""},
        {[](json& d) { d["colliders"][0]["attach_to"] = "torso"; }, "colliders[0].attach_to: no mesh named \"torso\""},
        {[](json& d) { d["motion"] = {{"type", "procedural"}, {"mesh", "torso"}}; }, "motion.mesh: no mesh named \"torso\""},
        {[](json& d) { d["meshes"][0]["skeleton"] = "rig"; }, "meshes[0].skeleton: no mesh named \"rig\""},
        {[](json& d) { d["meshes"][0]["skeleton"] = "head"; }, "meshes[0].skeleton: names the mesh itself"},
        {[](json& d) { d["view"]["slice_mesh"] = "torso"; }, "view.slice_mesh: no collision mesh named \"torso\""},
        {[](json& d) { d["hair_groups"][0]["scalp"].erase("mesh"); }, "hair_groups[0].scalp.mesh: is required"},
        // An accessory's mesh, the mesh it is pinned to, its fields and colliders must all exist.
        {[](json& d) { d["accessories"][0]["mesh"] = "kerchief"; }, "accessories[0].mesh: no mesh named \"kerchief\" (known: \"head\")"},
        {[](json& d) { d["accessories"][0].erase("mesh"); }, "accessories[0].mesh: is required"},
        {[](json& d) { d["accessories"][0]["attach"] = "torso"; }, "accessories[0].attach: no mesh named \"torso\""},
        {[](json& d) { d["accessories"][0]["sdf"] = {"head", "body"}; }, "accessories[0].sdf[1]: no collision mesh named \"body\""},
        {[](json& d) { d["accessories"][0]["colliders"] = {"chin"}; }, "accessories[0].colliders[0]: no collider named \"chin\""},
    };
    for (const auto& c : cases) {
        json doc = test::minimal_scene_doc();
        c.edit(doc);
        EXPECT_THAT(test::load_error(doc), HasSubstr(c.expected));
    }
    // A collision mesh on a mesh that has none is not a valid sdf reference either.
    json doc = test::minimal_scene_doc();
    doc["meshes"].push_back({{"name", "body"}, {"path", "body.obj"}});
    doc["hair_groups"][0]["simulation"]["sdf"] = {"body"};
    EXPECT_THAT(test::load_error(doc), HasSubstr("no collision mesh named \"body\" (known: \"head\")"));
}

TEST(SceneValidation, CrossFieldRules) {
    json doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["gpu_vertices_per_strand"] = 12;
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].simulation.gpu_vertices_per_strand: 12 is not one of 4, 8, 16, 32, 64"));
    for (int n : {4, 8, 16, 32, 64}) {
        doc["hair_groups"][0]["simulation"]["gpu_vertices_per_strand"] = n;
        EXPECT_EQ(test::load_error(doc), "") << n;
    }

    doc = test::minimal_scene_doc();
    doc["colliders"][0]["p1"] = doc["colliders"][0]["p0"];  // a degenerate capsule is a sphere: fine
    EXPECT_EQ(test::load_error(doc), "");
    doc["colliders"][0]["radius"] = 0.0;
    EXPECT_THAT(test::load_error(doc), HasSubstr("colliders[0].radius: 0 is out of range"));

    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["scalp"]["region"] = {{"type", "cap"}, {"axis", {0, 0, 0}}};
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].scalp.region.axis: must not be [0, 0, 0]"));
    doc["hair_groups"][0]["scalp"]["region"]["type"] = "whole";  // the axis is unused then
    EXPECT_EQ(test::load_error(doc), "");

    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["scalp"]["region"] = {{"type", "uv_mask"}};
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].scalp.region.mask_path: is required"));
    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["growth"] = {{"placement", "file"}};
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].growth.guide_file: is required"));
    doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["growth"] = {{"comb", 0.5}, {"comb_direction", {0, 0, 0}}};
    EXPECT_THAT(test::load_error(doc), HasSubstr("hair_groups[0].growth.comb_direction"));
    doc = test::minimal_scene_doc();
    doc["environment"]["wind"] = {{"speed", 2.0}, {"direction", {0, 0, 0}}};
    EXPECT_THAT(test::load_error(doc), HasSubstr("environment.wind.direction"));
    doc = test::minimal_scene_doc();
    doc["lighting"]["fill"]["direction"] = {0, 0, 0};
    EXPECT_THAT(test::load_error(doc), HasSubstr("lighting.fill.direction"));
    doc = test::minimal_scene_doc();
    doc["meshes"][0]["transform"]["scale"] = 0;
    EXPECT_THAT(test::load_error(doc), HasSubstr("meshes[0].transform.scale: 0 is out of range"));
    doc["meshes"][0]["transform"]["scale"] = {1, -1, 1};
    EXPECT_THAT(test::load_error(doc), HasSubstr("meshes[0].transform.scale[1]: -1 is out of range"));
}

TEST(SceneValidation, UnknownKeysWarnWithTheirPathAndStillLoad) {
    json doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["dampnig"] = 0.5;
    doc["editor_notes"] = "hello";
    doc["meshes"][0]["transform"] = {{"translate", {0, 1, 0}}, {"skew", 1}};
    Diagnostics d;
    auto s = scene_from_json(doc, "", d);
    ASSERT_TRUE(s.ok()) << s.error().message;
    ASSERT_EQ(d.items.size(), 3u);
    std::vector<std::string> where;
    for (const auto& item : d.items) {
        EXPECT_EQ(item.severity, Severity::Warning);
        EXPECT_THAT(item.message, HasSubstr("unknown key"));
        where.push_back(item.where);
    }
    EXPECT_THAT(where, ::testing::UnorderedElementsAre("hair_groups[0].simulation.dampnig", "editor_notes", "meshes[0].transform.skew"));
    EXPECT_EQ(s->hair_groups[0].simulation.damping, SimulationParams{}.damping);
    EXPECT_EQ(s->meshes[0].transform.translate_m, glm::dvec3(0, 1, 0));
}

TEST(SceneValidation, ValidateSceneChecksInMemoryEdits) {
    Diagnostics d;
    auto s = scene_from_json(test::minimal_scene_doc(), "", d);
    ASSERT_TRUE(s.ok());
    EXPECT_TRUE(validate_scene(*s).ok());
    s->hair_groups[0].simulation.global_stiffness = 1.5;
    auto r = validate_scene(*s);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("hair_groups[0].simulation.global_stiffness: 1.5 is out of range [0, 1]"));
}

// ---- files ------------------------------------------------------------------------------------------

TEST(SceneFile, MissingEmptyAndInvalidFiles) {
    auto dir = test::scratch_dir("scene_files");
    auto missing = load_scene(dir / "nope.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
    EXPECT_THAT(missing.error().message, HasSubstr("nope.json"));

    test::write_text(dir / "empty.json", "  \n");
    auto empty = load_scene(dir / "empty.json");
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.error().code, ErrorCode::Parse);
    EXPECT_THAT(empty.error().message, HasSubstr("empty.json: the file is empty"));

    // Line 4 holds the error (a trailing comma): parsing stops at the "]" after it, column 19.
    test::write_text(dir / "bad.json", "{\n  \"format\": \"tressel-scene\",\n  \"version\": 1,\n  \"meshes\": [ {}, ]\n}\n");
    auto bad = load_scene(dir / "bad.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::Parse);
    EXPECT_THAT(bad.error().message, HasSubstr("bad.json:4:19: invalid JSON"));
    EXPECT_THAT(bad.error().message, ::testing::Not(HasSubstr("json.exception")));

    test::write_text(dir / "cut.json", "{\n  \"format\": \"tressel-scene\",\n  \"ver");
    auto cut = load_scene(dir / "cut.json");
    ASSERT_FALSE(cut.ok());
    EXPECT_THAT(cut.error().message, HasSubstr("cut.json:3:"));
}

TEST(SceneFile, ContentErrorsNameTheFileAndThePath) {
    auto dir = test::scratch_dir("scene_content_error");
    json doc = test::minimal_scene_doc();
    doc["hair_groups"][0]["simulation"]["local_iterations"] = 100;
    test::write_text(dir / "s.json", doc.dump(2));
    auto r = load_scene(dir / "s.json");
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("s.json: hair_groups[0].simulation.local_iterations: 100 is out of range"));
}

TEST(SceneFile, RelativePathsResolveAgainstTheSceneFolder) {
    auto dir = test::scratch_dir("scene_paths");
    fs::create_directories(dir / "shots" / "assets");
    json doc = test::minimal_scene_doc();
    doc["meshes"][0]["path"] = "assets/head.obj";
    doc["meshes"].push_back({{"name", "abs"}, {"path", "/data/abs.obj"}});
    test::write_text(dir / "shots" / "scene.json", doc.dump(2));
    auto r = load_scene(dir / "shots" / "scene.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Scene& s = r->scene;
    EXPECT_TRUE(s.origin.dir.is_absolute());
    EXPECT_TRUE(fs::equivalent(s.origin.dir, dir / "shots"));
    EXPECT_EQ(s.resolve(s.meshes[0].path), s.origin.dir / "assets" / "head.obj");
    EXPECT_EQ(s.resolve(s.meshes[1].path), fs::path("/data/abs.obj"));
    EXPECT_EQ(s.meshes[0].path, "assets/head.obj") << "paths are kept as written";
}

TEST(SceneFile, SaveIsAtomic) {
    auto dir = test::scratch_dir("scene_atomic");
    Scene s = random_scene(5);
    auto failed = save_scene(s, dir / "missing_dir" / "scene.json");
    ASSERT_FALSE(failed.ok());
    EXPECT_FALSE(fs::exists(dir / "missing_dir"));
    EXPECT_TRUE(fs::is_empty(dir)) << "a failed save leaves nothing behind";

    ASSERT_TRUE(save_scene(s, dir / "scene.json").ok());
    s.view.distance_m = 2.5;
    ASSERT_TRUE(save_scene(s, dir / "scene.json").ok());
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    EXPECT_THAT(names, ::testing::ElementsAre("scene.json")) << "no *.tmp-* may be left behind";
    auto back = load_scene(dir / "scene.json");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->scene.view.distance_m, 2.5);
}

}  // namespace
}  // namespace tressel
