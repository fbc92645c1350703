#include "groom/scene_groom.h"

#include <algorithm>

namespace tressel {

double scene_scalp_clearance_m(const Scene& scene, const HairGroup& group) {
    double clearance = -1.0;  // GroomInputs: negative = no correction
    const auto& sdfs = group.simulation.sdf;
    for (const CollisionMesh& cm : scene.collision_meshes)
        if (cm.mesh == group.scalp.mesh && std::find(sdfs.begin(), sdfs.end(), cm.mesh) != sdfs.end())
            clearance = std::max(clearance, cm.margin_m);  // several entries: the largest
    return clearance;
}

Result<GroomResult> grow_scene_group(const Scene& scene, const HairGroup& group, std::span<const SceneMesh> meshes,
                                     Progress* progress) {
    const std::string who = "hair group '" + group.name + "': ";
    const SceneMesh* scalp = nullptr;
    for (const SceneMesh& m : meshes)
        if (m.name == group.scalp.mesh) scalp = &m;
    if (!scalp)
        return make_error(ErrorCode::NotFound, who + "scalp.mesh '" + group.scalp.mesh + "' names no mesh of the scene");
    GroomInputs in;
    in.scalp = &scalp->mesh;
    in.group = group;
    in.base_dir = scene.origin.dir;
    for (const MeshRef& ref : scene.meshes)
        if (ref.name == group.scalp.mesh) in.file_to_mesh = glm::mat4(transform_matrix(ref.transform));
    in.scalp_clearance_m = scene_scalp_clearance_m(scene, group);
    auto groom = grow_group(in, progress);
    if (!groom) return make_error(groom.error().code, who + groom.error().message);
    return groom;
}

}  // namespace tressel
