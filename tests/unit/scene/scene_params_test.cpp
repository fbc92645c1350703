#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>

#include "core/file_io.h"
#include "param_slots.h"
#include "scene/param_check.h"
#include "scene/param_decls.h"
#include "scene/params.h"
#include "scene/scene_fields.h"
#include "scene/scene_json.h"
#include "scene/scene_schema.h"
#include "scene_test_util.h"
#include "test_paths.h"

namespace tressel {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

ParamType expected_type(double) { return ParamType::Float; }
ParamType expected_type(int) { return ParamType::Int; }
ParamType expected_type(uint32_t) { return ParamType::Int; }
ParamType expected_type(const std::vector<std::string>&) { return ParamType::StringList; }

// Walks a scene (with one element in every array) and checks each member against its declaration:
// the declaration exists, its type fits the member, the default the table shows is the C++ default
// (scene_param_tables() reads it from the member, so this guards that reading), defaults lie inside
// the declared range, enum spellings match.
struct DeclChecker {
    std::string table;
    std::set<std::pair<std::string, std::string>> visited;
    std::set<std::string> tables;
    int numeric_defaults_checked = 0;

    const ParamDecl* decl(std::string_view key) {
        visited.emplace(table, std::string(key));
        tables.insert(table);
        const ParamTable* t = find_param_table(table);
        if (!t) {
            ADD_FAILURE() << "no ParamTable \"" << table << "\"";
            return nullptr;
        }
        const ParamDecl* d = t->find(key);
        if (!d) ADD_FAILURE() << "no ParamDecl for " << table << "." << key;
        return d;
    }
    std::string where(std::string_view key) const { return scene_json::join(table, key); }

