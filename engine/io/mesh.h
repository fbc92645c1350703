// The engine's one triangle-mesh type: structure of arrays, engine space (metres, Y up), u32 triangle
// indices. Produced by the importers (engine/io), consumed by grooming, SDF building and rendering.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/type_precision.hpp>

namespace tressel {

struct Mesh {
    std::string name;
    std::vector<glm::vec3> positions;   // metres, engine space (after unit / up-axis conversion)
    std::vector<glm::vec3> normals;     // unit length; empty or one per position
    std::vector<glm::vec2> uvs;         // first UV channel; empty or one per position
    std::vector<glm::vec4> colors;      // first vertex-colour channel, linear RGBA in [0,1]; empty or one per position
    std::vector<uint32_t> indices;      // 3 per triangle, each < positions.size()
    std::vector<glm::u16vec4> joints;   // skinning: up to 4 joint indices into the mesh's skin; empty or one per position
    std::vector<glm::vec4> weights;     // skinning weights matching `joints`, summing to 1
    int skin = -1;                      // index into ImportedScene::skins, -1 when unskinned

    size_t vertex_count() const { return positions.size(); }
    size_t triangle_count() const { return indices.size() / 3; }
    bool has_normals() const { return !normals.empty(); }
    bool has_uvs() const { return !uvs.empty(); }
    bool has_colors() const { return !colors.empty(); }
};

}  // namespace tressel
