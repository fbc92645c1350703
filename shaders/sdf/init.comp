#version 450
// Pass 1, per cell: distance unwritten, no nearest triangle, parity bits clear.
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint cell = LINEAR_INVOCATION_INDEX;
    if (cell >= pc.count) return;
    dist_ordered[cell] = kSdfUnwrittenOrdered;
    nearest_in[cell] = kSdfNoTriangle;
    parity[cell] = 0u;
}
