// Skeletal animation (engine/anim): the node hierarchy against hand-computed transforms, every
// interpolation, loop and clamp, joint matrices and linear blend skinning, broken channels left out with a
// warning, and the shipped skinned characters sampled over their clips.
#include <cmath>
#include <cstdio>

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/anim.h"
#include "io/tfxmesh.h"
#include "sim/sim.h"
#include "sim_test_util.h"
#include "spread_roots.h"
#include "test_paths.h"

namespace tressel {
namespace {

constexpr double kPi = 3.14159265358979323846;

glm::dquat about_z(double deg) { return glm::angleAxis(deg * kPi / 180.0, glm::dvec3(0, 0, 1)); }

void push_quat(std::vector<float>& v, glm::dquat q) {
    v.insert(v.end(), {float(q.x), float(q.y), float(q.z), float(q.w)});
}

// Three nodes listed child first: "tip" (translate 0, 2, 0) under "elbow" (rest rotation none) under
// "root" (translate 1, 0, 0).
ImportedScene arm() {
    ImportedScene s;
    s.nodes.resize(3);
    s.nodes[0].name = "tip";
    s.nodes[0].parent = 1;
    s.nodes[0].translation = {0.0, 2.0, 0.0};
    s.nodes[1].name = "elbow";
    s.nodes[1].parent = 2;
    s.nodes[2].name = "root";
    s.nodes[2].translation = {1.0, 0.0, 0.0};
    return s;
}

AnimationChannel rotation_channel(int node, std::vector<float> times, std::vector<glm::dquat> keys) {
    AnimationChannel ch;
    ch.node = node;
    ch.path = AnimPath::Rotation;
    ch.times_s = std::move(times);
    for (const glm::dquat& q : keys) push_quat(ch.values, q);
    return ch;
}

glm::dvec3 origin(const glm::dmat4& m) { return glm::dvec3(m[3]); }

void expect_near(glm::dvec3 a, glm::dvec3 b, double tol, const char* what) {
    EXPECT_LT(glm::length(a - b), tol) << what << ": (" << a.x << ", " << a.y << ", " << a.z << ") against (" << b.x << ", " << b.y << ", "
                                       << b.z << ")";
}

TEST(AnimHierarchy, WorldTransformsMatchHandComputedMatrices) {
    ImportedScene s = arm();
    std::vector<NodeTransform> local = rest_pose(s);
    std::vector<glm::dmat4> world = world_transforms(s, local);
    expect_near(origin(world[0]), {1.0, 2.0, 0.0}, 1e-12, "tip at rest");
    // The elbow turned 90 degrees about z: the tip swings from +y to -x of the elbow.
    local[1].rotation = about_z(90.0);
    world = world_transforms(s, local);
    const glm::dmat4 hand = glm::translate(glm::dmat4(1.0), glm::dvec3(1, 0, 0)) * glm::mat4_cast(about_z(90.0)) *
                            glm::translate(glm::dmat4(1.0), glm::dvec3(0, 2, 0));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) EXPECT_NEAR(world[0][c][r], hand[c][r], 1e-12);
    expect_near(origin(world[0]), {-1.0, 0.0, 0.0}, 1e-12, "tip, elbow turned");
    // Scale of the root scales its subtree.
    local[2].scale = glm::dvec3(2.0);
    world = world_transforms(s, local);
    expect_near(origin(world[0]), {-3.0, 0.0, 0.0}, 1e-12, "tip, root scaled 2x");
}

TEST(AnimClip, LinearRotationTakesTheShorterArcAndLoops) {
    ImportedScene s = arm();
    Animation a;
    a.name = "bend";
    a.channels.push_back(rotation_channel(1, {0.0f, 1.0f}, {about_z(0.0), about_z(180.0)}));
    s.animations.push_back(a);
    ClipSampler clip(s, s.animations[0]);
    EXPECT_EQ(clip.channel_count(), 1u);
    EXPECT_DOUBLE_EQ(clip.duration_s(), 1.0);
    std::vector<NodeTransform> local = rest_pose(s);
    clip.sample(0.25, local);
    const double r = 2.0 * std::sqrt(0.5);
    expect_near(origin(world_transforms(s, local)[0]), {1.0 - r, r, 0.0}, 1e-6, "45 degrees at a quarter");
    clip.sample(1.25, local);  // wraps to 0.25
    expect_near(origin(world_transforms(s, local)[0]), {1.0 - r, r, 0.0}, 1e-6, "looped");
    clip.sample(1.25, local, ClipTimeMode::Clamp);
    expect_near(origin(world_transforms(s, local)[0]), {1.0, -2.0, 0.0}, 1e-6, "clamped to the last key");

    // Keys that are the same rotation written with opposite signs (q and -q): the shorter arc is no turn.
    Animation b;
    b.channels.push_back(rotation_channel(1, {0.0f, 1.0f}, {about_z(90.0), -about_z(90.0)}));
    s.animations.push_back(b);
    ClipSampler same(s, s.animations[1]);
    same.sample(0.5, local);
    expect_near(origin(world_transforms(s, local)[0]), {-1.0, 0.0, 0.0}, 1e-6, "q to -q stays");
    // 0 to 270 degrees: the shorter way is -90, so half-way is -45.
    Animation c;
    c.channels.push_back(rotation_channel(1, {0.0f, 1.0f}, {about_z(0.0), about_z(270.0)}));
    s.animations.push_back(c);
    ClipSampler shorter(s, s.animations[2]);
    shorter.sample(0.5, local);
    expect_near(origin(world_transforms(s, local)[0]), {1.0 + r, r, 0.0}, 1e-6, "the shorter arc");
}

TEST(AnimClip, StepAndCubicSplineInterpolation) {
    ImportedScene s = arm();
    Animation a;
    AnimationChannel step;
    step.node = 2;
    step.path = AnimPath::Translation;
    step.interpolation = AnimInterpolation::Step;
    step.times_s = {0.0f, 1.0f, 2.0f};
    step.values = {0, 0, 0, 1, 0, 0, 5, 0, 0};
    a.channels.push_back(step);
    // Cubic spline on the elbow's scale x: keys (in, value, out) = (0, 1, 2) at t = 0 and (0, 1, 0) at t = 2.
    AnimationChannel cubic;
    cubic.node = 1;
    cubic.path = AnimPath::Scale;
    cubic.interpolation = AnimInterpolation::CubicSpline;
    cubic.times_s = {0.0f, 2.0f};
    cubic.values = {0, 0, 0, 1, 1, 1, 2, 0, 0, /**/ 0, 0, 0, 1, 1, 1, 0, 0, 0};
    a.channels.push_back(cubic);
    s.animations.push_back(a);
    ClipSampler clip(s, s.animations[0]);
    ASSERT_EQ(clip.channel_count(), 2u);
    std::vector<NodeTransform> local = rest_pose(s);
    clip.sample(0.99, local, ClipTimeMode::Clamp);
    EXPECT_DOUBLE_EQ(local[2].translation.x, 0.0) << "step holds the previous key";
    clip.sample(1.0, local, ClipTimeMode::Clamp);
    EXPECT_DOUBLE_EQ(local[2].translation.x, 1.0);
    // Hermite at u = 0.5 over d = 2: h00 = h01 = 0.5, h10 = 0.125, h11 = -0.125: 1 + 0.125 x 2 x 2 = 1.5 in x,
    // 1 in y (no tangent).
    EXPECT_NEAR(local[1].scale.x, 1.5, 1e-6);
    EXPECT_NEAR(local[1].scale.y, 1.0, 1e-6);
    clip.sample(1.5, local, ClipTimeMode::Clamp);
    EXPECT_DOUBLE_EQ(local[2].translation.x, 1.0);
    EXPECT_NEAR(local[1].scale.x, 1.0 + 0.046875 * 2.0 * 2.0, 1e-6) << "u = 0.75: h10 = 0.046875";
}

TEST(AnimClip, BrokenChannelsAreLeftOutWithAWarning) {
    ImportedScene s = arm();
    Animation a;
    a.name = "broken";
    a.channels.push_back(rotation_channel(1, {0.0f, 1.0f}, {about_z(0.0), about_z(90.0)}));       // good
    a.channels.push_back(rotation_channel(7, {0.0f, 1.0f}, {about_z(0.0), about_z(90.0)}));       // no node 7
    a.channels.push_back(rotation_channel(0, {0.0f, 0.0f}, {about_z(0.0), about_z(90.0)}));       // times not increasing
    AnimationChannel nan = rotation_channel(0, {0.0f, 1.0f}, {about_z(0.0), about_z(90.0)});
    nan.values[5] = std::nanf("");
    a.channels.push_back(nan);
    AnimationChannel zero = rotation_channel(0, {0.0f, 1.0f}, {about_z(0.0), about_z(90.0)});
    for (int k = 4; k < 8; ++k) zero.values[size_t(k)] = 0.0f;
    a.channels.push_back(zero);
    AnimationChannel short_values = rotation_channel(0, {0.0f, 1.0f}, {about_z(0.0)});
    a.channels.push_back(short_values);
    AnimationChannel weights;
    weights.node = 0;
    weights.path = AnimPath::Weights;
    weights.times_s = {0.0f};
    weights.values = {1.0f};
    a.channels.push_back(weights);
    s.animations.push_back(a);
    Diagnostics diag;
    ClipSampler clip(s, s.animations[0], &diag);
    EXPECT_EQ(clip.channel_count(), 1u);
    EXPECT_EQ(clip.skipped_channels(), 6u);
    ASSERT_EQ(diag.items.size(), 6u);
    for (const auto& d : diag.items) {
        EXPECT_EQ(d.severity, Severity::Warning);
        EXPECT_NE(d.where.find("broken"), std::string::npos) << d.message;
    }
    EXPECT_NE(diag.items[0].message.find("node 7"), std::string::npos) << diag.items[0].message;
    EXPECT_NE(diag.items[5].message.find("morph"), std::string::npos) << diag.items[5].message;
    std::vector<NodeTransform> local = rest_pose(s);
    clip.sample(0.5, local);
    for (const NodeTransform& n : local) EXPECT_TRUE(std::isfinite(n.rotation.w) && std::isfinite(n.translation.x));
}

TEST(AnimSkinning, JointMatricesAndBlendedVertices) {
    ImportedScene s = arm();
    Skin skin;
    skin.joints = {0, 1};
    const std::vector<glm::dmat4> rest = world_transforms(s, rest_pose(s));
    skin.inverse_bind = {glm::mat4(glm::inverse(rest[0])), glm::mat4(glm::inverse(rest[1]))};
    s.skins.push_back(skin);
    EXPECT_LT(bind_pose_error(s, s.skins[0]), 1e-6);

    Mesh m;
    m.name = "arm";
    m.positions = {{1, 2, 0}, {1, 0, 0}, {1, 1, 0}};
    m.joints = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}};
    m.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}};
    std::vector<NodeTransform> local = rest_pose(s);
    local[1].rotation = about_z(90.0);
    const auto rest_joints = joint_matrices(s.skins[0], rest);
    auto bind = unbind_mesh(m, rest_joints);
    ASSERT_TRUE(bind.ok());
    EXPECT_EQ(bind->positions, m.positions) << "rest joint matrices are the identity here";
    const auto joints = joint_matrices(s.skins[0], world_transforms(s, local));
    std::vector<glm::vec3> out;
    ASSERT_TRUE(skin_mesh(m, *bind, joints, out).ok());
    expect_near(glm::dvec3(out[0]), {-1, 0, 0}, 1e-6, "a vertex on the tip follows it");
    expect_near(glm::dvec3(out[1]), {1, 0, 0}, 1e-6, "a vertex at the elbow's pivot stays");
    // Half each: the tip joint carries (1,1,0) to (0,0,0), the elbow to (0,0,0) as well (both turn it about
    // (1,0,0) by 90 degrees): linear blend of the two.
    expect_near(glm::dvec3(out[2]), {0, 0, 0}, 1e-6, "blended");

    // An engine conversion (centimetres, Z up to metres, Y up) is applied around the joints.
    const glm::dmat4 to_engine = glm::scale(glm::dmat4(1.0), glm::dvec3(0.01)) * glm::rotate(glm::dmat4(1.0), -kPi / 2.0, glm::dvec3(1, 0, 0));
    const auto converted = joint_matrices(s.skins[0], world_transforms(s, local), to_engine);
    Mesh me = m;
    for (glm::vec3& p : me.positions) p = glm::vec3(to_engine * glm::dvec4(p, 1.0));
    auto bind_e = unbind_mesh(me, joint_matrices(s.skins[0], rest, to_engine));
    ASSERT_TRUE(bind_e.ok());
    ASSERT_TRUE(skin_mesh(me, *bind_e, converted, out).ok());
    expect_near(glm::dvec3(out[0]), glm::dvec3(to_engine * glm::dvec4(-1, 0, 0, 1)), 1e-6, "converted");

    m.joints[0] = {9, 0, 0, 0};
    const Status bad = skin_mesh(m, *bind, joints, out);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("joint 9"), std::string::npos) << bad.error().message;
    EXPECT_FALSE(unbind_mesh(m, joints).ok());
    Mesh plain;
    plain.positions = {{0, 0, 0}};
    EXPECT_FALSE(skin_mesh(plain, *bind, joints, out).ok());
    EXPECT_FALSE(unbind_mesh(plain, joints).ok());
}

