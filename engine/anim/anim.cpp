#include "anim/anim.h"

#include "io/tfxbone.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "shared/skinning.h"

namespace tressel {

glm::dmat4 NodeTransform::matrix() const {
    return glm::translate(glm::dmat4(1.0), translation) * glm::mat4_cast(rotation) * glm::scale(glm::dmat4(1.0), scale);
}

std::vector<NodeTransform> rest_pose(const ImportedScene& scene) {
    std::vector<NodeTransform> out(scene.nodes.size());
    for (size_t i = 0; i < scene.nodes.size(); ++i) out[i] = {scene.nodes[i].translation, scene.nodes[i].rotation, scene.nodes[i].scale};
    return out;
}

std::vector<glm::dmat4> world_transforms(const ImportedScene& scene, std::span<const NodeTransform> local) {
    const size_t n = std::min(scene.nodes.size(), local.size());
    std::vector<glm::dmat4> world(n, glm::dmat4(1.0));
    std::vector<uint8_t> done(n, 0);
    std::vector<size_t> chain;
    for (size_t i = 0; i < n; ++i) {
        // Up to the first node already done (or a root), then down again. A parent out of range or a cycle
        // (the importers refuse both) ends the walk: that node is taken as a root.
        chain.clear();
        size_t k = i;
        while (!done[k] && chain.size() <= n) {
            chain.push_back(k);
            const int p = scene.nodes[k].parent;
            if (p < 0 || size_t(p) >= n) break;
            k = size_t(p);
        }
        for (size_t c = chain.size(); c-- > 0;) {
            const size_t node = chain[c];
            if (done[node]) continue;
            const int p = scene.nodes[node].parent;
            const bool has_parent = p >= 0 && size_t(p) < n && done[size_t(p)];
            world[node] = has_parent ? world[size_t(p)] * local[node].matrix() : local[node].matrix();
            done[node] = 1;
        }
    }
    return world;
}

namespace {

size_t components(AnimPath path) { return path == AnimPath::Rotation ? 4 : 3; }

const char* path_name(AnimPath p) {
    switch (p) {
        case AnimPath::Translation: return "translation";
        case AnimPath::Rotation: return "rotation";
        case AnimPath::Scale: return "scale";
        case AnimPath::Weights: return "weights";
    }
    return "?";
}

glm::dquat quat_at(const float* v) { return glm::dquat(double(v[3]), double(v[0]), double(v[1]), double(v[2])); }

// Spherical interpolation along the shorter arc; a normalised lerp where the keys are nearly equal.
glm::dquat slerp_short(glm::dquat a, glm::dquat b, double u) {
    double d = glm::dot(a, b);
    if (d < 0.0) {
        b = -b;
        d = -d;
    }
    if (d > 0.9995) return glm::normalize(a * (1.0 - u) + b * u);
    const double theta = std::acos(std::min(d, 1.0));
    const double s = std::sin(theta);
    return glm::normalize(a * (std::sin((1.0 - u) * theta) / s) + b * (std::sin(u * theta) / s));
}

}  // namespace

std::vector<NodeTransform> blend_poses(std::span<const NodeTransform> a, std::span<const NodeTransform> b, double u) {
    const size_t n = std::min(a.size(), b.size());
    std::vector<NodeTransform> out(n);
    const double t = std::clamp(u, 0.0, 1.0);
    for (size_t i = 0; i < n; ++i) {
        out[i].translation = a[i].translation + (b[i].translation - a[i].translation) * t;
        out[i].scale = a[i].scale + (b[i].scale - a[i].scale) * t;
        out[i].rotation = slerp_short(glm::normalize(a[i].rotation), glm::normalize(b[i].rotation), t);
    }
    return out;
}

ClipSampler::ClipSampler(const ImportedScene& scene, const Animation& clip, Diagnostics* diagnostics) : name_(clip.name) {
    const std::string who = "animation '" + (clip.name.empty() ? std::string("(unnamed)") : clip.name) + "'";
    auto skip = [&](size_t ci, const std::string& why) {
        ++skipped_;
        if (diagnostics) diagnostics->warn(who, "channel " + std::to_string(ci) + " " + why + "; it is left out");
    };
    for (size_t ci = 0; ci < clip.channels.size(); ++ci) {
        const AnimationChannel& ch = clip.channels[ci];
        if (ch.path == AnimPath::Weights) {
            skip(ci, "animates morph target weights, which are not supported");
            continue;
        }
        if (ch.node < 0 || size_t(ch.node) >= scene.nodes.size()) {
            skip(ci, "targets node " + std::to_string(ch.node) + ", which does not exist");
            continue;
        }
        const size_t keys = ch.times_s.size();
        const size_t per_key = components(ch.path) * (ch.interpolation == AnimInterpolation::CubicSpline ? 3 : 1);
        bool times_ok = keys > 0;
        for (size_t k = 0; times_ok && k < keys; ++k) times_ok = std::isfinite(ch.times_s[k]) && (k == 0 || ch.times_s[k] > ch.times_s[k - 1]);
        if (!times_ok) {
            skip(ci, std::string("(") + path_name(ch.path) + ") has key times that are missing, not finite or not increasing");
            continue;
        }
        if (ch.values.size() != keys * per_key) {
            skip(ci, std::string("(") + path_name(ch.path) + ") has " + std::to_string(ch.values.size()) + " values for " + std::to_string(keys) +
                         " keys (" + std::to_string(per_key) + " each)");
            continue;
        }
        bool values_ok = true;
        for (float v : ch.values) values_ok = values_ok && std::isfinite(v);
        if (values_ok && ch.path == AnimPath::Rotation)
            for (size_t k = 0; values_ok && k < keys; ++k) {
                const float* q = ch.values.data() + k * per_key + (per_key == 12 ? 4 : 0);
                values_ok = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-12f;
            }
        if (!values_ok) {
            skip(ci, std::string("(") + path_name(ch.path) + ") has a value that is not finite or a rotation of length zero");
            continue;
        }
        channels_.push_back(&ch);
        duration_s_ = std::max(duration_s_, double(ch.times_s.back()));
    }
}

void ClipSampler::sample(double t_s, std::span<NodeTransform> local, ClipTimeMode mode) const {
    double t = std::isfinite(t_s) ? t_s : 0.0;
    if (mode == ClipTimeMode::Loop && duration_s_ > 0.0) {
        t = std::fmod(t, duration_s_);
        if (t < 0.0) t += duration_s_;
    } else {
        t = std::clamp(t, 0.0, duration_s_);
    }
    for (const AnimationChannel* ch : channels_) {
        if (size_t(ch->node) >= local.size()) continue;
        const size_t c = components(ch->path);
        const bool cubic = ch->interpolation == AnimInterpolation::CubicSpline;
        const size_t per_key = c * (cubic ? 3 : 1);
        const size_t value_at = cubic ? c : 0;  // a cubic key is (in tangent, value, out tangent)
        const std::vector<float>& times = ch->times_s;
        const float* v = ch->values.data();
        // The key interval [i, i + 1] holding t; before the first or after the last key, that key.
        size_t i = 0;
        double u = 0.0;
        bool between = false;
        if (t >= double(times.back())) {
            i = times.size() - 1;
        } else if (t > double(times.front())) {
            i = size_t(std::upper_bound(times.begin(), times.end(), float(t)) - times.begin());
            i = i == 0 ? 0 : i - 1;
            if (i + 1 >= times.size()) i = times.size() - 2;
            const double t0 = times[i], t1 = times[i + 1];
            u = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
            between = ch->interpolation != AnimInterpolation::Step;
        }
        NodeTransform& node = local[size_t(ch->node)];
        const float* a = v + i * per_key + value_at;
        if (!between) {
            if (ch->path == AnimPath::Rotation) node.rotation = glm::normalize(quat_at(a));
            else if (ch->path == AnimPath::Translation) node.translation = glm::dvec3(a[0], a[1], a[2]);
            else node.scale = glm::dvec3(a[0], a[1], a[2]);
            continue;
        }
        const float* b = v + (i + 1) * per_key + value_at;
        if (!cubic) {
            if (ch->path == AnimPath::Rotation) {
                node.rotation = slerp_short(glm::normalize(quat_at(a)), glm::normalize(quat_at(b)), u);
            } else {
                const glm::dvec3 va(a[0], a[1], a[2]), vb(b[0], b[1], b[2]);
                (ch->path == AnimPath::Translation ? node.translation : node.scale) = va + (vb - va) * u;
            }
            continue;
        }
        // glTF's cubic Hermite spline: p = h00 v_i + h10 d b_i + h01 v_i+1 + h11 d a_i+1, with b_i the out
        // tangent of key i, a_i+1 the in tangent of key i+1 and d the interval.
        const double d = double(times[i + 1]) - double(times[i]);
        const double u2 = u * u, u3 = u2 * u;
        const double h00 = 2.0 * u3 - 3.0 * u2 + 1.0, h10 = u3 - 2.0 * u2 + u, h01 = -2.0 * u3 + 3.0 * u2, h11 = u3 - u2;
        const float* out_tangent = a + c;
        const float* in_tangent = b - c;
        double r[4] = {0.0, 0.0, 0.0, 0.0};
        for (size_t k = 0; k < c; ++k)
            r[k] = h00 * a[k] + h10 * d * out_tangent[k] + h01 * b[k] + h11 * d * in_tangent[k];
        if (ch->path == AnimPath::Rotation) {
            const glm::dquat q(r[3], r[0], r[1], r[2]);
            const double l = glm::length(q);
            node.rotation = l > 1e-12 ? q / l : glm::normalize(quat_at(a));
        } else {
            (ch->path == AnimPath::Translation ? node.translation : node.scale) = glm::dvec3(r[0], r[1], r[2]);
        }
    }
}

std::vector<glm::mat4> joint_matrices(const Skin& skin, std::span<const glm::dmat4> world, const glm::dmat4& to_engine) {
    const glm::dmat4 from_engine = glm::inverse(to_engine);
    std::vector<glm::mat4> out(skin.joints.size(), glm::mat4(1.0f));
    for (size_t j = 0; j < skin.joints.size(); ++j) {
        const int node = skin.joints[j];
        if (node < 0 || size_t(node) >= world.size()) continue;
        const glm::dmat4 ib = j < skin.inverse_bind.size() ? glm::dmat4(skin.inverse_bind[j]) : glm::dmat4(1.0);
        out[j] = glm::mat4(to_engine * world[size_t(node)] * ib * from_engine);
    }
    return out;
}

double bind_pose_error(const ImportedScene& scene, const Skin& skin) {
    const std::vector<NodeTransform> rest = rest_pose(scene);
    const std::vector<glm::dmat4> world = world_transforms(scene, rest);
    double worst = 0.0;
    for (const glm::mat4& m : joint_matrices(skin, world))
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(double(m[c][r]) - (c == r ? 1.0 : 0.0)));
    return worst;
}

