// glTF 2.0 (.gltf, .glb) through tinygltf, from memory. The GLB container is checked first
// (check_glb_container); every accessor is checked against its buffer view and buffer before a byte is
// read; external files go through a size-capped reader and paths are never shell-expanded (tinygltf's
// default expands them with wordexp); images are not decoded (a mesh import needs none).
#include <cmath>
#include <cstring>
#include <map>

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtx/matrix_decompose.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <tiny_gltf.h>

#include "core/file_io.h"
#include "io/import_detail.h"

namespace tressel::detail {

namespace {

constexpr uint64_t kMaxExternalBytes = 2ull << 30;

bool fs_exists(const std::string& path, void*) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}
std::string fs_expand(const std::string& path, void*) { return path; }
bool fs_read(std::vector<unsigned char>* out, std::string* err, const std::string& path, void*) {
    auto r = read_file_bytes(path, kMaxExternalBytes);
    if (!r.ok()) {
        if (err) *err += r.error().message + "\n";
        return false;
    }
    *out = std::move(r.value());
    return true;
}
bool fs_write(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
    if (err) *err += "writing is disabled while importing\n";
    return false;
}
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) { return true; }

// A validated window onto an accessor's elements.
struct View {
    const uint8_t* data = nullptr;
    size_t count = 0;
    size_t stride = 0;
    int comps = 0;
    int ctype = 0;
    int csize = 0;
    bool normalized = false;
};

class Reader {
public:
    Reader(const tinygltf::Model& m, const SourceFile& f) : model_(m), file_(f) {}

    Result<View> view(int index, const std::string& what) const {
        auto bad = [&](const std::string& why) { return make_error(ErrorCode::Parse, file_.name() + ": " + what + ": " + why); };
        if (index < 0 || size_t(index) >= model_.accessors.size()) return bad("accessor " + std::to_string(index) + " does not exist");
        const auto& a = model_.accessors[size_t(index)];
        if (a.sparse.isSparse) return make_error(ErrorCode::Unsupported, file_.name() + ": " + what + ": sparse accessors are not supported");
        if (a.bufferView < 0 || size_t(a.bufferView) >= model_.bufferViews.size()) return bad("accessor " + std::to_string(index) + " has no valid buffer view");
        const auto& bv = model_.bufferViews[size_t(a.bufferView)];
        if (bv.buffer < 0 || size_t(bv.buffer) >= model_.buffers.size()) return bad("buffer view " + std::to_string(a.bufferView) + " has no valid buffer");
        const auto& buf = model_.buffers[size_t(bv.buffer)].data;
        if (bv.byteOffset > buf.size() || bv.byteLength > buf.size() - bv.byteOffset)
            return bad("buffer view " + std::to_string(a.bufferView) + " (offset " + std::to_string(bv.byteOffset) + ", length " +
                       std::to_string(bv.byteLength) + ") lies outside its " + std::to_string(buf.size()) + "-byte buffer");
        View v;
        v.comps = tinygltf::GetNumComponentsInType(uint32_t(a.type));
        v.csize = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
        if (v.comps <= 0 || v.csize <= 0) return bad("accessor " + std::to_string(index) + " has an invalid type");
        v.ctype = a.componentType;
        v.normalized = a.normalized;
        v.count = a.count;
        const size_t elem = size_t(v.comps) * size_t(v.csize);
        v.stride = bv.byteStride ? bv.byteStride : elem;
        if (v.stride < elem) return bad("buffer view stride " + std::to_string(v.stride) + " is smaller than the element size " + std::to_string(elem));
        if (a.byteOffset > bv.byteLength) return bad("accessor offset lies outside its buffer view");
        const size_t avail = bv.byteLength - a.byteOffset;
        if (v.count > 0 && (avail < elem || v.count - 1 > (avail - elem) / v.stride))
            return bad("accessor " + std::to_string(index) + " claims " + std::to_string(v.count) + " elements, more than its " +
                       std::to_string(avail) + "-byte buffer view holds");
        v.data = buf.data() + bv.byteOffset + a.byteOffset;
        return v;
    }

