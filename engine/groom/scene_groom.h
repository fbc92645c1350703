// Growing a scene's hair group on the scene's own scalp mesh: the one place that turns a Scene, a
// HairGroup and the imported meshes into GroomInputs (engine/runtime calls it for the editor and every CLI
// command).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "groom/grow.h"
#include "io/scene_meshes.h"

namespace tressel {

// The group's scalp is the mesh named group.scalp.mesh among `meshes` (world space, as load_scene_meshes
// gives them). Guide files share the scalp mesh file's coordinates, so they get that mesh's scene
// transform. Errors (NotFound for a missing scalp, or the groom's own) start with the group's name.
// The clearance a group's guides keep from their scalp: the largest margin of the scalp mesh's collision
// entries when the group collides with that mesh (simulation.sdf names it), else -1 (no correction). The groom depends on
// it, so a margin edit regrows the group.
double scene_scalp_clearance_m(const Scene& scene, const HairGroup& group);

// How far the hair keeps from a soft body's surface, in the simulation (the field's margin) and in the
// growth around it.
inline constexpr double kSoftBodyHairClearanceM = 0.002;

// The bodies a group's guides are grown around (GroomInputs::obstacles): the enabled soft-body accessories
// the hair collides with (soft_body.hair_collision), by mesh name, each with its clearance. The groom
// depends on them and on those meshes' placement (scene_groom_obstacles_equal), so adding, moving or
// switching off such a body regrows the hair.
struct SceneGroomObstacle {
    std::string mesh;
    double clearance_m = 0.0;
    bool operator==(const SceneGroomObstacle&) const = default;
};
std::vector<SceneGroomObstacle> scene_groom_obstacles(const Scene& scene, const HairGroup& group);
bool scene_groom_obstacles_equal(const Scene& sa, const HairGroup& a, const Scene& sb, const HairGroup& b);

Result<GroomResult> grow_scene_group(const Scene& scene, const HairGroup& group, std::span<const SceneMesh> meshes,
                                     Progress* progress = nullptr);

}  // namespace tressel
