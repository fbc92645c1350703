#include "io/mesh_ops.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "io/mesh_import.h"

namespace tressel {

namespace {

// Bit pattern of a float with -0 folded onto +0, so equal values compare equal.
uint32_t float_key(float f) {
    if (f == 0.0f) f = 0.0f;
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// Ids of distinct positions: ids[i] is the same for bit-identical positions, numbered 0..count-1.
struct PositionIds {
    std::vector<uint32_t> ids;
    size_t count = 0;
};

PositionIds position_ids(const std::vector<glm::vec3>& p) {
    PositionIds out;
    out.ids.resize(p.size());
    std::vector<uint32_t> order(p.size());
    std::iota(order.begin(), order.end(), 0u);
    auto key = [&](uint32_t i) {
        return std::array<uint32_t, 3>{float_key(p[i].x), float_key(p[i].y), float_key(p[i].z)};
    };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        auto ka = key(a), kb = key(b);
        return ka != kb ? ka < kb : a < b;
    });
    uint32_t next = 0;
    for (size_t k = 0; k < order.size(); ++k) {
        if (k > 0 && key(order[k]) != key(order[k - 1])) ++next;
        out.ids[order[k]] = next;
    }
    out.count = order.empty() ? 0 : next + 1;
    return out;
}

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

void compute_vertex_normals(Mesh& mesh) {
    const auto& p = mesh.positions;
    PositionIds ids = position_ids(p);
    std::vector<glm::dvec3> acc(ids.count, glm::dvec3(0.0));
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        uint32_t v[3] = {mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]};
        glm::dvec3 a(p[v[0]]), b(p[v[1]]), c(p[v[2]]);
        glm::dvec3 n = glm::cross(b - a, c - a);
        double len = glm::length(n);
        if (!(len > 0.0) || !std::isfinite(len)) continue;
        n /= len;
        const glm::dvec3 corner[3] = {a, b, c};
        for (int k = 0; k < 3; ++k) {
            glm::dvec3 e1 = corner[(k + 1) % 3] - corner[k];
            glm::dvec3 e2 = corner[(k + 2) % 3] - corner[k];
            double l1 = glm::length(e1), l2 = glm::length(e2);
            if (!(l1 > 0.0) || !(l2 > 0.0)) continue;
            double angle = std::acos(std::clamp(glm::dot(e1, e2) / (l1 * l2), -1.0, 1.0));
            acc[ids.ids[v[k]]] += n * angle;
        }
    }
    mesh.normals.assign(p.size(), glm::vec3(0.0f, 1.0f, 0.0f));
    for (size_t i = 0; i < p.size(); ++i) {
        glm::dvec3 n = acc[ids.ids[i]];
        double len = glm::length(n);
        if (len > 0.0 && std::isfinite(len)) mesh.normals[i] = glm::vec3(n / len);
    }
}

namespace {

// Keeps the vertices listed in `keep` (every attribute array, in that order) and renumbers the indices
// through `remap` (old vertex -> new).
void keep_vertices(Mesh& mesh, const std::vector<uint32_t>& keep, const std::vector<uint32_t>& remap) {
    auto compact = [&](auto& arr) {
        if (arr.empty()) return;
        std::remove_reference_t<decltype(arr)> out;
        out.reserve(keep.size());
        for (uint32_t i : keep) out.push_back(arr[i]);
        arr = std::move(out);
    };
    compact(mesh.positions);
    compact(mesh.normals);
    compact(mesh.uvs);
    compact(mesh.colors);
    compact(mesh.joints);
    compact(mesh.weights);
    for (auto& i : mesh.indices) i = remap[i];
}

}  // namespace

size_t weld_positions(Mesh& mesh) {
    PositionIds ids = position_ids(mesh.positions);
    if (ids.count == mesh.positions.size()) return 0;
    std::vector<uint32_t> first(ids.count, UINT32_MAX);
    std::vector<uint32_t> remap(mesh.positions.size());
    uint32_t kept = 0;
    std::vector<uint32_t> keep;
    keep.reserve(ids.count);
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        uint32_t id = ids.ids[i];
        if (first[id] == UINT32_MAX) {
            first[id] = kept++;
            keep.push_back(static_cast<uint32_t>(i));
        }
        remap[i] = first[id];
    }
    size_t removed = mesh.positions.size() - keep.size();
    keep_vertices(mesh, keep, remap);
    return removed;
}

