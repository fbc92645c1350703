// Internal to engine/io: the per-format importers behind import_mesh_file(). Each one parses bytes that
// mesh_import.cpp has already read (with the size cap) and returns meshes in the file's own frame with
// the file's node transforms applied; mesh_import.cpp then validates, converts to engine space, computes
// missing normals and welds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "core/result.h"
#include "io/mesh_import.h"

namespace tressel::detail {

struct SourceFile {
    std::filesystem::path path;
    std::span<const uint8_t> bytes;
    std::string name() const { return path.string(); }
};

// The frame a file's coordinates are in, as far as the file itself says; the importer starts from the
// caller's ImportOptions and overrides it (with a diagnostic) from metadata the file carries.
struct FileFrame {
    double metres_per_unit = 1.0;
    UpAxis up_axis = UpAxis::Y;
};

Result<ImportedScene> import_obj(const SourceFile& file, FileFrame& frame, Progress* progress);
Result<ImportedScene> import_gltf(const SourceFile& file, bool binary, FileFrame& frame, Progress* progress);
Result<ImportedScene> import_assimp(const SourceFile& file, const std::string& ext, FileFrame& frame, Progress* progress);
Result<ImportedScene> import_tfxmesh_scene(const SourceFile& file);
Result<ImportedScene> import_ply(const SourceFile& file);
Result<ImportedScene> import_stl(const SourceFile& file);

// Pre-flight checks of headers that a parser library would trust: every count and length is checked
// against the bytes that are really there before the library sees the file.
Status check_glb_container(const SourceFile& file);
// COLLADA text: number lists hold only numbers, and no count exceeds the file's size.
Status check_collada_text(const SourceFile& file);
// FBX, binary or text: records inside their parents, nesting bounded, and an object graph without loops.
Status check_fbx_structure(const SourceFile& file);

// A file of one mesh: the mesh and the node holding it.
inline ImportedScene single_mesh_scene(Mesh mesh, ImportedScene scene = {}) {
    Node node;
    node.name = mesh.name;
    node.mesh = 0;
    scene.nodes.push_back(node);
    scene.meshes.push_back(std::move(mesh));
    return scene;
}

// Whitespace-separated tokens of a text body, counting lines (for messages).
struct TextTokens {
    std::string_view text;
    size_t pos = 0, line = 1;
    static bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
    bool next(std::string_view& tok) {
        while (pos < text.size() && space(text[pos])) {
            if (text[pos] == '\n') ++line;
            ++pos;
        }
        if (pos >= text.size()) return false;
        size_t q = pos;
        while (q < text.size() && !space(text[q])) ++q;
        tok = text.substr(pos, q - pos);
        pos = q;
        return true;
    }
    void skip_line() {
        while (pos < text.size() && text[pos] != '\n') ++pos;
    }
};

// "a.obj:12: " style prefix.
inline std::string at_line(const SourceFile& file, size_t line) { return file.name() + ":" + std::to_string(line) + ": "; }

}  // namespace tressel::detail