// An FBX made by Assimp's own exporter from a glTF (no animated FBX ships with the test data), with what
// Assimp 5.2.5's FBX exporter gets wrong worked around: it writes key times in ticks as if they were
// seconds (a glTF read by Assimp counts 1000 ticks a second, so a 2 s clip became 2000 s), which its
// importer then cuts to one key per channel (with `seconds_as_ticks` the clip is first given one tick per
// second, which it writes right); it drops the root node's transform; and its binary FBX cannot be read
// back by the same Assimp ("block offset is out of range"): ASCII here.
std::filesystem::path write_fbx_of(const std::filesystem::path& source, const std::filesystem::path& out, bool seconds_as_ticks) {
    Assimp::Importer importer;
    const aiScene* read = importer.ReadFile(source.string(), 0);
    EXPECT_NE(read, nullptr) << importer.GetErrorString();
    if (!read) return out;
    aiScene* scene = const_cast<aiScene*>(read);  // edited in place; the importer still owns it
    for (unsigned a = 0; seconds_as_ticks && a < scene->mNumAnimations; ++a) {
        aiAnimation* clip = scene->mAnimations[a];
        const double tps = clip->mTicksPerSecond > 0.0 ? clip->mTicksPerSecond : 25.0;
        for (unsigned c = 0; c < clip->mNumChannels; ++c) {
            aiNodeAnim* ch = clip->mChannels[c];
            for (unsigned k = 0; k < ch->mNumPositionKeys; ++k) ch->mPositionKeys[k].mTime /= tps;
            for (unsigned k = 0; k < ch->mNumRotationKeys; ++k) ch->mRotationKeys[k].mTime /= tps;
            for (unsigned k = 0; k < ch->mNumScalingKeys; ++k) ch->mScalingKeys[k].mTime /= tps;
        }
        clip->mDuration /= tps;
        clip->mTicksPerSecond = 1.0;
    }
    // The exporter writes the root node as FBX's root, which has no transform: CesiumMan's Z_UP rotation
    // would be lost. An identity root above it keeps it.
    aiNode* root = new aiNode("root");
    root->mNumChildren = 1;
    root->mChildren = new aiNode*[1]{scene->mRootNode};
    scene->mRootNode->mParent = root;
    scene->mRootNode = root;
    Assimp::Exporter exporter;
    EXPECT_EQ(exporter.Export(scene, "fbxa", out.string()), AI_SUCCESS) << exporter.GetErrorString();
    return out;
}

