// Imports every mesh a scene names, with the scene's (or the mesh's own) units and up axis, welding
// when asked, and the mesh's transform applied: the meshes the editor, the CLI and the pipeline use.
// Reads only the header-only scene types, so io does not depend on the scene library.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/diagnostics.h"
#include "core/progress.h"
#include "core/result.h"
#include "io/mesh_import.h"
#include "scene/scene_types.h"

namespace tressel {

// Object-to-world matrix of a scene transform: scale, then rotate X, Y, Z (degrees), then translate.
glm::dmat4 transform_matrix(const Transform& t);

// Applies an affine matrix to positions and normals (inverse transpose), renormalising normals.
void transform_mesh(Mesh& mesh, const glm::dmat4& m);

struct SceneMesh {
    std::string name;          // MeshRef::name
    Mesh mesh;                 // all parts merged, world space (metres, Y up)
    ImportedScene imported;    // the file's own parts, nodes, skins and animations (engine space, untransformed)
    MeshReport report;
};

// The import options mesh `index` of `scene` is read with (the scene's units and up axis, the mesh's
// overrides). InvalidArgument naming the mesh for an unknown unit or axis.
Result<ImportOptions> scene_import_options(const Scene& scene, size_t index);

// Imports mesh `index` of `scene`. Errors name the mesh and its file.
Result<SceneMesh> load_scene_mesh(const Scene& scene, size_t index, Progress* progress = nullptr);

// Imports all meshes; stops at the first error.
Result<std::vector<SceneMesh>> load_scene_meshes(const Scene& scene, Progress* progress = nullptr);

}  // namespace tressel
