// PLY (Stanford polygon files), read here rather than by Assimp: ASCII and binary of either byte order,
// every scalar type, lists with any integer count and index type, polygons of any size, triangle strips
// (the `tristrips` element of published scans, -1 restarting a strip), and per-vertex normals, texture
// coordinates and colours. Assimp's reader crashed on mutated headers, spun on a spliced keyword and read a
// strip element as one triangle without a word; this one walks the file once, checks every count against
// the bytes that are there before it allocates, and refuses what it cannot read with the line or byte.
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include "io/import_detail.h"

namespace tressel::detail {

namespace {

enum class PlyFormat { Ascii, BinaryLE, BinaryBE };

struct PlyProperty {
    std::string name;
    int size = 0;          // bytes of the scalar (or of the list items)
    bool is_float = false;
    bool is_signed = false;
    bool is_list = false;
    int count_size = 0;    // bytes of the list count
};

struct PlyElement {
    std::string name;
    uint64_t count = 0;
    std::vector<PlyProperty> props;
};

struct PlyHeader {
    PlyFormat format = PlyFormat::Ascii;
    std::vector<PlyElement> elements;
    size_t body = 0;       // byte offset of the body
    size_t lines = 0;      // header lines
};

int ply_type_size(std::string_view t, bool& is_float, bool& is_signed) {
    is_float = t == "float" || t == "float32" || t == "double" || t == "float64";
    is_signed = is_float || t == "char" || t == "int8" || t == "short" || t == "int16" || t == "int" || t == "int32";
    if (t == "char" || t == "uchar" || t == "int8" || t == "uint8") return 1;
    if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
    if (t == "int" || t == "uint" || t == "int32" || t == "uint32" || t == "float" || t == "float32") return 4;
    if (t == "double" || t == "float64") return 8;
    return 0;
}

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
        if (j > i) out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

// One binary scalar of `size` bytes.
double read_binary(const uint8_t* p, int size, bool is_float, bool big_endian, bool is_signed) {
    uint8_t b[8];
    for (int k = 0; k < size; ++k) b[k] = big_endian ? p[size - 1 - k] : p[k];
    if (is_float) {
        if (size == 4) {
            float f;
            std::memcpy(&f, b, 4);
            return f;
        }
        double d;
        std::memcpy(&d, b, 8);
        return d;
    }
    uint64_t u = 0;
    for (int k = 0; k < size; ++k) u |= uint64_t(b[k]) << (8 * k);
    if (is_signed && size < 8 && (u >> (8 * size - 1)) & 1) return double(int64_t(u) - (int64_t(1) << (8 * size)));
    return double(u);
}

bool is_index_list(const PlyElement& e, const PlyProperty& p) {
    return (e.name == "face" || e.name == "tristrips") && p.is_list && (p.name == "vertex_indices" || p.name == "vertex_index");
}

// The header: text lines, each a known keyword, up to a line that is exactly "end_header". Found line by
// line: a search for the word would accept one spliced into another keyword ("eleend_headerment"); binary
// bytes or an unknown keyword in the header are refused.
Result<PlyHeader> parse_header(const SourceFile& file) {
    const std::string_view text(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size());
    auto bad = [&](const std::string& what) { return make_error(ErrorCode::Parse, file.name() + ": " + what); };
    if (text.substr(0, 3) != "ply") return bad("not a PLY file (missing 'ply' magic)");
    constexpr size_t kMaxHeaderBytes = 1 << 20;
    PlyHeader h;
    bool have_format = false, ended = false;
    size_t pos = 0;
    while (pos < text.size() && pos < kMaxHeaderBytes) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++h.lines;
        auto hbad = [&](const std::string& what) { return make_error(ErrorCode::Parse, at_line(file, h.lines) + what); };
        for (char c : line)
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r') || static_cast<unsigned char>(c) > 0x7e)
                return hbad("the PLY header holds binary bytes (a corrupt or truncated header)");
        auto w = words(line);
        if (w.empty()) continue;
        if (w.size() == 1 && w[0] == "end_header") {
            ended = true;
            h.body = std::min(pos, text.size());
            break;
        }
        if (w[0] == "ply") {
            if (h.lines != 1 || w.size() != 1) return hbad("'ply' belongs alone on the first line");
        } else if (w[0] == "comment" || w[0] == "obj_info") {
            continue;
        } else if (w[0] == "format") {
            if (w.size() != 3) return hbad("a PLY format line is 'format <ascii|binary_little_endian|binary_big_endian> 1.0'");
            if (w[1] == "ascii") h.format = PlyFormat::Ascii;
            else if (w[1] == "binary_little_endian") h.format = PlyFormat::BinaryLE;
            else if (w[1] == "binary_big_endian") h.format = PlyFormat::BinaryBE;
            else return hbad("unknown PLY format '" + std::string(w[1]) + "'");
            if (w[2] != "1.0" && w[2] != "1") return hbad("PLY version '" + std::string(w[2]) + "' is not 1.0");
            have_format = true;
        } else if (w[0] == "element") {
            if (w.size() != 3) return hbad("PLY element line needs a name and a count");
            PlyElement e;
            e.name = std::string(w[1]);
            auto r = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
            if (r.ec != std::errc() || r.ptr != w[2].data() + w[2].size()) return hbad("PLY element count '" + std::string(w[2]) + "' is not a number");
            h.elements.push_back(std::move(e));
        } else if (w[0] == "property") {
            if (h.elements.empty()) return hbad("PLY property before any element");
            PlyProperty p;
            bool f = false, sgn = false;
            if (w.size() == 5 && w[1] == "list") {
                bool count_float = false, count_signed = false;
                p.is_list = true;
                p.count_size = ply_type_size(w[2], count_float, count_signed);
                p.size = ply_type_size(w[3], f, sgn);
                if (!p.count_size || count_float || !p.size) return hbad("bad PLY list property types");
                p.name = std::string(w[4]);
            } else if (w.size() == 3) {
                p.size = ply_type_size(w[1], f, sgn);
                if (!p.size) return hbad("unknown PLY property type '" + std::string(w[1]) + "'");
                p.name = std::string(w[2]);
            } else {
                return hbad("malformed PLY property line");
            }
            p.is_float = f;
            p.is_signed = sgn;
            if (is_index_list(h.elements.back(), p) && f) return hbad("PLY vertex indices must be integers, not " + std::string(w[3]));
            h.elements.back().props.push_back(std::move(p));
        } else {
            return hbad("unknown PLY header keyword '" + std::string(w[0].substr(0, 32)) + "'");
        }
    }
    if (!ended) return bad("PLY header has no 'end_header' line");
    if (h.body >= text.size()) return bad("PLY header is not followed by any data");
    if (!have_format) return bad("PLY header has no format line");
    return h;
}

// Walks every value of the body in file order, calling visit(element index, item, property index, values)
// once per property with its scalar (one value) or its list's items. Every count is checked against the
// bytes that remain before anything is read; every value is finite; index lists of faces (at least 3) and
// strips (-1 restarts) name existing vertices.
template <class Visit>
Status walk_body(const SourceFile& file, const PlyHeader& h, Visit&& visit) {
    const std::string_view text(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size());
    auto bad = [&](const std::string& what) { return make_error(ErrorCode::Parse, file.name() + ": " + what); };
    uint64_t vertex_count = 0;
    for (const auto& e : h.elements)
        if (e.name == "vertex") vertex_count = e.count;
    const uint64_t size = file.bytes.size();
    std::vector<double> values;
    auto check_indices = [&](const PlyElement& e, uint64_t i, const std::string& where) -> Status {
        const bool strip = e.name == "tristrips";
        if (!strip && values.size() < 3)
            return bad("face " + std::to_string(i) + where + " has " + std::to_string(values.size()) + " vertices; a face needs at least 3 (corrupt file?)");
        for (double idx : values)
            if (!(idx >= 0.0 && idx < double(vertex_count)) && !(strip && idx == -1.0))
                return bad(e.name + " " + std::to_string(i) + where + " uses vertex index " + std::to_string(int64_t(idx)) + " but there are " +
                           std::to_string(vertex_count) + " vertices (corrupt file?)");
        return {};
    };

    if (h.format == PlyFormat::Ascii) {
        const uint64_t remaining = size - h.body;
        // Every property value takes at least two bytes ("0 "), so the counts are bounded by the body size.
        uint64_t min_bytes = 0;
        for (const auto& e : h.elements) {
            const uint64_t per = 2 * uint64_t(e.props.size());
            if (per && e.count > remaining / per)
                return bad("PLY header announces " + std::to_string(e.count) + " " + e.name + " elements but the body has only " +
                           std::to_string(remaining) + " bytes");
            min_bytes += e.count * per;
        }
        if (min_bytes > remaining) return bad("PLY header announces more elements than the " + std::to_string(remaining) + "-byte body can hold");
        TextTokens tokens{text, h.body, h.lines + 1};
        const size_t& p = tokens.pos;
        const size_t& line = tokens.line;
        auto next = [&](std::string_view& tok) { return tokens.next(tok); };
        auto number = [&](std::string_view tok, double& v) {
            auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
            return r.ec == std::errc() && r.ptr == tok.data() + tok.size() && std::isfinite(v);
        };
        for (size_t ei = 0; ei < h.elements.size(); ++ei) {
            const PlyElement& e = h.elements[ei];
            for (uint64_t i = 0; i < e.count; ++i) {
                for (size_t pi = 0; pi < e.props.size(); ++pi) {
                    const PlyProperty& prop = e.props[pi];
                    auto eof = [&] { return bad("PLY body ends inside " + e.name + " " + std::to_string(i) + " (truncated file)"); };
                    std::string_view tok;
                    double value = 0.0;
                    if (!next(tok)) return eof();
                    if (!number(tok, value))
                        return make_error(ErrorCode::Parse, at_line(file, line) + "'" + std::string(tok.substr(0, 32)) + "' in " + e.name + " " +
                                                                std::to_string(i) + " is not a finite number");
                    values.clear();
                    if (!prop.is_list) {
                        values.push_back(value);
                    } else {
                        if (value < 0 || value != std::floor(value) || value > double(size - p))
                            return make_error(ErrorCode::Parse, at_line(file, line) + "bad list length " + std::string(tok.substr(0, 32)) + " in " + e.name +
                                                                    " " + std::to_string(i));
                        const uint64_t n = uint64_t(value);
                        for (uint64_t k = 0; k < n; ++k) {
                            if (!next(tok)) return eof();
                            if (!number(tok, value))
                                return make_error(ErrorCode::Parse, at_line(file, line) + "'" + std::string(tok.substr(0, 32)) + "' is not a number");
                            values.push_back(value);
                        }
                        if (is_index_list(e, prop)) TRESSEL_TRY(check_indices(e, i, " (line " + std::to_string(line) + ")"));
                    }
                    TRESSEL_TRY(visit(ei, i, pi, values));
                }
            }
        }
        return {};
    }

    const bool big = h.format == PlyFormat::BinaryBE;
    uint64_t off = h.body;
    for (size_t ei = 0; ei < h.elements.size(); ++ei) {
        const PlyElement& e = h.elements[ei];
        uint64_t fixed = 0;
        for (const auto& prop : e.props) fixed += prop.is_list ? uint64_t(prop.count_size) : uint64_t(prop.size);
        if (fixed && e.count > (size - off) / fixed)
            return bad("PLY header announces " + std::to_string(e.count) + " " + e.name + " elements of at least " + std::to_string(fixed) +
                       " bytes but only " + std::to_string(size - off) + " bytes remain (truncated or corrupt file)");
        for (uint64_t i = 0; i < e.count; ++i) {
            for (size_t pi = 0; pi < e.props.size(); ++pi) {
                const PlyProperty& prop = e.props[pi];
                auto eof = [&] { return bad("PLY body ends inside " + e.name + " " + std::to_string(i) + " (truncated file)"); };
                values.clear();
                if (!prop.is_list) {
                    if (size - off < uint64_t(prop.size)) return eof();
                    const double v = read_binary(file.bytes.data() + off, prop.size, prop.is_float, big, prop.is_signed);
                    if (!std::isfinite(v)) return bad(e.name + " " + std::to_string(i) + " has a non-finite " + prop.name + " at byte " + std::to_string(off) + " (corrupt file?)");
                    values.push_back(v);
                    off += uint64_t(prop.size);
                } else {
                    if (size - off < uint64_t(prop.count_size)) return eof();
                    const double n = read_binary(file.bytes.data() + off, prop.count_size, false, big, false);
                    off += uint64_t(prop.count_size);
                    const uint64_t items = uint64_t(n);
                    if (items > (size - off) / uint64_t(prop.size))
                        return bad(e.name + " " + std::to_string(i) + " has a list of " + std::to_string(items) + " items at byte " +
                                   std::to_string(off) + " that runs past the end of the file (corrupt or truncated)");
                    for (uint64_t k = 0; k < items; ++k) {
                        const double v = read_binary(file.bytes.data() + off + k * uint64_t(prop.size), prop.size, prop.is_float, big, prop.is_signed);
                        if (!std::isfinite(v)) return bad(e.name + " " + std::to_string(i) + " has a non-finite list item at byte " + std::to_string(off) + " (corrupt file?)");
                        values.push_back(v);
                    }
                    if (is_index_list(e, prop)) TRESSEL_TRY(check_indices(e, i, " at byte " + std::to_string(off)));
                    off += items * uint64_t(prop.size);
                }
                TRESSEL_TRY(visit(ei, i, pi, values));
            }
        }
    }
    return {};
}

}  // namespace

