// Morton (Z-order) codes: points near in space get codes near in value, so sorting by the code keeps
// neighbours together (follow hairs' spread order, cloth tiles).
#pragma once

#include <cstdint>

namespace tressel {

// The 10 low bits of v spread to every third bit (bit b -> bit 3b).
inline uint32_t morton_spread3(uint32_t v) {
    v &= 0x3FFu;
    v = (v | (v << 16)) & 0x030000FFu;
    v = (v | (v << 8)) & 0x0300F00Fu;
    v = (v | (v << 4)) & 0x030C30C3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

// The 30-bit code of a cell of a 1024^3 grid (each coordinate's low 10 bits).
inline uint32_t morton3(uint32_t x, uint32_t y, uint32_t z) { return morton_spread3(x) | (morton_spread3(y) << 1) | (morton_spread3(z) << 2); }

}  // namespace tressel
