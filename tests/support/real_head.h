// The real head scan the groom and simulation tests grow hair on (testdata heads/infinite_head.fbx).
#pragma once

#include "groom/grow.h"
#include "io/mesh.h"

namespace tressel::test {

// Its meshes merged into one named "head"; an empty mesh, with the import error reported as a test
// failure, when the file cannot be read.
Mesh load_real_head();

// A groom of the default scene's kind on `head`: a 45 degree cap leaning back, 0.35 m strands of 16
// points combed back and drooped, kept 5 mm out of the scalp, `follows` barycentric follow hairs
// (clump 0.3). Where its guides pass on both sides of an ear, some follows blend through the head.
GroomInputs combed_head_groom(const Mesh& head, int guides, int follows);

}  // namespace tressel::test