namespace {

// The blended matrix of vertex v (zero-weight joints left out, whatever their index).
Result<glm::mat4> blended(const Mesh& mesh, size_t v, std::span<const glm::mat4> joints) {
    const glm::u16vec4 j = mesh.joints[v];
    const glm::vec4 w = mesh.weights[v];
    glm::mat4 m[4];
    for (int k = 0; k < 4; ++k) {
        if (w[k] == 0.0f) {
            m[k] = glm::mat4(0.0f);
            continue;
        }
        if (size_t(j[k]) >= joints.size())
            return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "': vertex " + std::to_string(v) + " uses joint " +
                                                              std::to_string(j[k]) + " but the skin has " + std::to_string(joints.size()));
        m[k] = joints[j[k]];
    }
    return gpu_shared::skin_matrix(m[0], m[1], m[2], m[3], w);
}

Status check_skinned(const Mesh& mesh) {
    const size_t n = mesh.positions.size();
    if (mesh.joints.size() != n || mesh.weights.size() != n)
        return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "' has no skinning weights to skin with");
    return {};
}

}  // namespace

Result<SkinBind> unbind_mesh(const Mesh& mesh, std::span<const glm::mat4> rest_joints) {
    TRESSEL_TRY(check_skinned(mesh));
    SkinBind out;
    const size_t n = mesh.positions.size();
    out.positions.resize(n);
    const bool with_normals = mesh.normals.size() == n;
    if (with_normals) out.normals.resize(n);
    for (size_t v = 0; v < n; ++v) {
        auto m = blended(mesh, v, rest_joints);
        if (!m) return m.error();
        const glm::dmat4 md(*m);
        const double det = glm::determinant(md);
        if (!std::isfinite(det) || std::abs(det) < 1e-12) {
            ++out.singular;
            out.positions[v] = mesh.positions[v];
            if (with_normals) out.normals[v] = mesh.normals[v];
            continue;
        }
        const glm::dmat4 inv = glm::inverse(md);
        out.positions[v] = glm::vec3(inv * glm::dvec4(mesh.positions[v], 1.0));
        if (with_normals) {
            // The importer carried normals by the inverse transpose; a rigid part of the skin carries them by
            // its linear part (skin_normal): undone that way, they come back exactly for rigid joints.
            const glm::dvec3 nn = glm::inverse(glm::dmat3(md)) * glm::dvec3(mesh.normals[v]);
            const double l = glm::length(nn);
            out.normals[v] = l > 0.0 ? glm::vec3(nn / l) : mesh.normals[v];
        }
    }
    return out;
}