size_t remove_unreferenced_vertices(Mesh& mesh) {
    std::vector<uint32_t> remap(mesh.positions.size(), UINT32_MAX);
    for (uint32_t i : mesh.indices) {
        if (i < remap.size()) remap[i] = 0;
    }
    std::vector<uint32_t> keep;
    keep.reserve(mesh.positions.size());
    for (size_t i = 0; i < remap.size(); ++i) {
        if (remap[i] == 0) {
            remap[i] = uint32_t(keep.size());
            keep.push_back(uint32_t(i));
        }
    }
    const size_t removed = mesh.positions.size() - keep.size();
    if (removed == 0) return 0;
    keep_vertices(mesh, keep, remap);
    return removed;
}

Status validate_mesh(const Mesh& mesh, const std::string& where) {
    const size_t n = mesh.positions.size();
    std::string who = where + (mesh.name.empty() ? "" : " (mesh '" + mesh.name + "')");
    if (mesh.indices.size() % 3 != 0)
        return make_error(ErrorCode::Parse, who + ": index count " + std::to_string(mesh.indices.size()) + " is not a multiple of 3");
    for (size_t i = 0; i < mesh.indices.size(); ++i) {
        if (mesh.indices[i] >= n)
            return make_error(ErrorCode::Parse, who + ": triangle " + std::to_string(i / 3) + " uses vertex index " +
                                                    std::to_string(mesh.indices[i]) + " but the mesh has only " + std::to_string(n) + " vertices");
    }
    auto sized = [&](size_t s, const char* what) -> Status {
        if (s != 0 && s != n)
            return make_error(ErrorCode::Parse, who + ": " + std::to_string(s) + " " + what + " for " + std::to_string(n) + " vertices");
        return {};
    };
    TRESSEL_TRY(sized(mesh.normals.size(), "normals"));
    TRESSEL_TRY(sized(mesh.uvs.size(), "texture coordinates"));
    TRESSEL_TRY(sized(mesh.colors.size(), "colours"));
    TRESSEL_TRY(sized(mesh.joints.size(), "joint sets"));
    TRESSEL_TRY(sized(mesh.weights.size(), "weight sets"));
    if (mesh.joints.size() != mesh.weights.size())
        return make_error(ErrorCode::Parse, who + ": joints and weights differ in count");
    for (size_t i = 0; i < n; ++i) {
        if (!finite(mesh.positions[i]))
            return make_error(ErrorCode::Parse, who + ": vertex " + std::to_string(i) + " has a non-finite (NaN or Inf) coordinate");
    }
    for (size_t i = 0; i < mesh.normals.size(); ++i) {
        if (!finite(mesh.normals[i]))
            return make_error(ErrorCode::Parse, who + ": normal " + std::to_string(i) + " is not finite");
    }
    for (size_t i = 0; i < mesh.uvs.size(); ++i) {
        if (!std::isfinite(mesh.uvs[i].x) || !std::isfinite(mesh.uvs[i].y))
            return make_error(ErrorCode::Parse, who + ": texture coordinate " + std::to_string(i) + " is not finite");
    }
    for (size_t i = 0; i < mesh.weights.size(); ++i) {
        const glm::vec4& w = mesh.weights[i];
        if (!std::isfinite(w.x + w.y + w.z + w.w))
            return make_error(ErrorCode::Parse, who + ": skin weights of vertex " + std::to_string(i) + " are not finite");
    }
    return {};
}

MeshReport analyze_mesh(const Mesh& mesh) {
    MeshReport r;
    r.vertices = mesh.positions.size();
    r.triangles = mesh.indices.size() / 3;
    bool any = false;
    glm::vec3 lo(0.0f), hi(0.0f);
    for (const auto& p : mesh.positions) {
        for (int k = 0; k < 3; ++k) r.non_finite_values += std::isfinite(p[k]) ? 0 : 1;
        if (!finite(p)) continue;
        lo = any ? glm::min(lo, p) : p;
        hi = any ? glm::max(hi, p) : p;
        any = true;
    }
    r.bounds_min = lo;
    r.bounds_max = hi;
    PositionIds ids = position_ids(mesh.positions);
    r.unique_positions = ids.count;

    std::vector<uint64_t> edges;
    edges.reserve(mesh.indices.size());
    const size_t n = mesh.positions.size();
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        uint32_t v[3] = {mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]};
        if (v[0] >= n || v[1] >= n || v[2] >= n) {
            ++r.degenerate_triangles;
            continue;
        }
        uint32_t id[3] = {ids.ids[v[0]], ids.ids[v[1]], ids.ids[v[2]]};
        glm::dvec3 a(mesh.positions[v[0]]), b(mesh.positions[v[1]]), c(mesh.positions[v[2]]);
        bool repeated = id[0] == id[1] || id[1] == id[2] || id[0] == id[2];
        if (repeated || !(glm::length(glm::cross(b - a, c - a)) > 0.0)) ++r.degenerate_triangles;
        for (int k = 0; k < 3; ++k) {
            uint32_t e0 = id[k], e1 = id[(k + 1) % 3];
            if (e0 == e1) continue;
            edges.push_back((uint64_t(std::min(e0, e1)) << 32) | std::max(e0, e1));
        }
    }
    std::sort(edges.begin(), edges.end());
    for (size_t i = 0; i < edges.size();) {
        size_t j = i;
        while (j < edges.size() && edges[j] == edges[i]) ++j;
        size_t uses = j - i;
        if (uses == 1) ++r.open_edges;
        if (uses >= 3) ++r.non_manifold_edges;
        i = j;
    }
    return r;
}

