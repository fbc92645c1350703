#version 450
// Pass 4, per cell: written / band flags.
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint cell = LINEAR_INVOCATION_INDEX;
    if (cell >= pc.count) return;
    uint enc = dist_ordered[cell];
    uint f = 0u;
    if (enc != kSdfUnwrittenOrdered) {
        f |= kSdfFlagWritten;
        if (ordered_to_float(enc) <= float(g.dims.w) * g.origin_m.w) f |= kSdfFlagBand;
    }
    flags[cell] = f;
}
