// Pre-flight checks of files a parser library would trust: GLB lengths (tinygltf), walked without
// allocating anything sized by the file, COLLADA's number lists and counts and FBX's records and object graph (Assimp), failing with the
// first inconsistency. (PLY and STL have their own readers: ply_import.cpp, stl_import.cpp.)
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "io/import_detail.h"

namespace tressel::detail {

namespace {

uint32_t read_u32le(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

}  // namespace

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

namespace {

// Line of byte `at`, for messages.
size_t line_of(std::string_view text, size_t at) {
    size_t line = 1;
    for (size_t i = 0; i < at && i < text.size(); ++i) line += text[i] == '\n';
    return line;
}

std::string hex_byte(char c) {
    static constexpr char kDigits[] = "0123456789abcdef";
    const auto u = static_cast<unsigned char>(c);
    return {kDigits[u >> 4], kDigits[u & 15]};
}

// The value of attribute `name` in the start tag text[lt, gt), or nothing.
std::optional<std::string_view> attribute(std::string_view text, size_t lt, size_t gt, std::string_view name) {
    const std::string_view tag = text.substr(lt, gt - lt);
    for (size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
        const size_t q = at + name.size();
        if (!std::isspace(static_cast<unsigned char>(tag[at - 1])) || q + 1 >= tag.size() || tag[q] != '=' || (tag[q + 1] != '"' && tag[q + 1] != '\''))
            continue;
        const size_t close = tag.find(tag[q + 1], q + 2);
        if (close == std::string_view::npos) return std::nullopt;
        return tag.substr(q + 2, close - q - 2);
    }
    return std::nullopt;
}

// A whole number no larger than `cap`, or nothing.
std::optional<uint64_t> whole_number(std::string_view s, uint64_t cap) {
    if (s.empty()) return std::nullopt;
    uint64_t n = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
        n = n * 10 + uint64_t(c - '0');
        if (n > cap) return std::nullopt;
    }
    return n;
}

size_t count_tokens(std::string_view s) {
    size_t n = 0;
    for (size_t i = 0; i < s.size();) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i == s.size()) break;
        ++n;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    }
    return n;
}

}  // namespace

