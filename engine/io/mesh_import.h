// Mesh import: own readers for OBJ and PLY (polygons, triangle strips, any list types), Assimp for FBX,
// STL, DAE and the other formats it reads (FBX skins and clips kept), tinygltf for .gltf and .glb (skins,
// node hierarchy and animations kept for later skinning). Every importer validates what it
// reads: a missing, empty, truncated or mangled file is an Error naming the file and the problem, never a
// crash, and nothing is allocated from a header's claim before checking it against the file size.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "core/diagnostics.h"
#include "core/progress.h"
#include "core/result.h"
#include "core/units.h"
#include "io/mesh.h"

namespace tressel {

struct ImportOptions {
    LengthUnit units = LengthUnit::Metre;   // the file's unit (overridden by unit metadata the file carries, with a diagnostic)
    UpAxis up_axis = UpAxis::Y;             // the file's up axis
    bool weld = false;                      // merge vertices with identical positions (attributes of the first kept)
    bool compute_missing_normals = true;    // area-and-angle weighted vertex normals when the file has none
    uint64_t max_file_bytes = 2ull << 30;
    Progress* progress = nullptr;           // optional; may be polled from another thread
};

struct Node {
    std::string name;
    int parent = -1;                        // index into ImportedScene::nodes, -1 for roots
    glm::dvec3 translation{0.0};
    glm::dquat rotation{1.0, 0.0, 0.0, 0.0};
    glm::dvec3 scale{1.0};
    int mesh = -1;                          // index into ImportedScene::meshes, -1 when none
    int skin = -1;
};

struct Skin {
    std::string name;
    std::vector<int> joints;                // node indices
    std::vector<glm::mat4> inverse_bind;    // one per joint (identity when the file has none)
    int skeleton = -1;                      // root node, -1 when unspecified
};

enum class AnimPath { Translation, Rotation, Scale, Weights };
enum class AnimInterpolation { Linear, Step, CubicSpline };

struct AnimationChannel {
    int node = -1;
    AnimPath path = AnimPath::Translation;
    AnimInterpolation interpolation = AnimInterpolation::Linear;
    std::vector<float> times_s;             // strictly increasing
    std::vector<float> values;              // tightly packed: 3 (T, S) or 4 (R, xyzw) floats per key, x3 for cubic spline
};

struct Animation {
    std::string name;
    double duration_s = 0.0;
    std::vector<AnimationChannel> channels;
};

struct ImportedScene {
    // Each mesh is in engine space (metres, Y up): the file's node transforms applied (for skinned
    // meshes, their bind pose), then the unit and up-axis conversion. Quads and polygons are
    // triangulated; normals computed when missing (if asked).
    std::vector<Mesh> meshes;
    std::vector<Node> nodes;
    std::vector<Skin> skins;
    std::vector<Animation> animations;
    Diagnostics diagnostics;                // recoverable problems: unit overrides, dropped primitives, ...
    std::string format;                     // "obj", "fbx", "gltf", "glb", ...
    // The unit the file declares (FBX UnitScaleFactor), metres per unit; 0 when it declares none or the
    // declaration matched the import option. Not trusted (exporters leave defaults): reported with a fix.
    double declared_metres_per_unit = 0.0;
};

// Picks the importer by extension (case-insensitive).
Result<ImportedScene> import_mesh_file(const std::filesystem::path& path, const ImportOptions& options = {});
// The same from bytes already in memory; `path` names the file in messages and gives the extension.
Result<ImportedScene> import_mesh_bytes(std::span<const uint8_t> bytes, const std::filesystem::path& path, const ImportOptions& options = {});

// All meshes of an import concatenated into one (indices rebased), for a scalp or collision mesh.
Mesh merge_meshes(const ImportedScene& scene, std::string name);

// Topology and geometry checks reported by `tressel-cli info` and used to choose an SDF sign method.
struct MeshReport {
    size_t vertices = 0;
    size_t triangles = 0;
    glm::vec3 bounds_min{0.0f}, bounds_max{0.0f};  // metres; zero when empty
    size_t unique_positions = 0;                   // after merging identical positions
    size_t open_edges = 0;                         // edges used by exactly one triangle (by position)
    size_t non_manifold_edges = 0;                 // edges used by three or more triangles
    size_t degenerate_triangles = 0;               // zero area or repeated vertex
    size_t non_finite_values = 0;                  // NaN or Inf coordinates (import rejects these)
    bool closed() const { return triangles > 0 && open_edges == 0 && non_manifold_edges == 0; }
};

MeshReport analyze_mesh(const Mesh& mesh);

}  // namespace tressel
