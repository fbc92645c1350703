// SceneRuntime (engine/runtime): a scene edit redoes only what it touches, as its report says; time
// advances at the scene's fixed rate; a failed edit keeps the running scene; without a device it grows
// the hair and nothing else.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>

#include "gpu_test.h"
#include "groom/spatial.h"
#include "io/mesh_import.h"
#include "io/mesh_ops.h"
#include "io/tfxmesh.h"
#include "render/hair_data.h"
#include "core/file_io.h"
#include "runtime/scene_runtime.h"
#include "sdf/sdf_slice.h"
#include "sim/mesh_oracle.h"
#include "sim/sim_metrics.h"
#include "scene/scene_io.h"
#include "test_paths.h"

namespace tressel {
namespace {

using runtime::RebuildReport;
using runtime::SceneRuntime;

// The default scene, lighter (300 guides, 600 follows, 24-cell fields), with a second collision mesh: the
// head again, moved aside, so that an edit of one field can be seen to leave the other alone.
Scene light_scene() {
    auto loaded = load_scene(test::source("presets/scenes/default.json"));
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().describe());
    Scene s = loaded->scene;
    s.hair_groups[0].growth.guides = 300;
    s.hair_groups[0].follow.count = 600;
    s.collision_meshes[0].cells_x = 24;
    MeshRef other = s.meshes[0];
    other.name = "other";
    other.transform.translate_m = glm::dvec3(0.5, 0.0, 0.0);
    s.meshes.push_back(other);
    CollisionMesh cm = s.collision_meshes[0];
    cm.mesh = "other";
    s.collision_meshes.push_back(cm);
    return s;
}

bool contains(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

class RuntimeTest : public test::GpuTest {
protected:
    std::unique_ptr<SceneRuntime> make(runtime::SimBackend sim = runtime::SimBackend::Gpu, uint32_t max_steps_per_record = 128) {
        runtime::RuntimeOptions o;
        o.simulation = sim;
        o.max_steps_per_record = max_steps_per_record;
        o.sdf = runtime::SdfBackend::Cpu;  // quick on the CPU driver; the GPU build has its own tests
        o.renderer = render::RendererDesc{96, 64, 1, 64, 16};
        auto rt = SceneRuntime::create(&device(), o);
        EXPECT_TRUE(rt.ok()) << (rt.ok() ? "" : rt.error().describe());
        return rt.ok() ? std::move(*rt) : nullptr;
    }
};

// A unit the mesh file declares is offered as a one-click fix only where it turns an implausible size into
// a plausible one: the default head (declared centimetres, really metres) gets none; a head read in
// millimetres whose file declares metres gets "read it in m".
TEST(ContentAdvice, ADeclaredUnitIsOfferedWhereItMakesTheMeshPlausible) {
    Scene scene = light_scene();
    auto meshes = load_scene_meshes(scene);
    ASSERT_TRUE(meshes.ok()) << meshes.error().describe();
    const SceneMesh& head = meshes->front();
    ASSERT_GT(head.imported.declared_metres_per_unit, 0.0) << "the Infinite head's FBX declares centimetres";
    bool conflict = false;
    for (const Diagnostic& d : runtime::mesh_diagnostics_with_fixes(scene, head).items) {
        conflict = conflict || d.code == "unit_conflict";
        EXPECT_TRUE(d.fixes.empty()) << "the head is a head's size in metres: " << d.message;
    }
    EXPECT_TRUE(conflict);

    SceneMesh tiny = head;  // the same head as if read in millimetres from a file that declares metres
    tiny.report.bounds_min *= 0.001f;
    tiny.report.bounds_max *= 0.001f;
    tiny.imported.declared_metres_per_unit = 1.0;
    scene.meshes[0].units = "mm";
    const Diagnostics fixed = runtime::mesh_diagnostics_with_fixes(scene, tiny);
    const Diagnostic* advice = nullptr;
    for (const Diagnostic& d : fixed.items)
        if (d.code == "unit_conflict") advice = &d;
    ASSERT_NE(advice, nullptr);
    ASSERT_EQ(advice->fixes.size(), 1u);
    EXPECT_EQ(advice->severity, Severity::Warning);
    EXPECT_EQ(advice->fixes[0].path, "meshes[0].units");
    EXPECT_EQ(advice->fixes[0].value_json, "\"m\"");
    EXPECT_NE(advice->message.find("head"), std::string::npos) << advice->message;
    // A declared unit that leaves it implausible too (a kilometre per unit: hundreds of metres across) or
    // is not a scene unit offers nothing.
    tiny.imported.declared_metres_per_unit = 1000.0;
    for (const Diagnostic& d : runtime::mesh_diagnostics_with_fixes(scene, tiny).items) EXPECT_TRUE(d.fixes.empty()) << d.message;
}

TEST_F(RuntimeTest, EachEditRedoesOnlyWhatItTouches) {
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = light_scene();
    ASSERT_TRUE(rt->apply(s).ok());
    const RebuildReport& first = rt->report();
    EXPECT_TRUE(first.meshes);
    EXPECT_EQ(first.grooms, std::vector<std::string>{"main"});
    EXPECT_EQ(first.sdfs.size(), 2u);
    EXPECT_TRUE(first.simulation);
    const SdfGrid* head_field = rt->content()->sdfs[0].get();
    const SdfGrid* other_field = rt->content()->sdfs[1].get();
    const GroomResult* groom = rt->content()->grooms[0].get();

    // Shading (a slider drag in the editor): the renderer's shading and nothing else.
    s.hair_groups[0].shading.root_color = glm::dvec3(0.3, 0.1, 0.05);
    s.lighting.ambient = glm::dvec3(0.1, 0.1, 0.12);
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_TRUE(rt->report().shading);
    EXPECT_FALSE(rt->report().rebuilt_anything()) << rt->report().summary();
    EXPECT_FALSE(rt->report().simulation_params);
    EXPECT_EQ(rt->content()->grooms[0].get(), groom);

    // Stiffness: set in the running simulation; no regrow, no field, no rebuild at rest.
    ASSERT_TRUE(rt->apply(s).ok());
    ASSERT_TRUE(rt->step(2).ok());
    const uint64_t steps = rt->world()->clock.steps;
    s.hair_groups[0].simulation.local_stiffness = 0.3;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_TRUE(rt->report().simulation_params);
    EXPECT_FALSE(rt->report().rebuilt_anything()) << rt->report().summary();
    EXPECT_EQ(rt->world()->clock.steps, steps) << "the simulation keeps running";
    EXPECT_DOUBLE_EQ(rt->world()->groups[0].params.local_stiffness, 0.3);

    // cells_x of one collision mesh: that field only, and the simulation over it.
    s.collision_meshes[1].cells_x = 20;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_EQ(rt->report().sdfs, std::vector<std::string>{"other"});
    EXPECT_TRUE(rt->report().grooms.empty());
    EXPECT_FALSE(rt->report().meshes);
    EXPECT_EQ(rt->content()->sdfs[0].get(), head_field);
    EXPECT_NE(rt->content()->sdfs[1].get(), other_field);
    EXPECT_EQ(rt->content()->grooms[0].get(), groom);

    // The margin of the scalp's field: the groom keeps that clearance from its scalp, so it regrows; no
    // field is rebuilt (the margin is a simulation value).
    s.collision_meshes[0].margin_m = 0.008;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_EQ(rt->report().grooms, std::vector<std::string>{"main"});
    EXPECT_TRUE(rt->report().sdfs.empty());
    // ... while the margin of a field the group's scalp is not: no regrow.
    s.collision_meshes[1].margin_m = 0.008;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_TRUE(rt->report().grooms.empty()) << rt->report().summary();
    EXPECT_TRUE(rt->report().simulation_params);

    // Growth: the group regrows, the fields stay.
    s.hair_groups[0].growth.guides = 200;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_TRUE(contains(rt->report().grooms, "main"));
    EXPECT_TRUE(rt->report().sdfs.empty());
    EXPECT_EQ(rt->counts().guides, 200u);

    // Hiding a group draws it no more; it is still grown and simulated (visible is a drawing flag).
    s.hair_groups[0].visible = false;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_FALSE(rt->report().rebuilt_anything()) << rt->report().summary();
    EXPECT_EQ(rt->counts().guides, 200u);
}

// The editor's responsiveness bar, on the default scene as shipped: every frame of a shading slider drag
// reaches the runtime as a new scene, and none of them regrows, rebuilds a field or resets the simulation.
TEST_F(RuntimeTest, ShadingDragOnTheDefaultSceneRedoesNothing) {
    runtime::RuntimeOptions o;
    o.renderer = render::RendererDesc{96, 64, 1, 64, 16};
    auto rt = SceneRuntime::create(&device(), o);
    ASSERT_TRUE(rt.ok());
    auto loaded = load_scene(test::source("presets/scenes/default.json"));
    ASSERT_TRUE(loaded.ok());
    Scene s = loaded->scene;
    ASSERT_TRUE((*rt)->apply(s).ok());
    ASSERT_EQ((*rt)->counts().guides, 2000u);
    ASSERT_TRUE((*rt)->step(1).ok());
    const uint64_t steps = (*rt)->world()->clock.steps;
    const GroomResult* groom = (*rt)->content()->grooms[0].get();
    const SdfGrid* field = (*rt)->content()->sdfs[0].get();
    for (int frame = 0; frame < 10; ++frame) {
        s.hair_groups[0].shading.ks1 += 0.001;
        s.hair_groups[0].shading.tip_color.x = 0.5 + 0.02 * frame;
        ASSERT_TRUE((*rt)->apply(s).ok());
        const RebuildReport& r = (*rt)->report();
        EXPECT_TRUE(r.shading) << "frame " << frame;
        EXPECT_FALSE(r.rebuilt_anything()) << "frame " << frame << ": " << r.summary();
        EXPECT_FALSE(r.simulation_params) << "frame " << frame;
        EXPECT_TRUE(r.ms.empty()) << r.summary();
    }
    EXPECT_EQ((*rt)->world()->clock.steps, steps) << "the simulation was not reset";
    EXPECT_EQ((*rt)->content()->grooms[0].get(), groom);
    EXPECT_EQ((*rt)->content()->sdfs[0].get(), field);

    // The fibre radius is a shading slider too, but it also sets the guides' widths that exports carry:
    // they follow exactly as growing again would give them, and nothing is grown again.
    for (int frame = 1; frame <= 4; ++frame) {
        s.hair_groups[0].shading.fiber_radius_m = 0.002 - 0.0002 * frame;
        ASSERT_TRUE((*rt)->apply(s).ok());
        EXPECT_FALSE((*rt)->report().rebuilt_anything()) << (*rt)->report().summary();
        EXPECT_TRUE((*rt)->report().shading);
    }
    EXPECT_EQ((*rt)->report().restyled, std::vector<std::string>{"main"});
    EXPECT_EQ((*rt)->world()->clock.steps, steps);
    auto fresh = SceneRuntime::create(nullptr, {});
    ASSERT_TRUE(fresh.ok());
    ASSERT_TRUE((*fresh)->apply(s).ok());
    const auto& restyled = (*rt)->content()->grooms[0]->guides.widths_m;
    const auto& grown = (*fresh)->content()->grooms[0]->guides.widths_m;
    ASSERT_EQ(restyled.size(), grown.size());
    EXPECT_TRUE(restyled == grown) << "restyled widths equal a fresh groom's, bit for bit";
    EXPECT_FLOAT_EQ(restyled.front(), 2.0f * 0.0012f);  // the root's width: twice the last radius
    EXPECT_TRUE((*rt)->content()->grooms[0]->guides.points_os_m == (*fresh)->content()->grooms[0]->guides.points_os_m);
}

TEST_F(RuntimeTest, AFailedEditKeepsTheRunningScene) {
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = light_scene();
    ASSERT_TRUE(rt->apply(s).ok());
    Scene bad = s;
    bad.hair_groups[0].scalp.mesh = "nowhere";
    Status st = rt->apply(bad);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("nowhere"), std::string::npos) << st.error().message;
    EXPECT_TRUE(rt->scene() == s);
    EXPECT_EQ(rt->counts().guides, 300u);
    EXPECT_TRUE(rt->step(1).ok());
}

// An edit whose simulation the device could not build (out of memory here, injected: the CPU driver never
// runs out) leaves the scene as it was running and is not tried again on every sync (the editor syncs
// every frame, and each try builds two simulations), but once device_retry_s has passed: memory another
// program held may be free by then.
TEST_F(RuntimeTest, AnEditTheDeviceCouldNotBuildIsTriedAgainAfterAPause) {
    runtime::RuntimeOptions o;
    o.sdf = runtime::SdfBackend::Cpu;
    o.device_retry_s = 1.0;
    auto created = SceneRuntime::create(&device(), o);
    ASSERT_TRUE(created.ok()) << created.error().describe();
    auto& rt = *created;
    Scene s = light_scene();
    ASSERT_TRUE(rt->apply(s).ok());
    Scene edit = s;
    edit.hair_groups[0].simulation.gpu_vertices_per_strand = 8;  // a new layout: the simulation is built again
    device().inject_fault(gpu::Device::Fault::BufferMemory);
    auto st = rt->apply(edit);
    const auto failed_by = std::chrono::steady_clock::now();
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::OutOfMemory) << st.error().describe();
    EXPECT_TRUE(rt->scene() == s) << "the scene as it was keeps running";
    const uint64_t frames = rt->frames_stepped();
    // Synced again at once: the same error, nothing rebuilt (the injected fault is spent: a try would succeed).
    auto again = rt->apply(edit);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().message, st.error().message);
    EXPECT_EQ(rt->frames_stepped(), frames) << "not rebuilt";
    EXPECT_TRUE(rt->scene() == s);
    ASSERT_TRUE(rt->step(2).ok());
    // After the pause it is tried again, and built.
    std::this_thread::sleep_until(failed_by + std::chrono::milliseconds(1100));
    auto later = rt->apply(edit);
    EXPECT_TRUE(later.ok()) << later.error().describe();
    EXPECT_TRUE(rt->scene() == edit);
    EXPECT_TRUE(rt->step(1).ok());
}

