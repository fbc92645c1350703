// Roots spread over a whole mesh for tests of skinned scalps: `count` attachments on triangles picked by a
// fixed stride through the mesh, at barycentric points that differ from root to root. The same roots on
// every run and machine.
#pragma once

#include <vector>

#include "groom/groom.h"
#include "io/mesh.h"

namespace tressel::test {

inline std::vector<ScalpAttachment> spread_roots(const Mesh& mesh, size_t count) {
    const size_t triangles = mesh.indices.size() / 3;
    std::vector<ScalpAttachment> roots;
    for (size_t r = 0; r < count && triangles > 0; ++r) {
        ScalpAttachment a;
        a.triangle = uint32_t((r * 7919u) % triangles);
        const float u = float((r * 37u) % 100u) / 100.0f, v = float((r * 61u) % 100u) / 100.0f * (1.0f - u);
        a.barycentric = glm::vec3(1.0f - u - v, u, v);
        roots.push_back(a);
    }
    return roots;
}

}  // namespace tressel::test
