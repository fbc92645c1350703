// Follow-hair descriptors and their evaluation, shared by the CPU groom (engine/groom/follow.h) and the
// GPU follow pass, so both compute the identical formula. Included by C++ and GLSL.
//
// A follow hair is evaluated from up to three guides resampled to the group's vertex count n. For point
// k in [0, n) with s = k / (n - 1) (0 at the root, 1 at the tip):
//
//   P_k = w.x * G[g.x][k] + w.y * G[g.y][k] + w.z * G[g.z][k] + (1 + spread * s) * (F · o)
//
// where G are guide points (metres, the space the guides are in), w the weights (sum 1; unused slots have
// weight 0 and repeat g.x), o = offset_frame.xyz the root offset in the root frame F of guide g.x, and
// F · o = o.x * F.tangent + o.y * F.bitangent + o.z * F.normal. `spread` is TressFX's tip separation
// (TressFX 4.1 scales a follow's offset by 1 + tipSeparation * t toward the tip). No data-dependent
// allocation or branching: the GPU runs one invocation per follow point.
#ifndef TRESSEL_SHARED_GROOM_H
#define TRESSEL_SHARED_GROOM_H
#include "shared/common.h"

#ifdef __cplusplus
namespace tressel::gpu_shared {
using vec3 = glm::vec3;
}
#define TRESSEL_GROOM_FN inline
#else
#define TRESSEL_GROOM_FN
#endif

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kFollowMaxGuides, 3);

struct FollowDescriptor {
    uvec4 guides;        // xyz: guide strand indices (x is the primary guide whose frame holds the offset); w: 0, or in the
                         // simulation 1 + the row of this follow's rest corrections (follow_correction)
    vec4 weights;        // xyz: blend weights, summing to 1; w: spread toward the tip (tip separation)
    vec4 offset_frame;   // xyz: root offset in guide x's root frame, metres; w: 0
};
TRESSEL_CHECK_SIZE(FollowDescriptor, 48)

// Orthonormal root frame of a guide: tangent along its first segment, bitangent and normal spanning the
// plane perpendicular to it. w components are 0.
struct GuideFrame {
    vec4 tangent;
    vec4 bitangent;
    vec4 normal;
};
TRESSEL_CHECK_SIZE(GuideFrame, 48)

// The formula in the header comment. g0, g1, g2: point k of guides d.guides.x, .y, .z; s = k / (n - 1).
TRESSEL_GROOM_FN vec3 follow_point(FollowDescriptor d, GuideFrame f0, vec3 g0, vec3 g1, vec3 g2, float s) {
    vec3 base = g0 * d.weights.x + g1 * d.weights.y + g2 * d.weights.z;
    vec3 offset = vec3(f0.tangent) * d.offset_frame.x + vec3(f0.bitangent) * d.offset_frame.y +
                  vec3(f0.normal) * d.offset_frame.z;
    return base + offset * (1.0f + d.weights.w * s);
}

// A per-vertex correction of a follow hair held in guide g.x's root frame F (c.xyz: F coordinates, metres,
// as the root offset): F · c. The simulation moves follow points that the formula above puts inside the
// scalp in the rest pose (a follow blended from guides on both sides of an ear passes through it) and
// keeps the move in this form, so it turns with the root.
TRESSEL_GROOM_FN vec3 follow_correction(GuideFrame f0, vec4 c) {
    return vec3(f0.tangent) * c.x + vec3(f0.bitangent) * c.y + vec3(f0.normal) * c.z;
}

TRESSEL_SHARED_END
#endif
