#include "test_meshes.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "io/mesh_import.h"

namespace tressel::test {

Mesh make_icosphere(float radius_m, int subdivisions) {
    const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
    std::vector<glm::vec3> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                                {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    std::vector<uint32_t> f = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
                               3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
    for (auto& p : v) p = glm::normalize(p);
    for (int s = 0; s < subdivisions; ++s) {
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> mid;
        auto midpoint = [&](uint32_t a, uint32_t b) {
            auto key = std::minmax(a, b);
            auto it = mid.find(key);
            if (it != mid.end()) return it->second;
            v.push_back(glm::normalize(v[a] + v[b]));
            return mid[key] = uint32_t(v.size() - 1);
        };
        std::vector<uint32_t> g;
        for (size_t i = 0; i < f.size(); i += 3) {
            uint32_t a = f[i], b = f[i + 1], c = f[i + 2];
            uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
            g.insert(g.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        f.swap(g);
    }
    Mesh m;
    m.name = "icosphere";
    for (auto& p : v) m.positions.push_back(p * radius_m);
    m.indices = f;
    return m;
}

Mesh make_box(glm::vec3 h) {
    Mesh m;
    m.name = "box";
    for (int i = 0; i < 8; ++i)
        m.positions.push_back({(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z});
    m.indices = {0, 2, 3, 0, 3, 1,   // -z
                 4, 5, 7, 4, 7, 6,   // +z
                 0, 1, 5, 0, 5, 4,   // -y
                 2, 6, 7, 2, 7, 3,   // +y
                 0, 4, 6, 0, 6, 2,   // -x
                 1, 3, 7, 1, 7, 5};  // +x
    return m;
}

Mesh make_torus(float R, float r, int nu, int nv) {
    Mesh m;
    m.name = "torus";
    const float two_pi = 6.28318530718f;
    for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j) {
            float u = two_pi * float(i) / float(nu), v = two_pi * float(j) / float(nv);
            m.positions.push_back({(R + r * std::cos(v)) * std::cos(u), (R + r * std::cos(v)) * std::sin(u), r * std::sin(v)});
        }
    auto id = [&](int i, int j) { return uint32_t((i % nu) * nv + (j % nv)); };
    for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j) {
            uint32_t a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
            m.indices.insert(m.indices.end(), {a, b, c, a, c, d});
        }
    return m;
}

Result<Mesh> load_mesh(const std::filesystem::path& path) {
    auto scene = import_mesh_file(path);
    if (!scene.ok()) return scene.error();
    return merge_meshes(*scene, path.stem().string());
}

}  // namespace tressel::test
