// A scene made ready to simulate: each hair group grown on its scalp mesh, each collision mesh's field
// built, and the SimWorld over them. Used by `tressel-cli bake`, the benchmarks and the editor.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "core/progress.h"
#include "groom/grow.h"
#include "io/scene_meshes.h"
#include "scene/scene_types.h"
#include "sdf/sdf.h"
#include "sim/sim.h"

namespace tressel {

using SdfBuildFn = std::function<Result<SdfGrid>(const SdfBuildDesc&, Diagnostics&)>;

struct SceneSimDesc {
    const Scene* scene = nullptr;                  // required
    const std::vector<SceneMesh>* meshes = nullptr;  // required: load_scene_meshes(*scene), same order
    SdfBuildFn build_sdf;                          // empty: build_sdf_cpu (pass the GPU build from the tools)
    Progress* progress = nullptr;
};

struct SceneSim {
    std::vector<std::unique_ptr<GroomResult>> grooms;  // per hair group (stable addresses: the world points here)
    std::vector<std::unique_ptr<SdfGrid>> fields;      // per collision mesh, in its rest frame
    std::vector<const Mesh*> collision_meshes;         // per collision mesh: the rest mesh (into desc.meshes)
    SimWorld world;
    Diagnostics diagnostics;
};

// Errors name the hair group or collision mesh that failed (and keep the underlying message).
Result<std::unique_ptr<SceneSim>> build_scene_sim(const SceneSimDesc& desc);

}  // namespace tressel
