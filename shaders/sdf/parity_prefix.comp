#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Pass 6b, per parity line (x lines, then y, then z): running xor of its toggle bits into `parity`, 32
// cells per word, and the toggles cleared for the next build (sdf_passes::parity_prefix_line).
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint line = LINEAR_INVOCATION_INDEX;
    if (line >= pc.count) return;
    int axis = 0;
    while (axis < 2 && line >= sdf_parity_lines(g, axis)) {
        line -= sdf_parity_lines(g, axis);
        ++axis;
    }
    uint words = sdf_parity_line_words(g.dims[axis]);
    uint base = sdf_parity_plane_base(g, axis) + line * words;
    bool carry = false;
    for (uint w = 0u; w < words; ++w) {
        uint p = sdf_prefix_xor_bits(parity_toggles[base + w], carry);
        parity_toggles[base + w] = 0u;
        parity[base + w] = p;
        carry = (p >> 31) != 0u;
    }
}
