// Everything a headless render of a scene needs, loaded once: the scene's meshes (world space), each
// visible hair group grown on its scalp mesh and uploaded in the renderer's strand layout, and
// optionally the SDF of one collision mesh for the slice view. Used by `tressel-cli render` and tests.
#pragma once

#include <optional>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "gpu/device.h"
#include "io/scene_meshes.h"
#include "render/hair_data.h"
#include "render/renderer.h"
#include "scene/scene_types.h"
#include "sdf/sdf.h"

namespace tressel::render {

struct SceneContentDesc {
    const Scene* scene = nullptr;            // required
    bool build_sdf = false;                  // build the slice's collision mesh SDF (CPU reference build)
    int sdf_cells_x = 0;                     // 0 = the collision mesh's cells_x
    std::optional<ShadingModel> shading_override;  // every group drawn with this model
};

struct SceneContent {
    std::vector<SceneMesh> meshes;
    std::vector<HairBuffers> hair;           // one per grown hair group
    std::vector<Shading> hair_shading;       // matching `hair`
    std::vector<std::string> hair_names;
    std::optional<SdfGrid> sdf;              // the slice's field, when built
    std::string sdf_mesh;                    // its collision mesh name
    double sdf_margin_m = 0.0;
    SceneBounds mesh_bounds, hair_bounds;
    Diagnostics diagnostics;
};

// Errors name the mesh, hair group or collision mesh that failed.
Result<SceneContent> load_scene_content(gpu::Device& device, const SceneContentDesc& desc);

struct SceneFrameOptions {
    bool frame_from_bounds = true;           // aim at the meshes' bounds (keeping the view's yaw, pitch, fov)
    std::optional<SliceAxis> slice_axis;     // show the SDF slice on this axis ...
    double slice_position = 0.5;             // ... at this fraction across the grid
};

// Adds the content's meshes (opaque; collision meshes also as overlays when the view shows them),
// colliders, hair groups, ground grid and slice to `renderer`, and returns the frame to draw.
Result<FrameDesc> populate_renderer(Renderer& renderer, const Scene& scene, const SceneContent& content,
                                    const SceneFrameOptions& options);

}  // namespace tressel::render