Status check_collada_text(const SourceFile& file) {
    const std::string_view text(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size());
    auto bad = [&](size_t at, const std::string& what) {
        return make_error(ErrorCode::Parse, file.name() + ": line " + std::to_string(line_of(text, at)) + ": " + what);
    };
    // XML allows no control character but tab, carriage return and line feed.
    for (size_t i = 0; i < text.size(); ++i) {
        const auto u = static_cast<unsigned char>(text[i]);
        if (u < 0x20 && u != '\t' && u != '\r' && u != '\n') return bad(i, "control character \\x" + hex_byte(text[i]) + ", which XML does not allow");
    }
    // Index lists (<p>, <vcount>, <v>, <h>, <int_array>) hold integers and <float_array> numbers. Assimp's
    // Collada reader does not move past a character it cannot read there: a stray letter in a <p> had it
    // appending indices until memory ran out (tests/fuzz/corpus/dae/regression_letters_in_index_list.dae).
    static constexpr std::string_view kIntegerLists[] = {"p", "vcount", "v", "h", "int_array"};
    for (size_t lt = text.find('<'); lt != std::string_view::npos; lt = text.find('<', lt + 1)) {
        size_t name_end = lt + 1;
        while (name_end < text.size() && (std::isalnum(static_cast<unsigned char>(text[name_end])) || text[name_end] == '_')) ++name_end;
        const std::string_view name = text.substr(lt + 1, name_end - lt - 1);
        bool integers = false, floats = name == "float_array";
        for (std::string_view n : kIntegerLists) integers |= name == n;
        if (!integers && !floats) continue;
        const size_t gt = text.find('>', name_end);
        if (gt == std::string_view::npos) return bad(lt, "<" + std::string(name) + "> is not closed");
        if (text[gt - 1] == '/') continue;  // empty element
        const size_t end = text.find('<', gt);
        if (end == std::string_view::npos) return bad(lt, "<" + std::string(name) + "> has no end tag");
        for (size_t i = gt + 1; i < end; ++i) {
            const char c = text[i];
            const bool ok = std::isdigit(static_cast<unsigned char>(c)) || std::isspace(static_cast<unsigned char>(c)) || c == '-' || c == '+' ||
                            (floats && (c == '.' || c == 'e' || c == 'E' || std::strchr("NaIFnif", c)));
            if (!ok)
                return bad(i, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + std::to_string(int(static_cast<unsigned char>(c)))) +
                                  "' in the " + (floats ? "numbers" : "integers") + " of <" + std::string(name) + ">");
        }
        lt = end - 1;
    }
    // A count no file of this size can hold (count="4000000000" on a few kilobytes) is refused before
    // Assimp reserves it.
    for (size_t at = text.find("count=\""); at != std::string_view::npos; at = text.find("count=\"", at + 7)) {
        size_t i = at + 7;
        uint64_t n = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && n <= text.size()) n = n * 10 + uint64_t(text[i++] - '0');
        if (i == at + 7 || (i < text.size() && text[i] != '"' && !std::isdigit(static_cast<unsigned char>(text[i]))))
            return bad(at, "a count that is not a whole number");
        if (n > text.size())
            return bad(at, "a count of " + std::string(text.substr(at + 7, i - at - 7)) + " in a file of " + std::to_string(text.size()) +
                               " bytes");
    }
    // The start tags, in order, for the cross-references below.
    struct Tag {
        std::string_view name;
        size_t lt, gt;
    };
    std::vector<Tag> tags;
    for (size_t lt = text.find('<'); lt != std::string_view::npos; lt = text.find('<', lt + 1)) {
        size_t name_end = lt + 1;
        while (name_end < text.size() && (std::isalnum(static_cast<unsigned char>(text[name_end])) || text[name_end] == '_')) ++name_end;
        if (name_end == lt + 1) continue;  // end tags, comments, declarations
        const size_t gt = text.find('>', name_end);
        if (gt == std::string_view::npos) return bad(lt, "<" + std::string(text.substr(lt + 1, name_end - lt - 1)) + "> is not closed");
        tags.push_back({text.substr(lt + 1, name_end - lt - 1), lt, gt});
    }
    auto attr = [&](const Tag& t, std::string_view name) { return attribute(text, t.lt, t.gt, name); };
    auto count_of = [&](const Tag& t) -> std::optional<uint64_t> {
        const auto c = attr(t, "count");
        return c ? whole_number(*c, text.size()) : std::nullopt;
    };
    // The first tag named `name` after tags[from], before any tag named `stop`; tags.size() when none.
    auto next = [&](size_t from, std::string_view name, std::string_view stop = {}) {
        for (size_t i = from + 1; i < tags.size(); ++i) {
            if (tags[i].name == name) return i;
            if (!stop.empty() && tags[i].name == stop) break;
        }
        return tags.size();
    };
    auto with_id = [&](std::string_view name, std::string_view id) {
        for (size_t i = 0; i < tags.size(); ++i)
            if (tags[i].name == name && attr(tags[i], "id") == id) return i;
        return tags.size();
    };

    // Every <*_array> says how many values it holds, and holds them; every <accessor> reads inside its array.
    // Assimp trusts the accessor: a joint list shorter than its accessor's count, or one with no count at
    // all, had it read past the names and crash (tests/fuzz/corpus/dae/regression_joint_names_*.dae).
    std::map<std::string_view, uint64_t, std::less<>> array_counts;
    for (size_t ti = 0; ti < tags.size(); ++ti) {
        const Tag& t = tags[ti];
        const bool is_array = t.name.size() > 6 && t.name.substr(t.name.size() - 6) == "_array";
        if (!is_array && t.name != "accessor") continue;
        const auto count = count_of(t);
        if (!count) return bad(t.lt, "<" + std::string(t.name) + "> has no count");
        if (is_array) {
            size_t held = 0;
            if (text[t.gt - 1] != '/') {
                const size_t end = text.find('<', t.gt);
                if (end == std::string_view::npos) return bad(t.lt, "<" + std::string(t.name) + "> has no end tag");
                held = count_tokens(text.substr(t.gt + 1, end - t.gt - 1));
            }
            if (held < *count)
                return bad(t.lt, "<" + std::string(t.name) + "> declares " + std::to_string(*count) + " values but holds " + std::to_string(held));
            if (const auto id = attr(t, "id")) array_counts[*id] = *count;
            continue;
        }
        const auto source = attr(t, "source");
        if (!source || source->empty() || (*source)[0] != '#') continue;  // Assimp resolves (or refuses) other references
        const auto array = array_counts.find(source->substr(1));
        if (array == array_counts.end()) continue;
        const auto offset_text = attr(t, "offset");
        const auto stride_text = attr(t, "stride");
        const auto offset = offset_text ? whole_number(*offset_text, text.size()) : std::optional<uint64_t>(0);
        const auto stride = stride_text ? whole_number(*stride_text, text.size()) : std::optional<uint64_t>(1);
        if (!offset || !stride) return bad(t.lt, "<accessor> has an offset or stride that is not a whole number");
        // A stride of 0 had Assimp's reader allocate until memory ran out (regression_accessor_stride_zero.dae).
        if (*stride == 0) return bad(t.lt, "<accessor> has a stride of 0");
        // Each element reads its params' values (a float4x4 reads 16): they must fit in the stride
        // (a stride of 8 for matrices had Assimp read past the array: regression_stride_shorter_than_a_matrix.dae).
        uint64_t width = 0;
        for (size_t pi = ti + 1; pi < tags.size() && tags[pi].name == "param"; ++pi) {
            const std::string_view type = attr(tags[pi], "type").value_or("");
            uint64_t n = 1;
            const size_t digits = type.find_first_of("0123456789");
            if (digits != std::string_view::npos && type.size() - digits <= 3) {
                n = uint64_t(type[digits] - '0');
                if (type.size() - digits == 3 && type[digits + 1] == 'x' && std::isdigit(static_cast<unsigned char>(type[digits + 2])))
                    n *= uint64_t(type[digits + 2] - '0');
            }
            width += n;
        }
        if (width > *stride)
            return bad(t.lt, "<accessor> reads " + std::to_string(width) + " values an element but its stride is " + std::to_string(*stride));
        if (*offset + *count * *stride > array->second)
            return bad(t.lt, "<accessor> reads " + std::to_string(*count) + " elements of stride " + std::to_string(*stride) + " from offset " +
                                 std::to_string(*offset) + " of " + std::string(*source) + ", which holds " + std::to_string(array->second) +
                                 " values");
    }
    // A <polylist> says how many corners each polygon has (<vcount>) before its indices: without it Assimp's
    // reader went through a null pointer (tests/fuzz/corpus/dae/regression_polylist_without_vcount.dae).
    for (size_t i = 0; i < tags.size(); ++i)
        if (tags[i].name == "polylist" && text[tags[i].gt - 1] != '/' && next(i, "vcount", "p") == tags.size() && next(i, "p", "polylist") < tags.size())
            return bad(tags[i].lt, "<polylist> has no <vcount> before its <p>");
    // A skin weighs every vertex of its mesh: Assimp looks the weights up by vertex, and a <vertex_weights>
    // counting fewer vertices than the mesh's positions had it read past them and crash
    // (tests/fuzz/corpus/dae/regression_fewer_vertex_weights_than_vertices.dae).
    for (size_t i = 0; i < tags.size(); ++i) {
        if (tags[i].name != "skin") continue;
        const size_t weights = next(i, "vertex_weights", "skin");
        const auto source = attr(tags[i], "source");
        if (weights == tags.size() || !source || source->empty() || (*source)[0] != '#') continue;
        const auto weighed = count_of(tags[weights]);
        if (!weighed) return bad(tags[weights].lt, "<vertex_weights> has no count");
        // Each (joint, weight) index of <v> inside the joint and weight lists: Assimp's own test lets a joint
        // index equal to the joint count through, and reads past the list
        // (tests/fuzz/corpus/dae/regression_joint_index_equal_to_joint_count.dae).
        {
            struct Input {
                std::string semantic;
                uint64_t offset = 0;
                std::optional<uint64_t> count;  // of its source's accessor, when found
            };
            std::vector<Input> inputs;
            size_t v = tags.size();
            for (size_t in = weights + 1; in < tags.size(); ++in) {
                if (tags[in].name == "v") {
                    v = in;
                    break;
                }
                if (tags[in].name == "vertex_weights" || tags[in].name == "skin") break;
                if (tags[in].name != "input") continue;
                Input input;
                input.semantic = std::string(attr(tags[in], "semantic").value_or(""));
                const auto offset_text = attr(tags[in], "offset");
                const auto offset = offset_text ? whole_number(*offset_text, 64) : std::optional<uint64_t>(0);
                if (!offset) return bad(tags[in].lt, "<input> of <vertex_weights> has an offset that is not a small whole number");
                input.offset = *offset;
                const auto src = attr(tags[in], "source");
                if (src && !src->empty() && (*src)[0] == '#') {
                    const size_t source_tag = with_id("source", src->substr(1));
                    const size_t acc = source_tag < tags.size() ? next(source_tag, "accessor", "source") : tags.size();
                    if (acc < tags.size()) input.count = count_of(tags[acc]);
                }
                inputs.push_back(std::move(input));
            }
            uint64_t stride = 0;
            for (const Input& in : inputs) stride = std::max(stride, in.offset + 1);
            if (v < tags.size() && stride > 0 && text[tags[v].gt - 1] != '/') {
                const size_t end = text.find('<', tags[v].gt);
                if (end == std::string_view::npos) return bad(tags[v].lt, "<v> has no end tag");
                uint64_t k = 0;
                for (size_t at = tags[v].gt + 1; at < end; ++k) {
                    while (at < end && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
                    if (at == end) break;
                    const size_t start = at;
                    while (at < end && !std::isspace(static_cast<unsigned char>(text[at]))) ++at;
                    const std::string_view token = text.substr(start, at - start);
                    for (const Input& in : inputs) {
                        if (in.offset != k % stride || !in.count || (in.semantic != "JOINT" && in.semantic != "WEIGHT")) continue;
                        if (token == "-1" && in.semantic == "JOINT") continue;  // the bind shape itself
                        const auto index = whole_number(token, text.size());
                        if (!index || *index >= *in.count)
                            return bad(start, "<v> names " + std::string(in.semantic == "JOINT" ? "joint " : "weight ") + std::string(token) +
                                                  " of a list of " + std::to_string(*in.count));
                    }
                }
            }
        }
        const size_t geometry = with_id("geometry", source->substr(1));
        const size_t vertices = geometry < tags.size() ? next(geometry, "vertices", "geometry") : tags.size();
        if (vertices == tags.size()) continue;  // Assimp refuses an unresolved mesh
        std::optional<std::string_view> positions;
        for (size_t in = vertices + 1; in < tags.size() && tags[in].name == "input"; ++in)
            if (attr(tags[in], "semantic") == "POSITION") positions = attr(tags[in], "source");
        if (!positions || positions->empty() || (*positions)[0] != '#') continue;
        const size_t position_source = with_id("source", positions->substr(1));
        const size_t accessor = position_source < tags.size() ? next(position_source, "accessor", "source") : tags.size();
        if (accessor == tags.size()) continue;
        const auto vertex_count = count_of(tags[accessor]);
        if (vertex_count && *weighed != *vertex_count)
            return bad(tags[weights].lt, "<vertex_weights> weighs " + std::to_string(*weighed) + " vertices but the mesh " + std::string(*source) +
                                             " has " + std::to_string(*vertex_count));
    }
    return {};
}

}  // namespace tressel::detail

