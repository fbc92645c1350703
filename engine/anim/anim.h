// Skeletal animation: clips of an imported file sampled at a time, the node hierarchy's transforms, the
// joints' skinning matrices and a CPU reference of linear blend skinning (shaders/shared/skinning.h, the
// formula the GPU pass shares). Works on io::ImportedScene as the importers keep it: nodes with their rest
// TRS, skins with joints and inverse bind matrices, animations as keyframe channels.
//
//   ClipSampler clip(scene, scene.animations[i]);               // validated once
//   std::vector<NodeTransform> local = rest_pose(scene);
//   clip.sample(t_s, local);                                   // channels override the rest TRS
//   auto world = world_transforms(scene, local);
//   auto joints = joint_matrices(scene.skins[s], world, to_engine);
//   SkinBind bind = *unbind_mesh(mesh, joint_matrices(skin, world_transforms(scene, rest_pose(scene))));
//   skin_mesh(mesh, bind, joints, out);
#pragma once

#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "core/diagnostics.h"
#include "core/result.h"
#include "groom/groom.h"
#include "io/mesh_import.h"

namespace tressel {

struct NodeTransform {
    glm::dvec3 translation{0.0};
    glm::dquat rotation{1.0, 0.0, 0.0, 0.0};
    glm::dvec3 scale{1.0};
    glm::dmat4 matrix() const;
};

// Every node's rest TRS, as the file gives it.
std::vector<NodeTransform> rest_pose(const ImportedScene& scene);

// Node world transforms from local ones: parents applied before children in any node order. The file's
// space (the importer's engine conversion is not in it).
std::vector<glm::dmat4> world_transforms(const ImportedScene& scene, std::span<const NodeTransform> local);

// Node by node from `a` (u = 0) to `b` (u = 1): translations and scales linearly, rotations by spherical
// interpolation along the shorter arc. The blend-in from the bind pose into a clip's first frame.
std::vector<NodeTransform> blend_poses(std::span<const NodeTransform> a, std::span<const NodeTransform> b, double u);

enum class ClipTimeMode { Loop, Clamp };

// One clip, checked once: channels whose node is out of range, whose key times are not finite and strictly
// increasing, whose value count does not match the keys, or whose values are not finite (a NaN rotation)
// are left out with a warning naming the clip and the channel; morph-target weights are left out with a
// warning (not supported). A clip left with no channel still samples (the rest pose).
class ClipSampler {
public:
    ClipSampler(const ImportedScene& scene, const Animation& clip, Diagnostics* diagnostics = nullptr);

    const std::string& name() const { return name_; }
    double duration_s() const { return duration_s_; }
    size_t channel_count() const { return channels_.size(); }
    size_t skipped_channels() const { return skipped_; }

    // Overrides the TRS of every animated node in `local` with the clip's value at t_s: Linear interpolates
    // translation and scale linearly and rotation by spherical interpolation along the shorter arc, Step
    // holds the previous key, CubicSpline is glTF's Hermite spline (tangents scaled by the key interval;
    // rotations normalised). Loop wraps t into [0, duration); Clamp holds the first and last keys.
    void sample(double t_s, std::span<NodeTransform> local, ClipTimeMode mode = ClipTimeMode::Loop) const;

private:
    std::string name_;
    double duration_s_ = 0.0;
    std::vector<const AnimationChannel*> channels_;
    size_t skipped_ = 0;
};

// The 4x4 engine-space skinning matrix of each joint of `skin`: to_engine x world(joint) x inverse_bind x
// inverse(to_engine), where to_engine is the importer's unit and up-axis conversion (identity for a glTF in
// metres, Y up). With the file's rest pose these are the identity when its inverse bind matrices invert the
// joints' rest transforms (the usual export; bind_pose_error() says how far a skin is from it).
std::vector<glm::mat4> joint_matrices(const Skin& skin, std::span<const glm::dmat4> world, const glm::dmat4& to_engine = glm::dmat4(1.0));

// The largest deviation from the identity of a skin's rest joint matrices (0 when the inverse bind
// matrices invert the joints' rest transforms; the shipped characters are 1 to 100 from it).
double bind_pose_error(const ImportedScene& scene, const Skin& skin);

// What linear blend skinning starts from. The importer bakes the file's rest pose into the mesh it builds
// (each vertex through its blended rest joint matrix), so each vertex is taken back through that matrix:
// skinning with the rest pose then gives the imported mesh again, and any pose the file's own result.
struct SkinBind {
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;     // empty when the mesh has none
    size_t singular = 0;                // vertices whose blended rest matrix could not be inverted (kept as imported)
};
// InvalidArgument when the mesh has no skinning attributes or names a joint beyond `rest_joints` with a
// non-zero weight.
Result<SkinBind> unbind_mesh(const Mesh& mesh, std::span<const glm::mat4> rest_joints);

// Linear blend skinning of `bind` with the mesh's joints and weights: the CPU reference of the GPU pass,
// one shared formula (shaders/shared/skinning.h). InvalidArgument as unbind_mesh.
Status skin_mesh(const Mesh& mesh, const SkinBind& bind, std::span<const glm::mat4> joints, std::vector<glm::vec3>& positions,
                 std::vector<glm::vec3>* normals = nullptr);

// Where a skinned mesh lies in a pose, without skinning it: per joint, the bounds of the bind positions of
// the vertices it moves (non-zero weight). A skinned vertex is a weighted mean (non-negative weights that sum
// to 1) of its joints' images of its bind position, so the posed mesh lies within the bounds of every joint's
// box carried by its joint matrix: a few corners per joint instead of a pass over the vertices, for the
// host to place a field's grid around a pose that only the device skins. Joints that move no vertex have
// empty boxes (lo > hi).
struct JointBounds {
    std::vector<glm::vec3> lo, hi;
};
Result<JointBounds> joint_bounds(const Mesh& mesh, const SkinBind& bind, size_t joint_count);
// The bounds of the pose `joints` (the skin's joint matrices) as above; false when no joint moves a vertex.
bool posed_bounds(const JointBounds& bounds, std::span<const glm::mat4> joints, glm::dvec3& lo, glm::dvec3& hi);

// The skin of a mesh that names its bones but has no skeleton (a TressFX .tfxmesh: bone names and weights,
// no hierarchy, no bind matrices) on the nodes of another file, `rig`: each bone becomes the rig's node of
// the same name (or of the name TressFX's files would give it: tressfx_bone_names), with the inverse of that
// node's rest world transform as its inverse bind matrix, so the mesh, modelled in the rig's rest pose as
// TressFX assumes, skins with the rig's clips. NotFound naming the bones (up to five) the rig lacks.
Result<Skin> retarget_skin(const ImportedScene& mesh_file, const Skin& skin, const ImportedScene& rig);

// The three corner vertices of root `index`'s scalp triangle; InvalidArgument naming the root when its
// triangle is not in the mesh.
Result<glm::uvec3> root_corners(const Mesh& bind, const ScalpAttachment& root, size_t index);

// Per root: the rigid transform carrying it from the scalp's bind pose (`bind`, the mesh the groom was grown
// on) to the skinned pose (`skinned`, one position per bind vertex): its triangle's frame at its
// barycentric point now, times the inverse of that frame in the bind pose (skin_triangle_frame). What
// SimWorld takes as skinned roots (set_root_transforms), with the scene's mesh transform applied after.
// InvalidArgument when a root's triangle is not in the mesh or the counts differ.
Status root_transforms(const Mesh& bind, std::span<const glm::vec3> skinned, std::span<const ScalpAttachment> roots,
                       std::vector<glm::mat4>& out);

}  // namespace tressel
