// Every parameter the editor shows gets its tooltip from the scene parameter tables: meaning, unit, range
// and default. Also the dotted-path edits scripts use.
#include <gtest/gtest.h>

#include "editor_context.h"
#include "param_widgets.h"
#include "scene/params.h"

namespace tressel::editor {
namespace {

TEST(EditorParams, EveryTooltipHasMeaningUnitRangeAndDefault) {
    EditorContext ctx;
    size_t checked = 0;
    for (const ParamTable& t : scene_param_tables()) {
        for (const ParamDecl& d : t.decls) {
            std::string tip = param_tooltip(ctx, t.path, d.key);
            SCOPED_TRACE(std::string(t.path) + "." + std::string(d.key) + ":\n" + tip);
            ASSERT_FALSE(d.meaning.empty());
            EXPECT_EQ(tip.rfind(std::string(d.meaning), 0), 0u) << "the tooltip starts with the one-line meaning";
            EXPECT_NE(tip.find("\nkey: " + (t.path.empty() ? std::string() : std::string(t.path) + ".") + std::string(d.key)),
                      std::string::npos) << "the tooltip names the JSON key the panel shows a display name for";
            EXPECT_NE(tip.find("\nunit: "), std::string::npos);
            bool ranged = tip.find("\nrange: ") != std::string::npos || tip.find("\nvalues: ") != std::string::npos;
            EXPECT_TRUE(ranged);
            size_t def = tip.find("\ndefault: ");
            ASSERT_NE(def, std::string::npos);
            EXPECT_EQ(tip.find("(none)", def), std::string::npos) << "a default must be found for every parameter";
            if (d.type == ParamType::Float || d.type == ParamType::Int) {
                char range[128];
                std::snprintf(range, sizeof range, "[%g, %g]", d.min, d.max);
                EXPECT_NE(tip.find(range), std::string::npos) << "the declared range " << range;
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 80u) << "the tables cover the scene";
}

// The search box finds a parameter by its display name or its JSON key, case ignored.
TEST(EditorParams, SearchFindsAParameterByDisplayNameOrKey) {
    const ParamDecl* vsp = find_param_table("hair_groups[].simulation")->find("vsp_coeff");
    const ParamDecl* margin = find_param_table("collision_meshes[]")->find("margin");
    ASSERT_TRUE(vsp && margin);
    EXPECT_EQ(param_label(*vsp), "Shock propagation");
    for (const char* f : {"", "vsp", "VSP_c", "shock", "Propagation", " shock "}) EXPECT_TRUE(param_matches(f, *vsp)) << f;
    for (const char* f : {"margin", "stiff", "shocks"}) EXPECT_FALSE(param_matches(f, *vsp)) << f;
    EXPECT_TRUE(param_matches("collision", *margin)) << "by display name: Collision margin";
    size_t stiff = 0, all = 0;
    for (const ParamTable& t : scene_param_tables())
        for (const ParamDecl& d : t.decls) {
            all += 1;
            stiff += param_matches("stiff", d) ? 1 : 0;
        }
    EXPECT_GE(stiff, 5u);
    EXPECT_LT(stiff, all / 10);
}

TEST(EditorParams, SetByDottedPathValidatesAndLeavesTheSceneOnError) {
    EditorContext ctx;
    HairGroup g;
    g.name = "main";
    MeshRef m;
    m.name = "head";
    m.path = "head.obj";
    g.scalp.mesh = "head";
    ctx.scene.meshes.push_back(m);
    ctx.scene.hair_groups.push_back(g);
    ASSERT_TRUE(set_scene_value(ctx, "hair_groups[0].simulation.local_stiffness", 0.25));
    EXPECT_DOUBLE_EQ(ctx.scene.hair_groups[0].simulation.local_stiffness, 0.25);
    Scene before = ctx.scene;
    auto out_of_range = set_scene_value(ctx, "hair_groups[0].simulation.local_stiffness", 7.0);
    ASSERT_FALSE(out_of_range);
    EXPECT_NE(out_of_range.error().message.find("local_stiffness"), std::string::npos) << out_of_range.error().message;
    EXPECT_TRUE(ctx.scene == before);
    EXPECT_FALSE(set_scene_value(ctx, "hair_groups[3].simulation.damping", 0.1));
    EXPECT_FALSE(set_scene_value(ctx, "hair_groups[x].name", "a"));
    EXPECT_TRUE(ctx.scene == before);
    auto p = scene_path_to_pointer("environment.wind.speed");
    ASSERT_TRUE(p);
    EXPECT_EQ(*p, "/environment/wind/speed");
}

TEST(EditorParams, UndoRedoStepsAreWholeScenes) {
    EditorContext ctx;
    ctx.scene.environment.substeps = 3;
    ctx.commit();
    ctx.scene.environment.substeps = 4;
    ctx.scene.environment.substeps = 5;  // two changes before a commit: one step (a slider drag)
    ctx.commit();
    ctx.commit();  // nothing changed: no step
    ASSERT_EQ(ctx.history.undo.size(), 2u);
    ASSERT_TRUE(ctx.undo());
    EXPECT_EQ(ctx.scene.environment.substeps, 3);
    ASSERT_TRUE(ctx.undo());
    EXPECT_EQ(ctx.scene.environment.substeps, Environment{}.substeps);
    EXPECT_FALSE(ctx.undo());
    ASSERT_TRUE(ctx.redo());
    EXPECT_EQ(ctx.scene.environment.substeps, 3);
    ctx.scene.environment.substeps = 7;  // a new edit drops the redo branch
    ctx.commit();
    EXPECT_FALSE(ctx.redo());
    EXPECT_EQ(ctx.scene.environment.substeps, 7);
}

}  // namespace
}  // namespace tressel::editor
