// The real head scan the groom and simulation tests grow hair on (testdata heads/infinite_head.fbx).
#pragma once

#include "io/mesh.h"

namespace tressel::test {

// Its meshes merged into one named "head"; an empty mesh, with the import error reported as a test
// failure, when the file cannot be read.
Mesh load_real_head();

}  // namespace tressel::test
