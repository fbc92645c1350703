// Order-preserving float <-> uint encoding: a < b (as floats) iff enc(a) < enc(b) (as uints), for all
// non-NaN floats including -0/+0 and infinities. Lets the SDF build take an atomicMin over distances
// stored as uints (TressFX, seed 000). Positive floats get the sign bit set; negative floats are
// bit-inverted. The identical formula is compiled as C++ and as GLSL.
#ifndef TRESSEL_SHARED_FLOAT_ORDER_H
#define TRESSEL_SHARED_FLOAT_ORDER_H
#include "shared/common.h"

#ifdef __cplusplus
#include <bit>
namespace tressel::gpu_shared {
inline uint32_t float_to_ordered(float f) {
    uint32_t u = std::bit_cast<uint32_t>(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
inline float ordered_to_float(uint32_t u) {
    return std::bit_cast<float>((u & 0x80000000u) ? (u & 0x7fffffffu) : ~u);
}
}  // namespace tressel::gpu_shared
#else
uint float_to_ordered(float f) {
    uint u = floatBitsToUint(f);
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}
float ordered_to_float(uint u) {
    return uintBitsToFloat((u & 0x80000000u) != 0u ? (u & 0x7fffffffu) : ~u);
}
#endif

#endif
