// Exporting a grown groom: every format read back (counts exact, positions within float precision),
// the glTF validated by the Khronos validator, resampling for TressFX, and failures that leave nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "groom/follow.h"
#include "export/export_gltf.h"
#include "export/export_groom.h"
#include "core/file_io.h"
#include "io/hair_files.h"
#include "io/mesh_import.h"
#include "io/tfxbone.h"
#include "io/tfxmesh.h"
#include "io/usda.h"
#include "test_paths.h"

namespace tressel {
namespace {

// A 0.2 m square in y = 0 facing +Y, 6 x 6 quads, with UVs = (x, z) / 0.2.
Mesh plane_scalp() {
    Mesh m;
    m.name = "scalp";
    const int n = 6;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            m.positions.push_back({0.2f * float(i) / n, 0.0f, 0.2f * float(j) / n});
            m.normals.push_back({0, 1, 0});
            m.uvs.push_back({float(i) / n, float(j) / n});
        }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const uint32_t a = uint32_t(j * (n + 1) + i), b = a + 1, c = a + uint32_t(n + 1), d = c + 1;
            m.indices.insert(m.indices.end(), {a, c, b, b, c, d});
        }
    return m;
}

struct Fixture {
    Mesh scalp = plane_scalp();
    HairGroup group;
    GroomResult groom;

    explicit Fixture(int vertices = 8) {
        group.name = "main";
        group.scalp.mesh = "scalp";
        group.growth.guides = 40;
        group.growth.vertices_per_strand = vertices;
        group.growth.length_m = 0.1;
        group.follow.count = 120;
        group.simulation.gpu_vertices_per_strand = 8;
        GroomInputs in;
        in.scalp = &scalp;
        in.group = group;
        auto r = grow_group(in);
        TRESSEL_ASSERT(r.ok(), "the fixture groom grows");
        groom = std::move(*r);
    }
    ExportDesc desc(ExportFormat f, const std::filesystem::path& out, bool follows) const {
        ExportDesc d;
        d.format = f;
        d.out = out;
        d.include_follows = follows;
        d.groups.push_back({&group, &groom, &scalp, {}, nullptr});
        d.meshes = {&scalp};
        return d;
    }
    Strands follows() const { return evaluate_follows(groom.follows, groom.guides, groom.guide_frames); }
};

size_t files_in(const std::filesystem::path& dir) {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
    return n;
}

void expect_same_points(const std::vector<glm::vec3>& a, std::span<const glm::vec3> b, const char* what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i], b[i]) << what << " point " << i;  // every format stores the floats exactly
    }
}

TEST(GroomExport, TfxRoundTripWithBonesAndUvs) {
    Fixture fx;
    ASSERT_EQ(fx.groom.guides.strand_count(), 40u);
    const auto dir = test::scratch_dir("export_tfx");
    auto r = export_groom(fx.desc(ExportFormat::Tfx, dir / "hair.tfx", false));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->files.size(), 2u);
    auto back = read_tfx_file(dir / "hair.tfx");
    ASSERT_TRUE(back.ok()) << back.error().describe();
    ASSERT_EQ(back->strand_count(), 40u);
    expect_same_points(back->points, fx.groom.guides.points_os_m, "tfx guides");
    ASSERT_EQ(back->strand_uvs.size(), 40u);
    for (size_t s = 0; s < 40; ++s) {
        // The plane's UV is (x, z) / 0.2: the root's UV must match its position.
        const glm::vec3 root = fx.groom.guides.points_os_m[fx.groom.guides.strand_offsets[s]];
        EXPECT_NEAR(back->strand_uvs[s].x, root.x / 0.2f, 1e-5f);
        EXPECT_NEAR(back->strand_uvs[s].y, root.z / 0.2f, 1e-5f);
    }
    for (size_t i = 0; i < back->inverse_mass.size(); ++i) EXPECT_EQ(back->inverse_mass[i], i % 8 < 2 ? 0.0f : 1.0f);
    auto bones = read_tfxbone_file(dir / "hair.tfxbone");
    ASSERT_TRUE(bones.ok()) << bones.error().describe();
    EXPECT_EQ(bones->bone_names, std::vector<std::string>{"root"}) << "an unskinned scalp gives one root bone";
    EXPECT_EQ(bones->strands.size(), 40u);
}

