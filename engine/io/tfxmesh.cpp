#include "io/tfxmesh.h"

#include <charconv>
#include <cmath>

#include "core/file_io.h"
#include "io/import_detail.h"
#include "io/mesh_ops.h"

namespace tressel {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Content lines of the file (blank lines and '#' comments skipped), with 1-based line numbers.
class Lines {
public:
    Lines(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

    bool next() {
        while (pos_ < text_.size()) {
            size_t end = text_.find('\n', pos_);
            if (end == std::string_view::npos) end = text_.size();
            line_ = text_.substr(pos_, end - pos_);
            pos_ = end + 1;
            ++line_no_;
            size_t i = 0;
            while (i < line_.size() && is_space(line_[i])) ++i;
            if (i == line_.size() || line_[i] == '#') continue;
            tokens_.clear();
            while (i < line_.size()) {
                size_t j = i;
                while (j < line_.size() && !is_space(line_[j])) ++j;
                tokens_.push_back(line_.substr(i, j - i));
                while (j < line_.size() && is_space(line_[j])) ++j;
                i = j;
            }
            return true;
        }
        return false;
    }
    const std::vector<std::string_view>& tokens() const { return tokens_; }
    std::string_view line() const { return line_; }
    size_t remaining_bytes() const { return pos_ < text_.size() ? text_.size() - pos_ : 0; }
    Error error(const std::string& what) const { return make_error(ErrorCode::Parse, file_ + ":" + std::to_string(line_no_) + ": " + what); }
    Error eof(const std::string& what) const { return make_error(ErrorCode::Parse, file_ + ": the file ends before " + what + " (truncated?)"); }

private:
    std::string_view text_;
    std::string file_;
    size_t pos_ = 0;
    size_t line_no_ = 0;
    std::string_view line_;
    std::vector<std::string_view> tokens_;
};

bool to_int(std::string_view s, int64_t& out) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool to_float(std::string_view s, float& out) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// "<keyword> <count>" header line; the count must fit in the bytes left at `min_line_bytes` per entry.
Result<size_t> read_count(Lines& lines, const char* keyword, size_t min_line_bytes) {
    if (!lines.next()) return lines.eof(std::string("'") + keyword + "'");
    const auto& t = lines.tokens();
    if (t.size() != 2 || t[0] != keyword) return lines.error(std::string("expected '") + keyword + " <count>'");
    int64_t n = 0;
    if (!to_int(t[1], n) || n < 0) return lines.error("'" + std::string(t[1]) + "' is not a valid count");
    if (uint64_t(n) > lines.remaining_bytes() / min_line_bytes)
        return lines.error(std::string(keyword) + " " + std::to_string(n) + " is more than the remaining " +
                           std::to_string(lines.remaining_bytes()) + " bytes of the file can hold");
    return size_t(n);
}

void append_float(std::string& out, float v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

}  // namespace

Result<TfxMesh> parse_tfxmesh(std::string_view text, const std::string& file_name) {
    Lines lines(text, file_name);
    TfxMesh out;
    Mesh& mesh = out.mesh;

    auto bones = read_count(lines, "numOfBones", 3);
    if (!bones.ok()) return bones.error();
    out.bone_names.reserve(*bones);
    for (size_t i = 0; i < *bones; ++i) {
        if (!lines.next()) return lines.eof("bone " + std::to_string(i));
        const auto& t = lines.tokens();
        int64_t idx = -1;
        if (t.size() < 2) return lines.error("a bone line needs '<index> <name>', found " + std::to_string(t.size()) + " tokens");
        if (!to_int(t[0], idx) || idx != int64_t(i)) return lines.error("expected bone index " + std::to_string(i) + ", found '" + std::string(t[0]) + "'");
        std::string_view line = lines.line();
        size_t name_start = size_t(t[1].data() - line.data());
        std::string_view name = line.substr(name_start);
        while (!name.empty() && is_space(name.back())) name.remove_suffix(1);
        out.bone_names.emplace_back(name);
    }

    auto verts = read_count(lines, "numOfVertices", 29);
    if (!verts.ok()) return verts.error();
    const size_t nv = *verts;
    mesh.positions.reserve(nv);
    mesh.normals.reserve(nv);
    mesh.joints.reserve(nv);
    mesh.weights.reserve(nv);
    for (size_t i = 0; i < nv; ++i) {
        if (!lines.next()) return lines.eof("vertex " + std::to_string(i));
        const auto& t = lines.tokens();
        if (t.size() != 15) return lines.error("a vertex line needs 15 tokens (index, position, normal, 4 bones, 4 weights), found " + std::to_string(t.size()));
        int64_t idx = -1;
        if (!to_int(t[0], idx) || idx != int64_t(i)) return lines.error("expected vertex index " + std::to_string(i) + ", found '" + std::string(t[0]) + "'");
        float f[6];
        for (int k = 0; k < 6; ++k) {
            if (!to_float(t[size_t(1 + k)], f[k])) return lines.error("'" + std::string(t[size_t(1 + k)]) + "' is not a number");
            if (!std::isfinite(f[k])) return lines.error("non-finite value '" + std::string(t[size_t(1 + k)]) + "'");
        }
        glm::u16vec4 j(0);
        glm::vec4 w(0.0f);
        for (int k = 0; k < 4; ++k) {
            int64_t b = 0;
            std::string_view bt = t[size_t(7 + k)], wt = t[size_t(11 + k)];
            if (!to_int(bt, b)) return lines.error("bone index '" + std::string(bt) + "' is not an integer");
            if (b == -1) b = 0;  // TressFX writes -1 for an unused slot and reads it as bone 0
            if (b < 0 || uint64_t(b) >= out.bone_names.size())
                return lines.error("bone index " + std::to_string(b) + " is out of range (" + std::to_string(out.bone_names.size()) + " bones)");
            float wk = 0.0f;
            if (!to_float(wt, wk)) return lines.error("weight '" + std::string(wt) + "' is not a number");
            if (!std::isfinite(wk) || wk < 0.0f) return lines.error("weight '" + std::string(wt) + "' is negative or not finite");
            j[k] = uint16_t(b);
            w[k] = wk;
        }
        const float sum = w.x + w.y + w.z + w.w;
        w = sum > 0.0f ? w / sum : glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
        mesh.positions.emplace_back(f[0], f[1], f[2]);
        mesh.normals.emplace_back(f[3], f[4], f[5]);
        mesh.joints.push_back(j);
        mesh.weights.push_back(w);
    }

    auto tris = read_count(lines, "numOfTriangles", 7);
    if (!tris.ok()) return tris.error();
    mesh.indices.reserve(*tris * 3);
    for (size_t i = 0; i < *tris; ++i) {
        if (!lines.next()) return lines.eof("triangle " + std::to_string(i));
        const auto& t = lines.tokens();
        if (t.size() != 4) return lines.error("a triangle line needs 4 tokens (index and 3 vertex indices), found " + std::to_string(t.size()));
        int64_t idx = -1;
        if (!to_int(t[0], idx) || idx != int64_t(i)) return lines.error("expected triangle index " + std::to_string(i) + ", found '" + std::string(t[0]) + "'");
        for (int k = 1; k < 4; ++k) {
            int64_t v = -1;
            if (!to_int(t[size_t(k)], v)) return lines.error("vertex index '" + std::string(t[size_t(k)]) + "' is not an integer");
            if (v < 0 || uint64_t(v) >= nv) return lines.error("vertex index " + std::to_string(v) + " is out of range (" + std::to_string(nv) + " vertices)");
            mesh.indices.push_back(uint32_t(v));
        }
    }
    if (lines.next()) return lines.error("unexpected content after the last triangle");
    if (mesh.indices.empty()) return make_error(ErrorCode::Parse, file_name + ": the mesh has no triangles");
    // Normals from the file are kept when all are usable, recomputed otherwise.
    for (auto& n : mesh.normals) {
        float len = glm::length(n);
        if (!(len > 1e-20f)) {
            compute_vertex_normals(mesh);
            break;
        }
        n /= len;
    }
    return out;
}

Result<TfxMesh> read_tfxmesh(const std::filesystem::path& path, uint64_t max_file_bytes) {
    auto text = read_file_text(path, max_file_bytes);
    if (!text.ok()) return text.error();
    if (text->empty()) return make_error(ErrorCode::Parse, path.string() + ": the file is empty");
    auto r = parse_tfxmesh(*text, path.string());
    if (r.ok()) r->mesh.name = path.stem().string();
    return r;
}

Status write_tfxmesh(const Mesh& mesh, const std::vector<std::string>& bone_names, const std::filesystem::path& path) {
    const std::string where = "writing " + path.string();
    TRESSEL_TRY(validate_mesh(mesh, where));
    if (mesh.indices.empty()) return make_error(ErrorCode::InvalidArgument, where + ": the mesh has no triangles");
    if (bone_names.empty()) return make_error(ErrorCode::InvalidArgument, where + ": at least one bone name is needed");
    for (const auto& name : bone_names) {
        bool ok = !name.empty();
        for (char c : name) ok &= !is_space(c) && c != '\n';
        if (!ok) return make_error(ErrorCode::InvalidArgument, where + ": bone name '" + name + "' is empty or contains whitespace");
    }
    for (const auto& j : mesh.joints) {
        for (int k = 0; k < 4; ++k) {
            if (j[k] >= bone_names.size())
                return make_error(ErrorCode::InvalidArgument, where + ": joint index " + std::to_string(j[k]) + " is not below the " +
                                                                  std::to_string(bone_names.size()) + " bone names");
        }
    }
    Mesh with_normals;
    const std::vector<glm::vec3>* normals = &mesh.normals;
    if (!mesh.has_normals()) {
        with_normals.positions = mesh.positions;
        with_normals.indices = mesh.indices;
        compute_vertex_normals(with_normals);
        normals = &with_normals.normals;
    }

    std::string out;
    out.reserve(64 + bone_names.size() * 32 + mesh.positions.size() * 120 + mesh.indices.size() * 8);
    out += "# TressFX collision mesh\nnumOfBones " + std::to_string(bone_names.size()) + "\n# bone index, bone name\n";
    for (size_t i = 0; i < bone_names.size(); ++i) out += std::to_string(i) + " " + bone_names[i] + "\n";
    out += "numOfVertices " + std::to_string(mesh.positions.size()) +
           "\n# vertex index, vertex position x, y, z, normal x, y, z, joint indices 0-3, weights 0-3\n";
    const bool skinned = !mesh.joints.empty();
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        out += std::to_string(i);
        const glm::vec3& p = mesh.positions[i];
        const glm::vec3& n = (*normals)[i];
        for (float v : {p.x, p.y, p.z, n.x, n.y, n.z}) {
            out += ' ';
            append_float(out, v);
        }
        const glm::u16vec4 j = skinned ? mesh.joints[i] : glm::u16vec4(0);
        const glm::vec4 w = skinned ? mesh.weights[i] : glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
        for (int k = 0; k < 4; ++k) out += ' ' + std::to_string(j[k]);
        for (int k = 0; k < 4; ++k) {
            out += ' ';
            append_float(out, w[k]);
        }
        out += '\n';
    }
    out += "numOfTriangles " + std::to_string(mesh.triangle_count()) + "\n# triangle index, vertex index 0, 1, 2\n";
    for (size_t t = 0; t < mesh.triangle_count(); ++t) {
        out += std::to_string(t) + " " + std::to_string(mesh.indices[3 * t]) + " " + std::to_string(mesh.indices[3 * t + 1]) + " " +
               std::to_string(mesh.indices[3 * t + 2]) + "\n";
    }
    return write_file_atomic(path, std::string_view(out));
}

namespace detail {

Result<ImportedScene> import_tfxmesh_scene(const SourceFile& file) {
    auto parsed = parse_tfxmesh(std::string_view(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size()), file.name());
    if (!parsed.ok()) return parsed.error();
    TfxMesh& tfx = parsed.value();
    tfx.mesh.name = file.path.stem().string();
    ImportedScene scene;
    Skin skin;
    skin.name = tfx.mesh.name;
    for (const auto& bone : tfx.bone_names) {
        skin.joints.push_back(int(scene.nodes.size()));
        Node n;
        n.name = bone;
        scene.nodes.push_back(n);
    }
    skin.inverse_bind.assign(skin.joints.size(), glm::mat4(1.0f));
    Node mesh_node;
    mesh_node.name = tfx.mesh.name;
    mesh_node.mesh = 0;
    if (!skin.joints.empty()) {
        mesh_node.skin = 0;
        tfx.mesh.skin = 0;
        scene.skins.push_back(std::move(skin));
    }
    scene.nodes.push_back(mesh_node);
    scene.meshes.push_back(std::move(tfx.mesh));
    return scene;
}

}  // namespace detail

}  // namespace tressel
