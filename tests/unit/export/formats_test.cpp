// Byte layouts of the exporters' formats (shared/FORMATS.md), the Rat Boy assets written back, and the
// USD / glTF writers against their readers.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "core/file_io.h"
#include "export/export_gltf.h"
#include "export/export_tfx.h"
#include "io/hair_files.h"
#include "io/tfxbone.h"
#include "io/tfxmesh.h"
#include "io/usda.h"
#include "test_paths.h"

namespace tressel {
namespace {

uint32_t u32_at(const std::vector<uint8_t>& b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
int32_t i32_at(const std::vector<uint8_t>& b, size_t at) { return int32_t(u32_at(b, at)); }
float f32_at(const std::vector<uint8_t>& b, size_t at) {
    float v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

HairFileData two_strands(uint32_t n) {
    HairFileData d;
    for (uint32_t s = 0; s < 2; ++s) {
        for (uint32_t k = 0; k < n; ++k) d.points.push_back({0.1f * float(s), 0.01f * float(k), -0.5f + 0.25f * float(s)});
        d.strand_offsets.push_back(uint32_t(d.points.size()));
    }
    return d;
}

TEST(TfxWriter, HeaderAndLayoutFieldByField) {
    HairFileData d = two_strands(4);
    d.strand_uvs = {{0.25f, 0.75f}, {0.5f, 0.125f}};
    auto bytes = encode_tfx(d);
    ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
    const auto& b = *bytes;
    ASSERT_EQ(b.size(), 160u + 8 * 16 + 2 * 8);
    EXPECT_EQ(f32_at(b, 0), 4.0f);            // version
    EXPECT_EQ(u32_at(b, 4), 2u);              // numHairStrands
    EXPECT_EQ(u32_at(b, 8), 4u);              // numVerticesPerStrand
    EXPECT_EQ(u32_at(b, 12), 160u);           // offsetVertexPosition
    EXPECT_EQ(u32_at(b, 16), 160u + 128u);    // offsetStrandUV
    EXPECT_EQ(u32_at(b, 20), 0u);             // offsetVertexUV (absent)
    EXPECT_EQ(u32_at(b, 24), 0u);             // offsetStrandThickness
    EXPECT_EQ(u32_at(b, 28), 0u);             // offsetVertexColor
    for (size_t at = 32; at < 160; ++at) ASSERT_EQ(b[at], 0) << "reserved byte " << at;
    for (uint32_t i = 0; i < 8; ++i) {
        const size_t at = 160 + 16 * size_t(i);
        EXPECT_EQ(f32_at(b, at), d.points[i].x);
        EXPECT_EQ(f32_at(b, at + 4), d.points[i].y);
        EXPECT_EQ(f32_at(b, at + 8), d.points[i].z);
        EXPECT_EQ(f32_at(b, at + 12), i % 4 < 2 ? 0.0f : 1.0f) << "inverse mass of vertex " << i % 4;
    }
    EXPECT_EQ(f32_at(b, 288), 0.25f);
    EXPECT_EQ(f32_at(b, 292), 0.75f);
    EXPECT_EQ(f32_at(b, 296), 0.5f);
    EXPECT_EQ(f32_at(b, 300), 0.125f);

    auto back = parse_tfx(b, "mem");
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back->points, d.points);
    EXPECT_EQ(back->strand_uvs, d.strand_uvs);
}

TEST(TfxWriter, StrandUvBlockIsAlwaysValid) {
    auto bytes = encode_tfx(two_strands(8));  // no UVs: the 4.1 loader still seeks to offsetStrandUV
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(u32_at(*bytes, 16), 160u + 16u * 16u);
    EXPECT_EQ(bytes->size(), 160u + 16u * 16u + 16u);
}

TEST(TfxWriter, RejectsCountsTressFXCannotLoad) {
    auto three = encode_tfx(two_strands(3));
    ASSERT_FALSE(three.ok());
    EXPECT_NE(three.error().message.find("4, 8, 16, 32 or 64"), std::string::npos) << three.error().message;
    HairFileData mixed = two_strands(4);
    mixed.points.push_back({});
    mixed.strand_offsets.back() += 1;
    EXPECT_FALSE(encode_tfx(mixed).ok());
    EXPECT_FALSE(encode_tfx(HairFileData{}).ok());
}

TEST(TfxWriter, RatboyMohawkWrittenBackIsIdentical) {
    const auto path = test::testdata("tressfx/Ratboy_mohawk.tfx");
    auto original = read_file_bytes(path);
    ASSERT_TRUE(original.ok()) << original.error().describe();
    auto d = read_tfx_file(path);
    ASSERT_TRUE(d.ok()) << d.error().describe();
    auto bytes = encode_tfx(*d);
    ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
    ASSERT_EQ(bytes->size(), 1158720u);
    for (size_t at : {0, 4, 8, 12, 16, 20, 24, 28}) EXPECT_EQ(u32_at(*bytes, at), u32_at(*original, at)) << "header offset " << at;
    auto back = parse_tfx(*bytes, "written");
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back->strand_count(), 2228u);
    for (size_t i = 0; i < back->points.size(); ++i) {
        ASSERT_NEAR(back->points[i].x, d->points[i].x, 1e-6f);
        ASSERT_NEAR(back->points[i].y, d->points[i].y, 1e-6f);
        ASSERT_NEAR(back->points[i].z, d->points[i].z, 1e-6f);
        ASSERT_EQ(back->inverse_mass[i], d->inverse_mass[i]);
    }
    EXPECT_EQ(back->strand_uvs, d->strand_uvs);
    EXPECT_TRUE(*bytes == *original) << "the writer reproduces TressFX's exporter byte for byte";
}

TEST(TfxBone, RatboyMohawkReadAndWrittenBack) {
    const auto path = test::testdata("tressfx/Ratboy_mohawk.tfxbone");
    auto d = read_tfxbone_file(path);
    ASSERT_TRUE(d.ok()) << d.error().describe();
    EXPECT_EQ(d->bone_names.size(), 105u);
    EXPECT_EQ(d->strands.size(), 2228u);
    EXPECT_EQ(d->bone_names[0], "frenchHornMonster_head_JNT");
    auto bytes = encode_tfxbone(*d);
    ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
    EXPECT_EQ(bytes->size(), 84369u);
    auto back = parse_tfxbone(*bytes, "written");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->bone_names, d->bone_names);
    EXPECT_EQ(back->bone_ids, d->bone_ids);
    ASSERT_EQ(back->strands.size(), d->strands.size());
    for (size_t i = 0; i < d->strands.size(); ++i) {
        EXPECT_EQ(back->strands[i].strand, d->strands[i].strand);
        EXPECT_EQ(back->strands[i].bones, d->strands[i].bones);
        EXPECT_EQ(back->strands[i].weights, d->strands[i].weights);
    }
    auto original = read_file_bytes(path);
    ASSERT_TRUE(original.ok());
    EXPECT_TRUE(*bytes == *original);
    auto fur = read_tfxbone_file(test::testdata("tressfx/Ratboy_short.tfxbone"));
    ASSERT_TRUE(fur.ok()) << fur.error().describe();
    EXPECT_EQ(fur->strands.size(), 37747u);
}

TEST(TfxBone, LayoutFieldByField) {
    TfxBoneData d;
    d.bone_names = {"head", "jaw"};
    d.strands = {{0, {1, 0, 0, 0}, {0.75f, 0.25f, 0.0f, 0.0f}}};
    auto bytes = encode_tfxbone(d);
    ASSERT_TRUE(bytes.ok());
    const auto& b = *bytes;
    ASSERT_EQ(b.size(), 4u + (8 + 5) + (8 + 4) + 4 + 36);
    EXPECT_EQ(i32_at(b, 0), 2);                               // numBones
    EXPECT_EQ(i32_at(b, 4), 0);                               // boneIndex
    EXPECT_EQ(i32_at(b, 8), 5);                               // nameLength with the NUL
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(b.data() + 12)), "head");
    EXPECT_EQ(i32_at(b, 17), 1);
    EXPECT_EQ(i32_at(b, 21), 4);
    EXPECT_EQ(i32_at(b, 37 - 8), 1) << "numStrands";
    EXPECT_EQ(i32_at(b, 33), 0);                              // strandIndex
    EXPECT_EQ(i32_at(b, 37), 1);                              // bone 0 of the strand
    EXPECT_EQ(f32_at(b, 41), 0.75f);
    EXPECT_EQ(i32_at(b, 45), 0);
    EXPECT_EQ(f32_at(b, 49), 0.25f);
}