// Rat Boy's mohawk read from its .tfx on his skinned body: the export writes the .tfxbone that came with
// the guides (the same bytes when only guides are written; each follow hair with its guide's skin) and the
// .tfx's own root UVs, not a skin and UVs taken again from the body (which moved the minor bones of 530 of
// the 2,228 strands). Without a .tfxbone beside the .tfx the body's skin is used.
TEST(GroomExport, GuidesFromATfxKeepTheirOwnSkinAndUvs) {
    auto body_file = import_mesh_file(test::testdata("tressfx/Ratboy_body.tfxmesh"));
    ASSERT_TRUE(body_file.ok()) << body_file.error().describe();
    const Mesh body = merge_meshes(*body_file, "body");
    ASSERT_GE(body.skin, 0);
    std::vector<std::string> joints;
    for (int n : body_file->skins[size_t(body.skin)].joints) joints.push_back(body_file->nodes[size_t(n)].name);
    const auto source = read_file_bytes(test::testdata("tressfx/Ratboy_mohawk.tfxbone"));
    ASSERT_TRUE(source.ok());
    auto source_tfx = read_tfx_file(test::testdata("tressfx/Ratboy_mohawk.tfx"));
    ASSERT_TRUE(source_tfx.ok());
    ASSERT_EQ(source_tfx->strand_uvs.size(), 2228u);
    const auto alone = test::scratch_dir("export_tfx_own_skin_alone");
    std::filesystem::copy_file(test::testdata("tressfx/Ratboy_mohawk.tfx"), alone / "Ratboy_mohawk.tfx");
    for (const auto& base : {test::testdata("tressfx"), alone}) {
        const bool has_skin = base != alone;
        HairGroup group;
        group.name = "mohawk";
        group.growth.placement = Placement::File;
        group.growth.guide_file = "Ratboy_mohawk.tfx";
        group.follow.mode = FollowMode::TressFX;
        group.follow.count = 2;
        group.simulation.gpu_vertices_per_strand = 32;
        GroomInputs in;
        in.scalp = &body;
        in.group = group;
        in.base_dir = base;
        auto groom = grow_group(in);
        ASSERT_TRUE(groom.ok()) << groom.error().describe();
        ASSERT_EQ(groom->guides.strand_count(), 2228u);
        EXPECT_EQ(groom->file_skin.has_value(), has_skin);
        const auto dir = test::scratch_dir(has_skin ? "export_tfx_own_skin" : "export_tfx_body_skin");
        for (bool follows : {false, true}) {
            ExportDesc d;
            d.format = ExportFormat::Tfx;
            d.out = dir / (follows ? "all.tfx" : "guides.tfx");
            d.include_follows = follows;
            d.groups.push_back({&group, &*groom, &body, joints, nullptr});
            auto r = export_groom(d);
            ASSERT_TRUE(r.ok()) << r.error().describe();
            auto tfx = read_tfx_file(d.out);
            ASSERT_TRUE(tfx.ok());
            const size_t nf = groom->follows.size();
            ASSERT_GT(nf, 0u);
            ASSERT_EQ(tfx->strand_uvs.size(), follows ? 2228u + nf : 2228u);
            for (size_t s = 0; s < 2228; ++s) ASSERT_EQ(tfx->strand_uvs[s], source_tfx->strand_uvs[s]) << s;
            auto bones = read_tfxbone_file(std::filesystem::path(d.out).replace_extension(".tfxbone"));
            ASSERT_TRUE(bones.ok()) << bones.error().describe();
            auto want = parse_tfxbone(*source, "source");
            ASSERT_TRUE(want.ok());
            if (!has_skin) {
                // Skinned from the body: the same bone names (the body's), but not the file's minor bones.
                size_t differ = 0;
                for (size_t s = 0; s < 2228; ++s) differ += bones->strands[s].bones != want->strands[s].bones;
                EXPECT_GT(differ, 100u);
                continue;
            }
            if (!follows) {
                auto written = read_file_bytes(std::filesystem::path(d.out).replace_extension(".tfxbone"));
                ASSERT_TRUE(written.ok());
                EXPECT_EQ(*written, *source) << "the guides' .tfxbone, byte for byte";
                continue;
            }
            ASSERT_EQ(bones->strands.size(), 2228u + nf);
            EXPECT_EQ(bones->bone_names, want->bone_names);
            for (size_t f = 0; f < nf; ++f) {
                const auto& skin = bones->strands[2228 + f];
                const auto& guide = want->strands[groom->follows.descriptors[f].guides.x];
                ASSERT_EQ(skin.bones, guide.bones) << f;
                ASSERT_EQ(skin.weights, guide.weights) << f;
                ASSERT_EQ(skin.strand, int32_t(2228 + f));
            }
        }
    }
}

