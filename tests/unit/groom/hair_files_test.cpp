#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/file_io.h"
#include "groom/grow.h"
#include "groom/groom_bench.h"
#include "groom/spatial.h"
#include "io/hair_files.h"
#include "test_paths.h"

namespace tressel {
namespace {

const auto kRatboy = test::testdata("tressfx/Ratboy_mohawk.tfx");

void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

TEST(TfxFile, RatboyMohawkHeaderAndContents) {
    auto r = read_tfx_file(kRatboy);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->tfx_version, 4.0f);
    EXPECT_EQ(r->strand_count(), 2228u);
    EXPECT_EQ(r->points.size(), 2228u * 32u);
    EXPECT_EQ(r->strand_uvs.size(), 2228u);
    for (const auto& p : r->points) ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
    // TressFX pins the first two vertices of each strand (inverse mass 0), the rest move.
    EXPECT_EQ(r->inverse_mass[0], 0.0f);
    EXPECT_EQ(r->inverse_mass[1], 0.0f);
    EXPECT_EQ(r->inverse_mass[2], 1.0f);
    ASSERT_EQ(r->degenerate_strands.size(), 2u);
    for (uint32_t s : r->degenerate_strands) {
        double len = 0;
        for (uint32_t k = r->strand_offsets[s] + 1; k < r->strand_offsets[s + 1]; ++k)
            len += glm::length(glm::dvec3(r->points[k]) - glm::dvec3(r->points[k - 1]));
        EXPECT_GT(len, 1e-7);
        EXPECT_LT(len, 1e-4);
    }
    // Every other strand is clearly longer than the degenerate limit.
    double shortest = 1e9;
    for (size_t s = 0; s < r->strand_count(); ++s) {
        if (s == r->degenerate_strands[0] || s == r->degenerate_strands[1]) continue;
        double len = 0;
        for (uint32_t k = r->strand_offsets[s] + 1; k < r->strand_offsets[s + 1]; ++k)
            len += glm::length(glm::dvec3(r->points[k]) - glm::dvec3(r->points[k - 1]));
        shortest = std::min(shortest, len);
    }
    EXPECT_GE(shortest, 1e-4);
    EXPECT_EQ(r->diagnostics.count(Severity::Warning), 1u);
}

std::vector<uint8_t> ratboy_bytes() {
    auto b = read_file_bytes(kRatboy);
    EXPECT_TRUE(b.ok());
    EXPECT_EQ(b->size(), 1158720u);
    return *b;
}

void expect_parse_error(const std::vector<uint8_t>& bytes, const std::string& needle, bool tfx = true) {
    auto r = tfx ? parse_tfx(bytes, "hostile", {}) : parse_hair(bytes, "hostile", {});
    ASSERT_FALSE(r.ok()) << "expected rejection mentioning " << needle;
    EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().describe();
    EXPECT_NE(r.error().message.find("hostile"), std::string::npos) << "message names the file";
}

TEST(TfxFile, HostileHeadersAreRejectedWithoutAllocating) {
    const auto good = ratboy_bytes();
    {
        auto b = good;
        put_u32(b, 4, 0xFFFFFFFFu);  // 4 billion strands
        expect_parse_error(b, "strands");
    }
    {
        auto b = good;
        put_u32(b, 8, 0xFFFFFFFFu);
        expect_parse_error(b, "numVerticesPerStrand");
    }
    {
        auto b = good;
        put_u32(b, 12, 0x7FFFFFF0u);  // positions past the end
        expect_parse_error(b, "offsetVertexPosition");
    }
    {
        auto b = good;
        put_u32(b, 16, uint32_t(good.size() - 8));  // UVs run past the end
        expect_parse_error(b, "offsetStrandUV");
    }
    {
        auto b = good;
        const float v = 3.0f;
        std::memcpy(b.data(), &v, 4);
        auto r = parse_tfx(b, "old", {});
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::Unsupported);
    }
    {
        std::vector<uint8_t> b(good.begin(), good.begin() + 100000);  // truncated
        expect_parse_error(b, "bytes");
    }
    {
        std::vector<uint8_t> b(good.begin(), good.begin() + 100);  // shorter than the header
        expect_parse_error(b, "header");
    }
    {
        auto b = good;
        const float nan = std::nanf("");
        std::memcpy(b.data() + 160 + 16 * 5, &nan, 4);
        expect_parse_error(b, "finite");
    }
}

TEST(TfxFile, StrandUvOffsetZeroMeansAbsent) {
    auto b = ratboy_bytes();
    put_u32(b, 16, 0u);
    auto r = parse_tfx(b, "no_uv", {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_TRUE(r->strand_uvs.empty());
    EXPECT_EQ(r->strand_count(), 2228u);
}

HairFileData small_hair() {
    HairFileData d;
    d.format = "hair";
    d.points = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 0.5f, 0}, {2, 1, 0}, {2, 1.5f, 0}};
    d.strand_offsets = {0, 2, 5, 9};
    d.thickness = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    d.colors.assign(9, glm::vec3(0.25f, 0.5f, 0.75f));
    d.info = "written by the groom tests";
    return d;
}

