// Mesh operations shared by the importers and the tools that consume meshes: normal generation, position
// welding and structural validation. All work on engine meshes in place; none allocates more than a few
// arrays the size of the mesh.
#pragma once

#include <string>

#include "core/result.h"
#include "io/mesh.h"

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

}  // namespace tressel