Mesh merge_meshes(const ImportedScene& scene, std::string name) {
    Mesh out;
    out.name = std::move(name);
    bool normals = true, uvs = true, colors = true, skin = true;
    int skin_index = -2;
    size_t total = 0;
    for (const auto& m : scene.meshes) {
        if (m.positions.empty()) continue;
        normals &= m.has_normals();
        uvs &= m.has_uvs();
        colors &= m.has_colors();
        skin &= !m.joints.empty() && m.skin >= 0 && (skin_index == -2 || skin_index == m.skin);
        skin_index = m.skin;
        total += m.positions.size();
    }
    out.positions.reserve(total);
    for (const auto& m : scene.meshes) {
        if (m.positions.empty()) continue;
        const auto base = static_cast<uint32_t>(out.positions.size());
        out.positions.insert(out.positions.end(), m.positions.begin(), m.positions.end());
        if (normals) out.normals.insert(out.normals.end(), m.normals.begin(), m.normals.end());
        if (uvs) out.uvs.insert(out.uvs.end(), m.uvs.begin(), m.uvs.end());
        if (colors) out.colors.insert(out.colors.end(), m.colors.begin(), m.colors.end());
        if (skin) {
            out.joints.insert(out.joints.end(), m.joints.begin(), m.joints.end());
            out.weights.insert(out.weights.end(), m.weights.begin(), m.weights.end());
        }
        for (uint32_t i : m.indices) out.indices.push_back(base + i);
    }
    if (total == 0) normals = uvs = colors = skin = false;
    out.skin = skin ? skin_index : -1;
    return out;
}

}  // namespace tressel

namespace tressel {

namespace {

glm::dmat4 node_local(const Node& n) {
    return glm::translate(glm::dmat4(1.0), n.translation) * glm::mat4_cast(n.rotation) * glm::scale(glm::dmat4(1.0), n.scale);
}

// Rest world transforms of every node from their TRS (parents first, whatever the order; a cycle, which the
// importers refuse, would stop at the node count).
std::vector<glm::dmat4> rest_world(const std::vector<Node>& nodes) {
    std::vector<glm::dmat4> world(nodes.size(), glm::dmat4(1.0));
    std::vector<char> done(nodes.size(), 0);
    for (size_t i = 0; i < nodes.size(); ++i) {
        std::vector<size_t> chain;
        for (size_t k = i; k < nodes.size() && !done[k] && chain.size() <= nodes.size(); k = size_t(nodes[k].parent)) {
            chain.push_back(k);
            if (nodes[k].parent < 0) break;
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const int p = nodes[*it].parent;
            world[*it] = (p >= 0 && size_t(p) < nodes.size() ? world[size_t(p)] : glm::dmat4(1.0)) * node_local(nodes[*it]);
            done[*it] = 1;
        }
    }
    return world;
}

bool same_matrix(const glm::mat4& a, const glm::mat4& b) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (std::abs(a[c][r] - b[c][r]) > 1e-6f * std::max(1.0f, std::abs(a[c][r]))) return false;
    return true;
}

}  // namespace

