#include "io/scene_meshes.h"

#include <glm/gtc/matrix_transform.hpp>

namespace tressel {

glm::dmat4 transform_matrix(const Transform& t) {
    glm::dmat4 m(1.0);
    m = glm::translate(m, t.translate_m);
    m = glm::rotate(m, glm::radians(t.rotate_deg.z), glm::dvec3(0, 0, 1));
    m = glm::rotate(m, glm::radians(t.rotate_deg.y), glm::dvec3(0, 1, 0));
    m = glm::rotate(m, glm::radians(t.rotate_deg.x), glm::dvec3(1, 0, 0));
    m = glm::scale(m, t.scale);
    return m;
}

void transform_mesh(Mesh& mesh, const glm::dmat4& m) {
    glm::dmat3 normal_m = glm::transpose(glm::inverse(glm::dmat3(m)));
    for (auto& p : mesh.positions) p = glm::vec3(m * glm::dvec4(glm::dvec3(p), 1.0));
    for (auto& n : mesh.normals) {
        glm::dvec3 v = normal_m * glm::dvec3(n);
        double len = glm::length(v);
        n = len > 0.0 ? glm::vec3(v / len) : glm::vec3(0, 1, 0);
    }
    // A mirroring transform flips the winding: swap two indices per triangle to keep outward normals.
    if (glm::determinant(glm::dmat3(m)) < 0.0)
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
}

Result<ImportOptions> scene_import_options(const Scene& scene, size_t index) {
    TRESSEL_ASSERT(index < scene.meshes.size(), "scene_import_options: index out of range");
    const MeshRef& ref = scene.meshes[index];
    ImportOptions options;
    options.units = scene.units;
    options.up_axis = scene.up_axis;
    if (!ref.units.empty()) {
        auto u = parse_length_unit(ref.units);
        if (!u) return make_error(ErrorCode::InvalidArgument, "mesh '" + ref.name + "': unknown units '" + ref.units + "'");
        options.units = *u;
    }
    if (!ref.up_axis.empty()) {
        auto a = parse_up_axis(ref.up_axis);
        if (!a) return make_error(ErrorCode::InvalidArgument, "mesh '" + ref.name + "': unknown up axis '" + ref.up_axis + "'");
        options.up_axis = *a;
    }
    options.weld = ref.weld;
    return options;
}

Result<SceneMesh> load_scene_mesh(const Scene& scene, size_t index, Progress* progress) {
    TRESSEL_ASSERT(index < scene.meshes.size(), "load_scene_mesh: index out of range");
    const MeshRef& ref = scene.meshes[index];
    auto opts = scene_import_options(scene, index);
    if (!opts) return opts.error();
    ImportOptions options = *opts;
    options.progress = progress;
    auto imported = import_mesh_file(scene.resolve(ref.path), options);
    if (!imported) return make_error(imported.error().code, "mesh '" + ref.name + "': " + imported.error().message);
    SceneMesh out;
    out.name = ref.name;
    out.mesh = merge_meshes(*imported, ref.name);
    transform_mesh(out.mesh, transform_matrix(ref.transform));
    out.report = analyze_mesh(out.mesh);
    out.imported = std::move(*imported);
    return out;
}

Result<std::vector<SceneMesh>> load_scene_meshes(const Scene& scene, Progress* progress) {
    std::vector<SceneMesh> out;
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        if (progress) {
            if (progress->cancelled()) return make_error(ErrorCode::Cancelled, "loading meshes was cancelled");
            progress->set(float(i) / float(scene.meshes.size()), "importing meshes");
        }
        auto m = load_scene_mesh(scene, i, nullptr);
        if (!m) return m.error();
        out.push_back(std::move(*m));
    }
    if (progress) progress->set(1.0f, "meshes imported");
    return out;
}

}  // namespace tressel
