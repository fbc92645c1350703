#version 450
// Pass 4, per cell: unpack the band key into the nearest triangle (the JFA seed) and the written / band
// flags.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint cell = LINEAR_INVOCATION_INDEX;
    if (cell >= pc.count) return;
    uint64_t key = band_key[cell];
    uint enc = uint(key >> 32);
    nearest_in[cell] = uint(key & 0xFFFFFFFFul);
    uint f = 0u;
    if (enc != kSdfUnwrittenOrdered) {
        f |= kSdfFlagWritten;
        if (ordered_to_float(enc) <= float(g.dims.w) * g.origin_m.w) f |= kSdfFlagBand;
    }
    flags[cell] = f;
}