// CesiumMan written as FBX by Assimp's exporter plays like its glTF source: the same clip length, and at
// five keys of the walk every vertex of the FBX skinned within 0.1 mm of the glTF's vertex at the same
// rest position (the two files order and split vertices differently). At keys: the round trip turns each
// rotation into Euler curves and back, and where a curve wraps through 180 degrees Assimp's importer
// interpolates across the wrap and adds a key with a wrong rotation between two source keys (leg_joint_R_1
// at 0.187 s), an artefact of this exporter that files with continuous Euler curves do not have.
TEST(AnimFbx, AnAssimpExportedFbxPlaysLikeItsGltfSource) {
    const auto dir = test::scratch_dir("anim_fbx");
    const auto gltf_path = test::source("presets/assets/CesiumMan.glb");
    auto gltf = import_mesh_file(gltf_path);
    ASSERT_TRUE(gltf.ok()) << gltf.error().describe();
    auto fbx = import_mesh_file(write_fbx_of(gltf_path, dir / "CesiumMan.fbx", true));
    ASSERT_TRUE(fbx.ok()) << fbx.error().describe();
    for (const auto& d : fbx->diagnostics.items) std::printf("fbx: %s\n", d.message.c_str());
    ASSERT_EQ(fbx->animations.size(), 1u);
    ASSERT_EQ(gltf->animations.size(), 1u);
    struct Posed {
        const ImportedScene* scene;
        Mesh mesh;
        SkinBind bind;
        std::unique_ptr<ClipSampler> clip;
    };
    auto posed = [](const ImportedScene& s) {
        Posed p{&s, merge_meshes(s, "man"), {}, std::make_unique<ClipSampler>(s, s.animations[0])};
        EXPECT_GE(p.mesh.skin, 0);
        auto b = unbind_mesh(p.mesh, joint_matrices(s.skins[size_t(p.mesh.skin)], world_transforms(s, rest_pose(s))));
        EXPECT_TRUE(b.ok());
        if (b.ok()) p.bind = std::move(*b);
        return p;
    };
    Posed a = posed(*gltf), b = posed(*fbx);
    ASSERT_FALSE(b.bind.positions.empty());
    EXPECT_NEAR(b.clip->duration_s(), a.clip->duration_s(), 1e-3);
    EXPECT_GT(b.clip->channel_count(), 0u);
    // Each FBX vertex's glTF twin: the same rest position and texture coordinates (one convention for both
    // files: a UV mask grows hair in the same place on either).
    ASSERT_TRUE(a.mesh.has_uvs() && b.mesh.has_uvs());
    std::vector<size_t> twin(b.mesh.positions.size(), SIZE_MAX);
    float rest_gap = 0.0f, uv_gap = 0.0f;
    for (size_t i = 0; i < b.mesh.positions.size(); ++i) {
        float best = 1e30f;
        for (size_t j = 0; j < a.mesh.positions.size(); ++j) {
            const float d = glm::length(b.mesh.positions[i] - a.mesh.positions[j]) + glm::length(b.mesh.uvs[i] - a.mesh.uvs[j]);
            if (d < best) best = d, twin[i] = j;
        }
        rest_gap = std::max(rest_gap, glm::length(b.mesh.positions[i] - a.mesh.positions[twin[i]]));
        uv_gap = std::max(uv_gap, glm::length(b.mesh.uvs[i] - a.mesh.uvs[twin[i]]));
    }
    EXPECT_LT(rest_gap, 1e-5f) << "the FBX's rest pose is the glTF's";
    EXPECT_LT(uv_gap, 1e-5f) << "the FBX's texture coordinates are the glTF's";
    double worst = 0.0, moved = 0.0;
    for (int frame : {5, 14, 24, 33, 43}) {
        const double t = frame / 24.0;  // keys of the source clip (24 a second)
        std::vector<glm::vec3> pa, pb;
        for (Posed* p : {&a, &b}) {
            std::vector<NodeTransform> local = rest_pose(*p->scene);
            p->clip->sample(t, local);
            ASSERT_TRUE(skin_mesh(p->mesh, p->bind, joint_matrices(p->scene->skins[size_t(p->mesh.skin)], world_transforms(*p->scene, local)),
                                  p == &a ? pa : pb)
                            .ok());
        }
        for (size_t i = 0; i < pb.size(); ++i) {
            worst = std::max(worst, double(glm::length(pb[i] - pa[twin[i]])));
            moved = std::max(moved, double(glm::length(pa[twin[i]] - a.mesh.positions[twin[i]])));
        }
    }
    std::printf("CesiumMan as FBX: %zu vertices, rest within %.3g m of the glTF's (texture coordinates %.3g); posed at five times within %.3g m (the walk moves them "
                "up to %.3g m)\n",
                b.mesh.positions.size(), double(rest_gap), double(uv_gap), worst, moved);
    EXPECT_LT(worst, 1e-4);
    EXPECT_GT(moved, 0.05);

    // As Assimp's exporter writes it unaided, the clip's keys lie past its end: Assimp refuses the scene
    // for it, and the import keeps the mesh and skin, leaves the clip out and says why.
    auto broken = import_mesh_file(write_fbx_of(gltf_path, dir / "CesiumMan_ticks.fbx", false));
    ASSERT_TRUE(broken.ok()) << broken.error().describe();
    EXPECT_TRUE(broken->animations.empty());
    EXPECT_GE(merge_meshes(*broken, "man").skin, 0);
    bool said = false;
    for (const auto& d : broken->diagnostics.items) said |= d.message.find("animations are malformed") != std::string::npos;
    EXPECT_TRUE(said);
}

