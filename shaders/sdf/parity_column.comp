#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Pass 6b, per column along `axis`: prefix xor of that axis' parity bit.
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

void main() {
    uint column = LINEAR_INVOCATION_INDEX;
    if (column >= pc.count) return;
    int ax = pc.axis, bx = (pc.axis + 1) % 3, cx = (pc.axis + 2) % 3;
    ivec3 dims = g.dims.xyz;
    ivec3 cell;
    cell[bx] = int(column % uint(dims[bx]));
    cell[cx] = int(column / uint(dims[bx]));
    uint bit = 1u << uint(ax), acc = 0u;
    for (int i = 0; i < dims[ax]; ++i) {
        cell[ax] = i;
        uint idx = sdf_cell_index(g, cell);
        uint word = parity[idx];
        acc ^= word & bit;
        parity[idx] = (word & ~bit) | acc;
    }
}