bool unify_skins(ImportedScene& scene) {
    const size_t node_count = scene.nodes.size();
    std::vector<char> moved(node_count, 0);  // nodes a clip translates, rotates or scales
    bool any_moved = false;
    for (const Animation& a : scene.animations)
        for (const AnimationChannel& c : a.channels)
            if (c.path != AnimPath::Weights && c.node >= 0 && size_t(c.node) < node_count) moved[size_t(c.node)] = 1, any_moved = true;
    bool any_skinned = false, shared = true;
    int first = -2;
    for (const Mesh& m : scene.meshes) {
        const bool skinned = m.skin >= 0 && size_t(m.skin) < scene.skins.size() && !m.joints.empty();
        any_skinned |= skinned;
        const int s = skinned ? m.skin : -1;
        shared &= first == -2 || first == s;
        first = s;
    }
    if (scene.meshes.empty() || (!any_skinned && !any_moved) || (shared && first >= 0)) return true;

    Skin out;
    out.name = "all parts";
    // Each (node, inverse bind) once.
    auto joint_of = [&](int node, const glm::mat4& inverse_bind) -> size_t {
        for (size_t j = 0; j < out.joints.size(); ++j)
            if (out.joints[j] == node && same_matrix(out.inverse_bind[j], inverse_bind)) return j;
        out.joints.push_back(node);
        out.inverse_bind.push_back(inverse_bind);
        return out.joints.size() - 1;
    };
    std::vector<std::vector<uint32_t>> remap(scene.skins.size());
    std::vector<int> joint_skin(node_count, -1), joint_index(node_count, -1);  // a skin and joint each node is, if any
    for (size_t s = 0; s < scene.skins.size(); ++s) {
        const Skin& skin = scene.skins[s];
        if (out.skeleton < 0) out.skeleton = skin.skeleton;
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            const glm::mat4 ib = j < skin.inverse_bind.size() ? skin.inverse_bind[j] : glm::mat4(1.0f);
            remap[s].push_back(uint32_t(joint_of(skin.joints[j], ib)));
            const int node = skin.joints[j];
            if (node >= 0 && size_t(node) < node_count && joint_skin[size_t(node)] < 0) {
                joint_skin[size_t(node)] = int(s);
                joint_index[size_t(node)] = int(remap[s].back());
            }
        }
    }
    std::vector<int> mesh_node(scene.meshes.size(), -1);
    for (size_t n = 0; n < node_count; ++n)
        if (scene.nodes[n].mesh >= 0 && size_t(scene.nodes[n].mesh) < scene.meshes.size()) mesh_node[size_t(scene.nodes[n].mesh)] = int(n);
    const std::vector<glm::dmat4> world = rest_world(scene.nodes);
    std::vector<uint32_t> rigid_joint(scene.meshes.size(), 0);
    for (size_t mi = 0; mi < scene.meshes.size(); ++mi) {
        const Mesh& m = scene.meshes[mi];
        if (m.skin >= 0 && size_t(m.skin) < scene.skins.size() && !m.joints.empty()) continue;
        // The nearest node at or above the part that is a joint or that a clip moves; the topmost when none.
        int follow = mesh_node[mi];
        for (int k = follow, steps = 0; k >= 0 && size_t(k) < node_count && steps <= int(node_count); k = scene.nodes[size_t(k)].parent, ++steps) {
            follow = k;
            if (joint_index[size_t(k)] >= 0 || moved[size_t(k)]) break;
        }
        if (follow < 0) return false;  // a part no node holds: nothing to follow
        // A joint is taken over as it is: the mesh is unbound through that joint's rest matrix, so its rest
        // placement cancels whatever inverse bind matrix the skin gives the joint.
        rigid_joint[mi] = joint_index[size_t(follow)] >= 0 ? uint32_t(joint_index[size_t(follow)])
                                                           : uint32_t(joint_of(follow, glm::mat4(glm::inverse(world[size_t(follow)]))));
    }
    if (out.joints.size() > 65535) return false;
    const int index = int(scene.skins.size());
    for (size_t mi = 0; mi < scene.meshes.size(); ++mi) {
        Mesh& m = scene.meshes[mi];
        if (m.skin >= 0 && size_t(m.skin) < scene.skins.size() && !m.joints.empty()) {
            for (auto& j : m.joints)
                for (int k = 0; k < 4; ++k) j[k] = j[k] < remap[size_t(m.skin)].size() ? uint16_t(remap[size_t(m.skin)][j[k]]) : uint16_t(0);
        } else {
            m.joints.assign(m.positions.size(), glm::u16vec4(uint16_t(rigid_joint[mi]), 0, 0, 0));
            m.weights.assign(m.positions.size(), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
        }
        m.skin = index;
    }
    scene.skins.push_back(std::move(out));
    return true;
}

}  // namespace tressel