Result<ImportedScene> import_ply(const SourceFile& file) {
    auto parsed = parse_header(file);
    if (!parsed) return parsed.error();
    const PlyHeader& h = *parsed;
    // What each vertex property is: position, normal, texture coordinate or colour component.
    enum Slot { None, X, Y, Z, NX, NY, NZ, U, V, R, G, B, A };
    size_t vertex_element = h.elements.size();
    std::vector<std::vector<Slot>> slots(h.elements.size());
    std::array<bool, 13> has{};
    std::array<bool, 13> byte_colour{};
    for (size_t ei = 0; ei < h.elements.size(); ++ei) {
        const PlyElement& e = h.elements[ei];
        slots[ei].assign(e.props.size(), None);
        if (e.name != "vertex") continue;
        vertex_element = ei;
        for (size_t pi = 0; pi < e.props.size(); ++pi) {
            const std::string& n = e.props[pi].name;
            Slot s = None;
            if (n == "x") s = X;
            else if (n == "y") s = Y;
            else if (n == "z") s = Z;
            else if (n == "nx") s = NX;
            else if (n == "ny") s = NY;
            else if (n == "nz") s = NZ;
            else if (n == "u" || n == "s" || n == "texture_u" || n == "texture_s") s = U;
            else if (n == "v" || n == "t" || n == "texture_v" || n == "texture_t") s = V;
            else if (n == "red" || n == "r" || n == "diffuse_red") s = R;
            else if (n == "green" || n == "g" || n == "diffuse_green") s = G;
            else if (n == "blue" || n == "b" || n == "diffuse_blue") s = B;
            else if (n == "alpha" || n == "a" || n == "diffuse_alpha") s = A;
            if (s == None || e.props[pi].is_list || has[s]) continue;
            slots[ei][pi] = s;
            has[s] = true;
            byte_colour[s] = !e.props[pi].is_float;
        }
    }
    if (vertex_element == h.elements.size()) return make_error(ErrorCode::Parse, file.name() + ": the PLY file has no 'vertex' element");
    if (!has[X] || !has[Y] || !has[Z]) return make_error(ErrorCode::Parse, file.name() + ": the PLY vertices have no x, y and z properties");
    const uint64_t nv = h.elements[vertex_element].count;
    Mesh mesh;
    mesh.name = file.path.stem().string();
    mesh.positions.resize(nv);
    const bool normals = has[NX] && has[NY] && has[NZ], uvs = has[U] && has[V], colours = has[R] && has[G] && has[B];
    if (normals) mesh.normals.resize(nv);
    if (uvs) mesh.uvs.resize(nv);
    if (colours) mesh.colors.assign(nv, glm::vec4(1.0f));
    size_t degenerate_strip_triangles = 0;
    auto visit = [&](size_t ei, uint64_t i, size_t pi, const std::vector<double>& v) -> Status {
        const PlyElement& e = h.elements[ei];
        if (ei == vertex_element) {
            const Slot s = slots[ei][pi];
            const float x = float(v[0]);
            switch (s) {
                case X: mesh.positions[i].x = x; break;
                case Y: mesh.positions[i].y = x; break;
                case Z: mesh.positions[i].z = x; break;
                case NX: if (normals) mesh.normals[i].x = x; break;
                case NY: if (normals) mesh.normals[i].y = x; break;
                case NZ: if (normals) mesh.normals[i].z = x; break;
                case U: if (uvs) mesh.uvs[i].x = x; break;
                case V: if (uvs) mesh.uvs[i].y = x; break;
                case R: case G: case B: case A:
                    if (colours) mesh.colors[i][s - R] = byte_colour[s] ? float(v[0] / 255.0) : x;
                    break;
                default: break;
            }
            return {};
        }
        if (!is_index_list(e, e.props[pi])) return {};
        if (e.name == "face") {
            // A polygon of any size, as a fan from its first corner.
            for (size_t k = 2; k < v.size(); ++k) mesh.indices.insert(mesh.indices.end(), {uint32_t(v[0]), uint32_t(v[k - 1]), uint32_t(v[k])});
            return {};
        }
        // A triangle strip: every three consecutive indices a triangle, every other one turned to keep the
        // winding; -1 starts a new strip; triangles with a repeated corner (strip joins) are skipped.
        size_t run = 0;
        for (size_t k = 0; k < v.size(); ++k) {
            if (v[k] < 0.0) {
                run = 0;
                continue;
            }
            if (++run < 3) continue;
            const uint32_t a = uint32_t(v[k - 2]), b = uint32_t(v[k - 1]), c = uint32_t(v[k]);
            if (a == b || b == c || a == c) {
                ++degenerate_strip_triangles;
                continue;
            }
            if (run % 2 == 1) mesh.indices.insert(mesh.indices.end(), {a, b, c});
            else mesh.indices.insert(mesh.indices.end(), {b, a, c});
        }
        return {};
    };
    TRESSEL_TRY(walk_body(file, h, visit));
    ImportedScene scene;
    for (const auto& e : h.elements)
        if (e.name != "vertex" && e.name != "face" && e.name != "tristrips" && e.count > 0)
            scene.diagnostics.info(file.name(), "PLY element '" + e.name + "' (" + std::to_string(e.count) + ") is not used");
    if (degenerate_strip_triangles)
        scene.diagnostics.info(file.name(), std::to_string(degenerate_strip_triangles) + " triangles of the strips with a repeated corner were skipped");
    return single_mesh_scene(std::move(mesh), std::move(scene));
}

}  // namespace tressel::detail