    void tag(std::string_view key, std::string_view) {
        if (auto* d = decl(key)) {
            EXPECT_EQ(d->type, ParamType::String) << where(key);
        }
    }
    template <class T>
    void numeric(std::string_view key, const ParamDecl& d, T member) {
        EXPECT_EQ(static_cast<double>(member), d.default_value) << where(key) << ": the ParamDecl default differs from scene_types.h";
        EXPECT_GE(static_cast<double>(member), d.min) << where(key);
        EXPECT_LE(static_cast<double>(member), d.max) << where(key);
        EXPECT_LE(d.min, d.max) << where(key);
        ++numeric_defaults_checked;
    }
    void field(std::string_view key, double& m) {
        if (auto* d = decl(key)) {
            EXPECT_EQ(d->type, expected_type(m)) << where(key);
            numeric(key, *d, m);
        }
    }
    void field(std::string_view key, int& m) {
        if (auto* d = decl(key)) {
            EXPECT_EQ(d->type, expected_type(m)) << where(key);
            numeric(key, *d, m);
        }
    }
    void field(std::string_view key, uint32_t& m) {
        if (auto* d = decl(key)) {
            EXPECT_EQ(d->type, expected_type(m)) << where(key);
            numeric(key, *d, m);
        }
    }
    void field(std::string_view key, bool& m) {
        if (auto* d = decl(key)) {
            EXPECT_EQ(d->type, ParamType::Bool) << where(key);
            EXPECT_EQ(m ? 1.0 : 0.0, d->default_value) << where(key) << ": the ParamDecl default differs from scene_types.h";
            ++numeric_defaults_checked;
        }
    }
    void field(std::string_view key, glm::dvec3& m) {
        if (auto* d = decl(key)) {
            EXPECT_EQ(d->type, ParamType::Vec3) << where(key);
            for (int i = 0; i < 3; ++i) {
                EXPECT_GE(m[i], d->min) << where(key) << "[" << i << "] default outside the declared range";
                EXPECT_LE(m[i], d->max) << where(key) << "[" << i << "] default outside the declared range";
            }
        }
    }
    void scale_field(std::string_view key, glm::dvec3& m) { field(key, m); }
    void field(std::string_view key, std::string& m) {
        if (auto* d = decl(key)) {
            EXPECT_TRUE(d->type == ParamType::String || d->type == ParamType::Path || d->type == ParamType::Enum) << where(key);
            EXPECT_EQ(m, "") << where(key);
            if (d->type == ParamType::Enum) {
                // String members declared as enums name a LengthUnit or an UpAxis ("" = inherit).
                EXPECT_TRUE(d->enum_values == enum_values_joined<LengthUnit>() || d->enum_values == enum_values_joined<UpAxis>()) << where(key);
            }
        }
    }
    void field(std::string_view key, std::vector<std::string>& m) {
        if (auto* d = decl(key)) {
            EXPECT_EQ(d->type, expected_type(m)) << where(key);
        }
    }
    template <SceneEnum E>
    void field(std::string_view key, E& m) {
        if (auto* d = decl(key)) {
            EXPECT_EQ(d->type, ParamType::Enum) << where(key);
            EXPECT_EQ(std::string(d->enum_values), enum_values_joined<E>()) << where(key);
            EXPECT_NE(enum_to_string(m), "") << where(key);
        }
    }
    template <class S>
    void object(std::string_view key, S& s) {
        std::string saved = table;
        table = scene_json::join(table, key);
        tables.insert(table);
        scene_fields::describe(*this, s);
        table = saved;
    }
    template <class S>
    void array(std::string_view key, std::vector<S>& v) {
        ASSERT_EQ(v.size(), 1u);
        std::string saved = table;
        table = scene_json::join(table, key) + "[]";
        tables.insert(table);
        scene_fields::describe(*this, v[0]);
        table = saved;
    }
};

TEST(SceneParams, EveryFieldIsDeclaredAndDefaultsMatchTheStructs) {
    Scene s = scene_json::one_of_each_scene();
    DeclChecker c;
    scene_fields::describe(c, s);
    int numeric_decls = 0;
    for (const ParamTable& t : scene_param_tables())
        for (const ParamDecl& d : t.decls)
            numeric_decls += d.type == ParamType::Float || d.type == ParamType::Int || d.type == ParamType::Bool;
    EXPECT_EQ(c.numeric_defaults_checked, numeric_decls) << "every numeric and boolean declaration must be compared with its member";

    // The other direction: every declaration is walked (no stale or misspelt decl), every table reached.
    std::set<std::string> declared_tables;
    for (const ParamTable& t : scene_param_tables()) {
        declared_tables.insert(std::string(t.path));
        std::set<std::string> keys;
        for (const ParamDecl& d : t.decls) {
            EXPECT_TRUE(keys.insert(std::string(d.key)).second) << "duplicate key " << t.path << "." << d.key;
            EXPECT_TRUE(c.visited.count({std::string(t.path), std::string(d.key)}))
                << t.path << "." << d.key << " is declared but no member maps to it";
            EXPECT_FALSE(d.meaning.empty()) << t.path << "." << d.key;
        }
    }
    EXPECT_EQ(declared_tables, c.tables);
}

// Number of members of an aggregate, found by brace-initialising it with ever more "anything" values.
struct AnyValue {
    template <class T>
    operator T() const;  // never defined: only used in unevaluated requires-expressions
};
template <class T, class... A>
constexpr size_t member_count() {
    if constexpr (requires { T{A{}..., AnyValue{}}; })
        return member_count<T, A..., AnyValue>();
    else
        return sizeof...(A);
}

// Counts the keys a walk maps to members of one struct (nested objects count once).
struct KeyCounter {
    size_t n = 0;
    void tag(std::string_view, std::string_view) {}  // "format" is a constant, not a member
    template <class T>
    void field(std::string_view, T&) { ++n; }
    void scale_field(std::string_view, glm::dvec3&) { ++n; }
    template <class S>
    void object(std::string_view, S&) { ++n; }
    template <class S>
    void array(std::string_view, std::vector<S>&) { ++n; }
};
template <class S>
size_t walked_members() {
    S s{};
    KeyCounter c;
    scene_fields::describe(c, s);
    return c.n;
}

// A member added to scene_types.h must also get a key in scene_fields.h (and a ParamDecl), or it
// would silently not be saved.
TEST(SceneParams, EveryStructMemberIsMappedToAKey) {
    EXPECT_EQ(member_count<Transform>(), walked_members<Transform>());
    EXPECT_EQ(member_count<MeshRef>(), walked_members<MeshRef>());
    EXPECT_EQ(member_count<CollisionMesh>(), walked_members<CollisionMesh>());
    EXPECT_EQ(member_count<Collider>(), walked_members<Collider>());
    EXPECT_EQ(member_count<ScalpRegion>(), walked_members<ScalpRegion>());
    // Scalp::painted (scalp paint held in memory until saved to scalp.paint), as Growth::edited below.
    EXPECT_EQ(member_count<Scalp>(), walked_members<Scalp>() + 1);
    // Growth::edited (brushed guides held in memory until saved to guide_file) is the one member that is
    // deliberately not part of the file.
    EXPECT_EQ(member_count<Growth>(), walked_members<Growth>() + 1);
    EXPECT_EQ(member_count<Follow>(), walked_members<Follow>());
    EXPECT_EQ(member_count<Smoothing>(), walked_members<Smoothing>());
    EXPECT_EQ(member_count<SimulationParams>(), walked_members<SimulationParams>());
    EXPECT_EQ(member_count<Shading>(), walked_members<Shading>());
    EXPECT_EQ(member_count<HairGroup>(), walked_members<HairGroup>());
    EXPECT_EQ(member_count<Wind>(), walked_members<Wind>());
    EXPECT_EQ(member_count<Environment>(), walked_members<Environment>());
    EXPECT_EQ(member_count<Motion>(), walked_members<Motion>());
    EXPECT_EQ(member_count<Light>(), walked_members<Light>());
    EXPECT_EQ(member_count<Lighting>(), walked_members<Lighting>());
    EXPECT_EQ(member_count<View>(), walked_members<View>());
    // Scene::origin (the folder paths resolve against) is deliberately not saved.
    EXPECT_EQ(member_count<Scene>(), walked_members<Scene>() + 1);
}

// The defaults are written once, in scene_types.h: no constant declaration carries one, and the
// tables everyone reads are those declarations with the member defaults filled in, nothing else changed.
TEST(SceneParams, DeclarationsWriteNoDefaultsTheTablesReadThemFromTheStructs) {
    auto tables = scene_param_tables();
    ASSERT_EQ(tables.size(), param_decls::kTables.size());
    for (size_t i = 0; i < tables.size(); ++i) {
        const ParamTable& c = param_decls::kTables[i];
        const ParamTable& t = tables[i];
        EXPECT_EQ(t.path, c.path);
        EXPECT_EQ(t.meaning, c.meaning);
        ASSERT_EQ(t.decls.size(), c.decls.size()) << c.path;
        EXPECT_EQ(find_param_table(c.path), &t);
        for (size_t k = 0; k < c.decls.size(); ++k) {
            const ParamDecl& cd = c.decls[k];
            const ParamDecl& td = t.decls[k];
            std::string where = scene_json::join(c.path, cd.key);
            EXPECT_TRUE(std::isnan(cd.default_value)) << where << ": a default written in param_decls.h; write it in scene_types.h only";
            EXPECT_EQ(td.key, cd.key) << where;
            EXPECT_EQ(td.type, cd.type) << where;
            EXPECT_EQ(td.unit, cd.unit) << where;
            EXPECT_EQ(td.min, cd.min) << where;
            EXPECT_EQ(td.max, cd.max) << where;
            EXPECT_EQ(td.meaning, cd.meaning) << where;
            EXPECT_EQ(td.tressfx, cd.tressfx) << where;
            EXPECT_EQ(td.enum_values, cd.enum_values) << where;
            const bool numeric = cd.type == ParamType::Float || cd.type == ParamType::Int || cd.type == ParamType::Bool;
            EXPECT_EQ(std::isnan(td.default_value), !numeric) << where;
        }
    }
    EXPECT_EQ(find_param_table("hair_groups[].simulation")->find("damping")->default_value, SimulationParams{}.damping);
    EXPECT_EQ(find_param_table("environment")->find("substeps")->default_value, Environment{}.substeps);
    EXPECT_EQ(find_param_table("view")->find("show_grid")->default_value, View{}.show_grid ? 1.0 : 0.0);
}

TEST(SceneParams, LightTablesCarryTheirOwnDefaults) {
    // key and fill share a struct but not their defaults: each table must match its own instance.
    const ParamDecl* key = find_param_table("lighting.key")->find("intensity");
    const ParamDecl* fill = find_param_table("lighting.fill")->find("intensity");
    ASSERT_TRUE(key && fill);
    EXPECT_EQ(key->default_value, Lighting{}.key.intensity);
    EXPECT_EQ(fill->default_value, Lighting{}.fill.intensity);
    EXPECT_NE(key->default_value, fill->default_value);
}

// Every declared range is the one enforced, at its exact bounds: for each number and vector component
// of a valid scene, the bound itself passes, and the nearest value outside it (and NaN) fails, with the
// same message from loading (validate_scene reads the scene back as JSON) and from check_params, the
// check the simulation runs on its inputs.
TEST(ParamCheck, EveryDeclaredRangeIsTheOneEnforced) {
    Diagnostics diag;
    auto loaded = scene_from_json(test::minimal_scene_doc(), "/scenes", diag);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    Scene s = *loaded;
    ASSERT_TRUE(check_params(s).ok());
    auto slots = test::number_slots(s, "", "");

    // Every declared number and vector of every table has a slot (the scene has one of each element).
    size_t declared = 0;
    for (const ParamTable& t : param_decls::kTables)
        for (const ParamDecl& d : t.decls) declared += d.type == ParamType::Vec3 ? 3 : d.type == ParamType::Float || d.type == ParamType::Int;
    EXPECT_EQ(slots.size(), declared);

    int outside_checked = 0;
    for (const test::NumberSlot& slot : slots) {
        const double saved = slot.get();
        const bool version = slot.path == "version";  // the loader refuses other versions before any range
        for (double bound : {slot.decl->min, slot.decl->max}) {
            slot.set(bound);
            Status st = check_params(s);
            EXPECT_TRUE(st.ok()) << slot.path << " = " << bound << ": " << st.error().message;
            if (!version) {
                Status loaded_st = validate_scene(s);
                EXPECT_TRUE(loaded_st.ok()) << slot.path << " = " << bound << ": " << loaded_st.error().message;
            }
        }
        std::vector<double> outside;
        if (auto v = test::just_below(slot)) outside.push_back(*v);
        if (auto v = test::just_above(slot)) outside.push_back(*v);
        if (!slot.integral) outside.push_back(std::nan(""));
        for (double v : outside) {
            slot.set(v);
            Status st = check_params(s);
            ASSERT_FALSE(st.ok()) << slot.path << " = " << v << " passed check_params";
            EXPECT_EQ(st.error().code, ErrorCode::InvalidArgument);
            EXPECT_THAT(st.error().message, StartsWith(slot.path + ": "));
            if (std::isnan(v))
                EXPECT_THAT(st.error().message, HasSubstr("must be a finite number, not nan"));
            else
                EXPECT_THAT(st.error().message, HasSubstr("is out of range " + test::range_text(*slot.decl)));
            if (!version) {
                Status loaded_st = validate_scene(s);
                ASSERT_FALSE(loaded_st.ok()) << slot.path << " = " << v << " loaded";
                EXPECT_EQ(loaded_st.error().message, st.error().message) << "loading and check_params disagree";
            }
            ++outside_checked;
        }
        slot.set(saved);
    }
    EXPECT_GT(outside_checked, 2 * static_cast<int>(slots.size()) - 10) << "almost every bound has a value just outside it";
    EXPECT_TRUE(check_params(s).ok());
}

TEST(ParamCheck, NamesTheObjectAndAppliesTheRulesBeyondRanges) {
    SimulationParams p;
    p.damping = 5.0;
    Status st = check_params(p, "hair_groups['long'].simulation");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "hair_groups['long'].simulation.damping: 5 is out of range [0, 1]");
    p = SimulationParams{};
    p.gpu_vertices_per_strand = 12;
    st = check_params(p, "hair_groups[0].simulation");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "hair_groups[0].simulation.gpu_vertices_per_strand: 12 is not one of 4, 8, 16, 32, 64");

    Environment e;
    e.wind.speed_mps = 200.0;
    st = check_params(e);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "environment.wind.speed: 200 is out of range [0, 100] m/s");
    e = Environment{};
    e.gravity_mps2.y = std::numeric_limits<double>::infinity();
    st = check_params(e);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "environment.gravity[1]: must be a finite number, not inf");

    Collider c;
    c.radius_m = 0.0;
    st = check_params(c, "colliders['neck']");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "colliders['neck'].radius: 0 is out of range [1e-05, 100] m");
    c = Collider{};
    c.type = static_cast<ColliderType>(7);
    st = check_params(c, "colliders[0]");
    ASSERT_FALSE(st.ok());
    EXPECT_THAT(st.error().message, StartsWith("colliders[0].type: 7 is not one of"));

    EXPECT_TRUE(check_param("collision_meshes[]", "margin", 0.004, "collision_meshes['head'].margin").ok());
    st = check_param("collision_meshes[]", "margin", 2.0, "collision_meshes['head'].margin");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "collision_meshes['head'].margin: 2 is out of range [0, 1] m");
}

