#version 450
// Roots on a skinned scalp, one invocation per root (shared/skinning.h): the transform carrying the root
// from the bind pose to the skinned pose, the target the simulation's roots pass blends toward.
#include "shared/skinning.h"
#include "shared/dispatch.h"

layout(local_size_x = kSkinWorkgroupSize) in;
layout(std430, set = 0, binding = kSkinRootsBindPositions) readonly buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = kSkinRootsBindTriangles) readonly buffer Triangles { uvec4 triangles[]; };
layout(std430, set = 0, binding = kSkinRootsBindBary) readonly buffer Bary { vec4 bary[]; };
layout(std430, set = 0, binding = kSkinRootsBindInvBind) readonly buffer InvBind { mat4 inverse_bind[]; };
layout(std430, set = 0, binding = kSkinRootsBindTargets) writeonly buffer Targets { mat4 targets[]; };
layout(push_constant) uniform Push { SkinRootsPush pc; };

void main() {
    uint r = LINEAR_INVOCATION_INDEX;
    if (r >= pc.roots) return;
    uvec4 t = triangles[r];
    targets[r] = skin_root_transform(positions[t.x].xyz, positions[t.y].xyz, positions[t.z].xyz, bary[r].xyz, inverse_bind[r]);
}