Status skin_mesh(const Mesh& mesh, const SkinBind& bind, std::span<const glm::mat4> joints, std::vector<glm::vec3>& positions,
                 std::vector<glm::vec3>* normals) {
    TRESSEL_TRY(check_skinned(mesh));
    const size_t n = mesh.positions.size();
    if (bind.positions.size() != n) return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "': the bind pose is of another mesh");
    positions.resize(n);
    const bool with_normals = normals && bind.normals.size() == n;
    if (with_normals) normals->resize(n);
    for (size_t v = 0; v < n; ++v) {
        auto m = blended(mesh, v, joints);
        if (!m) return m.error();
        positions[v] = gpu_shared::skin_point(*m, bind.positions[v]);
        if (with_normals) (*normals)[v] = gpu_shared::skin_normal(*m, bind.normals[v]);
    }
    return {};
}

Result<JointBounds> joint_bounds(const Mesh& mesh, const SkinBind& bind, size_t joint_count) {
    TRESSEL_TRY(check_skinned(mesh));
    const size_t n = mesh.positions.size();
    if (bind.positions.size() != n) return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "': the bind pose is of another mesh");
    JointBounds b;
    b.lo.assign(joint_count, glm::vec3(std::numeric_limits<float>::infinity()));
    b.hi.assign(joint_count, glm::vec3(-std::numeric_limits<float>::infinity()));
    for (size_t v = 0; v < n; ++v)
        for (int k = 0; k < 4; ++k) {
            if (mesh.weights[v][k] == 0.0f) continue;
            const size_t j = mesh.joints[v][k];
            if (j >= joint_count)
                return make_error(ErrorCode::InvalidArgument, "mesh '" + mesh.name + "': vertex " + std::to_string(v) + " uses joint " +
                                                                  std::to_string(j) + " but the skin has " + std::to_string(joint_count));
            b.lo[j] = glm::min(b.lo[j], bind.positions[v]);
            b.hi[j] = glm::max(b.hi[j], bind.positions[v]);
        }
    return b;
}

