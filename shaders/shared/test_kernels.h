// Bindings, push constants and workgroup sizes of the self-test kernels (shaders/test/).
#ifndef TRESSEL_SHARED_TEST_KERNELS_H
#define TRESSEL_SHARED_TEST_KERNELS_H
#include "shared/common.h"

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kTestWorkgroupSize, 64);

// fill_buffer.comp: out[i] = i * multiplier + offset for i < count
struct FillBufferPush {
    uint count;
    uint multiplier;
    uint offset;
    uint pad0;
};
TRESSEL_CHECK_SIZE(FillBufferPush, 16)

// float_order.comp: atomicMin of float_to_ordered(values[i]) into result[0], atomicMax into result[1],
// and encoded[i] = float_to_ordered(values[i]).
struct FloatOrderPush {
    uint count;
    uint pad0;
    uint pad1;
    uint pad2;
};
TRESSEL_CHECK_SIZE(FloatOrderPush, 16)

TRESSEL_SHARED_END
#endif
