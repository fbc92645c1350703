// Pre-flight check for a container whose header tinygltf would trust: GLB lengths, walked without
// allocating anything sized by the file, failing with the first inconsistency. (PLY and STL have their own
// readers: ply_import.cpp, stl_import.cpp.)
#include <cstring>

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

}  // namespace tressel::detail