TEST_F(RuntimeTest, AdvanceRunsWholeFramesAtTheScenesRate) {
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = light_scene();
    ASSERT_TRUE(rt->apply(s).ok());
    const double dt = 1.0 / s.environment.sim_rate_hz;
    auto ran = rt->advance(0.6 * dt);
    ASSERT_TRUE(ran.ok());
    EXPECT_EQ(*ran, 0u);
    ran = rt->advance(0.6 * dt);
    ASSERT_TRUE(ran.ok());
    EXPECT_EQ(*ran, 1u);
    EXPECT_EQ(rt->world()->clock.steps, uint64_t(s.environment.substeps));
    // A long stall runs at most max_frames_per_advance frames and drops the rest.
    ran = rt->advance(20.0 * dt);
    ASSERT_TRUE(ran.ok());
    EXPECT_EQ(*ran, 4u);
    EXPECT_GE(rt->world()->clock.dropped_frames, 15u);
    EXPECT_FALSE(rt->advance(-1.0).ok());
    // Reset: rest pose at t = 0.
    ASSERT_TRUE(rt->reset_simulation().ok());
    EXPECT_EQ(rt->world()->clock.steps, 0u);
}

// The slice shows a hair group's density on its volume grid (view.slice_of = hair_density): black where
// there is no hair, brighter where it is denser, a white contour at the group's volume_density; it is
// remade from the guides read back when the hair has moved, and only then.
TEST_F(RuntimeTest, DensitySliceFollowsTheHair) {
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = light_scene();
    s.view.show_slice = true;
    s.view.slice_of = SliceSource::HairDensity;
    s.view.slice_axis = SliceAxis::X;
    s.view.slice_position = 0.5;
    s.hair_groups[0].simulation.volume_density_per_cm2 = 0.5;  // the reduced groom is sparse: 1.5 at its densest node
    s.view.slice_group = "renamed";  // a name no group has (a group renamed after): the first group
    ASSERT_TRUE(rt->apply(s).ok());
    const render::SliceView& v = rt->slice();
    ASSERT_GT(v.width_px, 0);
    ASSERT_TRUE(v.density);
    EXPECT_EQ(v.axis, 0);
    EXPECT_DOUBLE_EQ(v.density_target_per_cm2, 0.5);
    const SimDensityGrid grid = volume_density_grid(rt->world()->groups[0]);
    EXPECT_FLOAT_EQ(float(v.cell_size_m), grid.cell_m);
    EXPECT_EQ(v.cells_along, int(grid.nodes));
    auto count = [](const render::SliceView& sv, auto&& pred) {
        size_t c = 0;
        for (size_t i = 0; i + 3 < sv.rgba.size(); i += 4) c += pred(&sv.rgba[i]) ? 1 : 0;
        return c;
    };
    const size_t empty = count(v, [](const uint8_t* p) { return p[3] == 70 && p[0] + p[1] + p[2] == 0; });
    const size_t hair = count(v, [](const uint8_t* p) { return p[3] == 255 && p[0] + p[1] + p[2] > 30; });
    const size_t contour = count(v, [](const uint8_t* p) { return p[0] == 255 && p[1] == 255 && p[2] == 255; });
    EXPECT_GT(empty, 0u) << "air around the hair";
    EXPECT_GT(hair, 0u) << "the hair in the plane";
    EXPECT_GT(contour, 0u) << "the target contour: the groom is denser than 0.5 hairs/cm^2 somewhere; full " << v.density_full_per_cm2
                           << ", densest node " << volume_density_stats(rt->world()->groups[0]).max_per_cm2;
    // The probe reads the density where a ray meets the plane: the grid's bilinear value between the
    // plane's nodes (at a node, the node's own).
    {
        const int n = int(grid.nodes);
        int best = 0;
        for (int z = 0; z < n; ++z)
            for (int y = 0; y < n; ++y)
                if (grid.per_cm2[(size_t(z) * n + size_t(y)) * n + size_t(v.index)] > grid.per_cm2[(size_t(best / n) * n + size_t(best % n)) * n + size_t(v.index)])
                    best = z * n + y;
        const glm::dvec3 node(grid.origin_m.x + grid.cell_m * v.index, grid.origin_m.y + grid.cell_m * (best % n), grid.origin_m.z + grid.cell_m * (best / n));
        auto probe = rt->probe_slice(node + glm::dvec3(1.0, 0.0, 0.0), glm::dvec3(-1.0, 0.0, 0.0));
        ASSERT_TRUE(probe.has_value());
        EXPECT_TRUE(probe->density);
        EXPECT_EQ(probe->mesh, s.hair_groups[0].name);
        EXPECT_NEAR(probe->density_per_cm2, grid.per_cm2[(size_t(best / n) * n + size_t(best % n)) * n + size_t(v.index)], 1e-4);
        EXPECT_GT(probe->density_per_cm2, 0.5) << "the plane's densest node is above the target";
        EXPECT_DOUBLE_EQ(probe->target_per_cm2, 0.5);
    }
    const std::vector<uint8_t> before = v.rgba;
    auto same = rt->refresh_density_slice();
    ASSERT_TRUE(same.ok());
    EXPECT_FALSE(*same) << "nothing moved";
    ASSERT_TRUE(rt->step(20).ok());
    auto moved = rt->refresh_density_slice();
    ASSERT_TRUE(moved.ok()) << moved.error().describe();
    EXPECT_TRUE(*moved);
    EXPECT_NE(rt->slice().rgba, before) << "the hair fell under gravity";
    // Back to the field: the same plane shows the SDF again.
    s.view.slice_of = SliceSource::Field;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_FALSE(rt->slice().density);
    EXPECT_GT(rt->slice().width_px, 0);
}