TEST(TfxBone, BrokenFilesAndBadDataGiveErrors) {
    TfxBoneData d;
    d.bone_names = {"head"};
    d.strands = {{0, {0, 0, 0, 0}, {0.0f, 1.0f, 0.0f, 0.0f}}};
    auto zero_first = encode_tfxbone(d);
    ASSERT_FALSE(zero_first.ok());
    EXPECT_NE(zero_first.error().message.find("first weight"), std::string::npos);
    d.strands[0].weights = {1.0f, 0.0f, 0.0f, 0.0f};
    auto bytes = encode_tfxbone(d);
    ASSERT_TRUE(bytes.ok());
    for (size_t cut : {size_t(0), size_t(3), size_t(10), bytes->size() - 1}) {
        std::vector<uint8_t> truncated(bytes->begin(), bytes->begin() + std::ptrdiff_t(cut));
        auto r = parse_tfxbone(truncated, "cut.tfxbone");
        ASSERT_FALSE(r.ok()) << "cut at " << cut;
        EXPECT_EQ(r.error().message.rfind("cut.tfxbone: ", 0), 0u) << r.error().message;
    }
    std::vector<uint8_t> huge = *bytes;
    huge[0] = 0xFF, huge[1] = 0xFF, huge[2] = 0xFF, huge[3] = 0x7F;  // 2^31 - 1 bones
    EXPECT_FALSE(parse_tfxbone(huge, "huge").ok());
    std::vector<uint8_t> bad_bone = *bytes;
    bad_bone[bad_bone.size() - 32] = 9;                                // strand's first bone index -> 9 of 1
    EXPECT_FALSE(parse_tfxbone(bad_bone, "bone").ok());
}

