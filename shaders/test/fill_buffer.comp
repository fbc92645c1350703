#version 450
// Smoke test: writes a known pattern so the test can read it back.
#include "shared/test_kernels.h"
#include "shared/dispatch.h"

layout(local_size_x = kTestWorkgroupSize) in;
layout(std430, set = 0, binding = 0) buffer Out { uint values[]; } out_buf;
layout(push_constant) uniform Push { FillBufferPush p; };

void main() {
    uint i = LINEAR_INVOCATION_INDEX;
    if (i >= p.count) return;
    out_buf.values[i] = i * p.multiplier + p.offset;
}
