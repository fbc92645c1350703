// GPU skinning (anim/skin.comp) against the CPU reference (anim::skin_mesh): every vertex of CesiumMan,
// RiggedFigure and RobotExpressive at five times of each of their clips, positions within 1e-5 m.
#include <cmath>
#include <cstdio>
#include <optional>

#include "anim/gpu/skin_gpu.h"
#include "sdf/gpu/sdf_gpu.h"
#include "gpu_test.h"
#include "spread_roots.h"
#include "test_paths.h"

namespace tressel {
namespace {

// CesiumMan's skinned body, its skin and its bind pose (anim::unbind_mesh), as the tests below use them.
struct CesiumMan {
    ImportedScene scene;
    const Mesh* body = nullptr;
    const Skin* skin = nullptr;
    SkinBind bind;
    bool ok = false;
    CesiumMan() {
        auto f = import_mesh_file(test::testdata("gltf") / "CesiumMan.glb");
        if (!f.ok()) return;
        scene = std::move(*f);
        for (const Mesh& m : scene.meshes)
            if (m.skin >= 0) body = &m;
        if (!body) return;
        skin = &scene.skins[size_t(body->skin)];
        auto b = unbind_mesh(*body, joint_matrices(*skin, world_transforms(scene, rest_pose(scene))));
        if (!b.ok()) return;
        bind = std::move(*b);
        ok = true;
    }
    Result<SkinnedMeshGpu> skinned(gpu::Device& device, const SkinGpuPipeline& pipe) const {
        return SkinnedMeshGpu::create(device, pipe, *body, bind, uint32_t(skin->joints.size()));
    }
};

// What the tests on CesiumMan's walk start from: the skinning pipeline and his body skinned on the device.
struct WalkOnDevice {
    std::optional<SkinGpuPipeline> pipe;
    CesiumMan man;
    std::optional<SkinnedMeshGpu> skinned;
    const ImportedScene* scene = nullptr;
    const Mesh* body = nullptr;
    const Skin* skin = nullptr;
};

class SkinGpuTest : public test::GpuTest {
protected:
    void start_walk(WalkOnDevice& w) {
        auto pipe = SkinGpuPipeline::create(device());
        ASSERT_TRUE(pipe.ok()) << pipe.error().describe();
        w.pipe.emplace(std::move(*pipe));
        ASSERT_TRUE(w.man.ok);
        w.scene = &w.man.scene;
        w.body = w.man.body;
        w.skin = w.man.skin;
        auto skinned = w.man.skinned(device(), *w.pipe);
        ASSERT_TRUE(skinned.ok()) << skinned.error().describe();
        w.skinned.emplace(std::move(*skinned));
    }
};

TEST_F(SkinGpuTest, MatchesTheCpuReferenceOnTheShippedCharacters) {
    auto pipe = SkinGpuPipeline::create(device());
    ASSERT_TRUE(pipe.ok()) << pipe.error().describe();
    for (const char* file : {"CesiumMan.glb", "RiggedFigure.glb", "RobotExpressive.glb"}) {
        auto scene = import_mesh_file(test::testdata("gltf") / file);
        ASSERT_TRUE(scene.ok()) << file;
        const std::vector<glm::dmat4> rest = world_transforms(*scene, rest_pose(*scene));
        double worst = 0.0, worst_normal = 0.0, moved = 0.0;
        size_t checked = 0;
        for (const Mesh& m : scene->meshes) {
            if (m.skin < 0) continue;
            const Skin& skin = scene->skins[size_t(m.skin)];
            auto bind = unbind_mesh(m, joint_matrices(skin, rest));
            ASSERT_TRUE(bind.ok());
            auto gpu_mesh = SkinnedMeshGpu::create(device(), *pipe, m, *bind, uint32_t(skin.joints.size()));
            ASSERT_TRUE(gpu_mesh.ok()) << gpu_mesh.error().describe();
            // Up to three clips per file (RobotExpressive has 14), five times each.
            for (size_t c = 0; c < scene->animations.size() && c < 3; ++c) {
                ClipSampler clip(*scene, scene->animations[c]);
                for (int k = 0; k < 5; ++k) {
                    std::vector<NodeTransform> local = rest_pose(*scene);
                    clip.sample(clip.duration_s() * (0.05 + 0.2 * k), local);
                    const auto joints = joint_matrices(skin, world_transforms(*scene, local));
                    std::vector<glm::vec3> cpu, cpu_n;
                    ASSERT_TRUE(skin_mesh(m, *bind, joints, cpu, &cpu_n).ok());
                    ASSERT_TRUE(gpu_mesh->set_joints(joints).ok());
                    ASSERT_TRUE(device().run_sync([&](gpu::CommandBuffer& cmd) { gpu_mesh->record(cmd, *pipe); }).ok());
                    std::vector<glm::vec4> out(m.positions.size()), out_n(m.positions.size());
                    ASSERT_TRUE(device().download(gpu_mesh->positions(), out.data(), out.size() * sizeof(glm::vec4)).ok());
                    if (gpu_mesh->has_normals()) {
                        ASSERT_TRUE(device().download(gpu_mesh->normals(), out_n.data(), out_n.size() * sizeof(glm::vec4)).ok());
                    }
                    for (size_t v = 0; v < cpu.size(); ++v) {
                        worst = std::max(worst, double(glm::length(glm::vec3(out[v]) - cpu[v])));
                        if (gpu_mesh->has_normals()) worst_normal = std::max(worst_normal, double(glm::length(glm::vec3(out_n[v]) - cpu_n[v])));
                        moved = std::max(moved, double(glm::length(cpu[v] - m.positions[v])));
                    }
                    checked += cpu.size();
                }
            }
        }
        std::printf("%s: %zu vertex positions compared, GPU against CPU at most %.3g m (normals %.3g); the mesh moved up to %.3g m\n", file,
                    checked, worst, worst_normal, moved);
        EXPECT_GT(checked, 0u);
        EXPECT_LT(worst, 1e-5) << file;
        EXPECT_LT(worst_normal, 1e-4) << file;
        EXPECT_GT(moved, 0.01) << file << ": the clips must move the mesh for the comparison to mean anything";
    }
}

// CesiumMan walking: at four times of the clip his field is rebuilt on the GPU from the skinned positions
// (no host copy of the pose), its grid moved by whole cells between the poses (record_sdf_place), and
// compared with the CPU reference build of the CPU-skinned mesh on the same grid: band cells within 1e-5 of a cell and the same sign everywhere; from the CPU-skinned positions the
// far field as the GPU build of a still mesh, from the GPU-skinned ones within 0.15 cell.
TEST_F(SkinGpuTest, SkinnedFieldRebuiltOnTheGpuMatchesTheCpuBuildOfThePose) {
    WalkOnDevice w;
    ASSERT_NO_FATAL_FAILURE(start_walk(w));
    auto sdf_pipes = SdfGpuPipelines::create(device());
    ASSERT_TRUE(sdf_pipes.ok()) << sdf_pipes.error().describe();
    ClipSampler clip(*w.scene, w.scene->animations.at(0));
    auto pose = [&](double t) {
        std::vector<NodeTransform> local = rest_pose(*w.scene);
        clip.sample(t, local);
        return joint_matrices(*w.skin, world_transforms(*w.scene, local));
    };
    // One grid over the bind pose and the poses compared.
    const double times[] = {0.1, 0.45, 0.8, 1.5};
    glm::dvec3 lo(1e30), hi(-1e30);
    for (const glm::vec3& p : w.body->positions) lo = glm::min(lo, glm::dvec3(p)), hi = glm::max(hi, glm::dvec3(p));
    std::vector<std::vector<glm::vec3>> posed;
    for (double t : times) {
        posed.emplace_back();
        ASSERT_TRUE(skin_mesh(*w.body, w.man.bind, pose(t), posed.back()).ok());
        for (const glm::vec3& p : posed.back()) lo = glm::min(lo, glm::dvec3(p)), hi = glm::max(hi, glm::dvec3(p));
    }
    Diagnostics diag;
    auto grid = compute_grid(lo, hi, 40, 0.1, diag);
    ASSERT_TRUE(grid.ok());
    SdfBuildDesc desc;
    desc.mesh = w.body;
    desc.cells_x = 40;
    desc.fixed_grid = *grid;
    auto field = build_sdf_gpu(device(), *sdf_pipes, desc, diag);
    ASSERT_TRUE(field.ok()) << field.error().describe();
    auto bind_field = read_back_sdf(device(), *field);
    ASSERT_TRUE(bind_field.ok());
    auto refit = prepare_sdf_refit(device(), *sdf_pipes, *field, w.skinned->positions(), w.skinned->vertex_count());
    ASSERT_TRUE(refit.ok()) << refit.error().describe();
    // The CPU-skinned poses as a device buffer too: refitting from them isolates the refit and the build
    // from the skinning's rounding.
    std::vector<glm::vec4> cpu_source(w.body->positions.size());
    auto cpu_positions = device().create_buffer({VkDeviceSize(cpu_source.size() * sizeof(glm::vec4))});
    ASSERT_TRUE(cpu_positions.ok());
    auto cpu_refit = prepare_sdf_refit(device(), *sdf_pipes, *field, *cpu_positions, uint32_t(cpu_source.size()));
    ASSERT_TRUE(cpu_refit.ok()) << cpu_refit.error().describe();
    const float cell = float(grid->cell_size_m);
    struct Diff {
        double band_worst = 0.0, far_worst = 0.0;
        size_t band = 0, sign_flips = 0, moved = 0;
    };
    auto compare = [&](const SdfGrid& gpu, const SdfGrid& cpu) {
        Diff r;
        for (size_t c = 0; c < cpu.distance_m.size(); ++c) {
            const double d = std::abs(double(std::abs(gpu.distance_m[c])) - std::abs(double(cpu.distance_m[c]))) / cell;
            if (cpu.flags[c] & gpu_shared::kSdfFlagBand) {
                ++r.band;
                r.band_worst = std::max(r.band_worst, d);
            } else {
                r.far_worst = std::max(r.far_worst, d);
            }
            if ((gpu.distance_m[c] < 0.0f) != (cpu.distance_m[c] < 0.0f) && std::abs(cpu.distance_m[c]) > 1e-6f * cell) ++r.sign_flips;
            r.moved += std::abs(bind_field->distance_m[c] - gpu.distance_m[c]) > cell;
        }
        return r;
    };
    const bool ieee = device().info().is_cpu();
    // The grid placed around each pose (record_sdf_place, as the runtime does): moved by whole cells, within
    // the padding, between the poses compared.
    const glm::dvec3 offsets[] = {{0, 0, 0}, {2, -1, 1}, {-2, 1, 0}, {1, 2, -2}};
    for (size_t i = 0; i < std::size(times); ++i) {
        Mesh posed_mesh = *w.body;
        posed_mesh.positions = posed[i];
        SdfBuildDesc cpu_desc = desc;
        cpu_desc.mesh = &posed_mesh;
        cpu_desc.fixed_grid->origin_m += offsets[i] * grid->cell_size_m;
        auto cpu = build_sdf_cpu(cpu_desc, diag);
        ASSERT_TRUE(cpu.ok()) << cpu.error().describe();
        for (size_t v = 0; v < cpu_source.size(); ++v) cpu_source[v] = glm::vec4(posed[i][v], 1.0f);
        ASSERT_TRUE(device().upload(*cpu_positions, cpu_source.data(), cpu_source.size() * sizeof(glm::vec4)).ok());
        ASSERT_TRUE(w.skinned->set_joints(pose(times[i])).ok());
        for (bool gpu_skinned : {false, true}) {
            ASSERT_TRUE(device()
                            .run_sync([&](gpu::CommandBuffer& cmd) {
                                record_sdf_place(cmd, *field, cpu_desc.fixed_grid->origin_m);
                                if (gpu_skinned) w.skinned->record(cmd, *w.pipe);
                                record_sdf_refit(cmd, *sdf_pipes, *field, gpu_skinned ? *refit : *cpu_refit, nullptr);
                                EXPECT_TRUE(record_sdf_build(cmd, *sdf_pipes, *field, nullptr));
                            })
                            .ok());
            auto gpu = read_back_sdf(device(), *field);
            ASSERT_TRUE(gpu.ok());
            ASSERT_EQ(cpu->distance_m.size(), gpu->distance_m.size());
            EXPECT_EQ(gpu->grid.origin_m, cpu->grid.origin_m);
            const Diff d = compare(*gpu, *cpu);
            std::printf("CesiumMan at %.2f s, %s-skinned (%s sign, %d x %d x %d): %zu band cells, worst %.3g cell; far field worst %.3g "
                        "cell; %zu sign differences; %zu cells moved over a cell from the bind pose\n",
                        times[i], gpu_skinned ? "GPU" : "CPU", sign_method_name(gpu->sign_used), grid->dims.x, grid->dims.y,
                        grid->dims.z, d.band, d.band_worst, d.far_worst, d.sign_flips, d.moved);
            EXPECT_GT(d.band, 1000u);
            EXPECT_LE(d.band_worst, 1e-5) << "band cells at " << times[i] << " s";
            EXPECT_EQ(d.sign_flips, 0u) << "at " << times[i] << " s";
            EXPECT_GT(d.moved, 1000u) << "the pose must move the field for the comparison to mean anything";
            if (!gpu_skinned) {
                // The same positions: the GPU build of the refit mesh is the CPU build (sdf_gpu_tests' tolerances).
                EXPECT_LE(d.far_worst, ieee ? 1e-5 : 0.05) << "far cells at " << times[i] << " s";
            } else {
                // Positions skinned apart by up to 3.4e-7 m: the far field's approximate search may settle on
                // another near-equal triangle (measured up to 0.064 cell), well inside its 0.27-cell accuracy.
                EXPECT_LE(d.far_worst, 0.15) << "far cells at " << times[i] << " s";
            }
        }
    }
    EXPECT_EQ(device().validation_error_count(), 0u);
}

// Roots on the skinned scalp, on the device (anim/roots.comp) against the CPU reference
// (anim::root_transforms of the CPU-skinned mesh): 300 roots spread over CesiumMan, five times of the walk,
// every matrix element within 1e-5 (positions in metres, axes unitless).
TEST_F(SkinGpuTest, RootTargetsMatchTheCpuReference) {
    WalkOnDevice w;
    ASSERT_NO_FATAL_FAILURE(start_walk(w));
    const std::vector<ScalpAttachment> roots = test::spread_roots(*w.body, 300);
    auto gpu_roots = SkinnedRootsGpu::create(device(), *w.pipe, *w.body, roots, w.skinned->positions(), w.skinned->vertex_count());
    ASSERT_TRUE(gpu_roots.ok()) << gpu_roots.error().describe();
    // The same pass over the CPU-skinned positions: the roots pass alone, without the skinning's rounding.
    auto cpu_positions = device().create_buffer({VkDeviceSize(w.body->positions.size() * sizeof(glm::vec4))});
    ASSERT_TRUE(cpu_positions.ok());
    auto cpu_fed = SkinnedRootsGpu::create(device(), *w.pipe, *w.body, roots, *cpu_positions, uint32_t(w.body->positions.size()));
    ASSERT_TRUE(cpu_fed.ok());
    ClipSampler clip(*w.scene, w.scene->animations.at(0));
    double worst_element = 0.0, worst_point = 0.0, moved = 0.0;
    for (int k = 0; k < 5; ++k) {
        std::vector<NodeTransform> local = rest_pose(*w.scene);
        clip.sample(clip.duration_s() * (0.1 + 0.2 * k), local);
        const auto joints = joint_matrices(*w.skin, world_transforms(*w.scene, local));
        std::vector<glm::vec3> posed;
        ASSERT_TRUE(skin_mesh(*w.body, w.man.bind, joints, posed).ok());
        std::vector<glm::mat4> cpu;
        ASSERT_TRUE(root_transforms(*w.body, posed, roots, cpu).ok());
        std::vector<glm::vec4> source(posed.size());
        for (size_t v = 0; v < posed.size(); ++v) source[v] = glm::vec4(posed[v], 1.0f);
        ASSERT_TRUE(device().upload(*cpu_positions, source.data(), source.size() * sizeof(glm::vec4)).ok());
        ASSERT_TRUE(w.skinned->set_joints(joints).ok());
        ASSERT_TRUE(device().run_sync([&](gpu::CommandBuffer& cmd) {
                                w.skinned->record(cmd, *w.pipe);
                                gpu_roots->record(cmd, *w.pipe);
                                cpu_fed->record(cmd, *w.pipe);
                            }).ok());
        std::vector<glm::mat4> gpu(roots.size()), fed(roots.size());
        ASSERT_TRUE(device().download(gpu_roots->targets(), gpu.data(), gpu.size() * sizeof(glm::mat4)).ok());
        ASSERT_TRUE(device().download(cpu_fed->targets(), fed.data(), fed.size() * sizeof(glm::mat4)).ok());
        for (size_t r = 0; r < roots.size(); ++r) {
            for (int c = 0; c < 4; ++c)
                for (int e = 0; e < 4; ++e) worst_element = std::max(worst_element, double(std::abs(fed[r][c][e] - cpu[r][c][e])));
            const ScalpAttachment& a = roots[r];
            const glm::vec3 p = w.body->positions[w.body->indices[3 * a.triangle]] * a.barycentric.x +
                                w.body->positions[w.body->indices[3 * a.triangle + 1]] * a.barycentric.y +
                                w.body->positions[w.body->indices[3 * a.triangle + 2]] * a.barycentric.z;
            const glm::vec3 want = glm::vec3(cpu[r] * glm::vec4(p, 1.0f));
            worst_point = std::max(worst_point, double(glm::length(glm::vec3(gpu[r] * glm::vec4(p, 1.0f)) - want)));
            moved = std::max(moved, double(glm::length(want - p)));
        }
    }
    std::printf("300 roots on CesiumMan at 5 times: from the same positions, GPU against CPU at most %.3g per element; "
                "GPU-skinned, root points within %.3g m of the CPU's (moved up to %.3g m)\n",
                worst_element, worst_point, moved);
    EXPECT_LE(worst_element, 1e-5);
    EXPECT_LE(worst_point, 1e-5);
    EXPECT_GT(moved, 0.05);
    EXPECT_EQ(device().validation_error_count(), 0u);
}

TEST_F(SkinGpuTest, BadInputsAreErrors) {
    auto pipe = SkinGpuPipeline::create(device());
    ASSERT_TRUE(pipe.ok());
    Mesh m;
    m.name = "bad";
    m.positions = {{0, 0, 0}};
    SkinBind bind;
    bind.positions = m.positions;
    EXPECT_FALSE(SkinnedMeshGpu::create(device(), *pipe, m, bind, 1).ok()) << "no weights";
    m.joints = {{3, 0, 0, 0}};
    m.weights = {{1, 0, 0, 0}};
    auto r = SkinnedMeshGpu::create(device(), *pipe, m, bind, 2);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("joint 3"), std::string::npos) << r.error().message;
    m.joints = {{1, 0, 0, 0}};
    auto ok = SkinnedMeshGpu::create(device(), *pipe, m, bind, 2);
    ASSERT_TRUE(ok.ok());
    const std::vector<glm::mat4> three(3, glm::mat4(1.0f));
    EXPECT_FALSE(ok->set_joints(three).ok()) << "three matrices for a skin of two";
}

}  // namespace
}  // namespace tressel
