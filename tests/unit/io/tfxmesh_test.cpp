#include <gtest/gtest.h>

#include <fstream>

#include "io/mesh_import.h"
#include "io/tfxmesh.h"
#include "test_paths.h"

namespace tressel {
namespace {

namespace fs = std::filesystem;

TEST(TfxMesh, RatboyBodyAndHands) {
    struct Case {
        const char* file;
        size_t verts, tris;
    } cases[] = {{"tressfx/Ratboy_body.tfxmesh", 12909, 25814},
                 {"tressfx/Ratboy_left_hand.tfxmesh", 1247, 2490},
                 {"tressfx/Ratboy_right_hand.tfxmesh", 1247, 2490}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        auto r = read_tfxmesh(test::testdata(c.file));
        ASSERT_TRUE(r.ok()) << r.error().describe();
        const Mesh& m = r->mesh;
        EXPECT_EQ(m.vertex_count(), c.verts);
        EXPECT_EQ(m.triangle_count(), c.tris);
        ASSERT_EQ(m.joints.size(), c.verts);
        ASSERT_FALSE(r->bone_names.empty());
        for (size_t i = 0; i < m.vertex_count(); ++i) {
            for (int k = 0; k < 4; ++k) ASSERT_LT(m.joints[i][k], r->bone_names.size());
            const glm::vec4& w = m.weights[i];
            ASSERT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
            ASSERT_NEAR(glm::length(m.normals[i]), 1.0f, 1e-4f);
        }
        MeshReport rep = analyze_mesh(m);
        EXPECT_TRUE(rep.closed()) << rep.open_edges << " open, " << rep.non_manifold_edges << " non-manifold";

        auto scene = import_mesh_file(test::testdata(c.file));
        ASSERT_TRUE(scene.ok()) << scene.error().describe();
        ASSERT_EQ(scene->skins.size(), 1u);
        EXPECT_EQ(scene->skins[0].joints.size(), r->bone_names.size());
        EXPECT_EQ(scene->meshes.at(0).skin, 0);
        EXPECT_EQ(scene->meshes[0].triangle_count(), c.tris);
    }
    auto left = read_tfxmesh(test::testdata("tressfx/Ratboy_left_hand.tfxmesh"));
    ASSERT_TRUE(left.ok());
    EXPECT_EQ(left->bone_names.size(), 16u);
    EXPECT_EQ(left->bone_names[0], "frenchHornMonster_L_UpperArm_JNT");
}

TEST(TfxMesh, RoundTrip) {
    auto r = read_tfxmesh(test::testdata("tressfx/Ratboy_left_hand.tfxmesh"));
    ASSERT_TRUE(r.ok());
    const fs::path out = test::scratch_dir("tfxmesh_rt") / "hand.tfxmesh";
    ASSERT_TRUE(write_tfxmesh(r->mesh, r->bone_names, out).ok());
    auto back = read_tfxmesh(out);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back->bone_names, r->bone_names);
    EXPECT_EQ(back->mesh.indices, r->mesh.indices);
    ASSERT_EQ(back->mesh.positions.size(), r->mesh.positions.size());
    for (size_t i = 0; i < r->mesh.positions.size(); ++i) {
        ASSERT_EQ(back->mesh.positions[i], r->mesh.positions[i]);  // shortest round-trip float text is exact
        ASSERT_EQ(back->mesh.joints[i], r->mesh.joints[i]);
        for (int k = 0; k < 4; ++k) ASSERT_NEAR(back->mesh.weights[i][k], r->mesh.weights[i][k], 1e-6f);
        ASSERT_NEAR(glm::distance(back->mesh.normals[i], r->mesh.normals[i]), 0.0f, 1e-6f);
    }
    // Invalid arguments are refused, and the file is left alone.
    EXPECT_FALSE(write_tfxmesh(r->mesh, {"has space"}, out).ok());
    EXPECT_FALSE(write_tfxmesh(r->mesh, {"only_one"}, out).ok());  // joints reach bone 15
    EXPECT_TRUE(read_tfxmesh(out).ok());
}

Error parse_error(const std::string& text) {
    auto r = parse_tfxmesh(text, "bad.tfxmesh");
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? Error{} : r.error();
}

TEST(TfxMesh, MalformedFilesNameTheLine) {
    const std::string bones = "# c\nnumOfBones 1\n0 root\n";
    const std::string v = "0 0 0 0 0 1 0 0 0 0 0 1 0 0 0\n1 1 0 0 0 1 0 0 0 0 0 1 0 0 0\n2 0 1 0 0 1 0 0 0 0 0 1 0 0 0\n";
    const std::string good = bones + "numOfVertices 3\n" + v + "numOfTriangles 1\n0 0 1 2\n";
    ASSERT_TRUE(parse_tfxmesh(good, "good").ok());

    EXPECT_NE(parse_error(bones + "numOfVertices 2\n0 0 0 0 0 1 0 0 0 0 0 1 0 0\n" + v).message.find("bad.tfxmesh:5: a vertex line needs 15 tokens"),
              std::string::npos);
    EXPECT_NE(parse_error(bones + "numOfVertices 1\n0 0 x 0 0 1 0 0 0 0 0 1 0 0 0\n").message.find(":5: 'x' is not a number"), std::string::npos);
    EXPECT_NE(parse_error(bones + "numOfVertices 1\n0 0 nan 0 0 1 0 0 0 0 0 1 0 0 0\n").message.find(":5: non-finite"), std::string::npos);
    EXPECT_NE(parse_error(bones + "numOfVertices 1\n0 0 0 0 0 1 0 7 0 0 0 1 0 0 0\n").message.find(":5: bone index 7 is out of range"), std::string::npos);
    EXPECT_NE(parse_error(bones + "numOfVertices 3\n" + v + "numOfTriangles 1\n0 0 1 3\n").message.find(":9: vertex index 3 is out of range"),
              std::string::npos);
    Error huge = parse_error(bones + "numOfVertices 4000000000\n" + v);
    EXPECT_NE(huge.message.find(":4: numOfVertices 4000000000 is more than"), std::string::npos) << huge.message;
    EXPECT_NE(parse_error("numOfBones 99999999\n0 a\n").message.find("more than"), std::string::npos);
    EXPECT_NE(parse_error(bones + "numOfVertices 3\n" + v).message.find("ends before"), std::string::npos);
    EXPECT_NE(parse_error("numOfBonez 1\n").message.find(":1: expected 'numOfBones"), std::string::npos);
}

}  // namespace
}  // namespace tressel