    // Elements as floats (normalized integers mapped to [0,1] / [-1,1]); `comps` must match.
    Result<std::vector<float>> floats(int index, int comps, const std::string& what) const {
        auto v = view(index, what);
        if (!v.ok()) return v.error();
        if (v->comps != comps)
            return make_error(ErrorCode::Parse, file_.name() + ": " + what + ": expected " + std::to_string(comps) + " components, found " + std::to_string(v->comps));
        std::vector<float> out(v->count * size_t(comps));
        for (size_t i = 0; i < v->count; ++i) {
            const uint8_t* p = v->data + i * v->stride;
            for (int c = 0; c < comps; ++c) out[i * size_t(comps) + size_t(c)] = component(p + c * v->csize, v->ctype, v->normalized);
        }
        return out;
    }

    // Unsigned integer elements (indices, joints).
    Result<std::vector<uint32_t>> uints(int index, int comps, const std::string& what) const {
        auto v = view(index, what);
        if (!v.ok()) return v.error();
        if (v->comps != comps || (v->ctype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && v->ctype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
                                  v->ctype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT))
            return make_error(ErrorCode::Parse, file_.name() + ": " + what + ": expected unsigned integers with " + std::to_string(comps) + " components");
        std::vector<uint32_t> out(v->count * size_t(comps));
        for (size_t i = 0; i < v->count; ++i) {
            const uint8_t* p = v->data + i * v->stride;
            for (int c = 0; c < comps; ++c) {
                const uint8_t* q = p + c * v->csize;
                uint32_t x = 0;
                if (v->csize == 1) x = q[0];
                else if (v->csize == 2) { uint16_t s; std::memcpy(&s, q, 2); x = s; }
                else std::memcpy(&x, q, 4);
                out[i * size_t(comps) + size_t(c)] = x;
            }
        }
        return out;
    }

private:
    static float component(const uint8_t* p, int ctype, bool normalized) {
        switch (ctype) {
            case TINYGLTF_COMPONENT_TYPE_FLOAT: { float f; std::memcpy(&f, p, 4); return f; }
            case TINYGLTF_COMPONENT_TYPE_DOUBLE: { double d; std::memcpy(&d, p, 8); return float(d); }
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? p[0] / 255.0f : p[0];
            case TINYGLTF_COMPONENT_TYPE_BYTE: { int8_t s; std::memcpy(&s, p, 1); return normalized ? std::max(s / 127.0f, -1.0f) : s; }
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: { uint16_t s; std::memcpy(&s, p, 2); return normalized ? s / 65535.0f : s; }
            case TINYGLTF_COMPONENT_TYPE_SHORT: { int16_t s; std::memcpy(&s, p, 2); return normalized ? std::max(s / 32767.0f, -1.0f) : s; }
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: { uint32_t s; std::memcpy(&s, p, 4); return normalized ? float(s / 4294967295.0) : float(s); }
            case TINYGLTF_COMPONENT_TYPE_INT: { int32_t s; std::memcpy(&s, p, 4); return float(s); }
            default: return 0.0f;
        }
    }

    const tinygltf::Model& model_;
    const SourceFile& file_;
};

bool all_finite(const std::vector<double>& v) {
    for (double x : v) {
        if (!std::isfinite(x)) return false;
    }
    return true;
}

// Appends the triangles of one primitive's index list (triangles, strip or fan) to `out`, rebased.
void append_triangles(int mode, const std::vector<uint32_t>& idx, uint32_t base, std::vector<uint32_t>& out) {
    if (mode == TINYGLTF_MODE_TRIANGLES) {
        for (size_t i = 0; i + 2 < idx.size(); i += 3) {
            out.insert(out.end(), {base + idx[i], base + idx[i + 1], base + idx[i + 2]});
        }
    } else if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
        for (size_t i = 0; i + 2 < idx.size(); ++i) {
            if (i % 2 == 0) out.insert(out.end(), {base + idx[i], base + idx[i + 1], base + idx[i + 2]});
            else out.insert(out.end(), {base + idx[i + 1], base + idx[i], base + idx[i + 2]});
        }
    } else {
        for (size_t i = 1; i + 1 < idx.size(); ++i) out.insert(out.end(), {base + idx[0], base + idx[i], base + idx[i + 1]});
    }
}

}  // namespace