// The slice explains itself: its view carries the plane, the cell size and the colour range for the legend,
// and a probe along a ray reads the field the slice shows where the ray meets the plane: the trilinear
// distance there and the nearest cell's own, with the cell index on the plane.
TEST_F(RuntimeTest, SliceProbeReadsTheFieldWhereARayMeetsThePlane) {
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = light_scene();
    s.view.show_slice = true;
    s.view.slice_mesh = "head";
    s.view.slice_axis = SliceAxis::Z;
    s.view.slice_position = 0.5;
    ASSERT_TRUE(rt->apply(s).ok());
    const render::SliceView& v = rt->slice();
    ASSERT_GT(v.width_px, 0);
    const SdfGrid& g = *rt->content()->sdfs[0];
    EXPECT_EQ(v.axis, 2);
    EXPECT_DOUBLE_EQ(v.cell_size_m, g.grid.cell_size_m);
    EXPECT_NEAR(v.plane_m, g.grid.origin_m.z + v.index * g.grid.cell_size_m, 1e-12);
    EXPECT_EQ(v.cells_along, g.grid.dims.z);
    EXPECT_DOUBLE_EQ(v.margin_m, s.collision_meshes[0].margin_m);
    EXPECT_GT(v.range_m, 0.0);
    // Rays from in front of the head (+z) through points of the plane: the head's centre (inside), and a
    // point beside it (outside).
    const glm::dvec3 lo(v.grid_min_m), hi(v.grid_max_m), mid = 0.5 * (lo + hi);
    int inside = 0, outside = 0;
    for (double fx : {0.5, 0.1, 0.9})
        for (double fy : {0.5, 0.2, 0.8}) {
            const glm::dvec3 target(lo.x + fx * (hi.x - lo.x), lo.y + fy * (hi.y - lo.y), v.plane_m);
            const glm::dvec3 eye = target + glm::dvec3(0.2, 0.1, 2.0);
            auto probe = rt->probe_slice(eye, target - eye);
            ASSERT_TRUE(probe.has_value()) << fx << " " << fy;
            EXPECT_EQ(probe->mesh, "head");
            EXPECT_NEAR(glm::length(probe->point_m - target), 0.0, 1e-9);
            EXPECT_FLOAT_EQ(float(probe->distance_m), g.sample_m(glm::vec3(target)));
            const glm::ivec3 c = probe->cell;
            EXPECT_EQ(c.z, v.index);
            EXPECT_LE(std::abs(g.grid.origin_m.x + c.x * g.grid.cell_size_m - target.x), 0.5 * g.grid.cell_size_m + 1e-9);
            EXPECT_LE(std::abs(g.grid.origin_m.y + c.y * g.grid.cell_size_m - target.y), 0.5 * g.grid.cell_size_m + 1e-9);
            EXPECT_FLOAT_EQ(float(probe->cell_distance_m), g.at(c.x, c.y, c.z));
            (probe->distance_m < 0.0 ? inside : outside) += 1;
        }
    EXPECT_GE(inside, 1) << "the head's centre is inside";
    EXPECT_GE(outside, 4);
    // Misses: a ray along the plane, one pointing away, one meeting the plane outside the grid.
    EXPECT_FALSE(rt->probe_slice(mid + glm::dvec3(0, 0, 1), glm::dvec3(1, 0, 0)).has_value());
    EXPECT_FALSE(rt->probe_slice(mid + glm::dvec3(0, 0, 1), glm::dvec3(0, 0, 1)).has_value());
    EXPECT_FALSE(rt->probe_slice(glm::dvec3(hi.x + 1.0, mid.y, 2.0), glm::dvec3(0, 0, -1)).has_value());
}

// Frames whose substeps exceed one record's slots (59 substeps x 4 frames = 236 > 128: a seek's batch on a
// scene with many substeps, which once stopped the editor) run a record at a time: every frame is stepped,
// into a caller's command buffer too.
// A record's constant slots are made small (16 substeps) so the split is exercised in a few dozen steps: 7
// substeps a frame fit two frames a record; four frames without a command buffer run as two records, three
// with one run two frames synchronously first and record the last into the caller's buffer; 17 substeps a
// frame do not fit one record at all and are refused by name.
TEST_F(RuntimeTest, StepsMoreSubstepsThanOneRecordHolds) {
    auto rt = make(runtime::SimBackend::Gpu, 16);
    ASSERT_TRUE(rt);
    Scene s = light_scene();
    s.environment.substeps = 7;
    ASSERT_TRUE(rt->apply(s).ok());
    Status st = rt->step(4);
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_EQ(rt->world()->clock.steps, 4u * 7u);
    auto cmd = device().begin_commands();
    ASSERT_TRUE(cmd.ok());
    st = rt->step(3, &*cmd);
    ASSERT_TRUE(st.ok()) << st.error().message;
    auto serial = device().submit(std::move(*cmd));
    ASSERT_TRUE(serial.ok());
    ASSERT_TRUE(device().wait(*serial).ok());
    EXPECT_EQ(rt->world()->clock.steps, 7u * 7u);
    ASSERT_TRUE(rt->download().ok());
    for (const glm::vec4& p : rt->world()->groups[0].positions) ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
    s.environment.substeps = 17;
    ASSERT_TRUE(rt->apply(s).ok());
    st = rt->step(1);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("17 steps in one record"), std::string::npos) << st.error().message;
}

TEST_F(RuntimeTest, CpuReferenceBackendStepsTheSameScene) {
    auto gpu = make(runtime::SimBackend::Gpu);
    auto cpu = make(runtime::SimBackend::Cpu);
    ASSERT_TRUE(gpu && cpu);
    Scene s = light_scene();
    ASSERT_TRUE(gpu->apply(s).ok());
    ASSERT_TRUE(cpu->apply(s).ok());
    ASSERT_TRUE(gpu->step(3).ok());
    ASSERT_TRUE(cpu->step(3).ok());
    ASSERT_TRUE(gpu->download().ok());
    const auto& a = gpu->world()->groups[0].positions;
    const auto& b = cpu->world()->groups[0].positions;
    ASSERT_EQ(a.size(), b.size());
    float worst = 0.0f;
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(glm::vec3(a[i] - b[i])));
    EXPECT_LT(worst, 1e-4f) << "GPU and CPU reference steps of one scene";
    EXPECT_GT(glm::length(glm::vec3(a.back() - cpu->world()->groups[0].rest_positions_os.back())), 0.0f);
}

// The sag-free rest state solved by stepping the GPU passes (as on a GPU) and by the CPU reference step
// (as on a CPU device) gives the same targets, and an edit of what the rest state hangs on (a stiffness)
// solves it again without stopping the running simulation; a shading edit does not.
TEST_F(RuntimeTest, SagFreeSolvedOnTheGpuMatchesTheCpuReference) {
    auto make_solver = [&](bool on_gpu) {
        runtime::RuntimeOptions o;
        o.sdf = runtime::SdfBackend::Cpu;
        o.sag_free_on_gpu = on_gpu;
        auto rt = SceneRuntime::create(&device(), o);
        EXPECT_TRUE(rt.ok());
        return rt.ok() ? std::move(*rt) : nullptr;
    };
    auto gpu = make_solver(true), cpu = make_solver(false);
    ASSERT_TRUE(gpu && cpu);
    Scene s = light_scene();
    ASSERT_TRUE(gpu->apply(s).ok());
    ASSERT_TRUE(cpu->apply(s).ok());
    EXPECT_TRUE(gpu->report().sag_free);
    const SagFreeReport& a = gpu->sag_free_report();
    const SagFreeReport& b = cpu->sag_free_report();
    std::printf("sag-free on the GPU: %u corrections, %u frames, sag %.3g m -> %.3g m mean, %.3g m -> %.3g m largest (%.0f ms); "
                "CPU reference: %u corrections, %.3g m -> %.3g m mean (%.0f ms)\n",
                a.iterations, a.frames, a.sag_mean_m, a.error_mean_m, a.sag_max_m, a.error_max_m, gpu->sag_free_ms(), b.iterations,
                b.sag_mean_m, b.error_mean_m, cpu->sag_free_ms());
    EXPECT_EQ(a.groups, 1u);
    EXPECT_NEAR(a.sag_mean_m, b.sag_mean_m, 1e-4) << "the same sag before the first correction";
    EXPECT_LT(a.error_mean_m, 0.1 * a.sag_mean_m);
    EXPECT_LT(b.error_mean_m, 0.1 * b.sag_mean_m);
    const SimGroupState& ga = gpu->world()->groups[0];
    const SimGroupState& gb = cpu->world()->groups[0];
    float worst = 0.0f, moved = 0.0f;
    for (size_t i = 0; i < ga.ref_vectors_m.size(); ++i) {
        worst = std::max(worst, glm::length(glm::vec3(ga.ref_vectors_m[i] - gb.ref_vectors_m[i])));
        worst = std::max(worst, glm::length(glm::vec3(ga.rest_positions_os[i] - gb.rest_positions_os[i])));
        moved = std::max(moved, glm::length(glm::vec3(ga.rest_positions_os[i] - ga.groomed_positions_os[i])));
        moved = std::max(moved, glm::length(glm::vec3(ga.ref_vectors_m[i] - ga.groomed_ref_vectors_m[i])));
    }
    EXPECT_GT(moved, 1e-4f) << "the targets moved (the default scene bends as a rod: its reference vectors)";
    EXPECT_LT(worst, 1e-3f) << "GPU- and CPU-solved targets";

    ASSERT_TRUE(gpu->step(2).ok());
    const uint64_t steps = gpu->world()->clock.steps;
    s.hair_groups[0].shading.root_color = glm::dvec3(0.3, 0.1, 0.05);
    ASSERT_TRUE(gpu->apply(s).ok());
    EXPECT_FALSE(gpu->report().sag_free) << "shading is not what the rest state hangs on";
    s.hair_groups[0].simulation.local_stiffness = 0.85;
    ASSERT_TRUE(gpu->apply(s).ok());
    EXPECT_TRUE(gpu->report().sag_free) << gpu->report().summary();
    EXPECT_EQ(gpu->world()->clock.steps, steps) << "the simulation keeps running";
    s.hair_groups[0].simulation.sag_free = false;
    ASSERT_TRUE(gpu->apply(s).ok());
    EXPECT_EQ(gpu->sag_free_report().groups, 0u);
    EXPECT_EQ(gpu->world()->groups[0].rest_positions_os, gpu->world()->groups[0].groomed_positions_os) << "off: the groom's targets";
}

