// Pre-flight checks of files a parser library would trust: GLB lengths (tinygltf), walked without
// allocating anything sized by the file, and COLLADA's number lists and counts (Assimp), failing with the
// first inconsistency. (PLY and STL have their own readers: ply_import.cpp, stl_import.cpp.)
#include <cctype>
#include <cstring>
#include <string_view>

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

}  // namespace

Status check_collada_text(const SourceFile& file) {
    const std::string_view text(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size());
    auto bad = [&](size_t at, const std::string& what) {
        return make_error(ErrorCode::Parse, file.name() + ": line " + std::to_string(line_of(text, at)) + ": " + what);
    };
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
    return {};
}

}  // namespace tressel::detail
