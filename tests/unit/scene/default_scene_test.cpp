// The shipped default scene: loads cleanly, its asset ships with its licence, and its choices (cap,
// hair length, margin, camera) make sense for the actual head mesh, read here with Assimp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cmath>
#include <filesystem>
#include <vector>

#include "core/file_io.h"
#include "scene/scene_io.h"
#include "test_paths.h"

namespace tressel {
namespace {

namespace fs = std::filesystem;

const fs::path kDefaultScene = test::source("presets/scenes/default.json");

// Every vertex of the file in file space (node transforms applied), metres.
std::vector<glm::dvec3> mesh_vertices(const fs::path& file) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(file.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
    std::vector<glm::dvec3> out;
    if (!scene || !scene->mRootNode) {
        ADD_FAILURE() << "Assimp cannot read " << file << ": " << importer.GetErrorString();
        return out;
    }
    std::vector<std::pair<const aiNode*, aiMatrix4x4>> stack{{scene->mRootNode, scene->mRootNode->mTransformation}};
    while (!stack.empty()) {
        auto [node, m] = stack.back();
        stack.pop_back();
        for (unsigned i = 0; i < node->mNumMeshes; ++i) {
            const aiMesh* mesh = scene->mMeshes[node->mMeshes[i]];
            for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
                aiVector3D p = m * mesh->mVertices[v];
                out.emplace_back(p.x, p.y, p.z);
            }
        }
        for (unsigned c = 0; c < node->mNumChildren; ++c) stack.push_back({node->mChildren[c], m * node->mChildren[c]->mTransformation});
    }
    return out;
}

TEST(DefaultScene, LoadsWithoutWarningsAndItsAssetShipsWithItsLicence) {
    auto loaded = load_scene(kDefaultScene);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    for (const auto& d : loaded->diagnostics.items) ADD_FAILURE() << format(d);
    const Scene& s = loaded->scene;
    ASSERT_EQ(s.meshes.size(), 1u);
    fs::path mesh = s.resolve(s.meshes[0].path);
    EXPECT_TRUE(fs::is_regular_file(mesh)) << mesh;
    EXPECT_TRUE(fs::is_regular_file(mesh.parent_path() / "infinite_head.LICENSE.txt"));
    EXPECT_TRUE(fs::equivalent(mesh.parent_path(), test::source("presets/assets")));
    EXPECT_TRUE(fs::path(s.meshes[0].path).is_relative()) << "the shipped scene must not depend on where it is installed";
}

TEST(DefaultScene, SavesBackToAnEquivalentScene) {
    auto loaded = load_scene(kDefaultScene);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    auto dir = test::scratch_dir("default_scene_resave");
    ASSERT_TRUE(save_scene(loaded->scene, dir / "default.json").ok());
    auto again = load_scene(dir / "default.json");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_TRUE(again->scene == loaded->scene);
    EXPECT_EQ(scene_to_text(again->scene), scene_to_text(loaded->scene));
}

TEST(DefaultScene, FitsTheHeadMeshAndStaysLight) {
    auto loaded = load_scene(kDefaultScene);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    const Scene& s = loaded->scene;
    ASSERT_EQ(s.hair_groups.size(), 1u);
    ASSERT_EQ(s.collision_meshes.size(), 1u);
    const HairGroup& g = s.hair_groups[0];
    const MeshRef& head = s.meshes[0];
    EXPECT_EQ(head.transform.scale, glm::dvec3(1.0)) << "presets/scenes/README.md documents scale 1";

    std::vector<glm::dvec3> v = mesh_vertices(s.resolve(head.path));
    ASSERT_GT(v.size(), 1000u);
    glm::dvec3 lo(1e30), hi(-1e30);
    size_t top = 0, front = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        lo = glm::min(lo, v[i]);
        hi = glm::max(hi, v[i]);
        if (v[i].y > v[top].y) top = i;
        if (v[i].z > v[front].z) front = i;  // the face looks toward +Z: this is the nose tip
    }
    const glm::dvec3 centre = (lo + hi) * 0.5, size = hi - lo;

