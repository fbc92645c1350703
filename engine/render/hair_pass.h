// The hair pass: draws every visible hair group into the main target, between the mesh pass and the
// overlay pass. RendererDesc::hair_renderer chooses the class that does it, through create_hair_pass();
// nothing else in the renderer knows which one runs.
//
// What a hair renderer must do (README.md, "Adding a hair renderer"):
//   - draw each group of FrameContext::scene.hair() whose desc.visible is set, from its strand buffers
//     (HairGroupGpu::strands, set kRenderSetStrands) with its shading (desc.shading; Marschner lookup
//     textures in HairGroupGpu::shading, kept current by the Renderer), the frame's debug colouring, and
//     the key light's transmittance from the shadow maps in set 0 when frame.shadows and shading.shadows;
//   - draw in record_main(), depth tested against the meshes; work before that (compute, its own
//     targets) in record_offscreen();
//   - time its main-target work as "hair" (tests, the editor's Stats panel and `tressel-cli bench` read it).
// The shadow pass draws the hair into the shadow maps itself, whatever the hair renderer.
#pragma once

#include <memory>

#include "render/render_pass.h"
#include "render/renderer.h"

namespace tressel::render {

// A hair renderer: a pass that also reports the level of detail it drew.
class HairPassBase : public RenderPassBase {
public:
    virtual HairLodStats lod_stats() const = 0;
    // After a frame has completed: true when it came out incomplete (e.g. a buffer sized by an estimate
    // overflowed and has been grown) and recording it again will be right. render_to_rgba() does so once.
    virtual bool needs_another_frame() { return false; }
};

// The hair pass that setup.desc.hair_renderer names; InvalidArgument for a value it does not know.
Result<std::unique_ptr<HairPassBase>> create_hair_pass(const PassSetup& setup);

}  // namespace tressel::render
