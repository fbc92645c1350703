// STL, read here rather than by Assimp (whose reader leaked on malformed files): binary (80-byte header, a
// facet count, 50 bytes per facet, the count checked against the file size) and ASCII ("solid", facets of
// "outer loop" and three "vertex" lines, several solids allowed). Facet normals are not kept (exporters
// often leave them zero or wrong): positions are welded where they are equal, and the importer computes
// smooth normals, as for any file without them. A binary file whose header starts with "solid" (common)
// is told apart by its size.
#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "io/import_detail.h"

namespace tressel::detail {

namespace {

struct PositionKey {
    uint32_t x, y, z;
    bool operator==(const PositionKey&) const = default;
};
struct PositionHash {
    size_t operator()(const PositionKey& k) const { return (size_t(k.x) * 73856093u) ^ (size_t(k.y) * 19349663u) ^ (size_t(k.z) * 83492791u); }
};

// Adds a corner, sharing the vertex of an equal position (+0 and -0 alike).
struct Welder {
    Mesh& mesh;
    std::unordered_map<PositionKey, uint32_t, PositionHash> ids;
    void add(glm::vec3 p) {
        auto bits = [](float f) {
            if (f == 0.0f) f = 0.0f;
            uint32_t u;
            std::memcpy(&u, &f, 4);
            return u;
        };
        const PositionKey k{bits(p.x), bits(p.y), bits(p.z)};
        auto [it, fresh] = ids.emplace(k, uint32_t(mesh.positions.size()));
        if (fresh) mesh.positions.push_back(p);
        mesh.indices.push_back(it->second);
    }
};

uint32_t read_u32le(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

}  // namespace

Result<ImportedScene> import_stl(const SourceFile& file) {
    const auto& b = file.bytes;
    auto bad = [&](const std::string& what) { return make_error(ErrorCode::Parse, file.name() + ": " + what); };
    Mesh mesh;
    mesh.name = file.path.stem().string();
    Welder weld{mesh, {}};
    const bool says_ascii = b.size() >= 5 && std::memcmp(b.data(), "solid", 5) == 0;
    const bool binary_size = b.size() >= 84 && 84 + 50 * uint64_t(read_u32le(b.data() + 80)) == b.size();
    if (binary_size || !says_ascii) {
        if (b.size() < 84) return bad("too short for a binary STL (" + std::to_string(b.size()) + " bytes)");
        const uint64_t facets = read_u32le(b.data() + 80);
        if (!binary_size)
            return bad("binary STL announces " + std::to_string(facets) + " facets (" + std::to_string(84 + 50 * facets) + " bytes) but the file has " +
                       std::to_string(b.size()) + " bytes");
        mesh.positions.reserve(size_t(facets));
        for (uint64_t f = 0; f < facets; ++f) {
            const uint8_t* p = b.data() + 84 + 50 * f + 12;  // after the facet normal
            glm::vec3 v[3];
            std::memcpy(v, p, 36);
            for (const glm::vec3& c : v)
                if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z))
                    return bad("facet " + std::to_string(f) + " has a non-finite vertex (corrupt file?)");
            for (const glm::vec3& c : v) weld.add(c);
        }
    } else {
        const std::string_view text(reinterpret_cast<const char*>(b.data()), b.size());
        TextTokens tokens{text};
        const size_t& line = tokens.line;
        auto next = [&](std::string_view& tok) { return tokens.next(tok); };
        auto rest_of_line = [&] { tokens.skip_line(); };
        auto lbad = [&](const std::string& what) { return make_error(ErrorCode::Parse, at_line(file, line) + what); };
        auto expect = [&](std::string_view word) -> Status {
            std::string_view tok;
            if (!next(tok)) return lbad("the STL ends where '" + std::string(word) + "' was expected (truncated file)");
            if (tok != word) return lbad("'" + std::string(tok.substr(0, 32)) + "' where '" + std::string(word) + "' was expected");
            return {};
        };
        std::string_view tok;
        size_t solids = 0;
        while (next(tok)) {
            if (tok != "solid") return lbad("'" + std::string(tok.substr(0, 32)) + "' where 'solid' was expected");
            ++solids;
            rest_of_line();  // the solid's name
            for (;;) {
                if (!next(tok)) return lbad("the STL ends inside a solid (truncated file: no 'endsolid')");
                if (tok == "endsolid") {
                    rest_of_line();
                    break;
                }
                if (tok != "facet") return lbad("'" + std::string(tok.substr(0, 32)) + "' where 'facet' or 'endsolid' was expected");
                rest_of_line();  // "normal nx ny nz", not kept
                TRESSEL_TRY(expect("outer"));
                TRESSEL_TRY(expect("loop"));
                glm::vec3 v[3];
                for (glm::vec3& c : v) {
                    TRESSEL_TRY(expect("vertex"));
                    for (int k = 0; k < 3; ++k) {
                        if (!next(tok)) return lbad("the STL ends inside a vertex (truncated file)");
                        float x = 0.0f;
                        auto r = std::from_chars(tok.data(), tok.data() + tok.size(), x);
                        if (r.ec != std::errc() || r.ptr != tok.data() + tok.size() || !std::isfinite(x))
                            return lbad("'" + std::string(tok.substr(0, 32)) + "' is not a finite number");
                        c[k] = x;
                    }
                }
                TRESSEL_TRY(expect("endloop"));
                TRESSEL_TRY(expect("endfacet"));
                for (const glm::vec3& c : v) weld.add(c);
            }
        }
        if (solids == 0) return bad("the ASCII STL has no solid");
    }
    return single_mesh_scene(std::move(mesh));
}

}  // namespace tressel::detail
