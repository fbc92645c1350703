// What is drawn over the meshes and the hair, in this order: the ground grid (FrameDesc::show_grid), the
// opaque meshes' wireframe (FrameDesc::wireframe, where the device can draw lines as polygons), the SDF
// slice plane with its grid's bounds box (show_slice; the plane ignores depth so the cross-section shows
// through the mesh it cuts), then the collision meshes (show_collision) and primitive colliders
// (show_colliders) as translucent, rim-lit shells. None of them writes depth; the wireframe and shells
// are pulled toward the camera by a depth bias so they win over the surface they lie on.
//
// The wireframe is drawn here, not by the mesh pass, because it is drawn like the overlays (after the
// hair, no depth write, depth bias) and has always been timed with them.
//
// Timestamp: "overlays".
#pragma once

#include <memory>

#include "render/render_pass.h"

namespace tressel::render {

class OverlayPass final : public RenderPassBase {
public:
    static Result<std::unique_ptr<OverlayPass>> create(const PassSetup& setup);

    Status record_main(FrameContext& ctx) override;

private:
    OverlayPass() = default;

    PipelineLayout layout_;
    Pipeline shell_pipe_, wire_pipe_, line_pipe_, slice_pipe_;  // wire_pipe_ empty without fillModeNonSolid
};

}  // namespace tressel::render