// The editor's way (sag_free_async) on the CPU driver: the solve runs on a worker after the build and after
// edits pause, the simulation steps meanwhile, and its targets are taken over when it is done.
TEST_F(RuntimeTest, SagFreeAsyncSolvesOnAWorkerWhileTheSimulationRuns) {
    runtime::RuntimeOptions o;
    o.sdf = runtime::SdfBackend::Cpu;
    o.sag_free_async = true;
    auto rt = SceneRuntime::create(&device(), o);
    ASSERT_TRUE(rt.ok());
    SceneRuntime& r = **rt;
    ASSERT_TRUE(device().info().is_cpu()) << "the worker path is the CPU device's";
    Scene s = light_scene();
    ASSERT_TRUE(r.apply(s).ok());
    EXPECT_TRUE(r.rest_state_pending());
    EXPECT_EQ(r.world()->groups[0].rest_positions_os, r.world()->groups[0].groomed_positions_os) << "not solved yet";
    auto wait_solved = [&] {
        for (int i = 0; i < 1200 && r.rest_state_pending(); ++i) {
            EXPECT_TRUE(r.step(1).ok());  // polls first
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return !r.rest_state_pending();
    };
    ASSERT_TRUE(wait_solved());
    EXPECT_EQ(r.sag_free_report().groups, 1u);
    EXPECT_LT(r.sag_free_report().error_mean_m, 0.1 * r.sag_free_report().sag_mean_m);
    // The default scene bends as a rod: its static preload moves the reference vectors.
    const std::vector<glm::vec4> first = r.world()->groups[0].ref_vectors_m;
    EXPECT_NE(first, r.world()->groups[0].groomed_ref_vectors_m) << "the worker's targets taken over";

    const uint64_t steps = r.world()->clock.steps;
    s.hair_groups[0].simulation.local_stiffness = 0.85;
    ASSERT_TRUE(r.apply(s).ok());
    EXPECT_TRUE(r.rest_state_pending());
    ASSERT_TRUE(r.poll_rest_state().ok());
    EXPECT_TRUE(r.rest_state_pending()) << "waits for the edits to pause";
    ASSERT_TRUE(wait_solved());
    EXPECT_GT(r.world()->clock.steps, steps) << "the simulation ran meanwhile";
    EXPECT_NE(r.world()->groups[0].ref_vectors_m, first) << "solved again for the new stiffness";
}

// The pose the runtime plays at simulation time t: a 0.5 s eased blend from the bind pose into the clip's
// first frame, then the clip from its start.
std::vector<NodeTransform> played_pose(const ImportedScene& file, const ClipSampler& clip, double t) {
    std::vector<NodeTransform> local = rest_pose(file);
    if (t < 0.5) {
        std::vector<NodeTransform> first = local;
        clip.sample(0.0, first);
        const double u = t / 0.5;
        return blend_poses(local, first, u * u * (3.0 - 2.0 * u));
    }
    clip.sample(t - 0.5, local);
    return local;
}

// CesiumMan ("man", the shipped glb) walking, with one hair group "hair" on him: 8 vertices a strand, no
// follows. Each test sets the scalp region, the growth and the simulation values it needs.
Scene walking_man_scene() {
    Scene s;
    MeshRef man;
    man.name = "man";
    man.path = test::testdata("gltf/CesiumMan.glb").string();
    s.meshes.push_back(man);
    HairGroup g;
    g.name = "hair";
    g.scalp.mesh = "man";
    g.growth.vertices_per_strand = 8;
    g.follow.mode = FollowMode::None;
    g.simulation.gpu_vertices_per_strand = 8;
    s.hair_groups.push_back(g);
    s.motion.type = MotionType::Animation;
    s.motion.mesh = "man";
    return s;
}

// A mesh (a cloth sheet from make_cloth_sheet) as an OBJ file for a scene to load, each face's winding
// reversed as the cloth tests have it. False when it cannot be written.
bool write_sheet_obj(const Mesh& sheet, const std::filesystem::path& path) {
    std::string obj;
    for (const glm::vec3& p : sheet.positions) obj += "v " + std::to_string(p.x) + " " + std::to_string(p.y) + " " + std::to_string(p.z) + "\n";
    for (size_t t = 0; t < sheet.indices.size(); t += 3)
        obj += "f " + std::to_string(sheet.indices[t] + 1) + " " + std::to_string(sheet.indices[t + 2] + 1) + " " +
               std::to_string(sheet.indices[t + 1] + 1) + "\n";
    return write_file_atomic(path, obj).ok();
}

// The scene's mesh "sheet", read from `path` (written by write_sheet_obj).
MeshRef sheet_mesh_ref(const std::filesystem::path& path) {
    MeshRef ref;
    ref.name = "sheet";
    ref.path = path.string();
    return ref;
}

// CesiumMan's body as a collision mesh: `cells_x` cells, padding 0.2, margin 5 mm.
CollisionMesh walking_man_field(int cells_x, bool band_only = false) {
    CollisionMesh cm;
    cm.mesh = "man";
    cm.cells_x = cells_x;
    cm.padding = 0.2;
    cm.margin_m = 0.005;
    cm.animated_band_only = band_only;
    return cm;
}

// The reference the runtime is checked against: the same file skinned here by engine/anim, from the mesh
// the runtime imported, posed as the runtime plays it (played_pose).
struct WalkingManReference {
    ImportedScene file;
    const Mesh* mesh = nullptr;
    const Skin* skin = nullptr;
    SkinBind bind;
    std::unique_ptr<ClipSampler> clip;
    bool ok = false;

    explicit WalkingManReference(const Mesh& runtime_mesh) : mesh(&runtime_mesh) {
        auto f = import_mesh_file(test::testdata("gltf/CesiumMan.glb"));
        EXPECT_TRUE(f.ok());
        if (!f.ok() || runtime_mesh.skin < 0) return;
        file = std::move(*f);
        skin = &file.skins[size_t(runtime_mesh.skin)];
        auto b = unbind_mesh(runtime_mesh, joint_matrices(*skin, world_transforms(file, rest_pose(file))));
        EXPECT_TRUE(b.ok());
        if (!b.ok()) return;
        bind = std::move(*b);
        clip = std::make_unique<ClipSampler>(file, file.animations[0]);
        ok = true;
    }
    // The mesh's positions at simulation time t (empty on failure, with a test failure).
    std::vector<glm::vec3> posed(double t) const {
        std::vector<glm::vec3> out;
        EXPECT_TRUE(skin_mesh(*mesh, bind, joint_matrices(*skin, world_transforms(file, played_pose(file, *clip, t))), out).ok());
        return out;
    }
};

// A TressFX body has bone names and no skeleton: `meshes[].skeleton` animates it with another file's nodes
// and clips. CesiumMan written as a .tfxmesh walks on CesiumMan.glb's skeleton: its vertices held by one
// joint where the glTF's own skinning puts them (within 1e-5 m), and the hair grown on it follows the
// GPU-skinned body (roots on the posed body within 1e-5 m). Naming a skeleton without its bones is an error
// that names the bone.
TEST_F(RuntimeTest, ATressFXBodyWalksOnAnotherFilesSkeleton) {
    const auto dir = test::scratch_dir("runtime_tfx_body");
    {
        auto gltf = import_mesh_file(test::testdata("gltf/CesiumMan.glb"));
        ASSERT_TRUE(gltf.ok());
        const Mesh man = merge_meshes(*gltf, "man");
        std::vector<std::string> names;
        for (int n : gltf->skins[size_t(man.skin)].joints) names.push_back(gltf->nodes[size_t(n)].name);
        ASSERT_TRUE(write_tfxmesh(man, names, dir / "body.tfxmesh").ok());
    }
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = walking_man_scene();
    s.meshes[0].visible = false;
    MeshRef body;
    body.name = "body";
    body.path = (dir / "body.tfxmesh").string();
    body.skeleton = "man";
    s.meshes.push_back(body);
    s.motion.mesh = "body";
    HairGroup& g = s.hair_groups[0];
    g.scalp.mesh = "body";
    g.scalp.region = {RegionType::Cap, {0.0, 1.0, 0.0}, 30.0};
    g.growth.guides = 60;
    g.growth.length_m = 0.1;
    ASSERT_TRUE(rt->apply(s).ok()) << rt->report().summary();
    ASSERT_TRUE(rt->step(30).ok());
    ASSERT_TRUE(rt->download().ok());
    const double t = rt->world()->time_s();
    auto posed = rt->animated_mesh_now("body");
    ASSERT_TRUE(posed.has_value());
    const Mesh& man = rt->content()->find_mesh("man")->mesh;
    const WalkingManReference ref(man);
    ASSERT_TRUE(ref.ok);
    const std::vector<glm::vec3> want = ref.posed(t);
    ASSERT_EQ(want.size(), posed->positions.size());
    double worst = 0.0, moved = 0.0;
    for (size_t v = 0; v < want.size(); ++v) {
        if (man.weights[v].x < 0.999f) continue;
        worst = std::max(worst, double(glm::length(want[v] - posed->positions[v])));
        moved = std::max(moved, double(glm::length(want[v] - man.positions[v])));
    }
    const Mesh& bind = rt->content()->find_mesh("body")->mesh;
    const GroomResult& groom = *rt->content()->grooms[0];
    const SimGroupState& sg = rt->world()->groups[0];
    ASSERT_EQ(groom.guides.roots.size(), sg.strand_count);
    double roots = 0.0;
    for (uint32_t st = 0; st < sg.strand_count; ++st) {
        const ScalpAttachment& a = groom.guides.roots[st];
        const glm::vec3 p = posed->positions[bind.indices[3 * a.triangle]] * a.barycentric.x +
                            posed->positions[bind.indices[3 * a.triangle + 1]] * a.barycentric.y +
                            posed->positions[bind.indices[3 * a.triangle + 2]] * a.barycentric.z;
        roots = std::max(roots, double(glm::length(glm::vec3(sg.positions[size_t(st) * sg.n]) - p)));
    }
    std::printf("CesiumMan's .tfxmesh on the glTF's skeleton at %.2f s: one-joint vertices within %.3g m of the glTF's skinning (moved "
                "%.3g m), %u roots within %.3g m of the posed body\n",
                t, worst, moved, sg.strand_count, roots);
    EXPECT_LT(worst, 1e-5);
    EXPECT_GT(moved, 0.05);
    EXPECT_LT(roots, 1e-5);

    Scene lacking = s;
    lacking.meshes[1].skeleton = "nothing";
    EXPECT_FALSE(validate_scene(lacking).ok()) << "a skeleton naming no mesh";
    Scene unrigged = s;
    unrigged.meshes[0].path = test::testdata("gltf/RiggedFigure.glb").string();
    auto r = rt->apply(unrigged);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("has no joint named"), std::string::npos) << r.error().message;
}

