// Linear blend skinning: the one formula text the CPU reference (engine/anim) and the GPU skinning pass
// evaluate. A vertex's skinned position is the weighted sum of its (up to four) joints' matrices applied
// to its bind position; the matrices are the joints' world transforms times their inverse bind matrices,
// in engine space. Linear blend rather than dual quaternions: it is what glTF, FBX and every engine a
// groom is exported to skin with, so the hair collides with the body the engine will draw (README.md of
// engine/anim gives the comparison).
#ifndef TRESSEL_SHARED_SKINNING_H
#define TRESSEL_SHARED_SKINNING_H
#include "shared/common.h"

#ifdef __cplusplus
namespace tressel::gpu_shared {
using vec3 = glm::vec3;
using mat4 = glm::mat4;
using glm::cross;
using glm::dot;
using glm::inversesqrt;
}  // namespace tressel::gpu_shared
#define SKIN_FN inline
#else
#define SKIN_FN
#endif

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kSkinWorkgroupSize, 64u);
// Bindings of anim/skin.comp (all storage buffers).
TRESSEL_CONST(uint, kSkinBindPositions, 0u);   // vec4 per vertex: the bind pose (anim::unbind_mesh)
TRESSEL_CONST(uint, kSkinBindNormals, 1u);     // vec4 per vertex (w unused); a stub without normals
TRESSEL_CONST(uint, kSkinJoints, 2u);          // uvec4 per vertex: joint indices into the skin
TRESSEL_CONST(uint, kSkinWeights, 3u);         // vec4 per vertex
TRESSEL_CONST(uint, kSkinMatrices, 4u);        // mat4 per joint: engine-space skinning matrices
TRESSEL_CONST(uint, kSkinOutPositions, 5u);    // vec4 per vertex (w = 1)
TRESSEL_CONST(uint, kSkinOutNormals, 6u);      // vec4 per vertex (w = 0)
TRESSEL_CONST(uint, kSkinOutVertices, 7u);     // optional: the renderer's MeshVertex per vertex (position w 1, normal w 0)
TRESSEL_CONST(uint, kSkinBindingCount, 8u);

struct SkinPush {
    uint vertices;
    uint joints;        // matrices bound; a joint index at or beyond it with a non-zero weight counts as identity
    uint has_normals;
    uint has_vertices;  // also write kSkinOutVertices (the drawn mesh)
};
TRESSEL_CHECK_SIZE(SkinPush, 16)

// The blended matrix of one vertex: weights need not sum to one exactly (they are renormalised by the
// importer); a weight of zero leaves its joint out, whatever its index.
SKIN_FN mat4 skin_matrix(mat4 m0, mat4 m1, mat4 m2, mat4 m3, vec4 w) {
    return m0 * w.x + m1 * w.y + m2 * w.z + m3 * w.w;
}

SKIN_FN vec3 skin_point(mat4 m, vec3 p) {
    vec4 q = m * vec4(p.x, p.y, p.z, 1.0f);
    return vec3(q.x, q.y, q.z);
}

// Normals: the blended matrix's linear part (exact for rigid joints; renormalised).
SKIN_FN vec3 skin_normal(mat4 m, vec3 n) {
    vec4 q = m * vec4(n.x, n.y, n.z, 0.0f);
    vec3 r = vec3(q.x, q.y, q.z);
    float l = dot(r, r);
    return l > 0.0f ? r * inversesqrt(l) : n;
}

// The rigid frame of a triangle at a barycentric point (columns: x along p0 -> p1, y = z x x, z the
// triangle's normal, origin the point): a strand root's frame on a skinned scalp. The transform that
// carries a root from the bind pose to a pose is frame(pose) x inverse(frame(bind)). A triangle of zero
// area keeps the axes of the world.
SKIN_FN mat4 skin_triangle_frame(vec3 p0, vec3 p1, vec3 p2, vec3 bary) {
    vec3 e = p1 - p0;
    vec3 n = cross(e, p2 - p0);
    float le = dot(e, e);
    float ln = dot(n, n);
    vec3 x = vec3(1.0f, 0.0f, 0.0f);
    vec3 z = vec3(0.0f, 0.0f, 1.0f);
    if (le > 1e-24f && ln > 1e-36f) {
        x = e * inversesqrt(le);
        z = n * inversesqrt(ln);
    }
    vec3 y = cross(z, x);
    vec3 o = p0 * bary.x + p1 * bary.y + p2 * bary.z;
    return mat4(vec4(x.x, x.y, x.z, 0.0f), vec4(y.x, y.y, y.z, 0.0f), vec4(z.x, z.y, z.z, 0.0f), vec4(o.x, o.y, o.z, 1.0f));
}

// Roots on a skinned scalp (anim/roots.comp): per root, its triangle's frame now times the inverse of the
// frame in the bind pose (anim::root_transforms, the CPU reference, computes the inverse on the fly).
TRESSEL_CONST(uint, kSkinRootsBindPositions, 0u);  // vec4 per scalp vertex: the skinning pass's output
TRESSEL_CONST(uint, kSkinRootsBindTriangles, 1u);  // uvec4 per root: its triangle's vertex indices (w unused)
TRESSEL_CONST(uint, kSkinRootsBindBary, 2u);       // vec4 per root: barycentric coordinates (w unused)
TRESSEL_CONST(uint, kSkinRootsBindInvBind, 3u);    // mat4 per root: inverse of its bind-pose frame
TRESSEL_CONST(uint, kSkinRootsBindTargets, 4u);    // mat4 per root: out, the transform from the bind pose to now
TRESSEL_CONST(uint, kSkinRootsBindingCount, 5u);

struct SkinRootsPush {
    uint roots;
    uint pad0, pad1, pad2;
};
TRESSEL_CHECK_SIZE(SkinRootsPush, 16)

SKIN_FN mat4 skin_root_transform(vec3 p0, vec3 p1, vec3 p2, vec3 bary, mat4 inverse_bind_frame) {
    return skin_triangle_frame(p0, p1, p2, bary) * inverse_bind_frame;
}

TRESSEL_SHARED_END

#endif