namespace tressel::detail {

namespace {

uint64_t read_u64le(const uint8_t* p) { return uint64_t(read_u32le(p)) | uint64_t(read_u32le(p + 4)) << 32; }

// The object graph of an FBX file: a connection "C" from a child object to its parent (or to a parent's
// property). Assimp's FBX converter walks it recursively from the root.
struct FbxConnection {
    int64_t child, parent;
    size_t at;                    // byte (binary) or line (text) of the connection, for messages
    bool object_to_object = false;  // "OO" (not "OP", to one of the parent's properties)
};

// Deepest nesting of scopes Assimp's parsers recurse into that the check allows; FBX files from DCC tools
// nest about six deep.
constexpr int kMaxFbxDepth = 128;

// Binary FBX: every node record's end offset and property list inside the file and its parent, nesting
// bounded, and the connections collected.
Status walk_fbx_binary(const SourceFile& file, std::vector<FbxConnection>& connections) {
    const auto& b = file.bytes;
    auto bad = [&](uint64_t at, const std::string& what) {
        return make_error(ErrorCode::Parse, file.name() + ": byte " + std::to_string(at) + ": " + what);
    };
    if (b.size() < 27) return make_error(ErrorCode::Parse, file.name() + ": too short for a binary FBX");
    const uint32_t version = read_u32le(b.data() + 23);
    const bool wide = version >= 7500;
    const uint64_t header = wide ? 25 : 13;
    struct Level {
        uint64_t end;          // where this list of records ends (the parent's end offset, or the file's end)
        bool in_connections;   // the records are the children of "Connections"
    };
    std::vector<Level> stack{{b.size(), false}};
    uint64_t at = 27;
    while (true) {
        const Level level = stack.back();
        if (stack.size() > 1 && at == level.end) {  // a list of children that ends with its record
            stack.pop_back();
            continue;
        }
        if (at >= level.end || level.end - at < header) {
            if (stack.size() == 1) break;  // the top level may end without its null record
            return bad(at, "a node record's children run past its end");
        }
        const uint8_t* p = b.data() + at;
        const uint64_t end = wide ? read_u64le(p) : read_u32le(p);
        const uint64_t properties = wide ? read_u64le(p + 8) : read_u32le(p + 4);
        const uint64_t property_bytes = wide ? read_u64le(p + 16) : read_u32le(p + 8);
        const uint8_t name_length = p[header - 1];
        if (end == 0) {  // the null record closing a list of children
            if (stack.size() == 1) break;  // the end of the top level: what follows is the footer
            at = level.end;
            stack.pop_back();
            continue;
        }
        if (end <= at || end > level.end) return bad(at, "a node record ends at byte " + std::to_string(end) + ", outside its parent");
        if (name_length > end - at - header || property_bytes > end - at - header - name_length)
            return bad(at, "a node record's name or properties run past its end");
        if (properties > property_bytes) return bad(at, "a node record declares more properties than its bytes hold");
        const std::string_view name(reinterpret_cast<const char*>(p + header), name_length);
        const uint64_t props = at + header + name_length;
        if (level.in_connections && name == "C" && properties >= 3) {
            // "C": a type string ("OO", "OP") and two 64-bit object ids.
            uint64_t q = props;
            const uint64_t props_end = props + property_bytes;
            if (q + 5 <= props_end && b[q] == 'S') {
                const uint64_t type_length = read_u32le(b.data() + q + 1);
                const bool oo = type_length == 2 && q + 7 <= props_end && b[q + 5] == 'O' && b[q + 6] == 'O';
                q += 5 + type_length;
                if (q + 18 <= props_end && b[q] == 'L' && b[q + 9] == 'L')
                    connections.push_back({int64_t(read_u64le(b.data() + q + 1)), int64_t(read_u64le(b.data() + q + 10)), size_t(at), oo});
            }
        }
        const uint64_t children = props + property_bytes;
        if (children < end) {
            if (int(stack.size()) > kMaxFbxDepth) return bad(at, "node records nested over " + std::to_string(kMaxFbxDepth) + " deep");
            stack.push_back({end, stack.size() == 1 && name == "Connections"});
            at = children;
        } else {
            at = end;
        }
    }
    return {};
}

// Text FBX: braces balanced and bounded in depth (outside strings and comments), and every `C: "..", id, id`
// collected.
Status walk_fbx_text(const SourceFile& file, std::vector<FbxConnection>& connections) {
    const std::string_view text(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size());
    int depth = 0;
    size_t line = 1;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') ++line;
        else if (c == ';') {  // a comment, to the end of the line
            while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        } else if (c == '"') {
            while (i + 1 < text.size() && text[i + 1] != '"') line += text[++i] == '\n';
            ++i;
        } else if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r') {
            // A control character is no part of the text format: one in place of a layer's number left
            // Assimp's element without its token, and it read through a null pointer
            // (tests/fuzz/corpus/fbx/regression_control_character_for_a_number.fbx).
            return make_error(ErrorCode::Parse, file.name() + ": line " + std::to_string(line) + ": control character \\x" + hex_byte(c) +
                                                    " outside a string");
        } else if (c == ':') {
            // A key (`Name:`) directly after another key on its line: the first has no value, and Assimp read
            // a "Layer:" left without its number through a null pointer
            // (tests/fuzz/corpus/fbx/regression_key_without_value_before_another_key.fbx).
            size_t start = i;
            while (start > 0 && (std::isalnum(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '_' || text[start - 1] == '|')) --start;
            size_t before = start;
            while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
            if (start < i && before > 0 && text[before - 1] == ':')
                return make_error(ErrorCode::Parse, file.name() + ": line " + std::to_string(line) + ": key '" + std::string(text.substr(start, i - start)) +
                                                        "' follows a key with no value");
        } else if (c == '{') {
            if (++depth > kMaxFbxDepth) return make_error(ErrorCode::Parse, file.name() + ": line " + std::to_string(line) + ": scopes nested over " +
                                                                              std::to_string(kMaxFbxDepth) + " deep");
        } else if (c == '}') {
            if (--depth < 0) return make_error(ErrorCode::Parse, file.name() + ": line " + std::to_string(line) + ": a '}' closes no scope");
        } else if (c == 'C' && i + 1 < text.size() && text[i + 1] == ':' && (i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1])))) {
            // C: "OO", child, parent
            size_t q = i + 2;
            while (q < text.size() && (text[q] == ' ' || text[q] == '\t')) ++q;
            if (q >= text.size() || text[q] != '"') continue;
            const size_t type_start = q + 1;
            q = text.find('"', type_start);
            if (q == std::string_view::npos) continue;
            const bool oo = text.substr(type_start, q - type_start) == "OO";
            int64_t ids[2];
            bool ok = true;
            for (int64_t& id : ids) {
                ++q;
                while (q < text.size() && (text[q] == ' ' || text[q] == '\t' || text[q] == ',')) ++q;
                const bool negative = q < text.size() && text[q] == '-';
                if (negative) ++q;
                uint64_t v = 0;
                const size_t digits = q;
                while (q < text.size() && std::isdigit(static_cast<unsigned char>(text[q])) && v < (uint64_t(1) << 59)) v = v * 10 + uint64_t(text[q++] - '0');
                ok &= q > digits;
                id = negative ? -int64_t(v) : int64_t(v);
                --q;
            }
            if (ok) connections.push_back({ids[0], ids[1], line, oo});
        }
    }
    return {};
}

}  // namespace

