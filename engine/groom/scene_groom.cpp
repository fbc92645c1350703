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

std::vector<SceneGroomObstacle> scene_groom_obstacles(const Scene& scene, const HairGroup& group) {
    std::vector<SceneGroomObstacle> out;
    if (group.growth.placement == Placement::File || group.growth.placement == Placement::Edited) return out;  // never moved
    for (const Accessory& a : scene.accessories)
        if (a.enabled && a.type == AccessoryType::SoftBody && a.soft_body.hair_collision && a.mesh != group.scalp.mesh)
            out.push_back({a.mesh, kSoftBodyHairClearanceM});
    return out;
}

bool scene_groom_obstacles_equal(const Scene& sa, const HairGroup& a, const Scene& sb, const HairGroup& b) {
    const std::vector<SceneGroomObstacle> oa = scene_groom_obstacles(sa, a), ob = scene_groom_obstacles(sb, b);
    if (oa != ob) return false;
    auto ref = [](const Scene& s, const std::string& name) -> const MeshRef* {
        for (const MeshRef& m : s.meshes)
            if (m.name == name) return &m;
        return nullptr;
    };
    for (const SceneGroomObstacle& o : oa) {
        const MeshRef* ra = ref(sa, o.mesh);
        const MeshRef* rb = ref(sb, o.mesh);
        if ((ra == nullptr) != (rb == nullptr) || (ra && !(*ra == *rb))) return false;
    }
    return true;
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
    for (const SceneGroomObstacle& o : scene_groom_obstacles(scene, group))
        for (const SceneMesh& m : meshes)
            if (m.name == o.mesh) in.obstacles.push_back({&m.mesh, o.clearance_m, "'" + m.name + "'"});
    auto groom = grow_group(in, progress);
    if (!groom) return make_error(groom.error().code, who + groom.error().message);
    return groom;
}

}  // namespace tressel
