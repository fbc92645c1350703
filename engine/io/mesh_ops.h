// Mesh operations shared by the importers and the tools that consume meshes: normal generation, position
// welding and structural validation. All work on engine meshes in place; none allocates more than a few
// arrays the size of the mesh.
#pragma once

#include <string>

#include "core/result.h"
#include "io/mesh.h"

namespace tressel {
struct ImportedScene;
}

namespace tressel {

// Angle-weighted vertex normals (Thürmer & Wüthrich 1998): each triangle adds its unit normal times the
// corner angle to its three corners. Accumulated per distinct position, so vertices split at UV or
// material seams get the same smooth normal. Degenerate triangles add nothing; a vertex no triangle
// reaches gets (0, 1, 0). Replaces `mesh.normals`.
void compute_vertex_normals(Mesh& mesh);

// Merges vertices whose positions are bit-identical (+0 and -0 treated as equal); the attributes of the
// first occurrence are kept and indices are remapped. Returns the number of vertices removed.
size_t weld_positions(Mesh& mesh);

// Drops vertices that no triangle uses (scans often carry some) and remaps indices. Returns how many.
size_t remove_unreferenced_vertices(Mesh& mesh);

// Checks what every consumer relies on: index count a multiple of 3, every index in range, attribute
// arrays empty or one per position, every position / normal / uv finite. `where` (a file name) starts
// each message.
Status validate_mesh(const Mesh& mesh, const std::string& where);

// One skin for every mesh of a file whose parts move: when some mesh is skinned or a clip moves a node, and
// the meshes do not all already share one skin, a skin covering them all is appended to `scene.skins` and
// every mesh is rewritten to it (`Mesh::skin`, `joints`). Each skin's joints are taken over (a node with the
// same inverse bind matrix in several skins, as RobotExpressive's four hands share their skeleton, becomes
// one joint); a rigid part (a node's mesh with no skin) follows with weight 1 the nearest node at or above
// it that is a joint or that a clip moves (taken over as that joint, or added with the inverse of its rest
// transform), so a character of separate parts skins as one mesh, and merge_meshes keeps its skin.
// Returns false, with the meshes left as they were, when a part belongs to no node or the joints would not
// fit 16-bit indices.
bool unify_skins(ImportedScene& scene);

}  // namespace tressel