// A TressFX body names its bones and has no skeleton: CesiumMan written as a .tfxmesh (bone names and
// weights only) and skinned on the nodes of CesiumMan.glb found by name. Vertices held by one joint move
// exactly as the glTF's own skinning moves them (within 1e-5 m at five times of the walk; blended vertices
// differ by what a .tfxmesh cannot say: it has no bind matrices, so its rest pose is taken as the bind pose).
// A skeleton lacking a bone is an error naming it.
TEST(AnimRetarget, ATressFXBodyPlaysWithTheSkeletonOfAnotherFile) {
    auto gltf = import_mesh_file(test::source("presets/assets/CesiumMan.glb"));
    ASSERT_TRUE(gltf.ok());
    const Mesh man = merge_meshes(*gltf, "man");
    const Skin& own = gltf->skins[size_t(man.skin)];
    std::vector<std::string> names;
    for (int n : own.joints) names.push_back(gltf->nodes[size_t(n)].name);
    const auto dir = test::scratch_dir("anim_retarget");
    ASSERT_TRUE(write_tfxmesh(man, names, dir / "body.tfxmesh").ok());
    auto tfx = import_mesh_file(dir / "body.tfxmesh");
    ASSERT_TRUE(tfx.ok()) << tfx.error().describe();
    const Mesh body = merge_meshes(*tfx, "body");
    ASSERT_GE(body.skin, 0);
    auto skin = retarget_skin(*tfx, tfx->skins[size_t(body.skin)], *gltf);
    ASSERT_TRUE(skin.ok()) << skin.error().describe();
    EXPECT_EQ(skin->joints, own.joints) << "each bone on the glTF's node of its name";
    const auto rest = world_transforms(*gltf, rest_pose(*gltf));
    auto body_bind = unbind_mesh(body, joint_matrices(*skin, rest));
    auto man_bind = unbind_mesh(man, joint_matrices(own, rest));
    ASSERT_TRUE(body_bind.ok() && man_bind.ok());
    ClipSampler clip(*gltf, gltf->animations[0]);
    double worst = 0.0, moved = 0.0;
    size_t rigid = 0;
    for (int k = 0; k < 5; ++k) {
        std::vector<NodeTransform> local = rest_pose(*gltf);
        clip.sample(clip.duration_s() * (0.1 + 0.2 * k), local);
        const auto world = world_transforms(*gltf, local);
        std::vector<glm::vec3> a, b;
        ASSERT_TRUE(skin_mesh(man, *man_bind, joint_matrices(own, world), a).ok());
        ASSERT_TRUE(skin_mesh(body, *body_bind, joint_matrices(*skin, world), b).ok());
        ASSERT_EQ(a.size(), b.size());
        for (size_t v = 0; v < a.size(); ++v) {
            if (man.weights[v].x < 0.999f) continue;
            worst = std::max(worst, double(glm::length(a[v] - b[v])));
            moved = std::max(moved, double(glm::length(a[v] - man.positions[v])));
            rigid += k == 0;
        }
    }
    std::printf("CesiumMan as a .tfxmesh on the glTF's skeleton: %zu vertices held by one joint within %.3g m of the glTF's skinning "
                "(moved up to %.3g m)\n",
                rigid, worst, moved);
    EXPECT_GT(rigid, 300u);
    EXPECT_LT(worst, 1e-5);
    EXPECT_GT(moved, 0.1);

    ImportedScene lacking = *gltf;
    for (Node& n : lacking.nodes)
        if (n.name == "Skeleton_neck_joint_2") n.name = "head";
    auto missing = retarget_skin(*tfx, tfx->skins[size_t(body.skin)], lacking);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("'Skeleton_neck_joint_2'"), std::string::npos) << missing.error().message;
}

