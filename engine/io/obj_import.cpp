// Wavefront OBJ reader. Written here rather than taken from Assimp so that (1) the file's own vertex
// indexing survives (Assimp emits one vertex per face corner, which would hide duplicate positions and
// give a scalp one guide per corner) and (2) every malformed line is reported with its line number.
// Supported: v (optionally with r g b), vt, vn, f with v, v/vt, v//vn, v/vt/vn and negative (relative)
// indices; polygons are fan-triangulated from their first corner (exact for convex polygons). l, p, o, g,
// s, usemtl, mtllib and unknown statements are skipped; materials are ignored.
#include <charconv>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "io/import_detail.h"

namespace tressel::detail {

namespace {

struct Corner {
    int64_t v = 0, vt = 0, vn = 0;  // 1-based file indices after resolving negatives; 0 = absent
    bool operator==(const Corner&) const = default;
};

struct CornerHash {
    size_t operator()(const Corner& c) const {
        uint64_t h = uint64_t(c.v) * 0x9E3779B97F4A7C15ull;
        h ^= uint64_t(c.vt) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
        h ^= uint64_t(c.vn) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
        return size_t(h);
    }
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Splits a line into whitespace-separated tokens (at most `max` kept; `count` is the real number).
struct Tokens {
    std::string_view t[24];
    size_t count = 0;
};

Tokens split(std::string_view line) {
    Tokens out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        if (i >= line.size()) break;
        size_t j = i;
        while (j < line.size() && !is_space(line[j])) ++j;
        if (out.count < std::size(out.t)) out.t[out.count] = line.substr(i, j - i);
        ++out.count;
        i = j;
    }
    return out;
}

bool parse_float(std::string_view s, float& out) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parse_int(std::string_view s, int64_t& out) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

Result<ImportedScene> import_obj(const SourceFile& file, FileFrame&, Progress* progress) {
    const std::string_view text(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size());
    std::vector<glm::vec3> v;
    std::vector<glm::vec3> vcolor;
    std::vector<glm::vec2> vt;
    std::vector<glm::vec3> vn;
    std::vector<Corner> corners;  // 3 per triangle
    size_t lines_elems = 0, point_elems = 0, colored = 0;
    bool any_vt = false, all_vn = true;

    size_t line_no = 0;
    size_t pos = 0;
    Corner poly[256];
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if ((line_no & 0xFFFF) == 0 && progress) {
            if (progress->cancelled()) return make_error(ErrorCode::Cancelled, "import of " + file.name() + " was cancelled");
            progress->set(0.1f + 0.6f * float(pos) / float(text.size()));
        }
        size_t first = 0;
        while (first < line.size() && is_space(line[first])) ++first;
        if (first == line.size() || line[first] == '#') continue;
        Tokens tok = split(line);
        const std::string_view key = tok.t[0];
        auto bad = [&](const std::string& what) { return make_error(ErrorCode::Parse, at_line(file, line_no) + what); };
        auto read_floats = [&](size_t from, size_t n, float* out) -> Status {
            for (size_t k = 0; k < n; ++k) {
                std::string_view s = tok.t[from + k];
                if (!parse_float(s, out[k])) return bad("'" + std::string(s) + "' is not a number");
                if (!std::isfinite(out[k])) return bad("non-finite coordinate '" + std::string(s) + "'");
            }
            return {};
        };
        if (key == "v") {
            if (tok.count < 4) return bad("a vertex needs 3 coordinates, found " + std::to_string(tok.count - 1));
            float c[6] = {0, 0, 0, 0, 0, 0};
            TRESSEL_TRY(read_floats(1, 3, c));
            if (tok.count >= 7) {
                TRESSEL_TRY(read_floats(4, 3, c + 3));
                ++colored;
            }
            v.emplace_back(c[0], c[1], c[2]);
            vcolor.emplace_back(c[3], c[4], c[5]);
        } else if (key == "vt") {
            if (tok.count < 2) return bad("a texture coordinate needs at least 1 value");
            float c[2] = {0, 0};
            TRESSEL_TRY(read_floats(1, tok.count >= 3 ? 2 : 1, c));
            vt.emplace_back(c[0], c[1]);
        } else if (key == "vn") {
            if (tok.count < 4) return bad("a normal needs 3 components, found " + std::to_string(tok.count - 1));
            float c[3];
            TRESSEL_TRY(read_floats(1, 3, c));
            vn.emplace_back(c[0], c[1], c[2]);
        } else if (key == "f") {
            if (tok.count < 4) return bad("a face needs at least 3 vertices, found " + std::to_string(tok.count - 1));
            if (tok.count - 1 > std::size(poly))
                return bad("a face with " + std::to_string(tok.count - 1) + " vertices is above the limit of 256");
            std::vector<std::string_view> parts;
            if (tok.count > std::size(tok.t)) {
                size_t i = 0;
                while (i < line.size()) {
                    while (i < line.size() && is_space(line[i])) ++i;
                    size_t j = i;
                    while (j < line.size() && !is_space(line[j])) ++j;
                    if (j > i) parts.push_back(line.substr(i, j - i));
                    i = j;
                }
            } else {
                parts.assign(tok.t, tok.t + tok.count);
            }
            const size_t n = parts.size() - 1;
            for (size_t k = 0; k < n; ++k) {
                std::string_view s = parts[k + 1];
                int64_t idx[3] = {0, 0, 0};
                const size_t sizes[3] = {v.size(), vt.size(), vn.size()};
                const char* names[3] = {"vertex", "texture coordinate", "normal"};
                for (int f = 0; f < 3; ++f) {
                    size_t slash = s.find('/');
                    std::string_view part = s.substr(0, slash);
                    if (!part.empty() || f == 0) {
                        if (!parse_int(part, idx[f])) return bad("face index '" + std::string(parts[k + 1]) + "' is not an integer");
                        const int64_t count = int64_t(sizes[f]);
                        if (idx[f] < 0) idx[f] = count + 1 + idx[f];
                        if (idx[f] < 1 || idx[f] > count)
                            return bad(std::string(names[f]) + " index " + std::string(part) + " is out of range (" +
                                       std::to_string(count) + " defined so far)");
                    }
                    if (slash == std::string_view::npos) break;
                    s.remove_prefix(slash + 1);
                }
                poly[k] = Corner{idx[0], idx[1], idx[2]};
                any_vt |= idx[1] != 0;
                all_vn &= idx[2] != 0;
            }
            for (size_t k = 1; k + 1 < n; ++k) {
                corners.push_back(poly[0]);
                corners.push_back(poly[k]);
                corners.push_back(poly[k + 1]);
            }
        } else if (key == "l") {
            ++lines_elems;
        } else if (key == "p") {
            ++point_elems;
        }
    }
    if (corners.empty()) {
        return make_error(ErrorCode::Parse, file.name() + ": the file contains no faces (" + std::to_string(v.size()) + " vertices, " +
                                                std::to_string(lines_elems) + " line and " + std::to_string(point_elems) +
                                                " point elements): a mesh needs triangles");
    }

