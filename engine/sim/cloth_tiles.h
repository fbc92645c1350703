// Tiles of a cloth for the GPU's small-step pass (shaders/sim/cloth_tile.comp): the cloth's vertices cut
// into runs of nearby vertices (in Morton order of their rest positions), each run a workgroup's worth,
// with everything that workgroup needs to solve its vertices' constraints in shared memory: the ring of
// vertices those constraints and their triangles reach (tile-local indices), each constraint once, and
// where each of its corrections goes among the owned vertices' entries (a vertex's entries in its
// adjacency order, so the sums are the CPU reference's). README.md "Cloth" says why.
//
//   ClothTiles t = build_cloth_tiles(cloth);   // empty (t.why says why) when a vertex cannot fit a tile
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "shared/cloth.h"
#include "sim/cloth.h"

namespace tressel {

struct ClothTiles {
    std::vector<gpu_shared::ClothTile> tiles;
    std::vector<glm::uvec4> vertices;   // per tile-local vertex (owned first): x its index in the cloth, y / z its split inverse mass for edges / hinges (float bits)
    std::vector<glm::uvec4> edges;      // per tile edge: x local v0 | v1 << 16, y entry of v0 | entry of v1 << 16 (kClothTileNoEntry: not owned), z rest length bits
    std::vector<glm::uvec4> hinges;     // 2 per tile hinge: x local v0 | v1 << 16, y v2 | v3 << 16, z, w their entries; then x rest angle bits, y weight bits
    std::vector<glm::uvec4> owned;      // 2 per owned vertex: x its first entry, y its first triangle among its tile's, z edges | hinges << 11 | triangles << 22, w tether; then x tether distance, yzw rest position (float bits)
    std::vector<uint32_t> triangles;    // per owned vertex's triangle, in its vertex_triangles order: local a | b << 8 | c << 16 (kClothTileMaxVertices <= 256)
    std::string why;                    // when tiles is empty: why the cloth has none

    bool empty() const { return tiles.empty(); }
    size_t owned_count() const { return owned.size() / 2; }
};

// The cloth's tiles; none for a soft body, an empty cloth, or a vertex whose constraints alone overflow
// a tile's shared memory (the per-vertex pass, cloth_substep.comp, steps those).
ClothTiles build_cloth_tiles(const ClothState& cloth);

}  // namespace tressel