TEST(SceneParams, EnumHelpersRoundTrip) {
    EXPECT_EQ(enum_to_string(SignMethod::FaceNormal), "face_normal");
    EXPECT_EQ(enum_from_string<ShadingModel>("kajiya_kay"), ShadingModel::KajiyaKay);
    EXPECT_EQ(enum_from_string<Placement>("per_vertex"), Placement::PerVertex);
    EXPECT_EQ(enum_from_string<RegionType>("Cap"), std::nullopt) << "spellings are exact";
    for (auto n : EnumNames<SmoothingMode>::names) EXPECT_EQ(enum_to_string(*enum_from_string<SmoothingMode>(n)), n);
    EXPECT_EQ(enum_values_joined<FollowMode>(), "none|tressfx|barycentric");
}

// The editor lists parameters under display names, grouped: every declaration has a name an artist reads
// (not its key: no underscores, and not the key itself), unique in its table, and a group; a table's
// colours are colour pickers.
TEST(SceneParams, EveryDeclarationHasADisplayNameAndAGroup) {
    size_t checked = 0;
    for (const ParamTable& t : scene_param_tables()) {
        std::set<std::string_view> labels;
        for (const ParamDecl& d : t.decls) {
            SCOPED_TRACE(std::string(t.path) + "." + std::string(d.key));
            EXPECT_FALSE(d.label.empty());
            EXPECT_FALSE(d.group.empty());
            EXPECT_EQ(d.label.find('_'), std::string_view::npos) << d.label;
            EXPECT_NE(d.label, d.key);
            EXPECT_TRUE(!d.label.empty() && std::isupper(static_cast<unsigned char>(d.label[0]))) << d.label;
            EXPECT_TRUE(labels.insert(d.label).second) << "two parameters of " << t.path << " are shown as " << d.label;
            if (d.key.find("color") != std::string_view::npos && d.type == ParamType::Vec3) {
                EXPECT_TRUE(d.colour) << "a colour is picked, not typed as three numbers";
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 150u);
    const ParamDecl* vsp = find_param_table("hair_groups[].simulation")->find("vsp_coeff");
    ASSERT_NE(vsp, nullptr);
    EXPECT_EQ(vsp->label, "Shock propagation");
    EXPECT_EQ(vsp->group, "Following the head");
}

// docs/scene-schema.md is generated; this fails when someone changes a declaration without
// regenerating it. TRESSEL_UPDATE_SCHEMA=1 rewrites the file instead.
TEST(SchemaDoc, CommittedDocumentMatchesTheDeclarations) {
    const auto file = test::source("docs/scene-schema.md");
    const std::string generated = scene_schema_markdown();
    const char* update = std::getenv("TRESSEL_UPDATE_SCHEMA");
    if (update && std::string(update) == "1") {
        ASSERT_TRUE(write_file_atomic(file, generated).ok());
    }
    auto text = read_file_text(file);
    const std::string how = "regenerate it with: TRESSEL_UPDATE_SCHEMA=1 " + test::binary("tests/unit/scene/scene_tests").string() +
                            " --gtest_filter=SchemaDoc.*";
    ASSERT_TRUE(text.ok()) << file << " is missing; " << how;
    EXPECT_TRUE(*text == generated) << file << " is out of date with engine/scene/param_decls.h; " << how;
}

TEST(SchemaDoc, HasOneTablePerObjectWithRangesDefaultsAndTressFXNames) {
    const std::string doc = scene_schema_markdown();
    for (const ParamTable& t : scene_param_tables()) {
        if (!t.path.empty()) {
            EXPECT_THAT(doc, HasSubstr("## `" + std::string(t.path) + "`"));
        }
        for (const ParamDecl& d : t.decls) EXPECT_THAT(doc, HasSubstr("| `" + std::string(d.key) + "` |"));
    }
    EXPECT_THAT(doc, HasSubstr("| `local_iterations` | Solver: Shape iterations | integer |  | [1, 32] | `3` |"));
    EXPECT_THAT(doc, HasSubstr("| `margin` | Collision: Collision margin | number | m | [0, 1] | `0.004` |"));
    EXPECT_THAT(doc, HasSubstr("| localConstraintsIterations |"));
    EXPECT_THAT(doc, HasSubstr("`\"kajiya_kay\"`, `\"marschner\"`"));
    EXPECT_THAT(doc, HasSubstr("| `root_color` | Colour: Root colour | [x, y, z] | 1 | each in [0, 1] | `[0.2, 0.12, 0.06]` |"));
    EXPECT_THAT(doc, HasSubstr("Nested: `scalp` (object)"));
    EXPECT_THAT(doc, HasSubstr("`meshes` (array of objects)"));
}

}  // namespace
}  // namespace tressel