// Skeletal animation in the runtime (built in code: scene files asking for it are refused until the fields
// follow the body): CesiumMan walks, his mesh is drawn posed, and the GPU simulation's roots follow his
// skinned scalp, checked against the animation module's own skinning at the frame's time.
TEST_F(RuntimeTest, AnimatedScalpCarriesTheRootsAndIsDrawnPosed) {
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = walking_man_scene();
    HairGroup& g = s.hair_groups[0];
    g.scalp.region = {RegionType::Cap, {0.0, 1.0, 0.0}, 30.0};
    g.growth.guides = 60;
    g.growth.length_m = 0.1;
    ASSERT_TRUE(rt->apply(s).ok()) << rt->report().summary();
    ASSERT_TRUE(rt->step(30).ok());
    ASSERT_TRUE(rt->step(30).ok());
    ASSERT_TRUE(rt->download().ok());
    const double t = rt->world()->time_s();
    EXPECT_NEAR(t, 1.0, 1e-9);

    // The expected roots: each root's barycentric point on the reference skinning at t.
    const Mesh& bind_mesh = rt->content()->find_mesh("man")->mesh;
    const WalkingManReference ref(bind_mesh);
    ASSERT_TRUE(ref.ok);
    const std::vector<glm::vec3> posed = ref.posed(t);
    ASSERT_EQ(posed.size(), bind_mesh.positions.size());
    const GroomResult& groom = *rt->content()->grooms[0];
    const SimGroupState& sg = rt->world()->groups[0];
    ASSERT_EQ(groom.guides.roots.size(), sg.strand_count);
    ASSERT_GT(sg.strand_count, 10u);
    double worst = 0.0, moved = 0.0;
    for (uint32_t st = 0; st < sg.strand_count; ++st) {
        const ScalpAttachment& a = groom.guides.roots[st];
        const glm::vec3 want = posed[bind_mesh.indices[3 * a.triangle]] * a.barycentric.x + posed[bind_mesh.indices[3 * a.triangle + 1]] * a.barycentric.y +
                               posed[bind_mesh.indices[3 * a.triangle + 2]] * a.barycentric.z;
        worst = std::max(worst, double(glm::length(glm::vec3(sg.positions[size_t(st) * sg.n]) - want)));
        moved = std::max(moved, double(glm::length(want - glm::vec3(sg.groomed_positions_os[size_t(st) * sg.n]))));
    }
    std::printf("CesiumMan walking, 1 s: %u roots on the skinned scalp within %.3g m (moved up to %.3g m from the bind pose)\n", sg.strand_count,
                worst, moved);
    EXPECT_GT(moved, 0.02);
    EXPECT_LT(worst, 1e-5);
    for (const glm::vec4& p : sg.positions) ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));

    // Drawn posed: the renderer's vertices of the body are the skinning pass's, written on the device
    // (no mesh upload per frame), at the reference pose within 1e-5 m.
    {
        gpu::Buffer* drawn = rt->renderer()->mesh_vertices(0);
        ASSERT_NE(drawn, nullptr);
        std::vector<glm::vec4> v(2 * posed.size());
        ASSERT_TRUE(device().download(*drawn, v.data(), v.size() * sizeof(glm::vec4)).ok());
        double drawn_worst = 0.0;
        for (size_t i = 0; i < posed.size(); ++i) drawn_worst = std::max(drawn_worst, double(glm::length(glm::vec3(v[2 * i]) - posed[i])));
        std::printf("the drawn body's vertices within %.3g m of the reference pose\n", drawn_worst);
        EXPECT_LT(drawn_worst, 1e-5);
    }
    // A frame of the walking man with his hair.
    ASSERT_TRUE(rt->resize(360, 480).ok());
    render::FrameDesc frame = rt->frame_desc(true);
    auto rgba = rt->render_to_rgba(frame);
    ASSERT_TRUE(rgba.ok()) << rgba.error().describe();
    size_t lit = 0;
    for (size_t i = 0; i + 3 < rgba->size(); i += 4) lit += (*rgba)[i] + (*rgba)[i + 1] + (*rgba)[i + 2] > 60 ? 1 : 0;
    EXPECT_GT(lit, 50u) << "something is drawn";
    auto png = encode_png_rgba(*rgba, int(rt->renderer()->width()), int(rt->renderer()->height()));
    ASSERT_TRUE(png.ok());
    EXPECT_TRUE(write_file_atomic(test::scratch_dir("runtime_animated") / "walk_1s.png", *png).ok());

    // A clip that is not in the file is an error naming the clips it has; the running scene stays.
    Scene bad = s;
    bad.motion.animation = "dance";
    const Status st = rt->apply(bad);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("dance"), std::string::npos) << st.error().message;
}

// The animated body's collision field follows it: rebuilt from the pose before every frame on a grid
// placed around that pose (moved by whole cells with it; the world samples it where it was built). Long
// soft hair on CesiumMan's head, not preloaded, falls onto his back and shoulders while he blends in from
// the bind pose (0.5 s) and walks, 40 frames on the GPU step. After
// the first step, on every frame, no guide vertex is more than 0.1 x margin inside the posed body (exact
// distance to the posed mesh); with the field left in the bind pose it was 32-33 mm, and without the
// blend-in the first step left one 14 mm in. Half-way through the blend a root on the base of the neck,
// whose pinned second vertex the skin's deformation carries 12 mm into the body, held its third vertex
// 8.5 mm inside (frame 14) before that vertex's contact plane was kept where its push put it
// (sim_contact_lifted); none now.
// Both paths: the GPU simulation's field skinned, refit and rebuilt on the device; the CPU simulation's
// built by the CPU reference from the CPU-skinned pose.
TEST_F(RuntimeTest, AnimatedBodysFieldFollowsItAndKeepsTheHairOut) {
  for (runtime::SimBackend backend : {runtime::SimBackend::Gpu, runtime::SimBackend::Cpu}) {
    const char* path = backend == runtime::SimBackend::Gpu ? "GPU" : "CPU";
    SCOPED_TRACE(path);
    auto rt = make(backend);
    ASSERT_TRUE(rt);
    Scene s = walking_man_scene();
    const CollisionMesh cm = walking_man_field(40);
    s.collision_meshes.push_back(cm);
    HairGroup& g = s.hair_groups[0];
    g.scalp.region = {RegionType::Cap, {0.0, 1.0, 0.0}, 10.0};  // the top of the head (wider caps reach the face and the shoulders)
    g.growth.guides = 80;
    g.growth.length_m = 0.3;
    g.growth.comb_direction = glm::dvec3(0.0, -0.5, -1.0);
    g.growth.comb = 0.6;
    g.simulation.local_stiffness = 0.3;  // soft and not preloaded: the hair falls onto the back and the shoulders
    g.simulation.global_stiffness = 0.0;
    g.simulation.sag_free = false;
    g.simulation.sdf = {"man"};
    s.view.show_slice = true;  // the slice follows the posed field
    s.view.slice_axis = SliceAxis::Z;
    s.view.slice_position = 0.5;
    ASSERT_TRUE(rt->apply(s).ok());
    const SimSdfState& field = rt->world()->sdfs[0];
    const std::vector<uint8_t> still_slice = rt->slice().rgba;
    EXPECT_FALSE(still_slice.empty());
    EXPECT_FALSE(field.moves);

    const Mesh& bind_mesh = rt->content()->find_mesh("man")->mesh;
    const WalkingManReference ref(bind_mesh);
    ASSERT_TRUE(ref.ok);
    double deepest = 0.0, first_step = 0.0, field_moved = 0.0, worst_frame_depth = 0.0;
    int worst_frame = 0;
    double grid_moved_cells = 0.0;
    size_t touching = 0;  // vertex-frames within two margins of the body: the hair lies on it
    double nearest = 1e9;
    auto first = rt->current_field(0);
    ASSERT_TRUE(first.ok());
    const std::vector<float> first_field = first->distance_m;
    for (int frame = 0; frame <= 40; ++frame) {
        if (frame > 0) {
            ASSERT_TRUE(rt->step(1).ok());
        }
        ASSERT_TRUE(rt->download().ok());
        Mesh posed = bind_mesh;
        posed.positions = ref.posed(rt->world()->time_s());
        ASSERT_EQ(posed.positions.size(), bind_mesh.positions.size());
        const MeshDistanceOracle oracle(posed);
        const SimGroupState& sg = rt->world()->groups[0];
        double frame_deepest = 0.0;
        size_t at = 0;
        for (size_t i = 0; i < sg.positions.size(); ++i) {
            const glm::vec4& p = sg.positions[i];
            ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) << "frame " << frame;
            if (p.w <= 0.0f) continue;
            const double d = -oracle.signed_distance_m(glm::vec3(p));
            if (d > frame_deepest) frame_deepest = d, at = i;
            touching += d > -2.0 * cm.margin_m ? 1 : 0;
            nearest = std::min(nearest, -d);
        }
        (void)at;
        // The field's grid is placed around each pose: where the world samples it is where it was built.
        {
            const SimSdfState& sdf = rt->world()->sdfs[0];
            auto now = rt->current_field(0);
            ASSERT_TRUE(now.ok());
            const glm::dvec3 placed = glm::dvec3(sdf.grid_params.origin_m) + glm::dvec3(sdf.placement_m);
            EXPECT_LT(glm::length(now->grid.origin_m - placed), 1e-5) << "frame " << frame;
            grid_moved_cells = std::max(grid_moved_cells, double(glm::length(sdf.placement_m)) / double(sdf.grid_params.origin_m.w));
        }
        if (frame == 1) first_step = frame_deepest;
        if (frame > 30) deepest = std::max(deepest, frame_deepest);
        if (frame_deepest > worst_frame_depth) worst_frame_depth = frame_deepest, worst_frame = frame;
    }
    {
        ASSERT_TRUE(rt->resize(360, 480).ok());
        auto rgba = rt->render_to_rgba(rt->frame_desc(true));
        ASSERT_TRUE(rgba.ok());
        auto png = encode_png_rgba(*rgba, 360, 480);
        ASSERT_TRUE(png.ok());
        EXPECT_TRUE(write_file_atomic(test::scratch_dir("runtime_animated") / (std::string("walk_collide_") + path + ".png"), *png).ok());
    }
    auto last_field = rt->current_field(0);
    ASSERT_TRUE(last_field.ok());
    ASSERT_EQ(last_field->distance_m.size(), first_field.size());
    for (size_t i = 0; i < first_field.size(); ++i)
        field_moved = std::max(field_moved, double(std::abs(first_field[i] - last_field->distance_m[i])));
    std::printf("%s: CesiumMan walking 40 frames with his field rebuilt every frame: deepest guide vertex over the last 10 frames %.3g m "
                "inside, after the first step %.3g m, at worst %.3g m (frame %d; the bar: %.3g m); %zu vertex-frames within two margins of "
                "the body; the field changed by up to %.3g m\n",
                path, deepest, first_step, worst_frame_depth, worst_frame, 0.1 * cm.margin_m, touching, field_moved);
    EXPECT_GT(field_moved, 0.01) << "the field follows the pose";
    std::printf("%s: the field's grid moved with the pose by up to %.3g cells\n", path, grid_moved_cells);
    EXPECT_GE(grid_moved_cells, 1.0) << "the grid is placed around each pose";
    EXPECT_NEAR(rt->slice_pose_time(), rt->world()->time_s(), 1e-9) << "the slice shows this frame's field";
    {
        SliceStyle style;
        style.margin_m = cm.margin_m;
        style.upscale = 2;
        const render::SliceView want = render::make_slice_view(*last_field, SliceAxis::Z, 0.5, style);
        EXPECT_EQ(rt->slice().rgba, want.rgba) << "the slice is drawn from the posed field";
        EXPECT_NE(rt->slice().rgba, still_slice);
    }
    EXPECT_GT(touching, 100u) << "the hair must lie on the body for the test to mean anything";
    EXPECT_LE(first_step, 0.1 * cm.margin_m);
    EXPECT_LE(deepest, 0.1 * cm.margin_m);
    EXPECT_LE(worst_frame_depth, 0.1 * cm.margin_m) << "frame " << worst_frame;
  }
}

