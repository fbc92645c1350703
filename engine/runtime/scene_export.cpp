#include "runtime/scene_export.h"

namespace tressel::runtime {

namespace {

std::vector<std::string> joint_names(const SceneMesh& m) {
    std::vector<std::string> names;
    if (m.mesh.skin < 0 || size_t(m.mesh.skin) >= m.imported.skins.size()) return names;
    for (int node : m.imported.skins[size_t(m.mesh.skin)].joints)
        names.push_back(node >= 0 && size_t(node) < m.imported.nodes.size() ? m.imported.nodes[size_t(node)].name : "");
    return names;
}

}  // namespace

Result<ExportDesc> scene_export_desc(const Scene& scene, const SceneContent& content, const SceneExportRequest& request) {
    if (scene.hair_groups.size() != content.grooms.size())
        return make_error(ErrorCode::InvalidArgument, "export: the scene's hair groups have not all been grown yet");
    ExportDesc desc;
    desc.format = request.format;
    desc.out = request.out;
    desc.include_follows = request.include_follows;
    desc.environment = scene.environment;
    desc.tressfx.gravity_scale = request.gravity_scale;
    for (size_t i = 0; i < scene.hair_groups.size(); ++i) {
        const HairGroup& group = scene.hair_groups[i];
        if (request.group && group.name != *request.group) continue;
        if (i >= content.grooms.size() || !content.grooms[i])
            return make_error(ErrorCode::InvalidArgument, "hair group '" + group.name + "' has not been grown");
        const SceneMesh* scalp = content.find_mesh(group.scalp.mesh);
        if (!scalp)
            return make_error(ErrorCode::NotFound, "hair group '" + group.name + "': scalp.mesh '" + group.scalp.mesh +
                                                       "' names no mesh of the scene");
        desc.groups.push_back({&group, content.grooms[i].get(), &scalp->mesh, joint_names(*scalp), nullptr});
    }
    if (request.group && desc.groups.empty()) return make_error(ErrorCode::NotFound, "no hair group named '" + *request.group + "'");
    if (desc.groups.empty()) return make_error(ErrorCode::InvalidArgument, "the scene has no hair groups to export");
    for (const CollisionMesh& c : scene.collision_meshes)
        if (const SceneMesh* m = content.find_mesh(c.mesh)) desc.collision.push_back({c, &m->mesh, joint_names(*m)});
    for (const MeshRef& ref : scene.meshes)
        if (ref.visible)
            if (const SceneMesh* m = content.find_mesh(ref.name)) desc.meshes.push_back(&m->mesh);
    return desc;
}

Result<ExportReport> export_scene(const Scene& scene, const SceneContent& content, const SceneExportRequest& request) {
    auto desc = scene_export_desc(scene, content, request);
    if (!desc) return desc.error();
    return export_groom(*desc);
}

}  // namespace tressel::runtime