TEST(GroomExport, TfxWithFollowsAndCollisionMesh) {
    Fixture fx;
    const auto dir = test::scratch_dir("export_tfx_all");
    ExportDesc d = fx.desc(ExportFormat::Tfx, dir / "all.tfx", true);
    d.collision.push_back({CollisionMesh{"scalp", 16, 0.8, 0.004, SignMethod::Auto}, &fx.scalp, {}});
    auto r = export_groom(d);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    auto back = read_tfx_file(dir / "all.tfx");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->strand_count(), 40u + fx.groom.follows.size());
    const Strands follows = fx.follows();
    std::vector<glm::vec3> tail(back->points.begin() + std::ptrdiff_t(fx.groom.guides.point_count()), back->points.end());
    expect_same_points(tail, follows.points_os_m, "tfx follows");
    auto mesh = read_tfxmesh(dir / "all_scalp.tfxmesh");
    ASSERT_TRUE(mesh.ok()) << mesh.error().describe();
    EXPECT_EQ(mesh->mesh.positions.size(), fx.scalp.positions.size());
}

TEST(GroomExport, ThreeVertexStrandsAreResampledForTfxAndSaySo) {
    Fixture fx(3);
    ASSERT_EQ(fx.groom.guides.uniform_point_count(), 3u);
    const auto dir = test::scratch_dir("export_tfx_resample");
    auto r = export_groom(fx.desc(ExportFormat::Tfx, dir / "r.tfx", false));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    bool said = false;
    for (const auto& item : r->diagnostics.items) said |= item.message.find("resampled from 3 to 8") != std::string::npos;
    EXPECT_TRUE(said) << "the export reports the resampling";
    auto back = read_tfx_file(dir / "r.tfx");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->strand_offsets[1], 8u);
    // Resampling keeps root and tip and the polyline length.
    for (size_t s = 0; s < back->strand_count(); ++s) {
        const auto g = fx.groom.guides.strand(s);
        EXPECT_EQ(back->points[s * 8], g[0]);
        EXPECT_NEAR(glm::distance(back->points[s * 8 + 7], g[2]), 0.0f, 1e-6f);
        double len = 0.0;
        for (size_t k = 1; k < 8; ++k) len += glm::distance(back->points[s * 8 + k], back->points[s * 8 + k - 1]);
        EXPECT_NEAR(len, strand_length_m(fx.groom.guides, s), 1e-5);
    }
}

TEST(GroomExport, HairRoundTripWithArrays) {
    Fixture fx;
    const auto dir = test::scratch_dir("export_hair");
    auto r = export_groom(fx.desc(ExportFormat::Hair, dir / "g.hair", true));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    auto back = read_hair_file(dir / "g.hair");
    ASSERT_TRUE(back.ok()) << back.error().describe();
    const Strands follows = fx.follows();
    ASSERT_EQ(back->strand_count(), 40u + follows.strand_count());
    std::vector<glm::vec3> head(back->points.begin(), back->points.begin() + std::ptrdiff_t(fx.groom.guides.point_count()));
    expect_same_points(head, fx.groom.guides.points_os_m, "hair guides");
    ASSERT_EQ(back->thickness.size(), back->points.size());
    ASSERT_EQ(back->colors.size(), back->points.size());
    ASSERT_EQ(back->transparency.size(), back->points.size());
    const double root_w = 2.0 * fx.group.shading.fiber_radius_m;
    EXPECT_NEAR(back->thickness[0], root_w, 1e-7);
    EXPECT_NEAR(back->thickness[7], root_w * fx.group.growth.tip_width_scale, 1e-7) << "the groom's tapered widths";
    for (size_t k = 0; k < fx.groom.guides.point_count(); ++k) ASSERT_EQ(back->thickness[k], fx.groom.guides.widths_m[k]);
    EXPECT_NEAR(back->colors[0].r, fx.group.shading.root_color.r, 1e-6);
    EXPECT_NEAR(back->colors[7].g, fx.group.shading.tip_color.g, 1e-6);

    // The raw header (FORMATS.md): "HAIR", counts, every array flag set, info text.
    std::ifstream f(dir / "g.hair", std::ios::binary);
    std::vector<char> b(128);
    f.read(b.data(), 128);
    uint32_t v[4];
    std::memcpy(v, b.data() + 4, 16);
    EXPECT_EQ(std::string(b.data(), 4), "HAIR");
    EXPECT_EQ(v[0], back->strand_count());
    EXPECT_EQ(v[1], back->points.size());
    EXPECT_EQ(v[2], 1u | 2u | 4u | 8u | 16u);
    EXPECT_NE(std::string(b.data() + 40).find("main"), std::string::npos);
}