// A collider on a joint (Collider::attach_joint): a sphere at CesiumMan's left hand follows the hand joint
// over his walk, its centre where the joint carries it from the rest pose; a joint that the skin does not
// have is an error naming it, and attach_joint without attach_to is refused by validation.
TEST_F(RuntimeTest, ColliderOnAJointFollowsTheJoint) {
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = walking_man_scene();
    s.hair_groups[0].growth.guides = 40;
    auto file = import_mesh_file(test::testdata("gltf/CesiumMan.glb"));
    ASSERT_TRUE(file.ok());
    int node = -1;
    for (size_t n = 0; n < file->nodes.size(); ++n)
        if (file->nodes[n].name == "Skeleton_arm_joint_L__4_") node = int(n);
    ASSERT_GE(node, 0);
    const std::vector<glm::dmat4> rest = world_transforms(*file, rest_pose(*file));
    Collider hand;
    hand.name = "hand";
    hand.p0_m = glm::dvec3(rest[size_t(node)][3]);
    hand.radius_m = 0.05;
    hand.attach_to = "man";
    hand.attach_joint = "Skeleton_arm_joint_L__4_";
    s.colliders.push_back(hand);
    s.hair_groups[0].simulation.colliders = {"hand"};
    ASSERT_TRUE(rt->apply(s).ok());
    ClipSampler clip(*file, file->animations[0]);
    double worst = 0.0, moved = 0.0;
    for (int frame = 1; frame <= 40; ++frame) {
        ASSERT_TRUE(rt->step(1).ok());
        const double t = rt->world()->time_s();
        const glm::dmat4 T = world_transforms(*file, played_pose(*file, clip, t))[size_t(node)] * glm::inverse(rest[size_t(node)]);
        const glm::vec3 want = glm::vec3(T * glm::dvec4(hand.p0_m, 1.0));
        const glm::vec3 got = glm::vec3(rt->world()->colliders[0].gpu.p0_m);
        worst = std::max(worst, double(glm::length(got - want)));
        moved = std::max(moved, double(glm::length(got - glm::vec3(hand.p0_m))));
    }
    std::printf("a sphere on CesiumMan's left hand over 40 frames: within %.3g m of the joint's carry, moved up to %.3g m\n", worst, moved);
    EXPECT_LE(worst, 1e-5);
    EXPECT_GT(moved, 0.05);

    Scene wrong = s;
    wrong.colliders[0].attach_joint = "no_such_joint";
    auto st = rt->apply(wrong);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("no joint 'no_such_joint'"), std::string::npos) << st.error().message;
    EXPECT_TRUE(rt->scene() == s) << "the scene as it was keeps running";
    EXPECT_TRUE(rt->step(1).ok());
    // Synced again unchanged (the editor syncs every frame), the edit is refused again with the same message
    // and the running simulation is left alone: not rebuilt from rest twice a frame.
    const uint64_t frames_before = rt->frames_stepped();
    auto again = rt->apply(wrong);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().message, st.error().message);
    EXPECT_EQ(rt->frames_stepped(), frames_before) << "a refused edit synced again must not rebuild the simulation";
    Scene unattached = s;
    unattached.colliders[0].attach_to.clear();
    EXPECT_FALSE(validate_scene(unattached).ok());
}