TEST(TfxBone, FromScalpBlendsCornerWeightsByBarycentrics) {
    Mesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    m.indices = {0, 1, 2};
    m.joints = {{0, 1, 0, 0}, {1, 2, 0, 0}, {2, 0, 0, 0}};
    m.weights = {{0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    const std::vector<uint32_t> tris = {0, 0};
    const std::vector<glm::vec3> bary = {{1, 0, 0}, {0.5f, 0.25f, 0.25f}};
    TfxBoneFromScalp in;
    in.scalp = &m;
    in.joint_names = {"root", "neck", "head"};
    in.root_triangles = tris;
    in.root_barycentrics = bary;
    Diagnostics diag;
    auto d = tfxbone_from_scalp(in, diag);
    ASSERT_TRUE(d.ok()) << d.error().describe();
    ASSERT_EQ(d->bone_names, (std::vector<std::string>{"root", "neck", "head"}));
    // Root 0 on corner 0: joints 0 and 1 at 0.5 each (ties: lower index first).
    EXPECT_EQ(d->strands[0].bones[0], 0);
    EXPECT_FLOAT_EQ(d->strands[0].weights[0], 0.5f);
    EXPECT_EQ(d->strands[0].bones[1], 1);
    EXPECT_FLOAT_EQ(d->strands[0].weights[1], 0.5f);
    // Root 1: joint 0 = 0.25, joint 1 = 0.25 + 0.25, joint 2 = 0.25 -> 1 first.
    EXPECT_EQ(d->strands[1].bones[0], 1);
    EXPECT_FLOAT_EQ(d->strands[1].weights[0], 0.5f);
    EXPECT_FLOAT_EQ(d->strands[1].weights[1] + d->strands[1].weights[2], 0.5f);
    EXPECT_FLOAT_EQ(d->strands[1].weights[3], 0.0f);

    Mesh unskinned = m;
    unskinned.joints.clear();
    unskinned.weights.clear();
    in.scalp = &unskinned;
    auto one = tfxbone_from_scalp(in, diag);
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one->bone_names, std::vector<std::string>{"root"});
    EXPECT_EQ(one->strands[1].weights[0], 1.0f);
    EXPECT_TRUE(encode_tfxbone(*one).ok());
}

// One bone-name mapping for .tfxbone and .tfxmesh: a space, a '#', a 200-character name, an empty one and
// two names that the mapping makes equal. The .tfxbone's names are the .tfxmesh's, written and read back
// by both formats, '#' kept, and a warning lists what changed.
TEST(TfxBone, BoneNamesAreMappedOnceForBothFiles) {
    const std::string long_name(200, 'x');
    const std::vector<std::string> joints = {"left arm", "hand#2", long_name, "", "left_arm"};
    Mesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    m.indices = {0, 1, 2};
    m.joints = {{0, 1, 2, 3}, {4, 0, 0, 0}, {2, 0, 0, 0}};
    m.weights = {{0.25f, 0.25f, 0.25f, 0.25f}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    const std::vector<uint32_t> tris = {0};
    const std::vector<glm::vec3> bary = {{0.4f, 0.3f, 0.3f}};
    TfxBoneFromScalp in;
    in.scalp = &m;
    in.joint_names = joints;
    in.root_triangles = tris;
    in.root_barycentrics = bary;
    Diagnostics diag;
    auto bones = tfxbone_from_scalp(in, diag);
    ASSERT_TRUE(bones.ok()) << bones.error().describe();
    ASSERT_EQ(bones->bone_names.size(), 5u);
    EXPECT_EQ(bones->bone_names[0], "left_arm");
    EXPECT_EQ(bones->bone_names[1], "hand#2");
    EXPECT_EQ(bones->bone_names[2], long_name.substr(0, 127));
    EXPECT_EQ(bones->bone_names[3], "joint_3");
    EXPECT_EQ(bones->bone_names[4], "left_arm_4") << "made unique";
    bool warned = false;
    for (const auto& d : diag.items) warned |= d.severity == Severity::Warning && d.message.find("'left arm' -> 'left_arm'") != std::string::npos;
    EXPECT_TRUE(warned);
    Diagnostics again;
    EXPECT_EQ(tressfx_bone_names(joints, 5, again), bones->bone_names) << "the .tfxmesh writer's names";

    const std::filesystem::path dir = test::scratch_dir("tfx_bone_names");
    ASSERT_TRUE(write_tfxbone_file(dir / "hair.tfxbone", *bones).ok());
    ASSERT_TRUE(write_tfxmesh(m, bones->bone_names, dir / "body.tfxmesh").ok()) << "'#' inside a name is not a comment";
    auto bone_back = read_tfxbone_file(dir / "hair.tfxbone");
    auto mesh_back = read_tfxmesh(dir / "body.tfxmesh");
    ASSERT_TRUE(bone_back.ok() && mesh_back.ok());
    EXPECT_EQ(bone_back->bone_names, mesh_back->bone_names);
    EXPECT_EQ(mesh_back->bone_names, bones->bone_names);
}

UsdStage small_stage() {
    UsdStage st;
    st.root_attributes.push_back({"groom_version_major", "int", "constant", {1}});
    UsdCurves c;
    c.path = "guides";
    c.vertex_counts = {3, 2};
    c.points = {{0, 0, 0}, {0.1f, 0.2f, 0.3f}, {1e-7f, -2.5f, 3.25f}, {7, 8, 9}, {-1, -2, -3.0000002f}};
    c.widths = {0.004f, 0.003f, 0.001f, 0.004f, 0.002f};
    c.display_color = {{0.2f, 0.1f, 0.05f}, {0.3f, 0.2f, 0.1f}, {0.5f, 0.35f, 0.2f}, {1, 1, 1}, {0, 0, 0}};
    c.primvars.push_back({"groom_guide", "int[]", "uniform", {1, 1}});
    c.primvars.push_back({"groom_root_uv", "float2[]", "uniform", {0.25, 0.5, 0.75, 0.125}});
    st.groups.push_back({"main", {c}});
    return st;
}

TEST(Usda, WrittenLayerParsesBackExactly) {
    const UsdStage st = small_stage();
    auto text = write_usda_text(st);
    ASSERT_TRUE(text.ok()) << text.error().describe();
    EXPECT_EQ(text->rfind("#usda 1.0\n", 0), 0u);
    auto back = parse_usda(*text, "mem.usda");
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back->up_axis, "Y");
    EXPECT_EQ(back->meters_per_unit, 1.0);
    EXPECT_EQ(back->default_prim, "Groom");
    ASSERT_EQ(back->root_attributes.size(), 1u);
    EXPECT_EQ(back->root_attributes[0].name, "groom_version_major");
    ASSERT_EQ(back->curves.size(), 1u);
    const UsdCurves& c = back->curves[0];
    const UsdCurves& w = st.groups[0].curves[0];
    EXPECT_EQ(c.path, "/Groom/main/guides");
    EXPECT_EQ(c.type, "linear");
    EXPECT_EQ(c.wrap, "nonperiodic");
    EXPECT_EQ(c.vertex_counts, w.vertex_counts);
    EXPECT_EQ(c.points, w.points) << "shortest float text reads back to the same floats";
    EXPECT_EQ(c.widths, w.widths);
    EXPECT_EQ(c.display_color, w.display_color);
    ASSERT_NE(c.find("groom_root_uv"), nullptr);
    EXPECT_EQ(c.find("groom_root_uv")->interpolation, "uniform");
    EXPECT_EQ(c.find("groom_root_uv")->values, (std::vector<double>{0.25, 0.5, 0.75, 0.125}));
    EXPECT_EQ(c.find("groom_guide")->type, "int[]");
}

// A groom cache: points.timeSamples and the stage's time codes read back exactly; a sample of the wrong
// size or times that do not increase are refused by the writer and the reader.
TEST(Usda, TimeSampledPointsReadBackExactly) {
    UsdStage st = small_stage();
    st.time_codes_per_second = 60.0;
    st.start_time_code = 1.0;
    st.end_time_code = 3.0;
    UsdCurves& w = st.groups[0].curves[0];
    for (int f = 1; f <= 3; ++f) {
        w.sample_times.push_back(double(f));
        std::vector<glm::vec3> pts = w.points;
        for (glm::vec3& p : pts) p += glm::vec3(0.001f * float(f), -0.0003f * float(f * f), 1.0f / 3.0f);
        w.point_samples.push_back(pts);
    }
    auto text = write_usda_text(st);
    ASSERT_TRUE(text.ok()) << text.error().describe();
    EXPECT_NE(text->find("point3f[] points.timeSamples = {"), std::string::npos);
    EXPECT_NE(text->find("timeCodesPerSecond = 60"), std::string::npos);
    auto back = parse_usda(*text, "cache.usda");
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back->time_codes_per_second, 60.0);
    EXPECT_EQ(back->start_time_code, 1.0);
    EXPECT_EQ(back->end_time_code, 3.0);
    ASSERT_EQ(back->curves.size(), 1u);
    EXPECT_EQ(back->curves[0].sample_times, w.sample_times);
    EXPECT_EQ(back->curves[0].point_samples, w.point_samples);
    EXPECT_EQ(back->curves[0].points, w.points) << "the default value stays";

    UsdStage bad = st;
    bad.groups[0].curves[0].point_samples[1].pop_back();
    EXPECT_FALSE(write_usda_text(bad).ok()) << "a sample of the wrong size";
    bad = st;
    bad.groups[0].curves[0].sample_times[2] = 1.5;
    EXPECT_FALSE(write_usda_text(bad).ok()) << "times not increasing";
    std::string shuffled = *text;
    const size_t at = shuffled.find("        2: [");
    ASSERT_NE(at, std::string::npos);
    shuffled.replace(at, 12, "        0: [");
    EXPECT_FALSE(parse_usda(shuffled, "cache.usda").ok()) << "the reader checks the order too";
}

