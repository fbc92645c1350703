#include "export/export_gltf.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include <tiny_gltf.h>

#include "core/file_io.h"

namespace tressel {
namespace {

constexpr int kArrayBuffer = 34962;         // GL_ARRAY_BUFFER
constexpr int kElementArrayBuffer = 34963;  // GL_ELEMENT_ARRAY_BUFFER

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

class Builder {
public:
    tinygltf::Model model;

    Builder() { model.buffers.emplace_back(); }

    // Appends `bytes` as a buffer view (4-byte aligned) and an accessor over it.
    int accessor(const void* data, size_t bytes, int target, int component, int type, size_t count,
                 std::vector<double> min = {}, std::vector<double> max = {}) {
        auto& buf = model.buffers[0].data;
        buf.resize((buf.size() + 3) & ~size_t(3), 0);
        tinygltf::BufferView view;
        view.buffer = 0;
        view.byteOffset = buf.size();
        view.byteLength = bytes;
        view.target = target;
        const auto* p = static_cast<const unsigned char*>(data);
        buf.insert(buf.end(), p, p + bytes);
        model.bufferViews.push_back(view);
        tinygltf::Accessor a;
        a.bufferView = int(model.bufferViews.size() - 1);
        a.byteOffset = 0;
        a.componentType = component;
        a.type = type;
        a.count = count;
        a.minValues = std::move(min);
        a.maxValues = std::move(max);
        model.accessors.push_back(a);
        return int(model.accessors.size() - 1);
    }

    int positions(const std::vector<glm::vec3>& p) {
        glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
        for (const auto& v : p) lo = glm::min(lo, v), hi = glm::max(hi, v);
        return accessor(p.data(), p.size() * sizeof(glm::vec3), kArrayBuffer, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3,
                        p.size(), {lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z});
    }