// The pins of accessories on an animated mesh follow it, on a joint or on the skin. A sheet over CesiumMan's
// head pinned at its middle to his head joint (Accessory::attach_joint) follows the head through the
// blend-in and 40 frames of the walk: every pinned vertex where the joint carries its rest place (within
// 1e-5 m), the free ones hanging with it (none left behind beyond the sheet's size, nothing non-finite). A
// patch of his skin around the left knee, lifted 8 mm off it, pinned within 6 cm of the knee without a joint
// follows the skin under each pin: every pin keeps its distance from the triangle under it at rest, posed by
// the reference skinning, within 1 mm, where the same patch pinned to the knee joint leaves it by
// centimetres (the skin bends about the knee; a joint is rigid). A joint that the skin does not have is an
// error naming it, and attach_joint without attach is refused by validation.
TEST_F(RuntimeTest, ClothPinnedToAJointOrTheSkinFollowsItThroughTheWalk) {
    const std::filesystem::path dir = test::scratch_dir("runtime_cloth_joint");
    const char* head_joint = "Skeleton_neck_joint_2";
    const char* knee_joint = "leg_joint_L_2";
    auto file = import_mesh_file(test::testdata("gltf/CesiumMan.glb"));
    ASSERT_TRUE(file.ok());
    auto node_of = [&](const char* name) {
        int found = -1;
        for (size_t n = 0; n < file->nodes.size(); ++n)
            if (file->nodes[n].name == name) found = int(n);
        return found;
    };
    const int node = node_of(head_joint), knee = node_of(knee_joint);
    ASSERT_GE(node, 0);
    ASSERT_GE(knee, 0);
    const std::vector<glm::dmat4> rest = world_transforms(*file, rest_pose(*file));
    const glm::vec3 top = glm::vec3(rest[size_t(node)][3]) + glm::vec3(0.0f, 0.2f, 0.0f);  // above the head
    ASSERT_TRUE(write_sheet_obj(make_cloth_sheet("sheet", top - glm::vec3(0.12f, 0.0f, 0.12f), glm::vec3(0.24f, 0, 0), glm::vec3(0, 0, 0.24f), 8, 8),
                                dir / "sheet.obj"));
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = walking_man_scene();
    s.hair_groups[0].growth.guides = 20;
    ASSERT_TRUE(rt->apply(s).ok()) << rt->report().summary();
    // The knee patch: the body's triangles within 6 cm of the knee, each vertex lifted 8 mm along its normal.
    Mesh man = rt->content()->find_mesh("man")->mesh;
    compute_vertex_normals(man);
    const glm::vec3 knee_at = glm::vec3(rest[size_t(knee)][3]);
    Mesh patch;
    patch.name = "knee";
    std::vector<int> patch_vertex(man.positions.size(), -1);
    for (size_t t = 0; t + 2 < man.indices.size(); t += 3) {
        bool near = true;
        for (size_t k = 0; k < 3; ++k) near = near && glm::length(man.positions[man.indices[t + k]] - knee_at) < 0.09f;
        if (!near) continue;
        for (size_t k = 0; k < 3; ++k) {
            const uint32_t v = man.indices[t + k];
            if (patch_vertex[v] < 0) {
                patch_vertex[v] = int(patch.positions.size());
                patch.positions.push_back(man.positions[v] + 0.008f * man.normals[v]);
            }
            patch.indices.push_back(uint32_t(patch_vertex[v]));
        }
    }
    ASSERT_GT(patch.indices.size(), 30u);
    ASSERT_TRUE(write_sheet_obj(patch, dir / "knee.obj"));
    s.meshes.push_back(sheet_mesh_ref(dir / "sheet.obj"));
    MeshRef knee_ref = sheet_mesh_ref(dir / "knee.obj");
    knee_ref.name = "knee";
    s.meshes.push_back(knee_ref);
    Accessory a;
    a.name = "cap";
    a.mesh = "sheet";
    a.attach = "man";
    a.attach_joint = head_joint;
    a.pins.mode = PinMode::Box;
    a.pins.box_min_m = glm::dvec3(top) - glm::dvec3(0.05, 0.01, 0.05);
    a.pins.box_max_m = glm::dvec3(top) + glm::dvec3(0.05, 0.01, 0.05);
    a.cloth.hair_collision = false;
    s.accessories.push_back(a);
    Accessory on_skin = a;
    on_skin.name = "knee_on_skin";
    on_skin.mesh = "knee";
    on_skin.attach_joint.clear();
    on_skin.pins.box_min_m = glm::dvec3(knee_at) - glm::dvec3(0.06);
    on_skin.pins.box_max_m = glm::dvec3(knee_at) + glm::dvec3(0.06);
    s.accessories.push_back(on_skin);
    Accessory on_joint = on_skin;
    on_joint.name = "knee_on_joint";
    on_joint.attach_joint = knee_joint;
    s.accessories.push_back(on_joint);
    ASSERT_TRUE(rt->apply(s).ok()) << rt->report().summary();
    ASSERT_EQ(rt->world()->cloths.size(), 3u);
    EXPECT_FALSE(rt->world()->cloths[0].pins_on_skin);
    EXPECT_TRUE(rt->world()->cloths[1].pins_on_skin);
    EXPECT_FALSE(rt->world()->cloths[2].pins_on_skin);
    const WalkingManReference ref(rt->content()->find_mesh("man")->mesh);
    ASSERT_TRUE(ref.ok);
    // Each knee pin's nearest triangle of the skin at rest and its distance from it.
    const TriangleBvh rest_bvh(man.positions, man.indices);
    std::vector<float> rest_distance;
    std::vector<uint32_t> rest_triangle;
    for (const gpu_shared::ClothVertex& cv : rt->world()->cloths[1].vertices) {
        const ClosestPoint hit = rest_bvh.closest(glm::vec3(cv.rest_os));
        rest_distance.push_back(hit.distance_m);
        rest_triangle.push_back(hit.triangle);
    }
    ClipSampler clip(*file, file->animations[0]);
    double worst = 0.0, moved = 0.0, farthest = 0.0, skin_off = 0.0, joint_off = 0.0, knee_moved = 0.0;
    size_t pinned = 0, knee_pins = 0;
    for (int frame = 1; frame <= 40; ++frame) {
        ASSERT_TRUE(rt->step(1).ok());
        if (frame % 10 != 0) continue;
        ASSERT_TRUE(rt->download().ok());
        const double t = rt->world()->time_s();
        const glm::dmat4 T = world_transforms(*file, played_pose(*file, clip, t))[size_t(node)] * glm::inverse(rest[size_t(node)]);
        const ClothState& c = rt->world()->cloths[0];
        const glm::vec3 head = glm::vec3(T * glm::dvec4(glm::dvec3(top), 1.0));
        pinned = 0;
        for (size_t v = 0; v < c.vertex_count(); ++v) {
            const glm::vec4 x = c.positions[v];
            ASSERT_TRUE(std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z)) << "frame " << frame;
            farthest = std::max(farthest, double(glm::length(glm::vec3(x) - head)));
            if (x.w > 0.0f) continue;
            ++pinned;
            const glm::vec3 want = glm::vec3(T * glm::dvec4(glm::dvec3(c.vertices[v].rest_os), 1.0));
            worst = std::max(worst, double(glm::length(glm::vec3(x) - want)));
            moved = std::max(moved, double(glm::length(glm::vec3(x) - glm::vec3(c.vertices[v].rest_os))));
        }
        const std::vector<glm::vec3> posed = ref.posed(t);
        ASSERT_EQ(posed.size(), man.positions.size());
        knee_pins = 0;
        for (size_t ci : {size_t(1), size_t(2)}) {
            const ClothState& k = rt->world()->cloths[ci];
            ASSERT_EQ(k.vertex_count(), rest_distance.size());
            for (size_t v = 0; v < k.vertex_count(); ++v) {
                const glm::vec4 x = k.positions[v];
                ASSERT_TRUE(std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z)) << "frame " << frame;
                if (x.w > 0.0f) continue;
                const size_t tri = 3 * size_t(rest_triangle[v]);
                glm::vec3 bary;
                const glm::vec3 on = closest_point_on_triangle(glm::vec3(x), posed[man.indices[tri]], posed[man.indices[tri + 1]],
                                                               posed[man.indices[tri + 2]], &bary);
                const double off = std::abs(double(glm::length(glm::vec3(x) - on)) - double(rest_distance[v]));
                (ci == 1 ? skin_off : joint_off) = std::max(ci == 1 ? skin_off : joint_off, off);
                if (ci == 1) ++knee_pins, knee_moved = std::max(knee_moved, double(glm::length(glm::vec3(x) - glm::vec3(k.vertices[v].rest_os))));
            }
        }
    }
    std::printf("a sheet pinned to CesiumMan's head joint over 40 frames: %zu pinned vertices within %.3g m of the joint's carry, moved up "
                "to %.3g m; every vertex within %.3g m of the carried pin centre\n",
                pinned, worst, moved, farthest);
    std::printf("a patch 8 mm off his left knee, %zu pins moved up to %.3g m: their distance from their posed skin triangles off its rest by %.3g m at "
                "most pinned to the skin, %.3g m pinned to the knee joint\n",
                knee_pins, knee_moved, skin_off, joint_off);
    EXPECT_GT(pinned, 0u);
    EXPECT_LE(worst, 1e-5);
    EXPECT_GT(moved, 0.01) << "the head must move for the test to mean anything";
    EXPECT_LT(farthest, 0.2) << "the sheet (0.17 m from its middle to a corner) hangs from the head, not left behind";
    EXPECT_GT(knee_pins, 10u);
    EXPECT_GT(knee_moved, 0.05) << "the knee must move for the test to mean anything";
    EXPECT_LE(skin_off, 1e-3) << "pins on the skin keep their distance from it";
    EXPECT_GT(joint_off, 5.0 * skin_off) << "the knee must bend for the test to mean anything";

    Scene wrong = s;
    wrong.accessories[0].attach_joint = "no_such_joint";
    auto st = rt->apply(wrong);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("accessories['cap'].attach_joint"), std::string::npos) << st.error().message;
    EXPECT_NE(st.error().message.find("no joint 'no_such_joint'"), std::string::npos) << st.error().message;
    EXPECT_TRUE(rt->scene() == s) << "the scene as it was keeps running";
    Scene unattached = s;
    unattached.accessories[0].attach.clear();
    unattached.accessories[0].pins.mode = PinMode::Box;
    EXPECT_FALSE(validate_scene(unattached).ok());
}

// Play and reset never launch the hair: CesiumMan's walk from rest, reset and played again five times. The
// kinetic energy of the free guide vertices over the blend-in and the 10 frames after it stays within twice
// the steady walk's (its largest over seconds 2 to 3), and every reset replays the same frames.
TEST_F(RuntimeTest, BlendInFromRestNeverLaunchesTheHair) {
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = walking_man_scene();
    s.collision_meshes.push_back(walking_man_field(32, true));
    HairGroup& g = s.hair_groups[0];
    g.scalp.region = {RegionType::Cap, {0.0, 1.0, 0.0}, 10.0};
    g.growth.guides = 60;
    g.growth.length_m = 0.25;
    g.simulation.sdf = {"man"};
    ASSERT_TRUE(rt->apply(s).ok());
    auto energy = [&]() {
        EXPECT_TRUE(rt->download().ok());
        return measure_frame(*rt->world(), {}, nullptr).kinetic_energy;
    };
    double steady = 0.0;
    for (int frame = 1; frame <= 180; ++frame) {
        ASSERT_TRUE(rt->step(1).ok());
        if (frame > 120) steady = std::max(steady, energy());
    }
    ASSERT_GT(steady, 0.0);
    std::vector<double> after_blend;
    for (int round = 0; round < 5; ++round) {
        ASSERT_TRUE(rt->reset_simulation().ok());
        double worst = 0.0;
        for (int frame = 1; frame <= 40; ++frame) {
            ASSERT_TRUE(rt->step(1).ok());
            worst = std::max(worst, energy());  // the blend-in's 30 frames and the 10 after
        }
        after_blend.push_back(worst);
    }
    std::printf("kinetic energy through the blend-in, five resets: %.4g %.4g %.4g %.4g %.4g; the steady walk's largest %.4g\n", after_blend[0],
                after_blend[1], after_blend[2], after_blend[3], after_blend[4], steady);
    for (double e : after_blend) {
        EXPECT_LE(e, 2.0 * steady);
        EXPECT_EQ(e, after_blend[0]) << "a reset replays the same frames";
    }
}

// A cloth accessory: built from the scene's accessories section (a sheet above the head, pinned by a box
// at its centre), simulated on the device with the hair, drawn from the device's positions in place of
// its mesh, and refused with the accessory named when its pins select nothing (the scene keeps running).
// Renders the runtime's scene at 160 x 120 from an orbit camera, saves it to `png_path` and counts the
// clearly blue pixels (the accessories' test colour).
size_t blue_pixels(runtime::SceneRuntime& rt, glm::dvec3 target, double yaw, double pitch, double distance, const std::filesystem::path& png_path) {
    EXPECT_TRUE(rt.resize(160, 120).ok());
    render::FrameDesc frame = rt.frame_desc(true);
    frame.camera.target_m = target;
    frame.camera.yaw_deg = yaw;
    frame.camera.pitch_deg = pitch;
    frame.camera.distance_m = distance;
    auto rgba = rt.render_to_rgba(frame);
    EXPECT_TRUE(rgba.ok()) << rgba.error().describe();
    if (!rgba) return 0;
    size_t blue = 0;
    for (size_t i = 0; i + 3 < rgba->size(); i += 4) blue += (*rgba)[i + 2] > (*rgba)[i] + 40 && (*rgba)[i + 2] > (*rgba)[i + 1] + 20 ? 1 : 0;
    auto png = encode_png_rgba(*rgba, 160, 120);
    EXPECT_TRUE(png.ok());
    if (png) {
        EXPECT_TRUE(write_file_atomic(png_path, *png).ok());
    }
    return blue;
}

