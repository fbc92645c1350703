#include "io/mesh_import.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "core/file_io.h"
#include "io/import_detail.h"
#include "io/mesh_ops.h"

namespace tressel {

namespace {

std::string lower_extension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// Extensions handed to Assimp (the ones it reads that make sense for a scalp or collision mesh).
bool assimp_extension(const std::string& ext) {
    static const char* const kList[] = {"fbx", "ply", "stl", "dae", "3ds", "ase", "lwo", "lws", "off", "x",
                                        "ms3d", "cob", "ifc", "xgl", "zgl", "ac", "blend", "md2", "md3", "3mf", "x3d"};
    for (const char* e : kList) {
        if (ext == e) return true;
    }
    return false;
}

Status cancelled_check(Progress* progress, const std::filesystem::path& path) {
    if (progress && progress->cancelled()) return make_error(ErrorCode::Cancelled, "import of " + path.string() + " was cancelled");
    return {};
}

// Applies `m` (file frame -> engine space) to positions, and its inverse transpose to normals.
void transform_mesh(Mesh& mesh, const glm::dmat4& m) {
    glm::dmat3 nm = glm::transpose(glm::inverse(glm::dmat3(m)));
    for (auto& p : mesh.positions) p = glm::vec3(m * glm::dvec4(glm::dvec3(p), 1.0));
    for (auto& n : mesh.normals) n = glm::vec3(nm * glm::dvec3(n));
}

// Normalises file normals; returns false when any is zero or not finite (they are then recomputed).
bool normalize_normals(Mesh& mesh) {
    for (auto& n : mesh.normals) {
        float len = glm::length(n);
        if (!(len > 1e-20f) || !std::isfinite(len)) return false;
        n /= len;
    }
    return true;
}

void normalize_weights(Mesh& mesh) {
    for (size_t i = 0; i < mesh.weights.size(); ++i) {
        glm::vec4& w = mesh.weights[i];
        w = glm::max(w, glm::vec4(0.0f));
        float s = w.x + w.y + w.z + w.w;
        if (s > 0.0f) {
            w /= s;
        } else {
            w = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
        }
    }
}

Status check_extension(const std::filesystem::path& path) {
    const std::string ext = lower_extension(path);
    if (ext == "obj" || ext == "gltf" || ext == "glb" || ext == "tfxmesh" || assimp_extension(ext)) return {};
    return make_error(ErrorCode::Unsupported, path.string() + ": unknown mesh file extension '" + path.extension().string() +
                                                  "' (expected obj, fbx, ply, stl, dae, gltf, glb, tfxmesh, ...)");
}

}  // namespace

Result<ImportedScene> import_mesh_file(const std::filesystem::path& path, const ImportOptions& options) {
    Progress* progress = options.progress;
    TRESSEL_TRY(check_extension(path));  // before reading what may be a large file of another kind
    if (progress) progress->set(0.0f, "reading mesh");
    auto bytes = read_file_bytes(path, options.max_file_bytes);
    if (!bytes.ok()) return bytes.error();
    return import_mesh_bytes(*bytes, path, options);
}

Result<ImportedScene> import_mesh_bytes(std::span<const uint8_t> bytes, const std::filesystem::path& path, const ImportOptions& options) {
    Progress* progress = options.progress;
    const std::string ext = lower_extension(path);
    const bool is_obj = ext == "obj", is_gltf = ext == "gltf", is_glb = ext == "glb", is_tfx = ext == "tfxmesh";
    TRESSEL_TRY(check_extension(path));
    if (bytes.size() > options.max_file_bytes)
        return make_error(ErrorCode::LimitExceeded, path.string() + ": " + std::to_string(bytes.size()) + " bytes, over the limit of " +
                                                        std::to_string(options.max_file_bytes));
    if (bytes.empty()) return make_error(ErrorCode::Parse, path.string() + ": the file is empty");
    TRESSEL_TRY(cancelled_check(progress, path));
    if (progress) progress->set(0.1f, "parsing mesh");

    detail::SourceFile file{path, bytes};
    detail::FileFrame frame{metres_per_unit(options.units), options.up_axis};
    Result<ImportedScene> parsed = make_error(ErrorCode::Unsupported, "unreachable");
    if (is_obj) {
        parsed = detail::import_obj(file, frame, progress);
    } else if (is_gltf || is_glb) {
        parsed = detail::import_gltf(file, is_glb, frame, progress);
    } else if (is_tfx) {
        parsed = detail::import_tfxmesh_scene(file);
    } else if (ext == "ply") {
        parsed = detail::import_ply(file);
    } else if (ext == "stl") {
        parsed = detail::import_stl(file);
    } else {
        parsed = detail::import_assimp(file, ext, frame, progress);
    }
    if (!parsed.ok()) return parsed.error();
    ImportedScene scene = std::move(parsed.value());
    scene.format = ext;
    if (!unify_skins(scene))
        scene.diagnostics.warn(path.string(), "the file's parts could not be given one skin (a part belongs to no node, or there are over 65,535 "
                                              "joints): only a mesh whose parts share one skin can be animated");
    TRESSEL_TRY(cancelled_check(progress, path));
    if (progress) progress->set(0.7f, "converting mesh");

    size_t triangles = 0;
    for (const auto& m : scene.meshes) {
        TRESSEL_TRY(validate_mesh(m, path.string()));
        triangles += m.triangle_count();
    }
    if (triangles == 0) {
        return make_error(ErrorCode::Parse, path.string() + ": the file contains no triangles (only points, lines or nothing)");
    }

    const glm::dmat4 to_engine = to_engine_space(LengthUnit::Metre, frame.up_axis) *
                                 glm::scale(glm::dmat4(1.0), glm::dvec3(frame.metres_per_unit));
    for (auto& mesh : scene.meshes) {
        transform_mesh(mesh, to_engine);
        if (mesh.has_normals() && !normalize_normals(mesh)) {
            scene.diagnostics.warn(path.string(), "mesh '" + mesh.name + "' has zero or invalid normals; they were recomputed");
            mesh.normals.clear();
        }
        normalize_weights(mesh);
        if (size_t unused = remove_unreferenced_vertices(mesh))
            scene.diagnostics.info(path.string(), "mesh '" + mesh.name + "': " + std::to_string(unused) + " vertices used by no triangle were dropped");
        if (options.weld) weld_positions(mesh);
        if (!mesh.has_normals() && options.compute_missing_normals) compute_vertex_normals(mesh);
        for (const auto& p : mesh.positions) {
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
                return make_error(ErrorCode::Parse, path.string() + ": mesh '" + mesh.name +
                                                        "' has coordinates that overflow after conversion to metres");
            }
        }
    }
    if (progress) progress->set(1.0f, "mesh imported");
    return scene;
}

}  // namespace tressel
