#include "real_head.h"

#include <gtest/gtest.h>

#include "io/mesh_import.h"
#include "test_paths.h"

namespace tressel::test {

Mesh load_real_head() {
    auto scene = import_mesh_file(testdata("heads/infinite_head.fbx"));
    if (!scene) {
        ADD_FAILURE() << "heads/infinite_head.fbx: " << scene.error().describe();
        return {};
    }
    return merge_meshes(*scene, "head");
}

GroomInputs combed_head_groom(const Mesh& head, int guides, int follows) {
    GroomInputs in;
    in.scalp = &head;
    in.scalp_clearance_m = 0.005;
    in.group.scalp.region = {RegionType::Cap, {0.0, 1.0, -0.35}, 45.0};
    in.group.growth.guides = guides;
    in.group.growth.length_m = 0.35;
    in.group.growth.vertices_per_strand = 16;
    in.group.growth.comb = 0.3;
    in.group.growth.comb_direction = {0.0, -1.0, -0.4};
    in.group.growth.droop = 1.0;
    in.group.follow.count = follows;
    in.group.follow.clump = 0.3;
    return in;
}

}  // namespace tressel::test