TEST(HairFile, WriteThenReadBack) {
    const auto path = test::scratch_dir("hair_file") / "small.hair";
    const HairFileData d = small_hair();
    ASSERT_TRUE(write_hair_file(path, d).ok());
    auto r = read_strand_file(path);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->format, "hair");
    EXPECT_EQ(r->strand_offsets, d.strand_offsets);
    EXPECT_EQ(r->points, d.points);
    EXPECT_EQ(r->thickness, d.thickness);
    EXPECT_EQ(r->colors, d.colors);
    EXPECT_TRUE(r->transparency.empty());
    EXPECT_EQ(r->info, d.info);
    EXPECT_TRUE(r->degenerate_strands.empty());
}

TEST(HairFile, HostileHeadersAreRejected) {
    auto enc = encode_hair(small_hair());
    ASSERT_TRUE(enc.ok());
    const std::vector<uint8_t> good = *enc;
    ASSERT_TRUE(parse_hair(good, "good", {}).ok());
    {
        auto b = good;
        put_u32(b, 4, 0xFFFFFFFFu);  // hair_count
        expect_parse_error(b, "bytes", false);
    }
    {
        auto b = good;
        put_u32(b, 8, 0x40000000u);  // point_count
        expect_parse_error(b, "bytes", false);
    }
    {
        auto b = good;
        put_u32(b, 12, 2u);  // no segments array: default segments (1) x 3 strands != 9 points
        put_u32(b, 16, 1u);
        expect_parse_error(b, "point", false);
    }
    {
        auto b = good;
        b[128] = 0xFF;  // first strand claims 255+ segments: more than point_count
        expect_parse_error(b, "point_count", false);
    }
    {
        std::vector<uint8_t> b(good.begin(), good.end() - 10);
        expect_parse_error(b, "truncated", false);
    }
    {
        auto b = good;
        b[0] = 'X';
        expect_parse_error(b, "HAIR", false);
    }
}

TEST(FileGuides, RatboyStrandsAttachToTheNearestTriangleAndKeepDegenerates) {
    // The mohawk sits on Rat Boy's head: a sphere around its roots stands in for the scalp here.
    auto file = read_tfx_file(kRatboy);
    ASSERT_TRUE(file.ok());
    glm::vec3 c(0.0f);
    for (size_t s = 0; s < file->strand_count(); ++s) c += file->points[file->strand_offsets[s]] / float(file->strand_count());
    Mesh sphere = make_sphere_mesh(0.05f, 120, 150);  // 35,700 triangles
    for (auto& p : sphere.positions) p += c;
    GroomInputs in;
    in.scalp = &sphere;
    in.group.growth.placement = Placement::File;
    in.group.growth.guide_file = "Ratboy_mohawk.tfx";
    in.base_dir = test::testdata("tressfx");
    in.group.follow.mode = FollowMode::None;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->guides.strand_count(), 2228u);
    EXPECT_EQ(r->stats.degenerate_guides, 2u);
    EXPECT_LT(r->timings.total_ms, 2000.0) << "attachment must use an acceleration structure";
    // Attachment agrees with brute force on a sample of strands.
    double max_d = 0.0;
    for (size_t s = 0; s < 2228; s += 97) {
        const glm::vec3 p = r->guides.strand(s)[0];
        float best = 1e9f;
        for (size_t t = 0; t < sphere.triangle_count(); ++t) {
            glm::vec3 b;
            const glm::vec3 q = closest_point_on_triangle(p, sphere.positions[sphere.indices[3 * t]], sphere.positions[sphere.indices[3 * t + 1]],
                                                          sphere.positions[sphere.indices[3 * t + 2]], &b);
            best = std::min(best, glm::length(q - p));
        }
        const ScalpAttachment& a = r->guides.roots[s];
        const glm::vec3 q = sphere.positions[sphere.indices[3 * a.triangle]] * a.barycentric.x +
                            sphere.positions[sphere.indices[3 * a.triangle + 1]] * a.barycentric.y +
                            sphere.positions[sphere.indices[3 * a.triangle + 2]] * a.barycentric.z;
        EXPECT_NEAR(glm::length(q - p), best, 1e-6f);
        max_d = std::max(max_d, double(best));
    }
    EXPECT_GT(r->stats.root_distance_max_m, 0.0);
    EXPECT_GE(r->stats.root_distance_max_m, max_d - 1e-6);
}

}  // namespace
}  // namespace tressel