    // Cap region, measured from the bounding-box centre (the groom module's contract): it must hold
    // the crown, not the nose, and nothing below the upper part of the bust (no shoulders).
    ASSERT_EQ(g.scalp.region.type, RegionType::Cap);
    const glm::dvec3 axis = glm::normalize(g.scalp.region.axis);
    const double cos_half = std::cos(glm::radians(g.scalp.region.angle_deg));
    auto in_cap = [&](const glm::dvec3& p) { return glm::dot(glm::normalize(p - centre), axis) >= cos_half; };
    EXPECT_TRUE(in_cap(v[top])) << "the crown must grow hair";
    EXPECT_FALSE(in_cap(v[front])) << "the face must not grow hair";
    EXPECT_LT(axis.z, 0.0) << "the cap leans toward the back of the head";
    size_t inside = 0;
    double lowest_y = 1e30;
    for (const auto& p : v) {
        if (!in_cap(p)) continue;
        ++inside;
        lowest_y = std::min(lowest_y, p.y);
    }
    EXPECT_GT(inside, v.size() / 20) << "a cap too small to grow a head of hair";
    EXPECT_GT(lowest_y, lo.y + 0.5 * size.y) << "the cap reaches down to the shoulders";

    // Hair and collision sized for this mesh (about twice life size).
    EXPECT_GT(g.growth.length_m, 0.2 * size.y);
    EXPECT_LT(g.growth.length_m, 0.6 * size.y);
    const double cell_m = size.x / s.collision_meshes[0].cells_x;
    EXPECT_EQ(s.collision_meshes[0].cells_x, 96);  // 9.4 mm cells: the field sees the face and the ears the hair swings against
    EXPECT_GT(s.collision_meshes[0].margin_m, 0.001);
    EXPECT_LT(s.collision_meshes[0].margin_m, cell_m) << "a margin above one cell pushes hair visibly off the scalp";
    EXPECT_THAT(g.simulation.sdf, ::testing::ElementsAre(s.collision_meshes[0].mesh));

    // The camera looks at the head and the whole head fits in the view.
    const glm::dvec3 t = s.view.target_m;
    EXPECT_TRUE(t.x >= lo.x && t.x <= hi.x && t.y >= centre.y && t.y <= hi.y && t.z >= lo.z && t.z <= hi.z);
    const double half_height_m = s.view.distance_m * std::tan(glm::radians(s.view.fov_deg) * 0.5);
    EXPECT_GT(half_height_m, hi.y - t.y + 0.05) << "the top of the head is cut off";
    EXPECT_LT(half_height_m, size.y) << "the head is a speck in the frame";

    // Light enough for the CPU Vulkan driver.
    EXPECT_LE(g.growth.guides, 3000);
    EXPECT_GE(g.growth.guides, 1000);
    EXPECT_GE(g.growth.vertices_per_strand, 16);
    EXPECT_LE(g.growth.vertices_per_strand, 32);
    EXPECT_LE(g.simulation.gpu_vertices_per_strand, 32);
    EXPECT_EQ(g.follow.mode, FollowMode::Barycentric);
    EXPECT_LE(g.follow.count, 80000);
    EXPECT_EQ(g.growth.placement, Placement::Random);

    // Hair at a real density and fibre width: at least 60,000 strands drawn, fibres 0.05 to 0.1 mm across
    // at life size (this mesh is twice life size), not the flat ribbons of a sparse preview.
    EXPECT_GE(g.growth.guides + g.follow.count, 60000);
    EXPECT_GE(2.0 * g.shading.fiber_radius_m, 2.0 * 0.05e-3);
    EXPECT_LE(2.0 * g.shading.fiber_radius_m, 2.0 * 0.1e-3);
}

}  // namespace
}  // namespace tressel
