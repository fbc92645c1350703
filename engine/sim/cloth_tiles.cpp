#include "sim/cloth_tiles.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "core/morton.h"

namespace tressel {

namespace {

using gpu_shared::kClothTileMaxEntries;
using gpu_shared::kClothTileMaxVertices;
using gpu_shared::kClothTileNoEntry;
using gpu_shared::kClothTileThreads;

static_assert(kClothTileMaxVertices <= 3 * kClothTileThreads, "cloth_tile.comp loads at most 3 vertices per thread");
static_assert(kClothTileMaxVertices <= 0xffffu && kClothTileMaxEntries < kClothTileNoEntry, "tile-local indices are 16 bits");
static_assert(kClothTileMaxVertices <= 256u, "a tile's bending groups pack local indices in 8 bits");

uint32_t float_bits(float f) {
    uint32_t u = 0;
    std::memcpy(&u, &f, sizeof(u));
    return u;
}

// The cloth's vertices in Morton order of their rest positions (ties by index).
std::vector<uint32_t> morton_order(const ClothState& c) {
    const size_t nv = c.vertices.size();
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const auto& v : c.vertices) {
        lo = glm::min(lo, glm::vec3(v.rest_os));
        hi = glm::max(hi, glm::vec3(v.rest_os));
    }
    const float extent = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, 1e-9f});
    std::vector<uint32_t> code(nv);
    for (size_t v = 0; v < nv; ++v) {
        const glm::vec3 q = (glm::vec3(c.vertices[v].rest_os) - lo) / extent * 1023.0f;
        code[v] = morton3(uint32_t(q.x), uint32_t(q.y), uint32_t(q.z));
    }
    std::vector<uint32_t> order(nv);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return code[a] < code[b]; });
    return order;
}

// The tile being filled: its owned vertices and the vertices they reach (marks reset when it is written).
struct Builder {
    const ClothState& c;
    ClothTiles& out;
    std::vector<float> split_e;
    std::vector<int32_t> local_of;      // cloth vertex -> 1 while in the current tile's reach, else -1
    std::vector<uint32_t> reach;        // the current tile's vertices in the order first reached
    std::vector<uint32_t> owned;
    std::vector<int32_t> record_of;     // edge -> its record in the current tile, else -1
    uint32_t entries = 0;

    // Calls f(u) for every vertex that owning v brings into reach (v itself included; repeats allowed).
    template <class F>
    void for_reach(uint32_t v, F&& f) const {
        const auto& cv = c.vertices[v];
        f(v);
        for (uint32_t i = 0; i < cv.edges; ++i) {
            const glm::uvec4 kv = c.constraints[c.adjacency[cv.first + i]].v;
            f(kv.x);
            f(kv.y);
        }
        for (uint32_t i = 0; i < cv.bend_terms; ++i) f(c.bend_terms[cv.bend_first + i].x);
    }

    // Whether v's counts fit an owned vertex's record at all (tile_owned's packing).
    bool packable(uint32_t v) const {
        const auto& cv = c.vertices[v];
        return cv.edges < 2048u && cv.bend_terms < (1u << 21);
    }

    bool fits(uint32_t v) {
        const auto& cv = c.vertices[v];
        if (!packable(v) || owned.size() + 1 > kClothTileThreads || entries + cv.edges > kClothTileMaxEntries) return false;
        size_t added = 0;
        std::vector<uint32_t> fresh;
        for_reach(v, [&](uint32_t u) {
            if (local_of[u] < 0 && std::find(fresh.begin(), fresh.end(), u) == fresh.end()) fresh.push_back(u);
        });
        added = fresh.size();
        return reach.size() + added <= kClothTileMaxVertices;
    }

    void take(uint32_t v) {
        for_reach(v, [&](uint32_t u) {
            if (local_of[u] >= 0) return;
            local_of[u] = 1;
            reach.push_back(u);
        });
        owned.push_back(v);
        entries += c.vertices[v].edges;
    }

