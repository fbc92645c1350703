// TressFX `.tfxmesh`: the ASCII skinned collision mesh of TressFX 4.1 (layout in shared/FORMATS.md).
// Coordinates are read and written as they are in the file (no unit or axis conversion: the caller
// converts, as import_mesh_file() does with ImportOptions).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "io/mesh.h"

namespace tressel {

struct TfxMesh {
    Mesh mesh;                            // positions, normals, joints (indices into bone_names), weights (sum 1)
    std::vector<std::string> bone_names;  // in bone-index order
};

// Malformed files fail with "<path>:<line>: <problem>": wrong token count, a non-numeric token, an
// index out of range, counts above what the rest of the file can hold, NaN or Inf values.
Result<TfxMesh> read_tfxmesh(const std::filesystem::path& path, uint64_t max_file_bytes = 2ull << 30);
Result<TfxMesh> parse_tfxmesh(std::string_view text, const std::string& file_name);

// Writes `mesh` (in the file's target units; normals computed when the mesh has none; joints/weights
// written as bone 0 with weight 1 when it has none) with write_file_atomic. Bone names must be
// non-empty without whitespace, and every joint index must be below bone_names.size().
Status write_tfxmesh(const Mesh& mesh, const std::vector<std::string>& bone_names, const std::filesystem::path& path);

}  // namespace tressel