// RobotExpressive is 19 parts: fifteen rigid ones hung under its joints and four skinned hands. Imported
// as one skin, the merged mesh skinned by a clip puts every rigid part where its own node's transform puts
// it (the posed world transform times the inverse of the rest one), within 1e-5 m, at five times of three
// clips.
TEST(AnimCharacters, SeparatePartsSkinAsOneMesh) {
    auto scene = import_mesh_file(test::testdata("gltf/RobotExpressive.glb"));
    ASSERT_TRUE(scene.ok()) << scene.error().describe();
    const Mesh merged = merge_meshes(*scene, "robot");
    ASSERT_GE(merged.skin, 0);
    const Skin& skin = scene->skins[size_t(merged.skin)];
    const std::vector<glm::dmat4> rest = world_transforms(*scene, rest_pose(*scene));
    auto bind = unbind_mesh(merged, joint_matrices(skin, rest));
    ASSERT_TRUE(bind.ok()) << bind.error().describe();
    EXPECT_EQ(bind->singular, 0u);
    // Where each part starts in the merged mesh, and the node that carries it.
    std::vector<size_t> first(scene->meshes.size());
    for (size_t m = 0, at = 0; m < scene->meshes.size(); at += scene->meshes[m].positions.size(), ++m) first[m] = at;
    double worst = 0.0, moved = 0.0;
    size_t checked = 0;
    for (const char* name : {"Walking", "Dance", "Punch"}) {
        const Animation* a = nullptr;
        for (const Animation& c : scene->animations)
            if (c.name == name) a = &c;
        ASSERT_NE(a, nullptr) << name;
        ClipSampler clip(*scene, *a);
        for (int k = 0; k < 5; ++k) {
            std::vector<NodeTransform> local = rest_pose(*scene);
            clip.sample(clip.duration_s() * (0.1 + 0.2 * k), local);
            const auto world = world_transforms(*scene, local);
            std::vector<glm::vec3> out;
            ASSERT_TRUE(skin_mesh(merged, *bind, joint_matrices(skin, world), out).ok());
            for (size_t n = 0; n < scene->nodes.size(); ++n) {
                const Node& node = scene->nodes[n];
                if (node.mesh < 0 || node.skin >= 0) continue;
                const glm::dmat4 carry = world[n] * glm::inverse(rest[n]);
                const Mesh& part = scene->meshes[size_t(node.mesh)];
                for (size_t v = 0; v < part.positions.size(); ++v) {
                    const glm::dvec3 want = glm::dvec3(carry * glm::dvec4(glm::dvec3(part.positions[v]), 1.0));
                    worst = std::max(worst, glm::length(want - glm::dvec3(out[first[size_t(node.mesh)] + v])));
                    moved = std::max(moved, glm::length(want - glm::dvec3(part.positions[v])));
                    ++checked;
                }
            }
        }
    }
    std::printf("RobotExpressive: %zu rigid-part vertices posed, at most %.3g m from their nodes' transforms; parts moved up to %.3g m\n",
                checked, worst, moved);
    EXPECT_LT(worst, 1e-5);
    EXPECT_GT(moved, 0.1);
}

