// TressFX `.tfxbone`: root skinning of the guide strands of a `.tfx` (layout in shared/FORMATS.md: the
// loader's real layout, not the header struct TressFX declares). Read and written as the file holds
// them: bone indices stay as stored (the 4.1 loader reads -1 as 0; so do consumers of TfxBoneData).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/diagnostics.h"
#include "core/result.h"
#include "io/mesh.h"

namespace tressel {

inline constexpr size_t kTfxBoneMaxNameChars = 127;  // TressFX's name buffer is 128 bytes with the NUL

struct TfxStrandSkin {
    int32_t strand = 0;                    // index of the guide strand in the .tfx
    std::array<int32_t, 4> bones{};        // indices into TfxBoneData::bone_names (-1 read as 0)
    std::array<float, 4> weights{};        // the first is non-zero; they sum above zero
};

struct TfxBoneData {
    std::vector<int32_t> bone_ids;         // the boneIndex stored before each name (its position in practice)
    std::vector<std::string> bone_names;   // <= 127 chars each, no NUL
    std::vector<TfxStrandSkin> strands;
};

// Malformed files fail with "<name>: <problem>" (counts that the file size cannot hold, a name length
// of 0 or above 128, a name without its NUL, a bone index outside the name list, a first weight of 0,
// weights that do not sum above 0, trailing bytes). Never allocates more than the file can describe.
Result<TfxBoneData> parse_tfxbone(std::span<const uint8_t> bytes, const std::string& name);
Result<TfxBoneData> read_tfxbone_file(const std::filesystem::path& path, uint64_t max_file_bytes = 1ull << 30);

// Checks the same rules as the parser (so what is written can be read back); InvalidArgument otherwise.
Result<std::vector<uint8_t>> encode_tfxbone(const TfxBoneData& data);
// encode_tfxbone + write_file_atomic; errors name the path.
Status write_tfxbone_file(const std::filesystem::path& path, const TfxBoneData& data);

// The bone names TressFX files carry for a skin's joints, one mapping for `.tfxbone` and `.tfxmesh` alike
// (AMD's loader turns a name it does not know into bone 0 without a word, so both files must spell each
// joint the same): whitespace and control characters become '_' (`.tfxmesh` is whitespace-separated
// text), names are cut to 127 bytes (`.tfxbone`'s 128-byte buffer), an empty name is "joint_<index>",
// and a name that the mapping made equal to an earlier one gets "_<index>". '#' is kept: AMD's parser
// takes '#' as a comment only at the start of a line. `count` names are made (joint_names may be
// shorter); a warning in `diag` lists the names that changed.
std::vector<std::string> tressfx_bone_names(std::span<const std::string> joint_names, size_t count, Diagnostics& diag);

struct TfxBoneFromScalp {
    const Mesh* scalp = nullptr;               // required; joints/weights used when present (one per position)
    std::vector<std::string> joint_names;      // names of the scalp's joints (index = Mesh::joints value); may be empty when unskinned
    std::span<const uint32_t> root_triangles;  // per strand: triangle of the scalp (index into indices / 3)
    std::span<const glm::vec3> root_barycentrics;  // per strand: weights of the triangle's 3 corners
};

// Root skinning of strands attached to a scalp: each root blends its triangle corners' (joint, weight)
// pairs by its barycentric coordinates, keeps the 4 heaviest joints (largest first) and renormalises.
// An unskinned scalp (no joints) gives one bone named "root" with weight 1 for every strand; a skinned
// root whose corners carry no weight gets joint 0 with weight 1 and a warning. Joints without a name are named "joint_<index>". InvalidArgument for a triangle out of
// range or span sizes that differ.
Result<TfxBoneData> tfxbone_from_scalp(const TfxBoneFromScalp& in, Diagnostics& diag);

}  // namespace tressel
