// HairRenderer::Ribbons: each strand drawn as a camera-facing ribbon expanded on the GPU from the strand
// buffers (shaders/render/hair.vert: one instance per strand, a triangle strip of 2 vertices per strand
// vertex, tapered from root to tip, widened to a pixel and made proportionally transparent where
// narrower), shaded Kajiya-Kay or Marschner or in a debug colouring (hair.frag). Coverage becomes
// alpha-to-coverage on an MSAA target, alpha blending on a single-sample one.
//
// Timestamp: "hair".
#pragma once

#include <memory>

#include "render/hair_pass.h"

namespace tressel::render {

class RibbonHairPass final : public HairPassBase {
public:
    static Result<std::unique_ptr<RibbonHairPass>> create(const PassSetup& setup);

    Status record_main(FrameContext& ctx) override;
    HairLodStats lod_stats() const override { return stats_; }

private:
    RibbonHairPass() = default;

    PipelineLayout layout_;
    Pipeline pipeline_;
    HairLodStats stats_;
};

}  // namespace tressel::render