// An accessory's point cache: a Mesh prim beside the curves, its faces and time-sampled points read back
// exactly; faces the points do not have are refused by the writer and the reader.
TEST(Usda, MeshWithTimeSampledPointsReadsBackExactly) {
    UsdStage st = small_stage();
    UsdCurvesGroup acc;
    acc.name = "accessories";
    UsdMesh m;
    m.path = "scarf";
    m.points = {{0, 0, 0}, {0.1f, 0, 0}, {0.1f, 0, 0.1f}, {0, 0, 0.1f}};
    m.face_vertex_counts = {3, 3};
    m.face_vertex_indices = {0, 1, 2, 0, 2, 3};
    m.display_color = glm::vec3(0.45f, 0.08f, 0.08f);
    for (int f = 1; f <= 3; ++f) {
        m.sample_times.push_back(double(f));
        std::vector<glm::vec3> pts = m.points;
        for (glm::vec3& p : pts) p.y -= 0.01f * float(f * f) + 1.0f / 3.0f;
        m.point_samples.push_back(pts);
    }
    acc.meshes.push_back(m);
    st.groups.push_back(acc);
    auto text = write_usda_text(st);
    ASSERT_TRUE(text.ok()) << text.error().describe();
    EXPECT_NE(text->find("def Mesh \"scarf\""), std::string::npos);
    auto back = parse_usda(*text, "cache.usda");
    ASSERT_TRUE(back.ok()) << back.error().describe();
    ASSERT_EQ(back->meshes.size(), 1u);
    const UsdMesh& r = back->meshes[0];
    EXPECT_EQ(r.path, "/" + st.default_prim + "/accessories/scarf");
    EXPECT_EQ(r.face_vertex_counts, m.face_vertex_counts);
    EXPECT_EQ(r.face_vertex_indices, m.face_vertex_indices);
    EXPECT_EQ(r.points, m.points);
    EXPECT_EQ(r.sample_times, m.sample_times);
    EXPECT_EQ(r.point_samples, m.point_samples);
    ASSERT_TRUE(r.display_color.has_value());
    EXPECT_EQ(*r.display_color, *m.display_color);
    EXPECT_EQ(back->curves.size(), 1u) << "the curves are still read";

    UsdStage bad = st;
    bad.groups[1].meshes[0].face_vertex_indices[4] = 9;
    EXPECT_FALSE(write_usda_text(bad).ok()) << "an index past the points";
    bad = st;
    bad.groups[1].meshes[0].face_vertex_counts = {2, 4};
    EXPECT_FALSE(write_usda_text(bad).ok()) << "a face of 2 vertices";
    std::string broken = *text;
    const size_t at = broken.find("int[] faceVertexIndices = [0, 1, 2, 0, 2, 3]");
    ASSERT_NE(at, std::string::npos);
    broken.replace(at, 44, "int[] faceVertexIndices = [0, 1, 2, 0, 2, 7]");
    EXPECT_FALSE(parse_usda(broken, "cache.usda").ok()) << "the reader checks the indices too";
}

