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

}  // namespace tressel::test
