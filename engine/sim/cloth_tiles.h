// Tiles of a cloth for the GPU's small-step pass (shaders/sim/cloth_tile.comp): the cloth's vertices cut
// into runs of nearby vertices (in Morton order of their rest positions), each run a workgroup's worth,
// with everything that workgroup needs to solve its vertices' edges and bending in shared memory: the
// ring of vertices those edges and bending stencils reach (tile-local indices), each edge once, where
// each of its corrections goes among the owned vertices' entries (a vertex's entries in its adjacency
// order, so the sums are the CPU reference's), and each owned vertex's bending stencil in groups of 3
// terms. README.md "Cloth" says why.
//
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "shared/cloth.h"
#include "sim/cloth.h"

namespace tressel {

struct ClothTiles {
    std::vector<gpu_shared::ClothTile> tiles;
    std::vector<glm::uvec4> vertices;   // per tile-local vertex (owned first): x its index in the cloth, y its split inverse mass for edges (float bits)
    std::vector<glm::uvec4> edges;      // per tile edge: x local v0 | v1 << 16, y entry of v0 | entry of v1 << 16 (kClothTileNoEntry: not owned), z rest length bits
    std::vector<glm::uvec4> bend;       // per group of 3 bending terms of an owned vertex, in its stencil's order: x local n0 | n1 << 8 | n2 << 16, yzw their coefficients (float bits; 0 past its last term)
    std::vector<glm::uvec4> owned;      // 2 per owned vertex: x its first entry, y its first bending group, z edges | bending terms << 11, w tether; then x tether distance, yzw rest position (float bits)
    std::string why;                    // when tiles is empty: why the cloth has none

    bool empty() const { return tiles.empty(); }
    size_t owned_count() const { return owned.size() / 2; }
};

// The cloth's tiles; none for a soft body, an empty cloth, or a vertex whose edges or stencil alone
// overflow a tile's shared memory (the per-vertex pass, cloth_substep.comp, steps those).
ClothTiles build_cloth_tiles(const ClothState& cloth);

}  // namespace tressel