TEST(Usda, WriterRejectsInconsistentCurves) {
    UsdStage st = small_stage();
    st.groups[0].curves[0].vertex_counts = {3, 3};
    EXPECT_FALSE(write_usda_text(st).ok());
    st = small_stage();
    st.groups[0].curves[0].primvars[0].values = {1};  // uniform needs one per curve
    auto r = write_usda_text(st);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("groom_guide"), std::string::npos) << r.error().message;
    st = small_stage();
    st.groups[0].name = "has space";
    EXPECT_FALSE(write_usda_text(st).ok());
}

TEST(Usda, ReaderReportsLineOfBrokenText) {
    EXPECT_FALSE(parse_usda("not usd", "a.usda").ok());
    auto r = parse_usda("#usda 1.0\n(\n upAxis = \"Y\"\n)\ndef BasisCurves \"c\"\n{\n int[] curveVertexCounts = [2\n}\n", "b.usda");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.rfind("b.usda:", 0), 0u) << r.error().message;
    auto mismatch = parse_usda("#usda 1.0\ndef BasisCurves \"c\"\n{\n int[] curveVertexCounts = [3]\n point3f[] points = [(0,0,0)]\n}\n", "c.usda");
    ASSERT_FALSE(mismatch.ok());
    EXPECT_NE(mismatch.error().message.find("curveVertexCounts"), std::string::npos);
}

