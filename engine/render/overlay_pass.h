// The SDF slice plane (SlicePass), drawn after the opaque meshes and before the hair: its colour ignores
// depth, so the cross-section shows through the mesh it cuts; then its depth is written where it is nearer
// than the meshes and the plane is mostly opaque (render/slice_depth.frag), so hair behind the plane is
// hidden and hair on the camera's side is drawn over it (the compute rasterizer draws the same depth into
// its own copy of the meshes' depth). A density slice's air is drawn at a quarter opacity and writes no
// depth: the hair behind it stays seen. The mesh's open,
// non-manifold and inconsistently wound edges (SliceView::edge_lines_m) are drawn with it, through
// everything, so a hole in the collision mesh is seen wherever it is.
//
// What is drawn over the meshes and the hair (OverlayPass), in this order: the ground grid
// (FrameDesc::show_grid), the opaque meshes' wireframe (FrameDesc::wireframe, where the device can draw
// lines as polygons), the slice's grid bounds box, then the collision meshes (show_collision) and
// primitive colliders (show_colliders) as translucent, rim-lit shells. None of them writes depth; the
// wireframe and shells are pulled toward the camera by a depth bias so they win over the surface they lie
// on.
//
// The wireframe is drawn here, not by the mesh pass, because it is drawn like the overlays (after the
// hair, no depth write, depth bias) and has always been timed with them.
//
// Timestamps: "slice", "overlays".
#pragma once

#include <memory>

#include "render/render_pass.h"

namespace tressel::render {

class SlicePass final : public RenderPassBase {
public:
    static Result<std::unique_ptr<SlicePass>> create(const PassSetup& setup);

    Status record_main(FrameContext& ctx) override;

private:
    SlicePass() = default;

    PipelineLayout layout_;
    Pipeline colour_pipe_, depth_pipe_, edge_pipe_;
};

class OverlayPass final : public RenderPassBase {
public:
    static Result<std::unique_ptr<OverlayPass>> create(const PassSetup& setup);

    Status record_main(FrameContext& ctx) override;

private:
    OverlayPass() = default;

    PipelineLayout layout_;
    Pipeline shell_pipe_, wire_pipe_, line_pipe_;  // wire_pipe_ empty without fillModeNonSolid
};

}  // namespace tressel::render
