#include "render/overlay_pass.h"

#include "render/draws.h"
#include "render/render_scene.h"
#include "render/renderer.h"

namespace tressel::render {

using gpu_shared::MeshPush;

namespace {

Status make_pipeline(gpu::Device& device, Pipeline& out, const GraphicsPipelineDesc& desc) {
    auto pipe = create_graphics_pipeline(device, desc);
    if (!pipe) return pipe.error();
    out = std::move(*pipe);
    return {};
}

}  // namespace

Result<std::unique_ptr<SlicePass>> SlicePass::create(const PassSetup& setup) {
    gpu::Device& device = setup.device;
    std::unique_ptr<SlicePass> p(new SlicePass());
    auto layout = create_object_pipeline_layout(device, setup.shared);
    if (!layout) return layout.error();
    p->layout_ = std::move(*layout);
    auto make = [&](Pipeline& out, const GraphicsPipelineDesc& d) { return make_pipeline(device, out, d); };
    const GraphicsPipelineDesc mesh = mesh_pipeline_desc(setup, p->layout_.get());
    GraphicsPipelineDesc colour = mesh;
    colour.vertex_shader = "render/slice.vert";
    colour.fragment_shader = "render/slice.frag";
    colour.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    colour.blend = Blend::Alpha;
    colour.depth_test = false;
    colour.depth_write = false;
    colour.name = "sdf slice";
    TRESSEL_TRY(make(p->colour_pipe_, colour));
    GraphicsPipelineDesc depth = colour;
    depth.blend = Blend::None;
    depth.color_write = false;
    depth.fragment_shader = "render/slice_depth.frag";  // where the plane is mostly opaque
    depth.depth_test = depth.depth_write = true;
    depth.name = "sdf slice depth";
    TRESSEL_TRY(make(p->depth_pipe_, depth));
    GraphicsPipelineDesc edges = mesh;
    edges.vertex_shader = "render/line.vert";
    edges.fragment_shader = "render/line.frag";
    edges.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    edges.blend = Blend::Alpha;
    edges.depth_test = edges.depth_write = false;
    edges.name = "mesh problem edges";
    TRESSEL_TRY(make(p->edge_pipe_, edges));
    return p;
}

Status SlicePass::record_main(FrameContext& ctx) {
    auto span = ctx.time("slice");
    const SliceGpu& slice = ctx.scene.slice();
    if (!ctx.frame.show_slice || !slice.valid) return {};
    VkCommandBuffer c = ctx.cmd.handle();
    draw_slice_quad(c, colour_pipe_.get(), layout_.get(), ctx.frame_set, slice);
    draw_slice_quad(c, depth_pipe_.get(), layout_.get(), ctx.frame_set, slice);
    draw_lines(c, edge_pipe_.get(), layout_.get(), ctx.frame_set, slice.mesh_edges);
    return {};
}

Result<std::unique_ptr<OverlayPass>> OverlayPass::create(const PassSetup& setup) {
    gpu::Device& device = setup.device;
    std::unique_ptr<OverlayPass> p(new OverlayPass());
    auto layout = create_object_pipeline_layout(device, setup.shared);
    if (!layout) return layout.error();
    p->layout_ = std::move(*layout);
    auto make = [&](Pipeline& out, const GraphicsPipelineDesc& d) { return make_pipeline(device, out, d); };
    const GraphicsPipelineDesc mesh = mesh_pipeline_desc(setup, p->layout_.get());
    GraphicsPipelineDesc shell = mesh;
    shell.blend = Blend::Alpha;
    shell.depth_write = false;
    shell.depth_bias_slope = 1.0f;
    shell.name = "overlay";
    TRESSEL_TRY(make(p->shell_pipe_, shell));
    VkPhysicalDeviceFeatures features;
    vkGetPhysicalDeviceFeatures(device.physical_device(), &features);
    if (features.fillModeNonSolid == VK_TRUE) {
        GraphicsPipelineDesc wire = mesh;
        wire.polygon_mode = VK_POLYGON_MODE_LINE;
        wire.depth_write = false;
        wire.depth_bias_slope = 1.0f;
        wire.name = "wireframe";
        TRESSEL_TRY(make(p->wire_pipe_, wire));
    }
    GraphicsPipelineDesc line = mesh;
    line.vertex_shader = "render/line.vert";
    line.fragment_shader = "render/line.frag";
    line.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    line.blend = Blend::Alpha;
    line.depth_write = false;
    line.name = "lines";
    TRESSEL_TRY(make(p->line_pipe_, line));
    return p;
}

Status OverlayPass::record_main(FrameContext& ctx) {
    auto span = ctx.time("overlays");
    VkCommandBuffer c = ctx.cmd.handle();
    const FrameDesc& frame = ctx.frame;
    const RenderScene& scene = ctx.scene;
    VkPipelineLayout layout = layout_.get();
    if (frame.show_grid) draw_lines(c, line_pipe_.get(), layout, ctx.frame_set, scene.grid());
    if (frame.wireframe && wire_pipe_.valid())
        for (auto& m : scene.meshes())
            if (m.style == MeshStyle::Opaque)
                draw_mesh(c, wire_pipe_.get(), layout, ctx.frame_set, m,
                          {.color = glm::vec3(0.1f, 0.1f, 0.12f), .opacity = 1.0f, .unlit = 1u});
    const SliceGpu& slice = scene.slice();
    if (frame.show_slice && slice.valid) draw_lines(c, line_pipe_.get(), layout, ctx.frame_set, slice.bounds_box);
    for (auto& m : scene.meshes()) {
        if (m.style == MeshStyle::CollisionOverlay && frame.show_collision)
            draw_mesh(c, shell_pipe_.get(), layout, ctx.frame_set, m, {.color = m.color, .opacity = 0.22f, .rim = 1.5f});
        if (m.style == MeshStyle::Collider && frame.show_colliders)
            draw_mesh(c, shell_pipe_.get(), layout, ctx.frame_set, m, {.color = m.color, .opacity = 0.35f, .rim = 1.0f});
    }
    return {};
}

}  // namespace tressel::render