TEST(GroomExport, UsdaHasMetadataAndUnrealGroomPrimvars) {
    Fixture fx;
    const auto dir = test::scratch_dir("export_usda");
    auto r = export_groom(fx.desc(ExportFormat::Usda, dir / "g.usda", true));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    auto st = read_usda_file(dir / "g.usda");
    ASSERT_TRUE(st.ok()) << st.error().describe();
    EXPECT_EQ(st->up_axis, "Y");
    EXPECT_EQ(st->meters_per_unit, 1.0);
    ASSERT_EQ(st->curves.size(), 2u);
    const UsdCurves& g = st->curves[0];
    const UsdCurves& f = st->curves[1];
    EXPECT_EQ(g.path, "/Groom/main/guides");
    EXPECT_EQ(f.path, "/Groom/main/follows");
    ASSERT_EQ(g.vertex_counts.size(), 40u);
    expect_same_points(g.points, fx.groom.guides.points_os_m, "usda guides");
    const Strands follows = fx.follows();
    expect_same_points(f.points, follows.points_os_m, "usda follows");
    EXPECT_EQ(g.widths.size(), g.points.size());
    EXPECT_EQ(g.display_color.size(), g.points.size());
    for (const UsdCurves* c : {&g, &f}) {
        for (const char* name : {"groom_guide", "groom_group_id", "groom_root_uv", "groom_version_major", "groom_version_minor"})
            EXPECT_NE(c->find(name), nullptr) << c->path << " lacks " << name;
        EXPECT_EQ(c->find("groom_version_major")->values, std::vector<double>{1});
        EXPECT_EQ(c->find("groom_version_minor")->values, std::vector<double>{5});
    }
    EXPECT_EQ(g.find("groom_guide")->values, std::vector<double>(40, 1.0));
    EXPECT_EQ(f.find("groom_guide")->values, std::vector<double>(follows.strand_count(), 0.0));
    const UsdPrimvar* ids = f.find("groom_closest_guides");
    const UsdPrimvar* ws = f.find("groom_guide_weights");
    ASSERT_TRUE(ids && ws);
    ASSERT_EQ(ids->values.size(), 3 * follows.strand_count());
    for (size_t i = 0; i < follows.strand_count(); ++i) {
        EXPECT_EQ(ids->values[3 * i], double(fx.groom.follows.descriptors[i].guides.x));
        EXPECT_NEAR(ws->values[3 * i] + ws->values[3 * i + 1] + ws->values[3 * i + 2], 1.0, 1e-5);
        EXPECT_LT(ids->values[3 * i + 2], 40.0);
    }
    bool root_version = false;
    for (const auto& a : st->root_attributes) root_version |= a.name == "groom_version_major" && a.values == std::vector<double>{1};
    EXPECT_TRUE(root_version) << "the top node carries groom_version_major";
}

// Runs tools/validate_gltf.js; returns the error count, or -1 when node is absent (the test then skips).
int validator_errors(const std::filesystem::path& file, std::string& output) {
    if (std::system("node --version > /dev/null 2>&1") != 0) return -1;
    const auto log = file.string() + ".validator.txt";
    const std::string cmd = "node \"" + test::source("tools/validate_gltf.js").string() + "\" \"" + file.string() + "\" > \"" + log + "\" 2>&1";
    const int rc = std::system(cmd.c_str());
    std::ifstream in(log);
    output.assign(std::istreambuf_iterator<char>(in), {});
    int errors = -2;
    if (std::sscanf(output.c_str(), "errors %d", &errors) != 1) errors = -2;
    if (rc != 0 && errors == 0) errors = -2;
    return errors;
}

