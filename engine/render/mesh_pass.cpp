#include "render/mesh_pass.h"

#include "render/draws.h"
#include "render/render_scene.h"
#include "render/renderer.h"

namespace tressel::render {

Result<std::unique_ptr<MeshPass>> MeshPass::create(const PassSetup& setup) {
    std::unique_ptr<MeshPass> p(new MeshPass());
    auto layout = create_object_pipeline_layout(setup.device, setup.shared);
    if (!layout) return layout.error();
    p->layout_ = std::move(*layout);
    auto pipe = create_graphics_pipeline(setup.device, mesh_pipeline_desc(setup, p->layout_.get()));
    if (!pipe) return pipe.error();
    p->pipeline_ = std::move(*pipe);
    return p;
}

Status MeshPass::record_main(FrameContext& ctx) {
    auto span = ctx.time("meshes");
    const uint32_t receives_shadows = ctx.frame.shadows ? 1u : 0u;
    for (auto& m : ctx.scene.meshes())
        if (m.style == MeshStyle::Opaque)
            draw_mesh(ctx.cmd.handle(), pipeline_.get(), layout_.get(), ctx.frame_set, m,
                      {.color = m.color, .opacity = 1.0f, .rim = 1.0f, .receives_shadows = receives_shadows});
    return {};
}

}  // namespace tressel::render
