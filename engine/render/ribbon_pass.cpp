#include "render/ribbon_pass.h"

#include <algorithm>

#include "render/draws.h"
#include "render/render_scene.h"
#include "render/renderer.h"

namespace tressel::render {

Result<std::unique_ptr<RibbonHairPass>> RibbonHairPass::create(const PassSetup& setup) {
    std::unique_ptr<RibbonHairPass> p(new RibbonHairPass());
    auto layout = create_strand_pipeline_layout(setup.device, setup.shared, /*with_shading=*/true);
    if (!layout) return layout.error();
    p->layout_ = std::move(*layout);
    const bool msaa = setup.samples > VK_SAMPLE_COUNT_1_BIT;
    GraphicsPipelineDesc d;
    d.vertex_shader = "render/hair.vert";
    d.fragment_shader = "render/hair.frag";
    d.layout = p->layout_.get();
    d.render_pass = setup.main_pass;
    d.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    d.samples = setup.samples;
    d.alpha_to_coverage = msaa;
    d.blend = msaa ? Blend::None : Blend::Alpha;
    d.name = "hair";
    auto pipe = create_graphics_pipeline(setup.device, d);
    if (!pipe) return pipe.error();
    p->pipeline_ = std::move(*pipe);
    return p;
}

Status RibbonHairPass::record_main(FrameContext& ctx) {
    auto span = ctx.time("hair");
    VkCommandBuffer c = ctx.cmd.handle();
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
    stats_ = {};
    for (auto& g : ctx.scene.hair()) {
        if (!g->desc.visible) continue;
        stats_.strands_total += g->desc.strand_count;
        stats_.strands_drawn += g->desc.strand_count;
        stats_.vertices_per_strand = std::max(stats_.vertices_per_strand, g->desc.vertices_per_strand);
        stats_.vertices_total = stats_.vertices_per_strand;
        stats_.segments += uint64_t(g->desc.strand_count) * (g->desc.vertices_per_strand - 1);
        auto push = ribbon_push(g->desc, ctx.frame.debug, ctx.frame.shadows, /*light_pass=*/false);
        draw_ribbons(c, layout_.get(), ctx.frame_set, *g, push, /*with_shading=*/true);
    }
    return {};
}

}  // namespace tressel::render