TEST(GroomExport, GltfRoundTripAndKhronosValidator) {
    Fixture fx;
    const auto dir = test::scratch_dir("export_gltf");
    for (const char* name : {"g.gltf", "g.glb"}) {
        auto r = export_groom(fx.desc(ExportFormat::Gltf, dir / name, true));
        ASSERT_TRUE(r.ok()) << r.error().describe();
        auto sets = read_gltf_strands(dir / name);
        ASSERT_TRUE(sets.ok()) << sets.error().describe();
        ASSERT_EQ(sets->size(), 2u);
        EXPECT_EQ((*sets)[0].name, "main_guides");
        EXPECT_EQ((*sets)[0].strand_offsets, fx.groom.guides.strand_offsets);
        expect_same_points((*sets)[0].points_m, fx.groom.guides.points_os_m, "gltf guides");
        const Strands follows = fx.follows();
        EXPECT_EQ((*sets)[1].strand_offsets, follows.strand_offsets);
        expect_same_points((*sets)[1].points_m, follows.points_os_m, "gltf follows");

        std::string report;
        const int errors = validator_errors(dir / name, report);
        if (errors == -1) GTEST_SKIP() << "node is not installed: the Khronos validator cannot run (scripts/setup.sh installs it)";
        ASSERT_NE(errors, -2) << "the validator did not run (npm ci --prefix tools?): " << report;
        EXPECT_EQ(errors, 0) << report;
    }
}

TEST(GroomExport, EmptyGroomFailsAndWritesNothing) {
    Fixture fx;
    GroomResult empty;
    const auto dir = test::scratch_dir("export_empty");
    for (ExportFormat f : {ExportFormat::Tfx, ExportFormat::Hair, ExportFormat::Usda, ExportFormat::Gltf}) {
        ExportDesc d = fx.desc(f, dir / (f == ExportFormat::Gltf ? "e.glb" : "e.out"), true);
        d.groups[0].groom = &empty;
        auto r = export_groom(d);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
        EXPECT_NE(r.error().message.find("no guide strands"), std::string::npos) << r.error().message;
    }
    EXPECT_EQ(files_in(dir), 0u);
}

TEST(GroomExport, UnwritablePathsFailAndLeaveNoPartialFile) {
    Fixture fx;
    const auto dir = test::scratch_dir("export_unwritable");
    for (ExportFormat f : {ExportFormat::Tfx, ExportFormat::Hair, ExportFormat::Usda, ExportFormat::Gltf, ExportFormat::Preset}) {
        for (const auto& out : {dir / "missing" / "x.glb", std::filesystem::path("/proc/x/out.glb")}) {
            auto r = export_groom(fx.desc(f, out, true));
            ASSERT_FALSE(r.ok()) << out;
            EXPECT_NE(r.error().message.find(out.string()), std::string::npos) << "names the path: " << r.error().message;
        }
    }
    EXPECT_EQ(files_in(dir), 0u);
    // A later file failing removes the earlier ones: the .tfxmesh goes to a file name that is a directory.
    std::filesystem::create_directory(dir / "t_scalp.tfxmesh");
    ExportDesc d = fx.desc(ExportFormat::Tfx, dir / "t.tfx", false);
    d.collision.push_back({CollisionMesh{"scalp", 16, 0.8, 0.004, SignMethod::Auto}, &fx.scalp, {}});
    EXPECT_FALSE(export_groom(d).ok());
    EXPECT_FALSE(std::filesystem::exists(dir / "t.tfx"));
    EXPECT_FALSE(std::filesystem::exists(dir / "t.tfxbone"));
    EXPECT_EQ(files_in(dir), 1u) << "only the directory that blocked the export";
}

TEST(GroomExport, PosedGuidesHookReplacesTheRestPose) {
    Fixture fx;
    Strands posed = fx.groom.guides;
    for (auto& p : posed.points_os_m) p += glm::vec3(0.0f, 0.0f, 0.5f);
    ExportDesc d = fx.desc(ExportFormat::Hair, test::scratch_dir("export_posed") / "p.hair", false);
    d.groups[0].posed_guides = &posed;
    ASSERT_TRUE(export_groom(d).ok());
    auto back = read_hair_file(d.out);
    ASSERT_TRUE(back.ok());
    expect_same_points(back->points, posed.points_os_m, "posed guides");
}

}  // namespace
}  // namespace tressel
