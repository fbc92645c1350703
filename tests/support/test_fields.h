// A signed distance field of a test mesh built by the CPU reference (engine/sdf), for tests that need a
// collision field without the GPU. Header-only: the including test links tressel_sdf.
#pragma once

#include <utility>

#include <gtest/gtest.h>

#include "sdf/sdf.h"

namespace tressel::test {

// `cells_x` cells across the mesh's x extent with `padding` (a fraction of cells_x) on every side; an empty
// grid, and a test failure naming the error, when the build fails.
inline SdfGrid build_test_field(const Mesh& mesh, int cells_x, double padding) {
    SdfBuildDesc d;
    d.mesh = &mesh;
    d.cells_x = cells_x;
    d.padding = padding;
    Diagnostics diag;
    auto r = build_sdf_cpu(d, diag);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
    return r.ok() ? std::move(*r) : SdfGrid{};
}

}  // namespace tressel::test