    ImportedScene scene;
    Mesh mesh;
    mesh.name = file.path.stem().string();
    const bool use_vn = all_vn && !vn.empty();
    const bool use_color = colored == v.size() && colored > 0;
    if (!all_vn && !vn.empty()) scene.diagnostics.warn(file.name(), "some faces have no normals; all normals are recomputed");
    if (!any_vt && !use_vn) {
        // No per-corner attributes: keep the file's vertex list exactly, unreferenced vertices included.
        mesh.positions = std::move(v);
        if (use_color) {
            for (const auto& c : vcolor) mesh.colors.emplace_back(c, 1.0f);
        }
        mesh.indices.reserve(corners.size());
        for (const auto& c : corners) mesh.indices.push_back(uint32_t(c.v - 1));
    } else {
        std::unordered_map<Corner, uint32_t, CornerHash> map;
        map.reserve(corners.size());
        mesh.indices.reserve(corners.size());
        for (const auto& c0 : corners) {
            Corner c{c0.v, any_vt ? c0.vt : 0, use_vn ? c0.vn : 0};
            auto [it, inserted] = map.try_emplace(c, uint32_t(mesh.positions.size()));
            if (inserted) {
                mesh.positions.push_back(v[size_t(c.v - 1)]);
                if (use_color) mesh.colors.emplace_back(vcolor[size_t(c.v - 1)], 1.0f);
                if (any_vt) mesh.uvs.push_back(c.vt ? vt[size_t(c.vt - 1)] : glm::vec2(0.0f));
                if (use_vn) mesh.normals.push_back(vn[size_t(c.vn - 1)]);
            }
            mesh.indices.push_back(it->second);
        }
    }
    if (lines_elems + point_elems > 0)
        scene.diagnostics.info(file.name(), "line and point elements were skipped (" + std::to_string(lines_elems + point_elems) + ")");
    return single_mesh_scene(std::move(mesh), std::move(scene));
}

}  // namespace tressel::detail
