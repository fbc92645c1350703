#version 450
// Pass 1, per cell: no band distance or triangle yet, parity bits clear.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint cell = LINEAR_INVOCATION_INDEX;
    if (cell >= pc.count) return;
    band_key[cell] = kSdfUnwrittenKey;
    parity[cell] = 0u;
}
