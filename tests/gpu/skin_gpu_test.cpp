// GPU skinning (anim/skin.comp) against the CPU reference (anim::skin_mesh): every vertex of CesiumMan,
// RiggedFigure and RobotExpressive at five times of each of their clips, positions within 1e-5 m.
#include <cmath>
#include <cstdio>

#include "anim/gpu/skin_gpu.h"
#include "gpu_test.h"
#include "test_paths.h"

namespace tressel {
namespace {

class SkinGpuTest : public test::GpuTest {};

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