bool posed_bounds(const JointBounds& b, std::span<const glm::mat4> joints, glm::dvec3& lo, glm::dvec3& hi) {
    lo = glm::dvec3(std::numeric_limits<double>::infinity());
    hi = -lo;
    bool any = false;
    for (size_t j = 0; j < b.lo.size() && j < joints.size(); ++j) {
        if (!(b.lo[j].x <= b.hi[j].x)) continue;  // moves no vertex
        for (int c = 0; c < 8; ++c) {
            const glm::vec3 corner((c & 1) ? b.hi[j].x : b.lo[j].x, (c & 2) ? b.hi[j].y : b.lo[j].y, (c & 4) ? b.hi[j].z : b.lo[j].z);
            const glm::dvec3 q(gpu_shared::skin_point(joints[j], corner));
            lo = glm::min(lo, q);
            hi = glm::max(hi, q);
        }
        any = true;
    }
    return any;
}

Result<glm::uvec3> root_corners(const Mesh& bind, const ScalpAttachment& a, size_t index) {
    const size_t triangles = bind.indices.size() / 3;
    if (a.triangle >= triangles)
        return make_error(ErrorCode::InvalidArgument, "mesh '" + bind.name + "': root " + std::to_string(index) + " is on triangle " +
                                                          std::to_string(a.triangle) + " of " + std::to_string(triangles));
    const size_t t = 3 * size_t(a.triangle);
    return glm::uvec3(bind.indices[t], bind.indices[t + 1], bind.indices[t + 2]);
}

