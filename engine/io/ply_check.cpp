// Pre-flight checks for containers whose headers Assimp or tinygltf would trust: PLY element counts and
// list lengths, binary STL facet counts, GLB lengths. Each walks the file without allocating anything
// sized by the file, and fails with the first inconsistency.
#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include "io/import_detail.h"

namespace tressel::detail {

namespace {

uint32_t read_u32le(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

enum class PlyFormat { Ascii, BinaryLE, BinaryBE };

struct PlyProperty {
    std::string name;
    int size = 0;          // bytes of the scalar (or of the list items)
    bool is_float = false;
    bool is_list = false;
    int count_size = 0;    // bytes of the list count
};

struct PlyElement {
    std::string name;
    uint64_t count = 0;
    std::vector<PlyProperty> props;
};

int ply_type_size(std::string_view t, bool& is_float) {
    is_float = t == "float" || t == "float32" || t == "double" || t == "float64";
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

// Reads one scalar of `size` bytes as an integer (list counts, vertex indices) or a double.
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

}  // namespace

Status check_ply(const SourceFile& file) {
    const std::string_view text(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size());
    auto bad = [&](const std::string& what) { return make_error(ErrorCode::Parse, file.name() + ": " + what); };
    if (text.substr(0, 3) != "ply") return bad("not a PLY file (missing 'ply' magic)");
    // The header is text lines, each a known keyword, up to a line that is exactly "end_header". Found
    // line by line: a search for the word would accept one spliced into another keyword ("eleend_headerment"),
    // which left Assimp spinning on the body; binary bytes or an unknown keyword in the header are refused
    // here rather than handed to it (a mutated header crashed its reader).
    constexpr size_t kMaxHeaderBytes = 1 << 20;
    PlyFormat format = PlyFormat::Ascii;
    bool have_format = false, ended = false;
    std::vector<PlyElement> elements;
    size_t pos = 0, line_no = 0, body = 0;
    while (pos < text.size() && pos < kMaxHeaderBytes) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        auto hbad = [&](const std::string& what) { return make_error(ErrorCode::Parse, at_line(file, line_no) + what); };
        for (char c : line)
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r') || static_cast<unsigned char>(c) > 0x7e)
                return hbad("the PLY header holds binary bytes (a corrupt or truncated header)");
        auto w = words(line);
        if (w.empty()) continue;
        if (w.size() == 1 && w[0] == "end_header") {
            ended = true;
            body = std::min(pos, text.size());
            break;
        }
        if (w[0] == "ply") {
            if (line_no != 1 || w.size() != 1) return hbad("'ply' belongs alone on the first line");
        } else if (w[0] == "comment" || w[0] == "obj_info") {
            continue;
        } else if (w[0] == "format") {
            if (w.size() != 3) return hbad("a PLY format line is 'format <ascii|binary_little_endian|binary_big_endian> 1.0'");
            if (w[1] == "ascii") format = PlyFormat::Ascii;
            else if (w[1] == "binary_little_endian") format = PlyFormat::BinaryLE;
            else if (w[1] == "binary_big_endian") format = PlyFormat::BinaryBE;
            else return hbad("unknown PLY format '" + std::string(w[1]) + "'");
            if (w[2] != "1.0" && w[2] != "1") return hbad("PLY version '" + std::string(w[2]) + "' is not 1.0");
            have_format = true;
        } else if (w[0] == "element") {
            if (w.size() != 3) return hbad("PLY element line needs a name and a count");
            PlyElement e;
            e.name = std::string(w[1]);
            auto r = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
            if (r.ec != std::errc() || r.ptr != w[2].data() + w[2].size()) return hbad("PLY element count '" + std::string(w[2]) + "' is not a number");
            elements.push_back(std::move(e));
        } else if (w[0] == "property") {
            if (elements.empty()) return hbad("PLY property before any element");
            PlyProperty p;
            bool f = false;
            if (w.size() == 5 && w[1] == "list") {
                bool count_float = false;
                p.is_list = true;
                p.count_size = ply_type_size(w[2], count_float);
                p.size = ply_type_size(w[3], f);
                if (!p.count_size || count_float || !p.size) return hbad("bad PLY list property types");
                p.name = std::string(w[4]);
            } else if (w.size() == 3) {
                p.size = ply_type_size(w[1], f);
                if (!p.size) return hbad("unknown PLY property type '" + std::string(w[1]) + "'");
                p.name = std::string(w[2]);
            } else {
                return hbad("malformed PLY property line");
            }
            p.is_float = f;
            elements.back().props.push_back(std::move(p));
        } else {
            return hbad("unknown PLY header keyword '" + std::string(w[0].substr(0, 32)) + "'");
        }
    }
    if (!ended) return bad("PLY header has no 'end_header' line");
    if (body >= text.size()) return bad("PLY header is not followed by any data");
    if (!have_format) return bad("PLY header has no format line");

    uint64_t vertex_count = 0;
    for (const auto& e : elements) {
        if (e.name == "vertex") vertex_count = e.count;
    }
    const uint64_t remaining = file.bytes.size() - body;

    if (format == PlyFormat::Ascii) {
        // Every property value takes at least two bytes ("0 "), so the counts are bounded by the body size.
        uint64_t min_bytes = 0;
        for (const auto& e : elements) {
            uint64_t per = 2 * uint64_t(e.props.size());
            if (per && e.count > remaining / per)
                return bad("PLY header announces " + std::to_string(e.count) + " " + e.name + " elements but the body has only " +
                           std::to_string(remaining) + " bytes");
            min_bytes += e.count * per;
        }
        if (min_bytes > remaining)
            return bad("PLY header announces more elements than the " + std::to_string(remaining) + "-byte body can hold");
        // Walk the tokens: every value numeric, list lengths sane, face indices in range.
        size_t p = body;
        size_t line = line_no + 1;
        auto next = [&](std::string_view& tok) -> bool {
            while (p < text.size() && (text[p] == ' ' || text[p] == '\t' || text[p] == '\r' || text[p] == '\n')) {
                if (text[p] == '\n') ++line;
                ++p;
            }
            if (p >= text.size()) return false;
            size_t q = p;
            while (q < text.size() && !(text[q] == ' ' || text[q] == '\t' || text[q] == '\r' || text[q] == '\n')) ++q;
            tok = text.substr(p, q - p);
            p = q;
            return true;
        };
        for (const auto& e : elements) {
            const bool face = e.name == "face";
            for (uint64_t i = 0; i < e.count; ++i) {
                for (const auto& prop : e.props) {
                    std::string_view tok;
                    auto eof = [&] { return bad("PLY body ends inside " + e.name + " " + std::to_string(i) + " (truncated file)"); };
                    if (!next(tok)) return eof();
                    double value = 0.0;
                    auto r = std::from_chars(tok.data(), tok.data() + tok.size(), value);
                    if (r.ec != std::errc() || r.ptr != tok.data() + tok.size() || !std::isfinite(value))
                        return make_error(ErrorCode::Parse, at_line(file, line) + "'" + std::string(tok) + "' in " + e.name + " " +
                                                                std::to_string(i) + " is not a finite number");
                    if (!prop.is_list) continue;
                    if (value < 0 || value != std::floor(value) || value > remaining)
                        return make_error(ErrorCode::Parse, at_line(file, line) + "bad list length " + std::string(tok) + " in " + e.name + " " + std::to_string(i));
                    const uint64_t n = uint64_t(value);
                    for (uint64_t k = 0; k < n; ++k) {
                        if (!next(tok)) return eof();
                        double idx = 0.0;
                        r = std::from_chars(tok.data(), tok.data() + tok.size(), idx);
                        if (r.ec != std::errc() || r.ptr != tok.data() + tok.size() || !std::isfinite(idx))
                            return make_error(ErrorCode::Parse, at_line(file, line) + "'" + std::string(tok) + "' is not a number");
                        if (face && (prop.name == "vertex_indices" || prop.name == "vertex_index") && (idx < 0 || idx >= double(vertex_count)))
                            return make_error(ErrorCode::Parse, at_line(file, line) + "face " + std::to_string(i) + " uses vertex " +
                                                                    std::string(tok) + " but there are " + std::to_string(vertex_count) + " vertices");
                    }
                }
            }
        }
        return {};
    }

    const bool big = format == PlyFormat::BinaryBE;
    uint64_t off = body;
    const uint64_t size = file.bytes.size();
    for (const auto& e : elements) {
        bool has_list = false;
        uint64_t fixed = 0;
        for (const auto& prop : e.props) {
            has_list |= prop.is_list;
            fixed += prop.is_list ? uint64_t(prop.count_size) : uint64_t(prop.size);
        }
        if (fixed && e.count > (size - off) / fixed)
            return bad("PLY header announces " + std::to_string(e.count) + " " + e.name + " elements of at least " + std::to_string(fixed) +
                       " bytes but only " + std::to_string(size - off) + " bytes remain (truncated or corrupt file)");
        if (!has_list) {
            off += e.count * fixed;
            continue;
        }
        const bool face = e.name == "face";
        for (uint64_t i = 0; i < e.count; ++i) {
            for (const auto& prop : e.props) {
                if (!prop.is_list) {
                    if (size - off < uint64_t(prop.size)) return bad("PLY body ends inside " + e.name + " " + std::to_string(i) + " (truncated file)");
                    off += prop.size;
                    continue;
                }
                if (size - off < uint64_t(prop.count_size)) return bad("PLY body ends inside " + e.name + " " + std::to_string(i) + " (truncated file)");
                double n = read_binary(file.bytes.data() + off, prop.count_size, false, big, false);
                off += prop.count_size;
                const uint64_t items = uint64_t(n);
                if (items > (size - off) / uint64_t(prop.size))
                    return bad(e.name + " " + std::to_string(i) + " has a list of " + std::to_string(items) + " items at byte " +
                               std::to_string(off) + " that runs past the end of the file (corrupt or truncated)");
                if (face && (prop.name == "vertex_indices" || prop.name == "vertex_index")) {
                    if (items < 3)
                        return bad("face " + std::to_string(i) + " at byte " + std::to_string(off) + " has " + std::to_string(items) +
                                   " vertices; a face needs at least 3 (corrupt file?)");
                    for (uint64_t k = 0; k < items; ++k) {
                        double idx = read_binary(file.bytes.data() + off + k * prop.size, prop.size, prop.is_float, big, true);
                        if (!(idx >= 0.0 && idx < double(vertex_count)))
                            return bad("face " + std::to_string(i) + " uses vertex index " + std::to_string(int64_t(idx)) + " but there are " +
                                       std::to_string(vertex_count) + " vertices (corrupt file?)");
                    }
                }
                off += items * prop.size;
            }
        }
    }
    return {};
}

Status check_stl(const SourceFile& file) {
    const auto& b = file.bytes;
    const bool ascii = b.size() >= 5 && std::memcmp(b.data(), "solid", 5) == 0;
    if (b.size() >= 84) {
        const uint64_t facets = read_u32le(b.data() + 80);
        const uint64_t expected = 84 + 50 * facets;
        if (expected == b.size()) return {};
        if (!ascii)
            return make_error(ErrorCode::Parse, file.name() + ": binary STL announces " + std::to_string(facets) + " facets (" +
                                                    std::to_string(expected) + " bytes) but the file has " + std::to_string(b.size()) + " bytes");
    } else if (!ascii) {
        return make_error(ErrorCode::Parse, file.name() + ": too short for a binary STL (" + std::to_string(b.size()) + " bytes)");
    }
    return {};
}

Status check_glb_container(const SourceFile& file) {
    const auto& b = file.bytes;
    auto bad = [&](const std::string& what) { return make_error(ErrorCode::Parse, file.name() + ": " + what); };
    if (b.size() < 20) return bad("too short for a binary glTF (" + std::to_string(b.size()) + " bytes)");
    if (std::memcmp(b.data(), "glTF", 4) != 0) return bad("not a binary glTF (missing 'glTF' magic)");
    const uint32_t version = read_u32le(b.data() + 4);
    if (version != 2) return make_error(ErrorCode::Unsupported, file.name() + ": binary glTF version " + std::to_string(version) + " (only 2 is supported)");
    const uint64_t length = read_u32le(b.data() + 8);
    if (length != b.size())
        return bad("GLB header declares a total length of " + std::to_string(length) + " bytes but the file has " +
                   std::to_string(b.size()) + " bytes (truncated or corrupted)");
    uint64_t off = 12;
    int chunk = 0;
    while (off < length) {
        if (length - off < 8) return bad("GLB chunk " + std::to_string(chunk) + " header is cut off at byte " + std::to_string(off));
        const uint64_t chunk_len = read_u32le(b.data() + off);
        const uint32_t type = read_u32le(b.data() + off + 4);
        if (chunk_len > length - off - 8)
            return bad("GLB chunk " + std::to_string(chunk) + " declares " + std::to_string(chunk_len) + " bytes but only " +
                       std::to_string(length - off - 8) + " remain");
        if (chunk == 0 && type != 0x4E4F534Au) return bad("the first GLB chunk is not JSON");
        if (chunk == 0 && chunk_len == 0) return bad("the GLB JSON chunk is empty");
        off += 8 + chunk_len;
        ++chunk;
    }
    if (chunk == 0) return bad("GLB has no JSON chunk");
    return {};
}

}  // namespace tressel::detail
