// Dispatch indexing shared by C++ (gpu::dispatch_size) and GLSL: a 1D job of N items may be split over
// the y dimension when N / group size exceeds the device's x limit (65,535 on some drivers).
#ifndef TRESSEL_SHARED_DISPATCH_H
#define TRESSEL_SHARED_DISPATCH_H
#include "shared/common.h"

#ifndef __cplusplus
// A macro, not a function: gl_WorkGroupSize is only defined after the shader's local_size layout, and
// this header is included before it.
#define LINEAR_INVOCATION_INDEX \
    ((gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * gl_WorkGroupSize.x + gl_LocalInvocationIndex)

// Zero, though no compiler can prove it (no dispatch has zero groups). XORed into a push-constant or uniform
// value that chooses a branch, it keeps the branch from depending on uniforms alone. Mesa's CPU Vulkan
// driver (lavapipe, 22.3) inlines the uniforms such branches read when that removes half of a compute
// shader, and then compiles the shader again at every dispatch whose push constants or uniform buffer were
// set anew, keeping about 1.4 MB of each compile: the compute rasterizer's vertex pass (its shadow lookup
// behind `shadows`) grew the editor by that much a frame. Costs one comparison on a GPU.
#define OPAQUE_ZERO uint(gl_NumWorkGroups.x == 0u)
#endif

#endif