Status root_transforms(const Mesh& bind, std::span<const glm::vec3> skinned, std::span<const ScalpAttachment> roots,
                       std::vector<glm::mat4>& out) {
    if (skinned.size() != bind.positions.size())
        return make_error(ErrorCode::InvalidArgument, "mesh '" + bind.name + "': " + std::to_string(skinned.size()) + " skinned positions for " +
                                                          std::to_string(bind.positions.size()) + " vertices");
    out.resize(roots.size());
    for (size_t r = 0; r < roots.size(); ++r) {
        const ScalpAttachment& a = roots[r];
        auto c = root_corners(bind, a, r);
        if (!c) return c.error();
        const uint32_t i0 = c->x, i1 = c->y, i2 = c->z;
        const glm::mat4 rest = gpu_shared::skin_triangle_frame(bind.positions[i0], bind.positions[i1], bind.positions[i2], a.barycentric);
        const glm::mat4 now = gpu_shared::skin_triangle_frame(skinned[i0], skinned[i1], skinned[i2], a.barycentric);
        out[r] = glm::mat4(glm::dmat4(now) * glm::inverse(glm::dmat4(rest)));
    }
    return {};
}

Result<Skin> retarget_skin(const ImportedScene& mesh_file, const Skin& skin, const ImportedScene& rig) {
    std::vector<std::string> rig_names;
    for (const Node& n : rig.nodes) rig_names.push_back(n.name);
    Diagnostics ignored;
    const std::vector<std::string> tressfx_names = tressfx_bone_names(rig_names, rig_names.size(), ignored);
    const std::vector<glm::dmat4> rest = world_transforms(rig, rest_pose(rig));
    Skin out;
    out.name = skin.name;
    std::string missing;
    size_t missing_count = 0;
    for (int joint : skin.joints) {
        const std::string name = joint >= 0 && size_t(joint) < mesh_file.nodes.size() ? mesh_file.nodes[size_t(joint)].name : std::string();
        int found = -1;
        for (size_t n = 0; n < rig_names.size() && found < 0; ++n)
            if (rig_names[n] == name) found = int(n);
        for (size_t n = 0; n < tressfx_names.size() && found < 0; ++n)
            if (tressfx_names[n] == name) found = int(n);
        if (found < 0) {
            if (missing_count++ < 5) missing += (missing.empty() ? "'" : ", '") + name + "'";
            continue;
        }
        out.joints.push_back(found);
        out.inverse_bind.push_back(glm::mat4(glm::inverse(rest[size_t(found)])));
    }
    if (missing_count)
        return make_error(ErrorCode::NotFound, "the skeleton has no joint named " + missing + (missing_count > 5 ? ", ..." : "") + " (" +
                                                   std::to_string(missing_count) + " of " + std::to_string(skin.joints.size()) + " bones)");
    return out;
}

}  // namespace tressel
