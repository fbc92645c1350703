// tressel-cli bake end to end: a reduced default scene, simulated on the GPU (the CPU driver in CI),
// with the report's schema and values checked, and the GPU and CPU steps compared through the CLI.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "io/usda.h"
#include "run_process.h"
#include "test_paths.h"

namespace tressel::test {
namespace {

std::filesystem::path small_scene(const std::filesystem::path& dir) {
    std::ifstream in(source("presets/scenes/default.json"));
    nlohmann::json doc = nlohmann::json::parse(in);
    doc["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    auto& g = doc["hair_groups"][0];
    g["growth"]["guides"] = 60;
    g["follow"]["count"] = 240;
    doc["collision_meshes"][0]["cells_x"] = 96;  // 9.4 mm cells: resolves the ears (the field decides the contact)
    doc["collision_meshes"][0]["padding"] = 0.1;
    doc["motion"]["type"] = "procedural";
    doc["motion"]["turn_deg"] = 30;
    doc["motion"]["frequency_hz"] = 1.0;
    auto path = dir / "small.json";
    std::ofstream(path) << doc.dump(2);
    return path;
}

nlohmann::json read_json(const std::filesystem::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

TEST(CliBake, ReportHasEveryMetricPerFrameAndASummary) {
    auto dir = scratch_dir("cli_bake");
    auto scene = small_scene(dir);
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote(scene.string()) + " --frames 20 --report " +
                         quote((dir / "report.json").string()) + " --dump " + quote((dir / "frames").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto report = read_json(dir / "report.json");
    ASSERT_EQ(report["frames"].size(), 20u);
    for (const char* key : {"max_stretch", "mean_stretch", "penetrating_vertices", "penetrating_midpoints",
                            "max_penetration_m", "kinetic_energy", "gpu_ms"})
        ASSERT_TRUE(report["frames"][0].contains(key)) << key;
    for (const char* key : {"max_stretch", "penetrating_vertices", "max_penetration_m", "kinetic_energy"})
        ASSERT_TRUE(report["summary"].contains(key)) << key;
    EXPECT_EQ(report["counts"]["guides"].get<int>(), 60);
    EXPECT_EQ(report["counts"]["follows"].get<int>(), 240);
    EXPECT_EQ(report["summary"]["non_finite"].get<int>(), 0);
    EXPECT_LT(report["summary"]["mean_stretch"].get<double>(), 0.01);
    // Margin 5 mm. Against the exact mesh distance no guide vertex or midpoint may sink deeper than the
    // margin (a failing collision sinks hair centimetres deep). The stricter 0.1 x margin is met on the
    // simulation tests' groom (tests/unit/sim); drooping hair like this scene's still reaches about 4 mm
    // at the temples, a known gap of the collision response.
    // Follow hairs are pushed out once per step along the field's gradient, so a few may stay inside thin
    // features the field does not resolve: bound their share instead.
    size_t follow_vertices = report["counts"]["follow_vertices"].get<size_t>();
    for (const auto& f : report["frames"]) {
        EXPECT_LE(f["max_penetration_guide_m"].get<double>(), 0.005) << "frame " << f["frame"];
        EXPECT_LE(f["penetrating_follow_vertices"].get<double>(), 0.01 * double(follow_vertices)) << "frame " << f["frame"];
    }
    // The scene moves: hair has kinetic energy, and the GPU timed each pass.
    EXPECT_GT(report["summary"]["kinetic_energy"].get<double>(), 0.0);
    EXPECT_GE(report["frames"][5]["gpu_ms"].size(), 10u);
    // --dump: one file per frame, guides then follows, 16 vertices each, float32 xyz.
    auto index = read_json(dir / "frames" / "index.json");
    EXPECT_EQ(index["groups"][0]["vertices_per_strand"].get<int>(), 16);
    EXPECT_EQ(std::filesystem::file_size(dir / "frames" / "frame_00020.f32"), (60u + 240u) * 16u * 12u);
}

// A cloth accessory in the report: a sheet pinned above the crown falls onto the head as it turns; each
// measured frame gives its strain and its vertices inside the head (exact distance), the summary the worst.
TEST(CliBake, ReportsEachAccessorysStrainAndPenetration) {
    auto dir = scratch_dir("cli_bake_cloth");
    std::string obj;
    const int n = 12;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i)
            obj += "v " + std::to_string(-0.19 + 0.4 * i / n) + " 0.88 " + std::to_string(-0.15 + 0.4 * j / n) + "\n";
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int a = j * (n + 1) + i + 1, b = a + 1, c = a + n + 2, d = a + n + 1;
            obj += "f " + std::to_string(a) + " " + std::to_string(d) + " " + std::to_string(c) + "\nf " + std::to_string(a) + " " +
                   std::to_string(c) + " " + std::to_string(b) + "\n";
        }
    ASSERT_TRUE(write_file_atomic(dir / "sheet.obj", obj).ok());
    auto scene_path = small_scene(dir);
    nlohmann::json doc = read_json(scene_path);
    doc["meshes"].push_back({{"name", "sheet"}, {"path", (dir / "sheet.obj").string()}});
    doc["accessories"] = nlohmann::json::array({{{"name", "kerchief"}, {"mesh", "sheet"}, {"attach", "head"}, {"sdf", {"head"}},
                                                 {"pins", {{"mode", "box"}, {"box_min", {-0.03, 0.8, 0.0}}, {"box_max", {0.05, 0.95, 0.08}}}}}});
    std::ofstream(dir / "cloth.json") << doc.dump(2);
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote((dir / "cloth.json").string()) + " --frames 40 --penetration-every 5 --report " +
                         quote((dir / "report.json").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto report = read_json(dir / "report.json");
    ASSERT_EQ(report["frames"].size(), 40u);
    double strain = 0.0, deepest = 0.0;
    for (const auto& f : report["frames"]) {
        ASSERT_EQ(f["accessories"].size(), 1u);
        const auto& a = f["accessories"][0];
        EXPECT_EQ(a["name"].get<std::string>(), "kerchief");
        strain = std::max(strain, a["max_strain"].get<double>());
        deepest = std::max(deepest, a["max_penetration_m"].get<double>());
    }
    std::printf("kerchief over 40 frames: largest strain %.4f, deepest vertex %.5f m inside the head\n", strain, deepest);
    // Measured: 3.4% at most over the 40 frames, while it lands (Jacobi carries the impact across the sheet
    // one edge per small step; 30% while its contacts carried it by the whole step's motion every small
    // step). An unstable solve stretches without bound.
    EXPECT_LT(strain, 0.06);
    EXPECT_LE(deepest, 0.0005) << "0.1 x the head's 5 mm margin";
    EXPECT_GT(report["frames"][39]["accessories"][0]["kinetic_energy"].get<double>(), 0.0) << "it moves with the head";
    EXPECT_DOUBLE_EQ(report["summary"]["accessories"]["kerchief"]["max_strain"].get<double>(), strain);
}

// The shipped scarf scene (presets/scenes/scarf.json: the default scene's hair at full density, 2,000 guides
// and 70,000 follows, under a kerchief that falls onto it from 8 cm over the crown, the head turning as in
// the default scene): once it has settled, the hair lies under the cloth and keeps its groomed shape (the
// kerchief rests on the groom, cloth.rest_on_hair). Measured by the bake against the cloth's triangles: every
// hair vertex within 2 cm of the cloth, its exact closest point, its height along that feature's normal
// toward the outside; hair beside the rim is not over the cloth and is left out. Frame 61 (1 s): no vertex
// over it by more than the hair's particle radius, and the guides within 2 mm of their groomed shape on
// average and 5 cm at most (resting at its clearance from the head, the kerchief pressed the groom down:
// 10.2 and 192 mm at frame 61 on an H200, and the strands at its rim whipped at up to 5.5 m/s).
TEST(CliBake, ScarfHoldsTheDefaultScenesHairUnderIt) {
    auto dir = scratch_dir("cli_bake_scarf");
    nlohmann::json doc = read_json(source("presets/scenes/scarf.json"));
    doc["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    doc["meshes"][1]["path"] = source("presets/assets/kerchief.obj").string();
    ASSERT_EQ(doc["hair_groups"][0]["follow"]["count"].get<int>(), 70000) << "the default scene's hair";
    std::ofstream(dir / "scarf.json") << doc.dump(2);
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote((dir / "scarf.json").string()) + " --frames 61 --penetration-every 60 --report " +
                         quote((dir / "report.json").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto report = read_json(dir / "report.json");
    const double limit = doc["hair_groups"][0]["simulation"]["particle_radius"].get<double>();
    size_t measured = 0;
    for (const auto& f : report["frames"]) {
        if (!f["penetration_measured"].get<bool>()) continue;
        const auto& a = f["accessories"][0];
        ASSERT_TRUE(a.contains("hair_wrong_side")) << "the kerchief collides with the hair";
        EXPECT_DOUBLE_EQ(a["hair_limit_m"].get<double>(), limit);
        const int frame = f["frame"].get<int>();
        std::printf("frame %d: %llu hair vertices near the kerchief, %llu over it by more than %.3f m, highest %.4f m; cloth strain %.3f, %llu of its vertices in the head\n",
                    frame, (unsigned long long)a["hair_near"].get<uint64_t>(), (unsigned long long)a["hair_wrong_side"].get<uint64_t>(), limit,
                    a["hair_max_height_m"].get<double>(), a["max_strain"].get<double>(), (unsigned long long)a["penetrating_vertices"].get<uint64_t>());
        EXPECT_EQ(a["penetrating_vertices"].get<uint64_t>(), 0u);
        if (frame == 1) {
            EXPECT_EQ(a["hair_wrong_side"].get<uint64_t>(), 0u) << "the scene starts with the hair under the kerchief";
        }
        if (frame < 60) continue;  // falling onto the hair and settling (while it falls the hair is a step behind it)
        // (Measured every 10th and 20th frame over 240 in two bakes: 6,287 vertices up to 8.8 mm over it
        // at frame 11, while it lands; 1 or 2 follow vertices up to 3.7 mm at frames 21 to 51 while it
        // settles; none from 61 on, the highest 1.35 to 1.6 mm over its surface, under the 2 mm radius.)
        ++measured;
        // 31,499 on the CPU driver (69,000 while it pressed the groom into a layer thinner than 2 cm).
        EXPECT_GT(a["hair_near"].get<uint64_t>(), 20000u) << "the kerchief lies on the hair";
        EXPECT_EQ(a["hair_wrong_side"].get<uint64_t>(), 0u) << "frame " << frame;
        EXPECT_LE(a["hair_max_height_m"].get<double>(), limit) << "frame " << frame;
        std::printf("frame %d: style error mean %.5f m, largest %.4f m\n", frame, f["style_error_mean_m"].get<double>(), f["style_error_max_m"].get<double>());
        EXPECT_LT(f["style_error_mean_m"].get<double>(), 0.002) << "the kerchief presses the groom down";
        EXPECT_LT(f["style_error_max_m"].get<double>(), 0.05) << "the kerchief presses the groom down";
    }
    EXPECT_EQ(measured, 1u);  // frame 61 (1.0 s)
}

// The shipped soft-body scene (presets/scenes/bun.json, reduced hair): the bun pinned at the back of the
// crown rides the turning head; and a free bun dropped on the crown of the still head lands and rests.
TEST(CliBake, SoftBodyBunRidesTheHeadAndAFreeOneComesToRestOnIt) {
    auto dir = scratch_dir("cli_bake_bun");
    nlohmann::json doc = read_json(source("presets/scenes/bun.json"));
    doc["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    doc["meshes"][1]["path"] = source("presets/assets/bun.obj").string();
    doc["hair_groups"][0]["growth"]["guides"] = 60;
    doc["hair_groups"][0]["follow"]["count"] = 240;
    doc["motion"]["turn_deg"] = 30;
    doc["motion"]["frequency_hz"] = 1.0;
    std::ofstream(dir / "pinned.json") << doc.dump(2);
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote((dir / "pinned.json").string()) + " --frames 60 --penetration-every 10 --report " +
                         quote((dir / "pinned_report.json").string()) + " --cache " + quote((dir / "bun.usda").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto pinned = read_json(dir / "pinned_report.json");
    double strain = 0.0, deepest = 0.0, ke = 0.0, hair_deepest = -1.0;
    uint64_t hair_near = 0, follows_inside = 0;
    for (const auto& f : pinned["frames"]) {
        ASSERT_EQ(f["accessories"].size(), 1u);
        const auto& a = f["accessories"][0];
        EXPECT_EQ(a["type"].get<std::string>(), "soft_body");
        strain = std::max(strain, a["max_strain"].get<double>());
        deepest = std::max(deepest, a["max_penetration_m"].get<double>());
        ke = std::max(ke, a["kinetic_energy"].get<double>());
        if (!f["penetration_measured"].get<bool>() || f["frame"].get<int>() <= 30) continue;
        // The hair collides with the bun (soft_body.hair_collision, on by default) once its field has eased
        // in (half a second): no free guide vertex inside its drawn surface by more than the hair's particle
        // radius (strands rooted under it are left out and counted).
        ASSERT_TRUE(a.contains("hair_wrong_side_guides")) << "frame " << f["frame"];
        EXPECT_EQ(a["hair_wrong_side_guides"].get<uint64_t>(), 0u) << "frame " << f["frame"];
        hair_near += a["hair_near"].get<uint64_t>();
        follows_inside += a["hair_wrong_side"].get<uint64_t>() - a["hair_wrong_side_guides"].get<uint64_t>();
        hair_deepest = std::max(hair_deepest, a["hair_max_height_m"].get<double>());
    }
    std::printf("pinned bun on the turning head over 60 frames: largest link strain %.4f, deepest surface vertex %.5f m inside, peak KE %.4f J/kg; "
                "hair: %llu vertex-frames near it, deepest %.4f m inside, %llu follow vertex-frames inside by more than the particle radius\n",
                strain, deepest, ke, (unsigned long long)hair_near, hair_deepest, (unsigned long long)follows_inside);
    EXPECT_GT(hair_near, 100u) << "the hair lies against the bun";
    EXPECT_LT(strain, 0.4) << "measured 0.27: a 30 degree turn at 1 Hz; an unstable solve stretches without bound";
    EXPECT_LE(deepest, 0.0005) << "0.1 x the head's 5 mm margin";
    EXPECT_GT(ke, 0.0) << "it moves with the head";
    EXPECT_LT(ke, 1.0) << "a 30 degree turn at 1 Hz moves the bun at about 0.5 m/s";
    // --cache: the bun's drawn surface as a Mesh with one time sample per frame, moving with the head.
    auto stage = read_usda_file(dir / "bun.usda");
    ASSERT_TRUE(stage.ok()) << stage.error().describe();
    ASSERT_EQ(stage->meshes.size(), 1u);
    const UsdMesh& bun = stage->meshes[0];
    EXPECT_EQ(bun.path, "/HairCache/accessories/bun");
    ASSERT_EQ(bun.point_samples.size(), 60u);
    EXPECT_EQ(bun.points.size(), 314u) << "the bun mesh's vertices";
    EXPECT_EQ(bun.face_vertex_indices.size(), 3 * bun.face_vertex_counts.size());
    double travel = 0.0;
    for (size_t i = 0; i < bun.points.size(); ++i) travel = std::max<double>(travel, glm::length(bun.point_samples[15][i] - bun.point_samples[0][i]));
    EXPECT_GT(travel, 0.05) << "a quarter cycle turned the head 30 degrees";

    // Free, 3 cm above the crown, on a still head.
    doc["meshes"][1]["transform"] = {{"translate", {0.01, 0.93, 0.05}}};
    doc["accessories"][0]["pins"]["mode"] = "none";
    doc["accessories"][0]["soft_body"]["friction"] = 1.0;
    doc["accessories"][0]["soft_body"]["hair_collision"] = false;  // the hair against it: the pinned run above
    std::ofstream(dir / "free.json") << doc.dump(2);
    r = run_process(quote(TRESSEL_CLI) + " bake " + quote((dir / "free.json").string()) + " --still --frames 120 --penetration-every 1 --report " +
                    quote((dir / "free_report.json").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto free = read_json(dir / "free_report.json");
    double peak = 0.0, deepest_free = 0.0;
    for (const auto& f : free["frames"]) {
        peak = std::max(peak, f["accessories"][0]["kinetic_energy"].get<double>());
        deepest_free = std::max(deepest_free, f["accessories"][0]["max_penetration_m"].get<double>());
    }
    const double last = free["frames"][119]["accessories"][0]["kinetic_energy"].get<double>();
    std::printf("free bun dropped 3 cm on the crown: peak KE %.4f J/kg (free fall: %.4f), after 2 s %.2e J/kg, deepest %.5f m inside\n", peak,
                9.81 * 0.03, last, deepest_free);
    // Its energy never exceeds the fall's (nothing launches it), it does not sink in, and it rests.
    EXPECT_LT(peak, 1.1 * 9.81 * 0.03 + 0.02);
    EXPECT_LE(deepest_free, 0.0005);
    EXPECT_LT(last, 1e-3);
}

// --still: the rest jitter over the last second (every frame of it measured) and the style error, the
// distance of each guide vertex from its groomed position in its root's frame. Without gravity a still
// head keeps the groomed shape; with it the hair sags away from it, and the report says by how much.
TEST(CliBake, StillHeadReportsRestJitterAndStyleError) {
    auto dir = scratch_dir("cli_bake_still");
    auto scene = small_scene(dir);
    auto bake = [&](const std::string& name, bool gravity, int every = 30, const std::string& extra = " --no-sag-free") {
        nlohmann::json doc = read_json(scene);
        if (!gravity) doc["environment"]["gravity"] = {0.0, 0.0, 0.0};
        auto path = dir / (name + ".json");
        std::ofstream(path) << doc.dump(2);
        auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote(path.string()) + " --still --frames 90 --metrics-every " +
                             std::to_string(every) + extra + " --report " + quote((dir / (name + "_report.json")).string()));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return read_json(dir / (name + "_report.json"));
    };
    nlohmann::json weightless = bake("weightless", false), heavy = bake("heavy", true);
    for (const nlohmann::json* rep : {&weightless, &heavy}) {
        const nlohmann::json& s = (*rep)["summary"];
        EXPECT_TRUE(s["still"].get<bool>());
        EXPECT_EQ(s["rest_jitter"]["frames"].get<int>(), 60) << "every frame of the last second";
        EXPECT_GE(s["rest_jitter"]["max_speed_m_s"].get<double>(), s["rest_jitter"]["rms_speed_m_s"].get<double>());
        EXPECT_GE(s["style_error"]["max_m"].get<double>(), s["style_error"]["mean_m"].get<double>());
        // Frame 1, frame 30 (the one before the last second), then 31..90: the last second.
        EXPECT_EQ((*rep)["frames"].size(), 62u);
        for (const char* key : {"rms_speed_m_s", "max_speed_m_s", "style_error_mean_m", "style_error_max_m"})
            EXPECT_TRUE((*rep)["frames"][0].contains(key)) << key;
    }
    const nlohmann::json& w = weightless["summary"];
    const nlohmann::json& h = heavy["summary"];
    EXPECT_LT(w["style_error"]["max_m"].get<double>(), 0.001) << "no force, no motion: the groomed shape stays";
    EXPECT_LT(w["rest_jitter"]["max_speed_m_s"].get<double>(), 0.001);
    EXPECT_GT(h["style_error"]["mean_m"].get<double>(), 10.0 * w["style_error"]["mean_m"].get<double>() + 0.001)
        << "gravity sags the groomed shape";
    EXPECT_LT(heavy["frames"][0]["style_error_max_m"].get<double>(), h["style_error"]["max_m"].get<double>());
    // The rest jitter does not depend on --metrics-every: its first speed is over one frame (it used to be
    // over the frames since the last measured one, which read 1.1 mm/s RMS for 0.04 on the default scene).
    const nlohmann::json every_frame = bake("heavy_every_frame", true, 1);
    EXPECT_DOUBLE_EQ(every_frame["summary"]["rest_jitter"]["rms_speed_m_s"].get<double>(), h["rest_jitter"]["rms_speed_m_s"].get<double>());
    EXPECT_DOUBLE_EQ(every_frame["summary"]["rest_jitter"]["max_speed_m_s"].get<double>(), h["rest_jitter"]["max_speed_m_s"].get<double>());
    // The sag-free rest state (on unless --no-sag-free) and its report: the sag the solve found is the sag
    // the bake without it measures at its first frame's scale, and the hair then stays near its groom.
    EXPECT_EQ(heavy["sag_free"]["groups"].get<int>(), 0) << "--no-sag-free";
    const nlohmann::json sag_free = bake("heavy_sag_free", true, 30, "");
    const nlohmann::json& sf = sag_free["sag_free"];
    EXPECT_EQ(sf["groups"].get<int>(), 1);
    EXPECT_GT(sf["iterations"].get<int>(), 0);
    EXPECT_GT(sf["sag_mean_m"].get<double>(), 10.0 * sf["error_mean_m"].get<double>());
    EXPECT_LT(sag_free["summary"]["style_error"]["mean_m"].get<double>(), 0.2 * h["style_error"]["mean_m"].get<double>());
}

// The default scene as shipped (2,000 guides, 70,000 follows), 300 frames of its motion on the GPU step:
// every guide segment, those resting on the head included, keeps its rest length within 1% on every frame
// and within 0.1% on average (contact inside the solve; the scene's bake showed 31% when SDF pushes came
// after the length sweeps), and no guide or follow vertex deeper in the head than 0.1 x margin on the
// frames measured.
TEST(CliBake, DefaultSceneKeepsEverySegmentAtItsLengthFor300Frames) {
    auto dir = scratch_dir("cli_bake_default");
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote(source("presets/scenes/default.json").string()) +
                         " --frames 300 --penetration-every 30 --report " + quote((dir / "report.json").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto report = read_json(dir / "report.json");
    EXPECT_EQ(report["counts"]["guides"].get<int>(), 2000);
    EXPECT_EQ(report["counts"]["follows"].get<int>(), 70000);
    ASSERT_EQ(report["frames"].size(), 300u);
    std::ifstream in(source("presets/scenes/default.json"));
    const double margin = nlohmann::json::parse(in)["collision_meshes"][0]["margin"].get<double>();
    size_t measured = 0;
    for (const auto& f : report["frames"]) {
        EXPECT_LE(f["max_stretch"].get<double>(), 0.01) << "frame " << f["frame"];
        EXPECT_LE(f["mean_stretch"].get<double>(), 0.001) << "frame " << f["frame"];
        // Penetration against the exact mesh every 30th frame and the last (every frame on an H200:
        // docs/bench/follow_penetration_h200.json): guide and follow vertices no deeper than 0.1 x margin.
        if (!f["penetration_measured"].get<bool>()) continue;
        ++measured;
        EXPECT_LE(f["max_penetration_follow_m"].get<double>(), 0.1 * margin) << "frame " << f["frame"];
        EXPECT_LE(f["max_penetration_guide_m"].get<double>(), 0.1 * margin) << "frame " << f["frame"];
    }
    EXPECT_EQ(measured, 11u);
    EXPECT_EQ(report["summary"]["non_finite"].get<int>(), 0);
}

// The shipped animated scene (presets/scenes/walking.json: CesiumMan walking, his field rebuilt from his
// pose every frame, a cape pinned to the skin of his shoulders), 120 frames on the GPU step: no guide
// vertex or midpoint deeper inside his posed body than 0.1 x margin on any measured frame (exact distance
// to the mesh as posed at that frame), nothing non-finite, every segment at its length; the cape never
// inside his posed body and hardly stretched (its edges 0.5% longer on average at most: until the cloth's
// copy of the body's field followed the pose on the device, it collided with his bind pose, was thrown onto
// its outstretched arms and ended 78 vertices up to 56 mm inside him, edges 250% long).
TEST(CliBake, WalkingSceneKeepsTheHairOutOfTheWalkingBody) {
    auto dir = scratch_dir("cli_bake_walking");
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote(source("presets/scenes/walking.json").string()) +
                         " --frames 120 --penetration-every 5 --report " + quote((dir / "report.json").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto report = read_json(dir / "report.json");
    ASSERT_EQ(report["frames"].size(), 120u);
    std::ifstream in(source("presets/scenes/walking.json"));
    const double margin = nlohmann::json::parse(in)["collision_meshes"][0]["margin"].get<double>();
    size_t measured = 0;
    double deepest = 0.0, cape_deepest = 0.0, cape_mean_strain = 0.0, cape_max_strain = 0.0;
    for (const auto& f : report["frames"]) {
        EXPECT_LE(f["max_stretch"].get<double>(), 0.01) << "frame " << f["frame"];
        if (!f["penetration_measured"].get<bool>()) continue;
        ++measured;
        deepest = std::max(deepest, f["max_penetration_guide_m"].get<double>());
        EXPECT_LE(f["max_penetration_guide_m"].get<double>(), 0.1 * margin) << "frame " << f["frame"];
        ASSERT_EQ(f["accessories"].size(), 1u);
        const auto& cape = f["accessories"][0];
        cape_deepest = std::max(cape_deepest, cape["max_penetration_m"].get<double>());
        cape_mean_strain = std::max(cape_mean_strain, cape["mean_strain"].get<double>());
        cape_max_strain = std::max(cape_max_strain, cape["max_strain"].get<double>());
    }
    std::printf("walking scene: %zu frames measured, deepest guide vertex or midpoint %.3g m inside the posed body; the cape %.3g m "
                "inside at most, its edges %.3g longer on average and %.3g at most\n",
                measured, deepest, cape_deepest, cape_mean_strain, cape_max_strain);
    EXPECT_LE(cape_deepest, 0.1 * margin);
    EXPECT_LE(cape_mean_strain, 0.01);
    EXPECT_GE(measured, 24u);
    EXPECT_EQ(report["summary"]["non_finite"].get<int>(), 0);
}

// bake --cache: the walking scene's guides as a USD groom cache, one time sample per frame, read back by
// the project's USD reader: the frame count, the time codes, the point counts, and each sample exactly the
// positions --dump writes for that frame.
TEST(CliBake, WalkingSceneCacheHoldsEveryFrame) {
    auto dir = scratch_dir("cli_bake_cache");
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote(source("presets/scenes/walking.json").string()) +
                         " --frames 6 --metrics-every 1000 --dump " + quote((dir / "dump").string()) + " --cache " +
                         quote((dir / "walk.usda").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto stage = read_usda_file(dir / "walk.usda");
    ASSERT_TRUE(stage.ok()) << stage.error().describe();
    EXPECT_EQ(stage->time_codes_per_second, 60.0);
    EXPECT_EQ(stage->start_time_code, 1.0);
    EXPECT_EQ(stage->end_time_code, 6.0);
    ASSERT_EQ(stage->curves.size(), 1u) << "the guides of the one hair group (no follows without --cache-follows)";
    const UsdCurves& c = stage->curves[0];
    EXPECT_EQ(c.path, "/HairCache/hair/guides");
    ASSERT_EQ(c.vertex_counts.size(), 600u);
    ASSERT_EQ(c.sample_times.size(), 6u);
    for (size_t f = 0; f < 6; ++f) {
        EXPECT_EQ(c.sample_times[f], double(f + 1));
        ASSERT_EQ(c.point_samples[f].size(), size_t(600) * 16);
        char name[32];
        std::snprintf(name, sizeof(name), "frame_%05zu.f32", f + 1);
        auto dump = read_file_bytes(dir / "dump" / name);
        ASSERT_TRUE(dump.ok());
        std::vector<float> xyz(c.point_samples[f].size() * 3);
        ASSERT_GE(dump->size(), xyz.size() * 4);
        std::memcpy(xyz.data(), dump->data(), xyz.size() * 4);  // guides first in the dump
        size_t differ = 0;
        for (size_t i = 0; i < c.point_samples[f].size(); ++i)
            differ += c.point_samples[f][i] != glm::vec3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
        EXPECT_EQ(differ, 0u) << "frame " << f + 1;
    }
    EXPECT_NE(c.point_samples.front(), c.point_samples.back()) << "the hair moved";
}

// Rest is rest: the default scene's guides on a still head, settled for 3 s, move at most 1 mm/s RMS and
// 1 cm/s at any vertex over the next second (every frame measured). Its follow hairs are left out: they
// are blended from the guides and act on nothing, and the jitter is measured on the guides. The CPU
// reference step (the GPU's formulas; faster on a CPU device). With the paper's 0.9 for dynamic
// follow-the-leader's velocity correction it was 2.0 mm/s and 46 mm/s: tips circling on 1-2 mm loops.
// The default scene's guides (follows off), still for 3 s and measured every frame of the next second on
// the CPU reference step: the bake's report. `tune` edits the scene's hair group first.
nlohmann::json bake_scene_still(const std::string& scene, const std::string& name, const std::function<void(nlohmann::json&)>& tune = {},
                                const std::string& extra_args = "") {
    auto dir = scratch_dir(name);
    std::ifstream in(source("presets/scenes/" + scene));
    nlohmann::json doc = nlohmann::json::parse(in);
    doc["meshes"][0]["path"] = source("presets/assets/infinite_head.fbx").string();
    if (tune) tune(doc["hair_groups"][0]);
    doc["hair_groups"][0]["follow"] = {{"mode", "none"}};
    std::ofstream(dir / "still.json") << doc.dump(2);
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote((dir / "still.json").string()) +
                         " --cpu --still --frames 240 --metrics-every 1 --penetration-every 0" + extra_args + " --report " +
                         quote((dir / "report.json").string()));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? read_json(dir / "report.json") : nlohmann::json::object();
}

nlohmann::json bake_default_scene_still(const std::string& name, const std::function<void(nlohmann::json&)>& tune = {},
                                        const std::string& extra_args = "") {
    return bake_scene_still("default.json", name, tune, extra_args);
}

TEST(CliBake, DefaultSceneComesToRestOnAStillHead) {
    auto report = bake_default_scene_still("cli_bake_rest");
    ASSERT_TRUE(report.contains("summary"));
    EXPECT_EQ(report["counts"]["guides"].get<int>(), 2000);
    const auto& jitter = report["summary"]["rest_jitter"];
    EXPECT_EQ(jitter["frames"].get<int>(), 60);
    std::printf("default scene, still head, last second: RMS %.3g m/s, largest %.3g m/s\n", jitter["rms_speed_m_s"].get<double>(),
                jitter["max_speed_m_s"].get<double>());
    EXPECT_LE(jitter["rms_speed_m_s"].get<double>(), 0.001);
    EXPECT_LE(jitter["max_speed_m_s"].get<double>(), 0.01);
    EXPECT_LE(report["summary"]["max_stretch"].get<double>(), 0.01);
    // Sag-free (on in the shipped scene): after 3 s still the guides are where they were grown, each
    // vertex's distance from its groomed place in its root's frame within 2 mm on average and 1 cm at most.
    const auto& style = report["summary"]["style_error"];
    const auto& sf = report["sag_free"];
    std::printf("sag-free: %d corrections over %d frames (%.0f ms, CPU reference); style error after 3 s still: mean %.3g m, "
                "largest %.3g m\n",
                sf["iterations"].get<int>(), sf["frames"].get<int>(), sf["wall_ms"].get<double>(), style["mean_m"].get<double>(),
                style["max_m"].get<double>());
    EXPECT_EQ(sf["groups"].get<int>(), 1);
    EXPECT_LE(style["mean_m"].get<double>(), 0.002);
    EXPECT_LE(style["max_m"].get<double>(), 0.01);
}
// The curly scene on a still head, settled for 3 s (the same bar): chain shape matching holds its curls and
// global shape over the whole strand their direction, which the sag-free solve preloads; the solve lifts
// the curls its groom lays inside the head's 5 mm margin beside their roots out of it first, and the style
// error is measured against that lifted groom (0.03 mm mean, 2.4 mm largest when this was written; 22 mm and
// 100 mm when chain groups were not solved). Without the solve it sags (5.8 mm mean, 16 mm largest).
TEST(CliBake, CurlySceneHangsInItsGroomOnAStillHead) {
    auto report = bake_scene_still("curly.json", "cli_bake_rest_curly");
    ASSERT_TRUE(report.contains("summary"));
    const auto& style = report["summary"]["style_error"];
    const auto& jitter = report["summary"]["rest_jitter"];
    const auto& sf = report["sag_free"];
    std::printf("curly scene, still head: sag-free %d corrections over %d frames, lifted %d vertices (largest %.3g m); style "
                "error after 3 s mean %.3g m, largest %.3g m; last second RMS %.3g m/s, largest %.3g m/s\n",
                sf["iterations"].get<int>(), sf["frames"].get<int>(), sf["lifted_vertices"].get<int>(), sf["lift_max_m"].get<double>(),
                style["mean_m"].get<double>(), style["max_m"].get<double>(), jitter["rms_speed_m_s"].get<double>(),
                jitter["max_speed_m_s"].get<double>());
    EXPECT_EQ(sf["groups"].get<int>(), 1);
    EXPECT_GT(sf["lifted_vertices"].get<int>(), 0) << "the curly groom lies inside the margin beside some roots";
    EXPECT_LE(style["mean_m"].get<double>(), 0.002);
    EXPECT_LE(style["max_m"].get<double>(), 0.01);
    // Not quite at rest (the default scene's 1 mm/s and 1 cm/s are not this scene's bar): a few contacts
    // beside the roots keep moving, 2.4 mm/s RMS and 0.14 m/s at most on the CPU reference step (1.35 mm/s
    // and 0.18 m/s before the solve held the curls); curls tumbling move metres per second.
    EXPECT_LE(jitter["rms_speed_m_s"].get<double>(), 0.005);
    EXPECT_LE(jitter["max_speed_m_s"].get<double>(), 0.25);
    EXPECT_LE(report["summary"]["max_stretch"].get<double>(), 0.01);
}

// The same bake without the sag-free rest state: the figures it is compared with. The groom sags under its
// weight (21 mm on average, 74 mm at most when this was written) and still comes to rest.
TEST(CliBake, DefaultSceneWithoutSagFreeSagsFromItsGroom) {
    auto report = bake_default_scene_still("cli_bake_rest_sagging", {}, " --no-sag-free");
    ASSERT_TRUE(report.contains("summary"));
    const auto& style = report["summary"]["style_error"];
    const auto& jitter = report["summary"]["rest_jitter"];
    std::printf("without sag-free, still head, after 3 s: style error mean %.3g m, largest %.3g m; last second RMS %.3g m/s, "
                "largest %.3g m/s\n",
                style["mean_m"].get<double>(), style["max_m"].get<double>(), jitter["rms_speed_m_s"].get<double>(),
                jitter["max_speed_m_s"].get<double>());
    EXPECT_EQ(report["sag_free"]["groups"].get<int>(), 0);
    EXPECT_GT(style["mean_m"].get<double>(), 0.01);
    EXPECT_LE(jitter["rms_speed_m_s"].get<double>(), 0.001);
}

// The same with hair volume on at its default pressure, friction and cells: an explicit pressure too
// stiff for the hair's density feeds a limit cycle (at pressure 0.2 the back tips swung at up to 0.62 m/s).
// Follows off as above, so the target density is scaled to the hair a guide stands for without them
// (1 instead of 36): the guides move as they do with the follows. Without the sag-free rest state: with it
// the hair rests in its groom, denser than sagged hair, and one strand of the 2,000, lying along the head,
// keeps a 5 Hz cycle at up to 0.15 m/s under the explicit pressure (engine/sim/README.md, known gaps).
// With the local shape constraint at 0.6, as the scene was tuned: bending as a rod at 0.8 (the scene's
// now), sagging without the rest state, one strand keeps cycling at up to 28 mm/s (RMS 0.39 mm/s).
TEST(CliBake, DefaultSceneWithHairVolumeComesToRest) {
    auto report = bake_default_scene_still(
        "cli_bake_rest_volume",
        [](nlohmann::json& g) {
            g["simulation"]["bending"] = "local_shape";
            g["simulation"]["local_stiffness"] = 0.6;
            const double hair_per_guide = 1.0 + g["follow"]["count"].get<double>() / g["growth"]["guides"].get<double>();
            g["simulation"]["volume"] = true;
            g["simulation"]["volume_density"] = 20.0 / hair_per_guide;
        },
        " --no-sag-free");
    ASSERT_TRUE(report.contains("summary"));
    const auto& jitter = report["summary"]["rest_jitter"];
    const auto& density = report["summary"]["density_per_cm2"];
    std::printf("default scene with volume, still head, last second: RMS %.3g m/s, largest %.3g m/s; style error mean %.3g m; "
                "%.0f%% of the hair above the target density\n",
                jitter["rms_speed_m_s"].get<double>(), jitter["max_speed_m_s"].get<double>(),
                report["summary"]["style_error"]["mean_m"].get<double>(), 100.0 * density["over_target_last"].get<double>());
    EXPECT_GT(density["over_target_last"].get<double>(), 0.3) << "the pressure must act for the test to mean anything";
    EXPECT_LE(jitter["rms_speed_m_s"].get<double>(), 0.001);
    EXPECT_LE(jitter["max_speed_m_s"].get<double>(), 0.01);
    EXPECT_LE(report["summary"]["max_stretch"].get<double>(), 0.01);
    EXPECT_EQ(report["summary"]["penetrating_vertices"].get<int>(), 0);
}

TEST(CliBake, GpuAndCpuStepsAgree) {
    auto dir = scratch_dir("cli_bake_cpu");
    auto scene = small_scene(dir);
    auto gpu = run_process(quote(TRESSEL_CLI) + " bake " + quote(scene.string()) + " --frames 10 --dump " +
                           quote((dir / "gpu").string()));
    auto cpu = run_process(quote(TRESSEL_CLI) + " bake " + quote(scene.string()) + " --frames 10 --cpu --dump " +
                           quote((dir / "cpu").string()));
    // --fused: the editor's three dispatches per step, timed as such, stepping the same hair.
    auto fused = run_process(quote(TRESSEL_CLI) + " bake " + quote(scene.string()) + " --frames 10 --fused --dump " +
                             quote((dir / "fused").string()) + " --report " + quote((dir / "fused.json").string()));
    ASSERT_EQ(gpu.exit_code, 0) << gpu.err;
    ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
    ASSERT_EQ(fused.exit_code, 0) << fused.err;
    auto timed = read_json(dir / "fused.json")["frames"][5]["gpu_ms"];
    EXPECT_TRUE(timed.contains("sim strand data") && timed.contains("sim strands") && timed.contains("sim follow hairs")) << timed.dump();
    EXPECT_FALSE(timed.contains("sim local shape")) << timed.dump();
    auto load = [](const std::filesystem::path& p) {
        std::ifstream in(p, std::ios::binary);
        std::vector<float> v(std::filesystem::file_size(p) / 4);
        in.read(reinterpret_cast<char*>(v.data()), std::streamsize(v.size() * 4));
        return v;
    };
    auto a = load(dir / "gpu" / "frame_00010.f32"), b = load(dir / "cpu" / "frame_00010.f32");
    auto c = load(dir / "fused" / "frame_00010.f32");
    ASSERT_EQ(a.size(), b.size());
    ASSERT_EQ(c.size(), b.size());
    double worst = 0.0, worst_fused = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, double(std::fabs(a[i] - b[i])));
        worst_fused = std::max(worst_fused, double(std::fabs(c[i] - b[i])));
    }
    EXPECT_LE(worst, 1e-4) << "GPU and CPU steps diverged after 10 frames (20 steps)";
    EXPECT_LE(worst_fused, 1e-4) << "fused GPU and CPU steps diverged after 10 frames (20 steps)";
}

TEST(CliBake, BadArgumentsAreUsageErrors) {
    auto r = run_process(quote(TRESSEL_CLI) + " bake " + quote(source("presets/scenes/default.json").string()) + " --frames 0");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--frames"), std::string::npos) << r.err;
    auto missing = run_process(quote(TRESSEL_CLI) + " bake /no/such/scene.json --frames 3");
    EXPECT_EQ(missing.exit_code, 1);
}

}  // namespace
}  // namespace tressel::test