TEST_F(RuntimeTest, ClothAccessoryIsSimulatedAndDrawnInPlaceOfItsMesh) {
    const std::filesystem::path dir = test::scratch_dir("runtime_cloth");
    ASSERT_TRUE(write_sheet_obj(make_cloth_sheet("sheet", glm::vec3(-0.2f, 0.88f, -0.15f), glm::vec3(0.4f, 0, 0), glm::vec3(0, 0, 0.4f), 12, 12),
                                dir / "sheet.obj"));
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = light_scene();
    s.meshes.push_back(sheet_mesh_ref(dir / "sheet.obj"));
    Accessory a;
    a.name = "kerchief";
    a.mesh = "sheet";
    a.attach = "head";
    a.pins.mode = PinMode::Box;
    a.pins.box_min_m = {-0.04, 0.8, -0.01};
    a.pins.box_max_m = {0.04, 0.95, 0.09};
    a.sdf = {"head"};
    a.color = {0.05, 0.1, 0.9};
    s.accessories.push_back(a);
    ASSERT_TRUE(rt->apply(s).ok());
    ASSERT_EQ(rt->world()->cloths.size(), 1u);
    // The hair's sag-free solve steps the world; the cloth stays out of it and starts at its rest.
    for (size_t v = 0; v < rt->world()->cloths[0].vertex_count(); ++v)
        ASSERT_LT(glm::length(glm::vec3(rt->world()->cloths[0].positions[v]) - glm::vec3(rt->world()->cloths[0].vertices[v].rest_os)), 1e-6f);
    ASSERT_TRUE(rt->step(20).ok());
    ASSERT_TRUE(rt->download().ok());
    const ClothState& c = rt->world()->cloths[0];
    double fell = 0.0;
    for (const glm::vec4& p : c.positions) {
        ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
        fell = std::max(fell, double(0.88f - p.y));
    }
    EXPECT_GT(fell, 0.02) << "the sheet's free corners fall";
    // Drawn in blue where the sheet is (looking down on it): the static sheet is not drawn, the cloth is.
    EXPECT_GT(blue_pixels(*rt, {0.01, 0.7, 0.05}, 0.0, 80.0, 1.2, dir / "cloth_from_above.png"), 100u) << "the cloth is drawn";

    // Pins that select nothing: refused, naming the accessory; the running scene stays.
    Scene bad = s;
    bad.accessories[0].pins.box_min_m = {5.0, 5.0, 5.0};
    bad.accessories[0].pins.box_max_m = {6.0, 6.0, 6.0};
    const Status st = rt->apply(bad);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("kerchief"), std::string::npos) << st.error().message;
    EXPECT_NE(st.error().message.find("no vertex is pinned"), std::string::npos) << st.error().message;
    EXPECT_TRUE(rt->scene() == s);
    EXPECT_EQ(rt->world()->cloths.size(), 1u);

    // Every other bad cloth: refused with its reason, the running scene and its cloth kept as they were.
    const size_t cloth_vertices = rt->world()->cloths[0].vertex_count();
    const Mesh sheet = make_cloth_sheet("sheet", glm::vec3(-0.2f, 0.88f, -0.15f), glm::vec3(0.4f, 0, 0), glm::vec3(0, 0, 0.4f), 4, 4);
    Mesh fin = sheet;  // a third triangle on the first cell's diagonal: an edge of three faces
    fin.positions.push_back(glm::vec3(0.0f, 0.95f, 0.0f));
    fin.indices.insert(fin.indices.end(), {fin.indices[0], fin.indices[2], uint32_t(fin.positions.size() - 1)});
    Mesh sliver = sheet;  // a triangle with no area: three of the sheet's vertices on one line
    sliver.indices.insert(sliver.indices.end(), {0u, 1u, 2u});
    ASSERT_TRUE(write_sheet_obj(fin, dir / "fin.obj"));
    ASSERT_TRUE(write_sheet_obj(sliver, dir / "sliver.obj"));
    struct Refusal {
        std::function<void(Scene&)> edit;
        std::string reason;
    };
    const std::vector<Refusal> refusals{
        {[&](Scene& b) { b.meshes.back().path = (dir / "fin.obj").string(); }, "not manifold"},
        {[&](Scene& b) { b.meshes.back().path = (dir / "sliver.obj").string(); }, "zero area"},
        {[](Scene& b) {
             b.accessories[0].pins.box_min_m = {-5.0, -5.0, -5.0};
             b.accessories[0].pins.box_max_m = {5.0, 5.0, 5.0};
         },
         "every vertex is pinned"},
        {[](Scene& b) { b.accessories[0].mesh = "scarf"; }, "no mesh 'scarf'"},
    };
    for (const Refusal& r : refusals) {
        Scene b = s;
        r.edit(b);
        const Status refused = rt->apply(b);
        ASSERT_FALSE(refused.ok()) << r.reason;
        EXPECT_NE(refused.error().message.find(r.reason), std::string::npos) << refused.error().message;
        EXPECT_NE(refused.error().message.find("kerchief"), std::string::npos) << "names the accessory: " << refused.error().message;
        EXPECT_TRUE(rt->scene() == s) << r.reason;
        ASSERT_EQ(rt->world()->cloths.size(), 1u) << r.reason;
        EXPECT_EQ(rt->world()->cloths[0].vertex_count(), cloth_vertices) << r.reason;
    }
    ASSERT_TRUE(rt->step(1).ok()) << "the scene as it was keeps running";
}

TEST_F(RuntimeTest, SoftBodyAccessoryIsSimulatedAndDrawnFromItsClusters) {
    const std::filesystem::path dir = test::scratch_dir("runtime_soft_body");
    auto rt = make();
    ASSERT_TRUE(rt);
    Scene s = light_scene();
    MeshRef bun_ref;
    bun_ref.name = "bun";
    bun_ref.path = test::source("presets/assets/bun.obj").string();
    bun_ref.transform.translate_m = {0.01, 0.794, -0.144};
    bun_ref.transform.rotate_deg = {-45.0, 0.0, 0.0};
    s.meshes.push_back(bun_ref);
    Accessory a;
    a.name = "bun";
    a.type = AccessoryType::SoftBody;
    a.mesh = "bun";
    a.attach = "head";
    a.pins.distance_m = 0.015;
    a.sdf = {"head"};
    a.color = {0.05, 0.1, 0.9};
    s.accessories.push_back(a);
    ASSERT_TRUE(rt->apply(s).ok());
    ASSERT_EQ(rt->world()->cloths.size(), 1u);
    ASSERT_TRUE(rt->world()->cloths[0].soft_body);
    // The hair is grown around the bun (it collides with it), and says so.
    auto grown_around = [&] {
        for (const Diagnostic& d : rt->content()->grooms[0]->diagnostics.items)
            if (d.message.find("through 'bun' were grown around it") != std::string::npos) return true;
        return false;
    };
    EXPECT_TRUE(grown_around());
    ASSERT_TRUE(rt->step(20).ok());
    ASSERT_TRUE(rt->download().ok());
    const ClothState& b = rt->world()->cloths[0];
    size_t pinned = 0;
    for (const glm::vec4& p : b.positions) {
        ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
        pinned += p.w == 0.0f ? 1u : 0u;
    }
    EXPECT_GT(pinned, 0u);
    EXPECT_LT(pinned, b.vertex_count());
    EXPECT_LT(measure_cloth_stretch(b).max_strain, 0.3) << "it holds its shape";
    // Drawn in blue where the bun is (from behind and above): the static mesh is not drawn, the body is.
    EXPECT_GT(blue_pixels(*rt, {0.01, 0.79, -0.14}, 180.0, 30.0, 0.8, dir / "bun_from_behind.png"), 200u) << "the soft body is drawn";

    // An open mesh (a box without its lid) as a soft body: refused, naming the accessory and why; the
    // running scene stays.
    ASSERT_TRUE(write_file_atomic(dir / "cup.obj", "v 0 1 0\nv 0.1 1 0\nv 0.1 1 0.1\nv 0 1 0.1\nv 0 1.1 0\nv 0.1 1.1 0\nv 0.1 1.1 0.1\nv 0 1.1 0.1\n"
                                                   "f 1 3 2\nf 1 4 3\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n")
                    .ok());
    Scene bad = s;
    MeshRef cup;
    cup.name = "cup";
    cup.path = (dir / "cup.obj").string();
    bad.meshes.push_back(cup);
    bad.accessories[0].mesh = "cup";
    const Status st = rt->apply(bad);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("'bun'"), std::string::npos) << st.error().message;
    EXPECT_NE(st.error().message.find("not closed"), std::string::npos) << st.error().message;
    EXPECT_TRUE(rt->scene() == s);
    EXPECT_EQ(rt->world()->cloths.size(), 1u);

    // The groom depends on the bodies it is grown around: the bun's colour does not regrow it; moving the
    // bun, letting the hair through it or switching it off does.
    s.accessories[0].color = {0.1, 0.1, 0.8};
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_TRUE(rt->report().grooms.empty()) << rt->report().summary();
    s.meshes.back().transform.translate_m.z -= 0.01;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_EQ(rt->report().grooms, std::vector<std::string>{"main"}) << rt->report().summary();
    EXPECT_TRUE(grown_around());
    s.accessories[0].soft_body.hair_collision = false;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_EQ(rt->report().grooms, std::vector<std::string>{"main"}) << rt->report().summary();
    EXPECT_FALSE(grown_around());
    s.accessories[0].soft_body.hair_collision = true;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_EQ(rt->report().grooms, std::vector<std::string>{"main"});
    s.accessories[0].enabled = false;
    ASSERT_TRUE(rt->apply(s).ok());
    EXPECT_EQ(rt->report().grooms, std::vector<std::string>{"main"}) << rt->report().summary();
    EXPECT_FALSE(grown_around());
}

TEST(RuntimeWithoutDevice, GrowsTheHairOnly) {
    auto rt = SceneRuntime::create(nullptr, {});
    ASSERT_TRUE(rt.ok());
    Scene s = light_scene();
    ASSERT_TRUE((*rt)->apply(s).ok());
    ASSERT_EQ((*rt)->content()->grooms.size(), 1u);
    EXPECT_EQ((*rt)->content()->grooms[0]->guides.strand_count(), 300u);
    EXPECT_EQ((*rt)->world(), nullptr);
    EXPECT_FALSE((*rt)->step(1).ok());
    runtime::RuntimeOptions drawing;
    drawing.renderer = render::RendererDesc{};
    EXPECT_FALSE(SceneRuntime::create(nullptr, drawing).ok());
}

}  // namespace
}  // namespace tressel