    void flush() {
        if (owned.empty()) return;
        gpu_shared::ClothTile t{};
        t.first_vertex = uint32_t(out.vertices.size());
        t.first_owned = uint32_t(out.owned.size() / 2);
        t.first_edge = uint32_t(out.edges.size());
        // Local indices: the owned vertices first, then the rest of the reach in the order reached.
        std::vector<uint32_t> order = owned;
        for (uint32_t u : reach) local_of[u] = -1;
        for (uint32_t i = 0; i < owned.size(); ++i) local_of[owned[i]] = int32_t(i);
        for (uint32_t u : reach)
            if (local_of[u] < 0) {
                local_of[u] = int32_t(order.size());
                order.push_back(u);
            }
        for (uint32_t u : order) out.vertices.push_back(glm::uvec4(u, float_bits(split_e[u]), 0u, 0u));
        // Each edge of an owned vertex once (in the order met), with the entry of each of its owned
        // vertices: that vertex's first entry + the edge's place in its adjacency.
        std::vector<uint32_t> records;  // edges of the tile
        std::vector<glm::uvec2> dst;    // their entries per slot
        uint32_t entry = 0;
        for (uint32_t o = 0; o < owned.size(); ++o) {
            const uint32_t v = owned[o];
            const auto& cv = c.vertices[v];
            out.owned.push_back(glm::uvec4(entry, uint32_t(out.bend.size()), cv.edges | (cv.bend_terms << 11), cv.tether));
            out.owned.push_back(glm::uvec4(float_bits(cv.tether_m), float_bits(cv.rest_os.x), float_bits(cv.rest_os.y), float_bits(cv.rest_os.z)));
            for (uint32_t i = 0; i < cv.edges; ++i) {
                const uint32_t k = c.adjacency[cv.first + i];
                if (record_of[k] < 0) {
                    record_of[k] = int32_t(records.size());
                    records.push_back(k);
                    dst.push_back(glm::uvec2(kClothTileNoEntry));
                }
                dst[size_t(record_of[k])][int(gpu_shared::cloth_slot_of(c.constraints[k], v))] = entry + i;
            }
            entry += cv.edges;
            // The stencil in groups of 3: a group's unused terms name local vertex 0 with coefficient 0.
            for (uint32_t i = 0; i < cv.bend_terms; i += 3) {
                glm::uvec4 g(0u);
                for (uint32_t j = 0; j < 3 && i + j < cv.bend_terms; ++j) {
                    const glm::uvec2 term = c.bend_terms[cv.bend_first + i + j];
                    g.x |= uint32_t(local_of[term.x]) << (8 * j);
                    g[int(j) + 1] = term.y;
                }
                out.bend.push_back(g);
            }
        }
        for (size_t r = 0; r < records.size(); ++r) {
            const auto& con = c.constraints[records[r]];
            const glm::uvec2 d = dst[r];
            out.edges.push_back(glm::uvec4(uint32_t(local_of[con.v.x]) | (uint32_t(local_of[con.v.y]) << 16), d.x | (d.y << 16), float_bits(con.rest.x), 0u));
            ++t.edge_count;
        }
        for (uint32_t k : records) record_of[k] = -1;
        for (uint32_t u : order) local_of[u] = -1;
        t.vertex_count = uint32_t(order.size());
        t.owned_count = uint32_t(owned.size());
        out.tiles.push_back(t);
        reach.clear();
        owned.clear();
        entries = 0;
    }
};

}  // namespace

ClothTiles build_cloth_tiles(const ClothState& c) {
    ClothTiles out;
    const size_t nv = c.vertices.size();
    if (c.soft_body || nv == 0) {
        out.why = c.soft_body ? "a soft body has no tiles" : "the cloth has no vertices";
        return out;
    }
    Builder b{c, out, std::vector<float>(nv, 0.0f), std::vector<int32_t>(nv, -1), {}, {}, std::vector<int32_t>(c.constraints.size(), -1)};
    // Each vertex's split inverse mass, as its edges hold it.
    for (const auto& con : c.constraints) {
        b.split_e[con.v.x] = con.split_w.x;
        b.split_e[con.v.y] = con.split_w.y;
    }
    for (uint32_t v : morton_order(c)) {
        if (b.fits(v)) {
            b.take(v);
            continue;
        }
        b.flush();
        if (!b.fits(v)) {
            out = ClothTiles{};
            out.why = "vertex " + std::to_string(v) + " has " + std::to_string(c.vertices[v].edges) + " edges and " +
                      std::to_string(c.vertices[v].bend_terms) + " bending neighbours: more than a tile holds";
            return out;
        }
        b.take(v);
    }
    b.flush();
    return out;
}

}  // namespace tressel
