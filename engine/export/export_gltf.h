// glTF 2.0 export (`.gltf` with embedded buffers or `.glb`) of triangle meshes and hair strands, through
// tinygltf's writer, so any glTF viewer shows the groom on its head (shared/FORMATS.md "glTF 2.0").
//
// Strands travel as one LINES primitive per strand set (a hair group's guides, or its follows): one
// POSITION accessor, optional COLOR_0, and a u32 index accessor holding each strand's segments (i, i+1).
// LINE_STRIP would need one primitive (and two accessors) per strand: tens of thousands of draw calls
// and of JSON objects for a real groom, where LINES costs one of each and 8 bytes per segment. Strands
// are recovered from the indices: they occupy consecutive vertex ranges, and a new strand starts
// wherever a segment does not begin at the previous segment's end.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "io/mesh.h"

namespace tressel {

struct GltfStrandSet {
    std::string name;                         // mesh / node name
    std::vector<glm::vec3> points_m;          // metres, Y up (glTF's convention too)
    std::vector<uint32_t> strand_offsets{0};  // n + 1 entries; each strand has at least 2 points
    std::vector<glm::vec4> colors;            // linear RGBA per point, or empty
    size_t strand_count() const { return strand_offsets.size() - 1; }
};

struct GltfExportDesc {
    std::vector<const Mesh*> meshes;          // triangle meshes (positions, normals, uvs, indices); not owned
    std::vector<GltfStrandSet> strands;
    bool binary = false;                      // .glb when true, else .gltf with base64 data URIs
    std::string generator = "Tressel";
};

// InvalidArgument (naming the mesh or strand set) for nothing to write, an empty mesh, indices out of
// range, strands with fewer than 2 points, sizes that differ, non-finite values; LimitExceeded past
// the 4 GiB a glb buffer can hold. Normals that cannot be normalised are left out (the validator
// requires unit normals). Written atomically.
Result<std::vector<uint8_t>> encode_gltf(const GltfExportDesc& desc);
Status write_gltf_file(const std::filesystem::path& path, const GltfExportDesc& desc);

// Reads every LINES primitive of a .gltf / .glb (by extension) back as strand sets, with the mesh's
// name. Errors (Parse) name the file and the accessor at fault.
Result<std::vector<GltfStrandSet>> read_gltf_strands(const std::filesystem::path& path);

}  // namespace tressel