Result<ImportedScene> import_gltf(const SourceFile& file, bool binary, FileFrame& frame, Progress* progress) {
    if (binary) TRESSEL_TRY(check_glb_container(file));

    tinygltf::TinyGLTF loader;
    loader.SetFsCallbacks(tinygltf::FsCallbacks{&fs_exists, &fs_expand, &fs_read, &fs_write, nullptr});
    loader.SetImageLoader(&skip_image, nullptr);
    tinygltf::Model model;
    std::string err, warn;
    const std::string base_dir = file.path.has_parent_path() ? file.path.parent_path().string() : std::string(".");
    bool ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, file.bytes.data(), unsigned(file.bytes.size()), base_dir)
                     : loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(file.bytes.data()),
                                                  unsigned(file.bytes.size()), base_dir);
    if (!ok) {
        while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
        return make_error(ErrorCode::Parse, file.name() + ": invalid glTF: " + (err.empty() ? std::string("unknown error") : err));
    }
    if (progress) progress->set(0.4f);

    ImportedScene scene;
    if (frame.metres_per_unit != 1.0 || frame.up_axis != UpAxis::Y)
        scene.diagnostics.info(file.name(), "glTF is metres and Y up by definition; the unit and up-axis options were ignored");
    frame = FileFrame{};
    if (!warn.empty()) scene.diagnostics.warn(file.name(), warn);
    const Reader reader(model, file);
    const size_t node_count = model.nodes.size();
    auto bad = [&](const std::string& why) { return make_error(ErrorCode::Parse, file.name() + ": " + why); };

    // Node hierarchy: parents from children lists, each node at most one parent, no cycles.
    scene.nodes.resize(node_count);
    std::vector<glm::dmat4> local(node_count, glm::dmat4(1.0)), world(node_count, glm::dmat4(1.0));
    for (size_t i = 0; i < node_count; ++i) {
        const auto& n = model.nodes[i];
        Node& out = scene.nodes[i];
        out.name = n.name;
        if (n.matrix.size() == 16) {
            if (!all_finite(n.matrix)) return bad("node " + std::to_string(i) + " has a non-finite matrix");
            local[i] = glm::make_mat4(n.matrix.data());
            glm::dvec3 skew;
            glm::dvec4 persp;
            glm::decompose(local[i], out.scale, out.rotation, out.translation, skew, persp);
        } else {
            if ((!n.translation.empty() && n.translation.size() != 3) || (!n.rotation.empty() && n.rotation.size() != 4) ||
                (!n.scale.empty() && n.scale.size() != 3) || !all_finite(n.translation) || !all_finite(n.rotation) || !all_finite(n.scale))
                return bad("node " + std::to_string(i) + " has a malformed translation, rotation or scale");
            if (!n.translation.empty()) out.translation = glm::dvec3(n.translation[0], n.translation[1], n.translation[2]);
            if (!n.rotation.empty()) out.rotation = glm::normalize(glm::dquat(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]));
            if (!n.scale.empty()) out.scale = glm::dvec3(n.scale[0], n.scale[1], n.scale[2]);
            local[i] = glm::translate(glm::dmat4(1.0), out.translation) * glm::mat4_cast(out.rotation) * glm::scale(glm::dmat4(1.0), out.scale);
        }
        if (n.mesh >= 0 && size_t(n.mesh) >= model.meshes.size()) return bad("node " + std::to_string(i) + " refers to missing mesh " + std::to_string(n.mesh));
        if (n.skin >= 0 && size_t(n.skin) >= model.skins.size()) return bad("node " + std::to_string(i) + " refers to missing skin " + std::to_string(n.skin));
        out.skin = n.skin;
        for (int c : n.children) {
            if (c < 0 || size_t(c) >= node_count) return bad("node " + std::to_string(i) + " has a missing child " + std::to_string(c));
            if (scene.nodes[size_t(c)].parent != -1 || size_t(c) == i) return bad("node " + std::to_string(c) + " has more than one parent");
            scene.nodes[size_t(c)].parent = int(i);
        }
    }
    {
        std::vector<size_t> order;
        order.reserve(node_count);
        for (size_t i = 0; i < node_count; ++i) {
            if (scene.nodes[i].parent < 0) order.push_back(i);
        }
        for (size_t k = 0; k < order.size(); ++k) {
            const size_t i = order[k];
            const int p = scene.nodes[i].parent;
            world[i] = p < 0 ? local[i] : world[size_t(p)] * local[i];
            for (int c : model.nodes[i].children) order.push_back(size_t(c));
        }
        if (order.size() != node_count) return bad("the node hierarchy contains a cycle");
    }

    // Skins.
    for (size_t s = 0; s < model.skins.size(); ++s) {
        const auto& ks = model.skins[s];
        Skin skin;
        skin.name = ks.name;
        skin.skeleton = ks.skeleton;
        if (ks.skeleton >= 0 && size_t(ks.skeleton) >= node_count) return bad("skin " + std::to_string(s) + " has a missing skeleton node");
        for (int j : ks.joints) {
            if (j < 0 || size_t(j) >= node_count) return bad("skin " + std::to_string(s) + " refers to missing joint node " + std::to_string(j));
            skin.joints.push_back(j);
        }
        skin.inverse_bind.assign(skin.joints.size(), glm::mat4(1.0f));
        if (ks.inverseBindMatrices >= 0) {
            auto m = reader.floats(ks.inverseBindMatrices, 16, "inverse bind matrices of skin " + std::to_string(s));
            if (!m.ok()) return m.error();
            if (m->size() < 16 * skin.joints.size()) return bad("skin " + std::to_string(s) + " has fewer inverse bind matrices than joints");
            for (size_t j = 0; j < skin.joints.size(); ++j) {
                for (int k = 0; k < 16; ++k) {
                    if (!std::isfinite((*m)[16 * j + size_t(k)])) return bad("skin " + std::to_string(s) + " has a non-finite inverse bind matrix");
                }
                skin.inverse_bind[j] = glm::make_mat4(m->data() + 16 * j);
            }
        }
        scene.skins.push_back(std::move(skin));
    }

    // Meshes: one engine mesh per node instance, its triangle primitives concatenated.
    size_t dropped = 0;
    size_t zero_weights = 0, renormalised_weights = 0;  // skinned vertices whose weights sum to 0, or not to 1
    for (size_t ni = 0; ni < node_count; ++ni) {
        const auto& n = model.nodes[ni];
        if (n.mesh < 0) continue;
        const auto& gm = model.meshes[size_t(n.mesh)];
        const std::string what = "mesh '" + gm.name + "' (" + std::to_string(n.mesh) + ")";
        Mesh mesh;
        mesh.name = gm.name.empty() ? n.name : gm.name;
        const Skin* skin = n.skin >= 0 ? &scene.skins[size_t(n.skin)] : nullptr;
        bool skinned = skin != nullptr, has_normals = true, has_uvs = true, has_colors = true;
        for (const auto& prim : gm.primitives) {
            skinned &= prim.attributes.count("JOINTS_0") && prim.attributes.count("WEIGHTS_0");
            has_normals &= prim.attributes.count("NORMAL") > 0;
            has_uvs &= prim.attributes.count("TEXCOORD_0") > 0;
            has_colors &= prim.attributes.count("COLOR_0") > 0;
        }
        std::vector<glm::mat4> joint_m;
        if (skinned) {
            for (size_t j = 0; j < skin->joints.size(); ++j)
                joint_m.push_back(glm::mat4(world[size_t(skin->joints[j])] * glm::dmat4(skin->inverse_bind[j])));
        }
        const glm::dmat4& w = world[ni];
        const glm::dmat3 wn = glm::transpose(glm::inverse(glm::dmat3(w)));
        for (size_t pi = 0; pi < gm.primitives.size(); ++pi) {
            const auto& prim = gm.primitives[pi];
            const std::string pwhat = what + " primitive " + std::to_string(pi);
            const int mode = prim.mode < 0 ? TINYGLTF_MODE_TRIANGLES : prim.mode;
            if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP && mode != TINYGLTF_MODE_TRIANGLE_FAN) {
                ++dropped;
                continue;
            }
            if (prim.extensions.count("KHR_draco_mesh_compression"))
                return make_error(ErrorCode::Unsupported, file.name() + ": " + pwhat + " is Draco-compressed, which is not supported");
            auto pos_it = prim.attributes.find("POSITION");
            if (pos_it == prim.attributes.end()) return bad(pwhat + " has no POSITION attribute");
            auto pos = reader.floats(pos_it->second, 3, pwhat + " POSITION");
            if (!pos.ok()) return pos.error();
            const size_t nv = pos->size() / 3;
            const auto base = uint32_t(mesh.positions.size());
            if (mesh.positions.size() + nv > UINT32_MAX) return make_error(ErrorCode::LimitExceeded, file.name() + ": " + what + " has too many vertices");
            std::vector<float> nrm, uv, col, wts;
            std::vector<uint32_t> jnt;
            int col_comps = 4;
            if (has_normals) {
                auto r = reader.floats(prim.attributes.at("NORMAL"), 3, pwhat + " NORMAL");
                if (!r.ok()) return r.error();
                nrm = std::move(r.value());
            }
            if (has_uvs) {
                auto r = reader.floats(prim.attributes.at("TEXCOORD_0"), 2, pwhat + " TEXCOORD_0");
                if (!r.ok()) return r.error();
                uv = std::move(r.value());
            }
            if (has_colors) {
                auto cv = reader.view(prim.attributes.at("COLOR_0"), pwhat + " COLOR_0");
                if (!cv.ok()) return cv.error();
                col_comps = cv->comps == 3 ? 3 : 4;
                auto r = reader.floats(prim.attributes.at("COLOR_0"), col_comps, pwhat + " COLOR_0");
                if (!r.ok()) return r.error();
                col = std::move(r.value());
            }
            if (skinned) {
                auto j = reader.uints(prim.attributes.at("JOINTS_0"), 4, pwhat + " JOINTS_0");
                if (!j.ok()) return j.error();
                jnt = std::move(j.value());
                auto r = reader.floats(prim.attributes.at("WEIGHTS_0"), 4, pwhat + " WEIGHTS_0");
                if (!r.ok()) return r.error();
                wts = std::move(r.value());
            }
            if ((has_normals && nrm.size() != 3 * nv) || (has_uvs && uv.size() != 2 * nv) || (has_colors && col.size() != size_t(col_comps) * nv) ||
                (skinned && (jnt.size() != 4 * nv || wts.size() != 4 * nv)))
                return bad(pwhat + ": attribute counts differ from the POSITION count " + std::to_string(nv));
            for (size_t v = 0; v < nv; ++v) {
                glm::dvec3 p(pos.value()[3 * v], pos.value()[3 * v + 1], pos.value()[3 * v + 2]);
                glm::dvec3 nn = has_normals ? glm::dvec3(nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2]) : glm::dvec3(0.0);
                if (skinned) {
                    glm::dmat4 m(0.0);
                    double wsum = 0.0;
                    glm::u16vec4 jv;
                    for (int k = 0; k < 4; ++k) {
                        const uint32_t ji = jnt[4 * v + size_t(k)];
                        const double wk = wts[4 * v + size_t(k)];
                        if (ji >= joint_m.size() && wk == 0.0) {  // an unused slot: harmless, whatever its index
                            jv[k] = 0;
                            continue;
                        }
                        if (ji >= joint_m.size())
                            return bad(pwhat + ": vertex " + std::to_string(v) + " uses joint " + std::to_string(ji) + " but the skin has " +
                                       std::to_string(joint_m.size()));
                        jv[k] = uint16_t(ji);
                        if (!std::isfinite(wk)) return bad(pwhat + ": vertex " + std::to_string(v) + " has a non-finite skin weight");
                        m += glm::dmat4(joint_m[ji]) * wk;
                        wsum += wk;
                    }
                    glm::vec4 weights(wts[4 * v], wts[4 * v + 1], wts[4 * v + 2], wts[4 * v + 3]);
                    if (wsum > 1e-12) {
                        m /= wsum;
                        weights /= float(wsum);  // glTF asks for weights summing to one; skinning blends by them as stored
                        if (std::abs(wsum - 1.0) > 1e-3) ++renormalised_weights;
                    } else {
                        // No weight at all (a broken export): the vertex follows the skin's first joint rather than
                        // collapsing to the origin when it is skinned.
                        m = glm::dmat4(joint_m[0]);
                        jv = glm::u16vec4(0);
                        weights = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
                        ++zero_weights;
                    }
                    p = glm::dvec3(m * glm::dvec4(p, 1.0));
                    nn = glm::transpose(glm::inverse(glm::dmat3(m))) * nn;
                    mesh.joints.push_back(jv);
                    mesh.weights.push_back(weights);
                } else {
                    p = glm::dvec3(w * glm::dvec4(p, 1.0));
                    nn = wn * nn;
                }
                mesh.positions.emplace_back(p);
                if (has_normals) mesh.normals.emplace_back(nn);
                // glTF counts v from the image's top; the engine, as OBJ, FBX and Assimp do, from its bottom, so that
                // one mask image lines up with a model whatever file it came in.
                if (has_uvs) mesh.uvs.emplace_back(uv[2 * v], 1.0f - uv[2 * v + 1]);
                if (has_colors)
                    mesh.colors.emplace_back(col[size_t(col_comps) * v], col[size_t(col_comps) * v + 1], col[size_t(col_comps) * v + 2],
                                             col_comps == 4 ? col[4 * v + 3] : 1.0f);
            }
            std::vector<uint32_t> idx;
            if (prim.indices >= 0) {
                auto r = reader.uints(prim.indices, 1, pwhat + " indices");
                if (!r.ok()) return r.error();
                idx = std::move(r.value());
                for (size_t k = 0; k < idx.size(); ++k) {
                    if (idx[k] >= nv)
                        return bad(pwhat + ": index " + std::to_string(k) + " is " + std::to_string(idx[k]) + " but the primitive has " +
                                   std::to_string(nv) + " vertices");
                }
            } else {
                idx.resize(nv);
                for (size_t k = 0; k < nv; ++k) idx[k] = uint32_t(k);
            }
            append_triangles(mode, idx, base, mesh.indices);
        }
        if (skinned) mesh.skin = n.skin;
        scene.nodes[ni].mesh = int(scene.meshes.size());
        scene.meshes.push_back(std::move(mesh));
    }
    if (dropped) scene.diagnostics.warn(file.name(), std::to_string(dropped) + " point or line primitives were skipped");
    if (zero_weights)
        scene.diagnostics.warn(file.name(), std::to_string(zero_weights) +
                                                " skinned vertices have weights summing to 0; they follow their skin's first joint");
    if (renormalised_weights)
        scene.diagnostics.info(file.name(), std::to_string(renormalised_weights) + " skinned vertices had weights not summing to 1; they were scaled to");

    // Animations: samplers and channels kept as keyframes for later playback.
    for (size_t ai = 0; ai < model.animations.size(); ++ai) {
        const auto& ka = model.animations[ai];
        Animation anim;
        anim.name = ka.name;
        for (size_t ci = 0; ci < ka.channels.size(); ++ci) {
            const auto& kc = ka.channels[ci];
            const std::string what = "animation " + std::to_string(ai) + " channel " + std::to_string(ci);
            if (kc.sampler < 0 || size_t(kc.sampler) >= ka.samplers.size()) return bad(what + " refers to a missing sampler");
            if (kc.target_node < 0) continue;  // targets an extension object; nothing to drive
            if (size_t(kc.target_node) >= node_count) return bad(what + " targets missing node " + std::to_string(kc.target_node));
            const auto& ks = ka.samplers[size_t(kc.sampler)];
            AnimationChannel ch;
            ch.node = kc.target_node;
            int comps = 0;
            if (kc.target_path == "translation") { ch.path = AnimPath::Translation; comps = 3; }
            else if (kc.target_path == "rotation") { ch.path = AnimPath::Rotation; comps = 4; }
            else if (kc.target_path == "scale") { ch.path = AnimPath::Scale; comps = 3; }
            else if (kc.target_path == "weights") { ch.path = AnimPath::Weights; comps = 1; }
            else return bad(what + " has an unknown target path '" + kc.target_path + "'");
            if (ks.interpolation == "STEP") ch.interpolation = AnimInterpolation::Step;
            else if (ks.interpolation == "CUBICSPLINE") ch.interpolation = AnimInterpolation::CubicSpline;
            else ch.interpolation = AnimInterpolation::Linear;
            auto times = reader.floats(ks.input, 1, what + " input");
            if (!times.ok()) return times.error();
            auto values = reader.floats(ks.output, comps == 1 ? 1 : comps, what + " output");
            if (!values.ok()) return values.error();
            const size_t keys = times->size();
            const size_t per_key = size_t(comps) * (ch.interpolation == AnimInterpolation::CubicSpline ? 3 : 1);
            bool valid = keys > 0 && (ch.path == AnimPath::Weights ? values->size() % (keys * per_key) == 0 : values->size() == keys * per_key);
            for (size_t k = 0; valid && k < keys; ++k) valid = std::isfinite((*times)[k]) && (k == 0 || (*times)[k] > (*times)[k - 1]);
            for (size_t k = 0; valid && k < values->size(); ++k) valid = std::isfinite((*values)[k]);
            if (!valid) {
                scene.diagnostics.warn(file.name(), what + " has inconsistent or non-increasing keyframes and was skipped");
                continue;
            }
            anim.duration_s = std::max(anim.duration_s, double(times->back()));
            ch.times_s = std::move(times.value());
            ch.values = std::move(values.value());
            anim.channels.push_back(std::move(ch));
        }
        scene.animations.push_back(std::move(anim));
    }
    return scene;
}

}  // namespace tressel::detail
