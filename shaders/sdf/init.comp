#version 450
// Once per field (prepare_sdf_gpu): band keys unwritten, parity toggles clear. Every build leaves them so
// again (finalize clears the keys, the parity prefix pass the toggles), so builds need no init pass.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint item = LINEAR_INVOCATION_INDEX;
    if (item >= pc.count) return;
    uint cells = uint(g.dims.x) * uint(g.dims.y) * uint(g.dims.z);
    if (item < cells) band_key[item] = kSdfUnwrittenKey;
    if (item < pc.parity_words) parity_toggles[item] = 0u;
}