// The shipped characters: at the file's rest pose skinning gives back the mesh the importer built (its
// bind pose), every clip samples to finite positions that move, every pose lies within its joints' boxes
// carried by the joints (posed_bounds) and those bounds are not loose beyond 2.5 times the pose's extent
// on any axis, and RobotExpressive's morph-target channels are left out with a warning.
TEST(AnimCharacters, ClipsOfTheShippedCharactersSkinTheirMeshes) {
    for (const char* file : {"CesiumMan.glb", "RiggedFigure.glb", "RobotExpressive.glb"}) {
        auto scene = import_mesh_file(test::testdata("gltf") / file);
        ASSERT_TRUE(scene.ok()) << file << ": " << scene.error().describe();
        ASSERT_FALSE(scene->animations.empty()) << file;
        const std::vector<glm::dmat4> rest = world_transforms(*scene, rest_pose(*scene));
        size_t skinned = 0;
        std::vector<SkinBind> binds;
        for (const Mesh& m : scene->meshes) {
            if (m.skin < 0) continue;
            ++skinned;
            const Skin& skin = scene->skins[size_t(m.skin)];
            const double bind = bind_pose_error(*scene, skin);
            const auto rest_joints = joint_matrices(skin, rest);
            auto unbound = unbind_mesh(m, rest_joints);
            ASSERT_TRUE(unbound.ok()) << file;
            EXPECT_EQ(unbound->singular, 0u);
            binds.push_back(*unbound);
            std::vector<glm::vec3> out;
            ASSERT_TRUE(skin_mesh(m, *unbound, rest_joints, out).ok()) << file;
            float worst = 0.0f;
            for (size_t v = 0; v < out.size(); ++v) worst = std::max(worst, glm::length(out[v] - m.positions[v]));
            std::printf("%s mesh '%s': %zu vertices, %zu joints, rest joint matrices %.2g from the identity, rest skinning %.2g m from the "
                        "imported mesh\n",
                        file, m.name.c_str(), m.positions.size(), skin.joints.size(), bind, double(worst));
            EXPECT_LT(worst, 1e-4f) << file << " '" << m.name << "': the importer's bind pose";
        }
        EXPECT_GT(skinned, 0u) << file;
        std::vector<JointBounds> boxes;
        {
            size_t b = 0;
            for (const Mesh& m : scene->meshes) {
                if (m.skin < 0) continue;
                auto jb = joint_bounds(m, binds[b++], scene->skins[size_t(m.skin)].joints.size());
                ASSERT_TRUE(jb.ok()) << file << ": " << jb.error().describe();
                boxes.push_back(std::move(*jb));
            }
        }
        Diagnostics diag;
        double loosest = 0.0;  // largest ratio of the joints' box extent to the posed mesh's, any axis of 5 cm or more
        for (const Animation& a : scene->animations) {
            ClipSampler clip(*scene, a, &diag);
            EXPECT_GT(clip.channel_count(), 0u) << file << " '" << a.name << "'";
            EXPECT_GT(clip.duration_s(), 0.0);
            double moved = 0.0;
            for (int k = 0; k < 5; ++k) {
                std::vector<NodeTransform> local = rest_pose(*scene);
                clip.sample(clip.duration_s() * (0.1 + 0.2 * k), local);
                const auto world = world_transforms(*scene, local);
                size_t b = 0;
                for (const Mesh& m : scene->meshes) {
                    if (m.skin < 0) continue;
                    std::vector<glm::vec3> out;
                    const auto joints = joint_matrices(scene->skins[size_t(m.skin)], world);
                    ASSERT_TRUE(skin_mesh(m, binds[b], joints, out).ok());
                    // The pose lies within its joints' boxes carried by the joints (posed_bounds), which the
                    // runtime places the body's field around.
                    glm::dvec3 lo, hi, mlo(1e30), mhi(-1e30);
                    ASSERT_TRUE(posed_bounds(boxes[b++], joints, lo, hi));
                    for (size_t v = 0; v < out.size(); ++v) {
                        ASSERT_TRUE(std::isfinite(out[v].x) && std::isfinite(out[v].y) && std::isfinite(out[v].z));
                        moved = std::max(moved, double(glm::length(out[v] - m.positions[v])));
                        const glm::dvec3 q(out[v]);
                        ASSERT_TRUE(glm::all(glm::greaterThanEqual(q, lo - 1e-5)) && glm::all(glm::lessThanEqual(q, hi + 1e-5)))
                            << file << " '" << a.name << "' mesh '" << m.name << "' vertex " << v << " outside its pose's bounds";
                        mlo = glm::min(mlo, q), mhi = glm::max(mhi, q);
                    }
                    for (int ax = 0; ax < 3; ++ax)
                        if (mhi[ax] - mlo[ax] >= 0.05) loosest = std::max(loosest, (hi[ax] - lo[ax]) / (mhi[ax] - mlo[ax]));
                }
            }
            EXPECT_GT(moved, 0.005) << file << " '" << a.name << "' moves its mesh";
        }
        std::printf("%s: the joints' boxes bound each pose within %.3g times its extent\n", file, loosest);
        EXPECT_LT(loosest, 2.5) << file;  // measured: CesiumMan 2.3 (his depth, boxes turned 45 degrees), RiggedFigure 1.44, RobotExpressive 1.8
        std::printf("%s: %zu clips, %zu warnings\n", file, scene->animations.size(), diag.items.size());
    }
}