    void add_node(const std::string& name, int mesh) {
        tinygltf::Node n;
        n.name = name;
        n.mesh = mesh;
        model.nodes.push_back(n);
        model.scenes[0].nodes.push_back(int(model.nodes.size() - 1));
    }
};

Error invalid(const std::string& what) { return make_error(ErrorCode::InvalidArgument, "gltf: " + what); }

Status add_mesh(Builder& b, const Mesh& m, size_t index) {
    const std::string who = "mesh " + std::to_string(index) + " (\"" + m.name + "\")";
    if (m.positions.empty() || m.indices.empty() || m.indices.size() % 3 != 0) return invalid(who + " has no triangles");
    for (uint32_t i : m.indices)
        if (i >= m.positions.size()) return invalid(who + " has an index past its " + std::to_string(m.positions.size()) + " vertices");
    for (const auto& p : m.positions)
        if (!finite(p)) return invalid(who + " has a position that is not finite");
    tinygltf::Primitive prim;
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    prim.attributes["POSITION"] = b.positions(m.positions);
    if (m.normals.size() == m.positions.size()) {
        std::vector<glm::vec3> n(m.normals.size());
        bool ok = true;
        for (size_t i = 0; i < n.size() && ok; ++i) {
            const float len = glm::length(m.normals[i]);
            ok = std::isfinite(len) && len > 1e-6f;
            if (ok) n[i] = m.normals[i] / len;
        }
        if (ok)
            prim.attributes["NORMAL"] = b.accessor(n.data(), n.size() * sizeof(glm::vec3), kArrayBuffer, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                                   TINYGLTF_TYPE_VEC3, n.size());
    }
    if (m.uvs.size() == m.positions.size()) {
        bool ok = true;
        for (const auto& uv : m.uvs) ok = ok && std::isfinite(uv.x) && std::isfinite(uv.y);
        std::vector<glm::vec2> uv(m.uvs.size());  // glTF counts v from the image's top, the engine from its bottom
        for (size_t i = 0; i < uv.size(); ++i) uv[i] = glm::vec2(m.uvs[i].x, 1.0f - m.uvs[i].y);
        if (ok)
            prim.attributes["TEXCOORD_0"] = b.accessor(uv.data(), uv.size() * sizeof(glm::vec2), kArrayBuffer, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                                       TINYGLTF_TYPE_VEC2, uv.size());
    }
    prim.indices = b.accessor(m.indices.data(), m.indices.size() * 4, kElementArrayBuffer, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT,
                              TINYGLTF_TYPE_SCALAR, m.indices.size());
    tinygltf::Mesh mesh;
    mesh.name = m.name;
    mesh.primitives.push_back(prim);
    b.model.meshes.push_back(mesh);
    b.add_node(m.name, int(b.model.meshes.size() - 1));
    return {};
}

Status add_strands(Builder& b, const GltfStrandSet& s) {
    const std::string who = "strand set \"" + s.name + "\"";
    if (s.strand_count() == 0) return invalid(who + " has no strands");
    if (s.strand_offsets.front() != 0 || s.strand_offsets.back() != s.points_m.size())
        return invalid(who + ": strand_offsets do not span the points");
    if (!s.colors.empty() && s.colors.size() != s.points_m.size()) return invalid(who + ": colors must be one per point");
    std::vector<uint32_t> idx;
    idx.reserve(2 * s.points_m.size());
    for (size_t i = 0; i < s.strand_count(); ++i) {
        if (s.strand_offsets[i + 1] < s.strand_offsets[i] + 2) return invalid(who + ": strand " + std::to_string(i) + " has fewer than 2 points");
        for (uint32_t k = s.strand_offsets[i]; k + 1 < s.strand_offsets[i + 1]; ++k) idx.insert(idx.end(), {k, k + 1});
    }
    for (const auto& p : s.points_m)
        if (!finite(p)) return invalid(who + " has a point that is not finite");
    tinygltf::Primitive prim;
    prim.mode = TINYGLTF_MODE_LINE;
    prim.attributes["POSITION"] = b.positions(s.points_m);
    if (!s.colors.empty()) {
        std::vector<glm::vec4> c(s.colors.size());
        for (size_t i = 0; i < c.size(); ++i) c[i] = glm::clamp(s.colors[i], glm::vec4(0.0f), glm::vec4(1.0f));
        prim.attributes["COLOR_0"] = b.accessor(c.data(), c.size() * sizeof(glm::vec4), kArrayBuffer, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                                TINYGLTF_TYPE_VEC4, c.size());
    }
    prim.indices = b.accessor(idx.data(), idx.size() * 4, kElementArrayBuffer, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT,
                              TINYGLTF_TYPE_SCALAR, idx.size());
    tinygltf::Mesh mesh;
    mesh.name = s.name;
    mesh.primitives.push_back(prim);
    b.model.meshes.push_back(mesh);
    b.add_node(s.name, int(b.model.meshes.size() - 1));
    return {};
}

}  // namespace

Result<std::vector<uint8_t>> encode_gltf(const GltfExportDesc& desc) {
    if (desc.meshes.empty() && desc.strands.empty()) return invalid("nothing to export (no meshes and no strands)");
    Builder b;
    b.model.asset.version = "2.0";
    b.model.asset.generator = desc.generator;
    b.model.scenes.emplace_back();
    b.model.defaultScene = 0;
    for (size_t i = 0; i < desc.meshes.size(); ++i) {
        TRESSEL_ASSERT(desc.meshes[i] != nullptr, "GltfExportDesc::meshes must not hold null pointers");
        TRESSEL_TRY(add_mesh(b, *desc.meshes[i], i));
    }
    for (const auto& s : desc.strands) TRESSEL_TRY(add_strands(b, s));
    if (b.model.buffers[0].data.size() > 0xFFFFFFF0ull) return make_error(ErrorCode::LimitExceeded, "gltf: the buffer passes 4 GiB");
    b.model.buffers[0].data.resize((b.model.buffers[0].data.size() + 3) & ~size_t(3), 0);
    std::ostringstream os;
    tinygltf::TinyGLTF writer;
    if (!writer.WriteGltfSceneToStream(&b.model, os, !desc.binary, desc.binary))
        return make_error(ErrorCode::Io, "gltf: tinygltf could not serialise the model");
    const std::string s = std::move(os).str();
    return std::vector<uint8_t>(s.begin(), s.end());
}

Status write_gltf_file(const std::filesystem::path& path, const GltfExportDesc& desc) {
    auto bytes = encode_gltf(desc);
    if (!bytes) return make_error(bytes.error().code, path.string() + ": " + bytes.error().message);
    return write_file_atomic(path, std::span<const uint8_t>(*bytes));
}

Result<std::vector<GltfStrandSet>> read_gltf_strands(const std::filesystem::path& path) {
    const std::string name = path.string();
    auto bytes = read_file_bytes(path);
    if (!bytes) return bytes.error();
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    tinygltf::TinyGLTF loader;
    tinygltf::Model model;
    std::string err, warn;
    const bool ok = ext == ".glb"
                        ? loader.LoadBinaryFromMemory(&model, &err, &warn, bytes->data(), unsigned(bytes->size()), path.parent_path().string())
                        : loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes->data()),
                                                     unsigned(bytes->size()), path.parent_path().string());
    if (!ok) return make_error(ErrorCode::Parse, name + ": " + (err.empty() ? "not a glTF file" : err));

    // A tightly packed accessor's bytes, bounds-checked against its view and buffer.
    auto data = [&](int index, int component, int type, size_t elem_bytes) -> Result<std::pair<const uint8_t*, size_t>> {
        if (index < 0 || size_t(index) >= model.accessors.size()) return make_error(ErrorCode::Parse, name + ": accessor " + std::to_string(index) + " does not exist");
        const auto& a = model.accessors[size_t(index)];
        const std::string who = name + ": accessor " + std::to_string(index);
        if (a.componentType != component || a.type != type) return make_error(ErrorCode::Parse, who + " has an unexpected type");
        if (a.bufferView < 0 || size_t(a.bufferView) >= model.bufferViews.size()) return make_error(ErrorCode::Parse, who + " has no buffer view");
        const auto& v = model.bufferViews[size_t(a.bufferView)];
        if (v.byteStride != 0 && v.byteStride != elem_bytes) return make_error(ErrorCode::Parse, who + " is interleaved (not written by Tressel)");
        if (v.buffer < 0 || size_t(v.buffer) >= model.buffers.size()) return make_error(ErrorCode::Parse, who + ": bad buffer");
        const auto& buf = model.buffers[size_t(v.buffer)].data;
        const uint64_t start = uint64_t(v.byteOffset) + a.byteOffset, len = uint64_t(a.count) * elem_bytes;
        if (a.byteOffset + len > v.byteLength || start + len > buf.size()) return make_error(ErrorCode::Parse, who + " runs past its buffer");
        return std::pair<const uint8_t*, size_t>{buf.data() + start, size_t(a.count)};
    };

    std::vector<GltfStrandSet> out;
    for (const auto& mesh : model.meshes) {
        for (const auto& prim : mesh.primitives) {
            if (prim.mode != TINYGLTF_MODE_LINE) continue;
            GltfStrandSet s;
            s.name = mesh.name;
            auto pos_it = prim.attributes.find("POSITION");
            if (pos_it == prim.attributes.end()) return make_error(ErrorCode::Parse, name + ": mesh \"" + mesh.name + "\" has lines without POSITION");
            auto pos = data(pos_it->second, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, 12);
            if (!pos) return pos.error();
            s.points_m.resize(pos->second);
            std::memcpy(s.points_m.data(), pos->first, pos->second * 12);
            if (auto c = prim.attributes.find("COLOR_0"); c != prim.attributes.end()) {
                auto col = data(c->second, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, 16);
                if (!col) return col.error();
                if (col->second != s.points_m.size()) return make_error(ErrorCode::Parse, name + ": COLOR_0 and POSITION differ in count");
                s.colors.resize(col->second);
                std::memcpy(s.colors.data(), col->first, col->second * 16);
            }
            auto idx = data(prim.indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, 4);
            if (!idx) return idx.error();
            std::vector<uint32_t> ind(idx->second);
            std::memcpy(ind.data(), idx->first, idx->second * 4);
            if (ind.size() % 2 != 0) return make_error(ErrorCode::Parse, name + ": mesh \"" + mesh.name + "\": odd LINES index count");
            // Consecutive ranges: segment (a, a + 1); a new strand where a is not the previous b.
            s.strand_offsets = {0};
            for (size_t i = 0; i < ind.size(); i += 2) {
                const uint32_t a = ind[i], bb = ind[i + 1];
                if (bb != a + 1 || bb >= s.points_m.size())
                    return make_error(ErrorCode::Parse, name + ": mesh \"" + mesh.name + "\": segment " + std::to_string(i / 2) +
                                                            " is not (i, i+1) inside the points (not a strand set Tressel wrote)");
                if (i == 0) {
                    if (a != 0) return make_error(ErrorCode::Parse, name + ": mesh \"" + mesh.name + "\": the first strand does not start at vertex 0");
                } else if (a != ind[i - 1]) {
                    if (a != ind[i - 1] + 1) return make_error(ErrorCode::Parse, name + ": mesh \"" + mesh.name + "\": vertices between strands are unused");
                    s.strand_offsets.push_back(a);
                }
            }
            if (!ind.empty()) s.strand_offsets.push_back(ind.back() + 1);
            if (s.strand_offsets.back() != s.points_m.size())
                return make_error(ErrorCode::Parse, name + ": mesh \"" + mesh.name + "\": points after the last strand are unused");
            out.push_back(std::move(s));
        }
    }
    return out;
}

}  // namespace tressel
