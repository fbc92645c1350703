#version 450
// Encodes floats with the order-preserving encoding and reduces them with atomicMin / atomicMax.
#include "shared/test_kernels.h"
#include "shared/float_order.h"

layout(local_size_x = kTestWorkgroupSize) in;
layout(std430, set = 0, binding = 0) readonly buffer Values { float values[]; } in_buf;
layout(std430, set = 0, binding = 1) buffer Encoded { uint encoded[]; } enc_buf;
layout(std430, set = 0, binding = 2) buffer MinMax { uint result[2]; } minmax_buf;
layout(push_constant) uniform Push { FloatOrderPush p; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.count) return;
    uint e = float_to_ordered(in_buf.values[i]);
    enc_buf.encoded[i] = e;
    atomicMin(minmax_buf.result[0], e);
    atomicMax(minmax_buf.result[1], e);
}