// Roots that follow the skinned scalp: 300 roots spread over CesiumMan, carried by their triangles'
// frames through 120 frames of the walk, stay on their skinned scalp points within 1e-5 m and their
// transforms stay rigid; given to the simulation as skinned roots, the strands' pinned vertices go there.
TEST(AnimRoots, RootsStayOnTheSkinnedScalpOverCesiumMansWalk) {
    auto scene = import_mesh_file(test::testdata("gltf") / "CesiumMan.glb");
    ASSERT_TRUE(scene.ok());
    const Mesh* body = nullptr;
    for (const Mesh& m : scene->meshes)
        if (m.skin >= 0) body = &m;
    ASSERT_NE(body, nullptr);
    const Skin& skin = scene->skins[size_t(body->skin)];
    auto bind = unbind_mesh(*body, joint_matrices(skin, world_transforms(*scene, rest_pose(*scene))));
    ASSERT_TRUE(bind.ok());
    const std::vector<ScalpAttachment> roots = test::spread_roots(*body, 300);
    std::vector<glm::vec3> root_points, normals;
    for (const ScalpAttachment& a : roots) {
        const glm::vec3 p0 = body->positions[body->indices[3 * a.triangle]], p1 = body->positions[body->indices[3 * a.triangle + 1]],
                        p2 = body->positions[body->indices[3 * a.triangle + 2]];
        root_points.push_back(p0 * a.barycentric.x + p1 * a.barycentric.y + p2 * a.barycentric.z);
        const glm::vec3 n = glm::cross(p1 - p0, p2 - p0);
        normals.push_back(glm::length(n) > 0.0f ? glm::normalize(n) : glm::vec3(0, 1, 0));
    }

    // The simulation with one short strand per root along its triangle's normal, roots driven per strand.
    GroomResult groom = test::make_straight_groom(root_points, normals, 0.03f, 4);
    groom.guides.roots = roots;
    SimWorldInputs in;
    SimGroupInputs g;
    g.name = "hair";
    g.groom = &groom;
    g.scalp_mesh = "body";
    g.params.gpu_vertices_per_strand = 4;
    in.groups.push_back(g);
    auto world = build_sim_world(in);
    ASSERT_TRUE(world.ok()) << world.error().describe();

    ClipSampler clip(*scene, scene->animations[0]);
    double worst = 0.0, worst_rigid = 0.0, worst_pinned = 0.0, moved = 0.0;
    std::vector<glm::vec3> skinned;
    std::vector<glm::mat4> transforms;
    for (int frame = 1; frame <= 120; ++frame) {
        std::vector<NodeTransform> local = rest_pose(*scene);
        clip.sample(double(frame) / 60.0, local);
        ASSERT_TRUE(skin_mesh(*body, *bind, joint_matrices(skin, world_transforms(*scene, local)), skinned).ok());
        ASSERT_TRUE(root_transforms(*body, skinned, roots, transforms).ok());
        for (size_t r = 0; r < roots.size(); ++r) {
            const ScalpAttachment& a = roots[r];
            const glm::vec3 want = skinned[body->indices[3 * a.triangle]] * a.barycentric.x +
                                   skinned[body->indices[3 * a.triangle + 1]] * a.barycentric.y +
                                   skinned[body->indices[3 * a.triangle + 2]] * a.barycentric.z;
            const glm::vec3 got = glm::vec3(transforms[r] * glm::vec4(root_points[r], 1.0f));
            worst = std::max(worst, double(glm::length(got - want)));
            moved = std::max(moved, double(glm::length(want - root_points[r])));
            const glm::mat3 l(transforms[r]);
            const glm::mat3 e = glm::transpose(l) * l - glm::mat3(1.0f);
            for (int c = 0; c < 3; ++c)
                for (int k = 0; k < 3; ++k) worst_rigid = std::max(worst_rigid, double(std::abs(e[c][k])));
        }
        ASSERT_TRUE(set_root_transforms(*world, 0, transforms).ok());
        ASSERT_TRUE(run_frames(*world, 1).ok());
        const SimGroupState& sg = world->groups[0];
        for (uint32_t st = 0; st < sg.strand_count; ++st) {
            const glm::vec3 root = glm::vec3(transforms[st] * glm::vec4(glm::vec3(sg.groomed_positions_os[size_t(st) * sg.n]), 1.0f));
            worst_pinned = std::max(worst_pinned, double(glm::length(glm::vec3(sg.positions[size_t(st) * sg.n]) - root)));
        }
    }
    std::printf("CesiumMan's walk, 120 frames, 300 roots: on the skinned scalp within %.3g m (the scalp moved up to %.3g m), rigid within "
                "%.3g, the simulation's roots within %.3g m\n",
                worst, moved, worst_rigid, worst_pinned);
    EXPECT_GT(moved, 0.05);
    EXPECT_LT(worst, 1e-5);
    EXPECT_LT(worst_rigid, 1e-5);
    EXPECT_LT(worst_pinned, 1e-5);

    std::vector<ScalpAttachment> bad = {ScalpAttachment{uint32_t(body->indices.size() / 3), glm::vec3(1, 0, 0)}};
    EXPECT_FALSE(root_transforms(*body, skinned, bad, transforms).ok());
    EXPECT_FALSE(root_transforms(*body, std::span<const glm::vec3>(skinned.data(), 3), roots, transforms).ok());
}

}  // namespace
}  // namespace tressel
