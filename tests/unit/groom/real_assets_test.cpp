#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "groom/grow.h"
#include "groom/spatial.h"
#include "io/mesh_import.h"
#include "test_meshes.h"
#include "test_paths.h"

namespace tressel {
namespace {

TEST(RealHead, CapGuidesStartOnTheSurfaceAndGrowOutward) {
    auto scene = import_mesh_file(test::testdata("heads/infinite_head.fbx"));
    ASSERT_TRUE(scene.ok()) << scene.error().describe();
    const Mesh head = merge_meshes(*scene, "head");
    ASSERT_GT(head.triangle_count(), 17000u);
    GroomInputs in;
    in.scalp = &head;
    // The bust's bounding-box centre is low in the chest: a narrow cap around +Y picks the crown.
    in.group.scalp.region = {RegionType::Cap, {0.0, 1.0, -0.1}, 25.0};
    in.group.growth.guides = 1500;
    in.group.growth.length_m = 0.1;
    in.group.growth.vertices_per_strand = 16;
    in.group.follow.count = 20000;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->guides.strand_count(), 1500u);
    EXPECT_EQ(r->follows.size(), 20000u);
    EXPECT_GT(r->region.triangles.size(), 200u);
    EXPECT_GT(r->region.area_cm2(), 100.0);   // a 2x life-size crown: hundreds of cm^2
    EXPECT_LT(r->region.area_cm2(), 20000.0);
    const TriangleBvh bvh(head.positions, head.indices);
    size_t inside = 0;
    for (size_t i = 0; i < r->guides.strand_count(); ++i) {
        const auto s = r->guides.strand(i);
        ASSERT_LT(bvh.closest(s[0]).distance_m, 1e-5f);
        inside += test::inside_by_parity(head, s[1]) ? 1 : 0;
    }
    EXPECT_EQ(inside, 0u) << "the first segment of every guide must leave the head";
}

TEST(RealHead, WigScalpPerVertexGuides) {
    auto scene = import_mesh_file(test::testdata("heads/kvant_wig_scalp.obj"));
    ASSERT_TRUE(scene.ok()) << scene.error().describe();
    const Mesh scalp = merge_meshes(*scene, "wig");
    GroomInputs in;
    in.scalp = &scalp;
    in.group.growth.placement = Placement::PerVertex;
    in.group.growth.length_m = 0.05;
    in.group.follow.count = 5000;
    auto r = grow_group(in);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    std::set<std::tuple<float, float, float>> distinct;
    for (uint32_t v : scalp.indices) distinct.insert({scalp.positions[v].x, scalp.positions[v].y, scalp.positions[v].z});
    EXPECT_EQ(r->guides.strand_count(), distinct.size());
    EXPECT_LE(r->guides.strand_count(), 115u);
    for (size_t i = 0; i < r->guides.strand_count(); ++i) {
        const auto s = r->guides.strand(i);
        const uint32_t* t = &scalp.indices[3 * r->guides.roots[i].triangle];
        const glm::vec3 face = glm::cross(scalp.positions[t[1]] - scalp.positions[t[0]], scalp.positions[t[2]] - scalp.positions[t[0]]);
        EXPECT_GT(glm::dot(s[1] - s[0], face), 0.0f) << "guides grow to the front side of the scalp";
    }
}

}  // namespace
}  // namespace tressel
