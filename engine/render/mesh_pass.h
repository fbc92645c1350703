// Opaque meshes (MeshStyle::Opaque): Lambert from the key light (shadowed by the hair's opacity maps when
// the frame has shadows) and the fill light, ambient, a rim term (shaders/render/mesh.*). They write depth,
// so the hair and overlays drawn after them are hidden behind them.
//
// Timestamp: "meshes".
#pragma once

#include <memory>

#include "render/render_pass.h"

namespace tressel::render {

class MeshPass final : public RenderPassBase {
public:
    static Result<std::unique_ptr<MeshPass>> create(const PassSetup& setup);

    Status record_main(FrameContext& ctx) override;

private:
    MeshPass() = default;

    PipelineLayout layout_;
    Pipeline pipeline_;
};

}  // namespace tressel::render
