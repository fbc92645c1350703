// Helpers shared by the scene tests.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "scene/scene_io.h"

namespace tressel::test {

// A small valid scene that uses every kind of reference: mesh, collision mesh, collider, hair group.
inline nlohmann::json minimal_scene_doc() {
    return nlohmann::json::parse(R"({
        "format": "tressel-scene", "version": 1,
        "meshes": [ { "name": "head", "path": "assets/head.obj" } ],
        "collision_meshes": [ { "mesh": "head" } ],
        "colliders": [ { "name": "neck", "type": "capsule", "p0": [0, 0.3, 0], "p1": [0, 0.45, 0], "radius": 0.05 } ],
        "hair_groups": [ { "name": "main", "scalp": { "mesh": "head" },
                           "simulation": { "sdf": ["head"], "colliders": ["neck"] } } ],
        "accessories": [ { "name": "scarf", "mesh": "head", "attach": "head", "sdf": ["head"], "colliders": ["neck"] } ]
    })");
}

// The error message of scene_from_json(doc), or "" when it loads.
inline std::string load_error(const nlohmann::json& doc, Diagnostics* diagnostics = nullptr) {
    Diagnostics local;
    auto r = scene_from_json(doc, "/scenes", diagnostics ? *diagnostics : local);
    return r.ok() ? std::string() : r.error().message;
}

inline void write_text(const std::filesystem::path& file, const std::string& text) {
    ASSERT_TRUE(write_file_atomic(file, text).ok()) << file;
}

}  // namespace tressel::test
