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
#endif

#endif