TEST(Gltf, LinesRoundTripAndErrors) {
    GltfStrandSet s;
    s.name = "main_guides";
    s.points_m = {{0, 0, 0}, {0, 0.1f, 0}, {0, 0.2f, 0.01f}, {1, 0, 0}, {1, -0.1f, 0}};
    s.strand_offsets = {0, 3, 5};
    s.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}, {0.5f, 0.5f, 0.5f, 1}};
    Mesh tri;
    tri.name = "tri";
    tri.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    tri.normals = {{0, 1, 0}, {0, 2, 0}, {0, 1, 0}};
    tri.uvs = {{0, 0}, {1, 0}, {0, 1}};
    tri.indices = {0, 2, 1};
    const auto dir = test::scratch_dir("export_gltf_formats");
    for (bool binary : {false, true}) {
        GltfExportDesc desc;
        desc.binary = binary;
        desc.meshes = {&tri};
        desc.strands = {s};
        const auto path = dir / (binary ? "s.glb" : "s.gltf");
        ASSERT_TRUE(write_gltf_file(path, desc).ok());
        auto back = read_gltf_strands(path);
        ASSERT_TRUE(back.ok()) << back.error().describe();
        ASSERT_EQ(back->size(), 1u) << "the triangle mesh is not a strand set";
        EXPECT_EQ((*back)[0].name, "main_guides");
        EXPECT_EQ((*back)[0].strand_offsets, s.strand_offsets);
        EXPECT_EQ((*back)[0].points_m, s.points_m);
        EXPECT_EQ((*back)[0].colors, s.colors);
    }
    GltfExportDesc bad;
    bad.strands = {s};
    bad.strands[0].strand_offsets = {0, 1, 5};
    EXPECT_FALSE(encode_gltf(bad).ok()) << "a one-point strand";
    EXPECT_FALSE(encode_gltf(GltfExportDesc{}).ok()) << "nothing to export";
}

}  // namespace
}  // namespace tressel