Status check_fbx_structure(const SourceFile& file) {
    static constexpr char kBinaryMagic[] = "Kaydara FBX Binary";
    const bool binary = file.bytes.size() >= sizeof(kBinaryMagic) - 1 && std::memcmp(file.bytes.data(), kBinaryMagic, sizeof(kBinaryMagic) - 1) == 0;
    std::vector<FbxConnection> connections;
    TRESSEL_TRY(binary ? walk_fbx_binary(file, connections) : walk_fbx_text(file, connections));
    // The connections must not loop: an object connected under itself, directly or through others, had
    // Assimp's converter recurse until the stack overflowed (tests/fuzz/corpus/fbx/regression_object_parent_of_itself.fbx).
    std::map<int64_t, std::vector<size_t>> parents;  // child id -> its connections
    for (size_t i = 0; i < connections.size(); ++i) parents[connections[i].child].push_back(i);
    // An object connected twice under the same parent: Assimp made two bones of a cluster connected twice to
    // its skin and freed it twice (tests/fuzz/corpus/fbx/regression_cluster_connected_twice.fbx).
    for (const auto& [child, list] : parents) {
        std::map<int64_t, size_t> seen;
        for (size_t i : list) {
            const FbxConnection& c = connections[i];
            if (!c.object_to_object) continue;
            if (!seen.emplace(c.parent, i).second)
                return make_error(ErrorCode::Parse, file.name() + ": " + (binary ? "byte " : "line ") + std::to_string(c.at) + ": object " +
                                                        std::to_string(child) + " is connected under " + std::to_string(c.parent) + " twice");
        }
    }
    std::map<int64_t, int> state;  // 1 on the current path, 2 done
    for (const auto& [start, unused] : parents) {
        if (state[start]) continue;
        // Depth-first along child -> parent, iteratively (a long chain must not overflow this check either).
        std::vector<std::pair<int64_t, size_t>> path{{start, 0}};
        state[start] = 1;
        while (!path.empty()) {
            auto& [id, next] = path.back();
            const auto it = parents.find(id);
            if (it == parents.end() || next == it->second.size()) {
                state[id] = 2;
                path.pop_back();
                continue;
            }
            const FbxConnection& c = connections[it->second[next++]];
            int& s = state[c.parent];
            if (s == 1)
                return make_error(ErrorCode::Parse, file.name() + ": " + (binary ? "byte " : "line ") + std::to_string(c.at) + ": object " +
                                                        std::to_string(c.child) + " is connected under " + std::to_string(c.parent) +
                                                        (c.parent == c.child ? ", itself" : ", which is already below it") + ": the object graph loops");
            if (s == 0) {
                s = 1;
                path.push_back({c.parent, 0});
            }
        }
    }
    return {};
}

}  // namespace tressel::detail
