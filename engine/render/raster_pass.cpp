#include "render/raster_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "render/draws.h"
#include "render/render_resources.h"
#include "render/render_scene.h"
#include "render/renderer.h"
#include "shared/hair_raster.h"
#include "shared/render.h"

namespace tressel::render {

using gpu_shared::HairPush;
using gpu_shared::kRasterDepthBins;
using gpu_shared::kRasterScanBlock;
using gpu_shared::kRasterTile;
using gpu_shared::RasterPush;
using gpu_shared::RasterVertex;

namespace {

// Level of detail (raster_pass.h): a strand narrower than this on screen (pixels, at bias 1) is drawn as
// fewer, wider strands; a segment shorter than kLodSegmentPx merges with its neighbours.
constexpr double kLodTargetWidthPx = 0.35;
constexpr double kLodSegmentPx = 3.0;
constexpr uint32_t kLodMinStrands = 1000;      // a group keeps at least this many (or all it has)
constexpr double kLodMinFraction = 1.0 / 64.0;
constexpr uint64_t kMaxListEntries = uint64_t(1) << 28;   // 1 GiB of tile list at most

constexpr VkShaderStageFlags kComputeStage = VK_SHADER_STAGE_COMPUTE_BIT;

struct GroupLod {
    uint32_t strands = 0, vertices = 0;
    float width_scale = 1.0f;
    double segment_px = 0.0, width_px = 0.0;   // estimated drawn segment length and width on screen
};

GroupLod choose_lod(const HairDesc& d, const FrameDesc& f, uint32_t height) {
    GroupLod lod{d.strand_count, d.vertices_per_strand, 1.0f, 4.0, 1.0};
    const OrbitCamera& cam = f.camera;
    glm::dvec3 eye = cam.eye_m();
    glm::dvec3 forward = cam.target_m - eye;
    double fl = glm::length(forward);
    forward = fl > 0.0 ? forward / fl : glm::dvec3(0.0, 0.0, -1.0);
    glm::dvec3 lo(d.bounds_min_m), hi(d.bounds_max_m);
    glm::dvec3 centre = 0.5 * (lo + hi);
    double near_m = cam.near_m > 0.0 ? cam.near_m : cam.distance_m / 100.0;
    double dist = std::max(glm::dot(centre - eye, forward), near_m);
    double px_per_m = double(height) / (2.0 * std::tan(glm::radians(cam.fov_deg) * 0.5) * dist);
    double extent_px = glm::length(hi - lo) * px_per_m;
    const uint32_t n = d.vertices_per_strand;
    lod.width_px = 2.0 * d.shading.fiber_radius_m * px_per_m;
    lod.segment_px = extent_px / double(std::max(n, 2u) - 1);
    if (!f.hair_lod) return lod;
    const double bias = std::clamp(f.hair_lod_bias * d.shading.lod_bias, 0.05, 20.0);
    double fraction = f.hair_lod_fraction > 0.0 ? std::min(f.hair_lod_fraction, 1.0)
                                                : std::clamp(lod.width_px * bias / kLodTargetWidthPx, kLodMinFraction,
                                                             std::clamp(f.hair_lod_max_fraction, kLodMinFraction, 1.0));
    uint64_t drawn = uint64_t(std::ceil(double(d.strand_count) * fraction));
    if (f.hair_lod_fraction <= 0.0) {
        drawn = std::max<uint64_t>(drawn, std::min(d.strand_count, kLodMinStrands));
        // The cap wins over the floor: a preview asked for at most this share.
        drawn = std::min<uint64_t>(drawn, uint64_t(std::ceil(double(d.strand_count) * std::clamp(f.hair_lod_max_fraction,
                                                                                                  kLodMinFraction, 1.0))));
    }
    drawn = std::clamp<uint64_t>(drawn, std::min<uint64_t>(d.strand_count, 1), d.strand_count);
    lod.strands = uint32_t(drawn);
    lod.width_scale = drawn > 0 ? float(double(d.strand_count) / double(drawn)) : 1.0f;
    // Vertices: segments of about kLodSegmentPx / bias pixels along the longest strand (or, unknown, one
    // spanning the group's extent).
    const double strand_px = d.strand_length_m > 0.0f ? double(d.strand_length_m) * px_per_m : extent_px;
    double want = std::ceil(strand_px * bias / kLodSegmentPx) + 1.0;
    uint32_t floor_vertices = std::min(n, 4u);
    lod.vertices = uint32_t(std::clamp(want, double(floor_vertices), double(n)));
    lod.segment_px = strand_px / double(std::max(lod.vertices, 2u) - 1);
    lod.width_px *= lod.width_scale;
    return lod;
}

void compute_barrier(VkCommandBuffer c, VkPipelineStageFlags dst = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, dst, 0, 1, &mb, 0,
                         nullptr, 0, nullptr);
}

}  // namespace

Result<std::unique_ptr<ComputeRasterHairPass>> ComputeRasterHairPass::create(const PassSetup& setup) {
    gpu::Device& device = setup.device;
    std::unique_ptr<ComputeRasterHairPass> p(new ComputeRasterHairPass());
    p->device_ = &device;
    p->shared_ = &setup.shared;
    p->direct_ = setup.desc.raster_tile_kernel == RasterTileKernel::Direct ||
                 (setup.desc.raster_tile_kernel == RasterTileKernel::Auto && device.info().is_cpu());
    auto rl = DescriptorLayout::create(device, gpu_shared::kHairRasterSetBindings, "hair raster");
    if (!rl) return rl.error();
    p->raster_layout_ = std::move(*rl);
    static_assert(gpu_shared::kRenderSetFrame == 0 && gpu_shared::kRenderSetStrands == 1 &&
                  gpu_shared::kRenderSetHairShading == 2 && gpu_shared::kRenderSetHairRaster == 3);
    VkDescriptorSetLayout sets[] = {setup.shared.frame.get(), setup.shared.strands.get(),
                                    setup.shared.hair_shading.get(), p->raster_layout_.get()};
    static_assert(sizeof(HairPush) >= sizeof(RasterPush));
    auto cl = create_pipeline_layout(device, sets, sizeof(HairPush), kComputeStage);
    if (!cl) return cl.error();
    p->compute_layout_ = std::move(*cl);
    auto ql = create_pipeline_layout(device, sets, 0);
    if (!ql) return ql.error();
    p->composite_layout_ = std::move(*ql);
    auto dl = create_object_pipeline_layout(device, setup.shared);
    if (!dl) return dl.error();
    p->depth_layout_ = std::move(*dl);

    struct {
        Pipeline* pipe;
        const char* shader;
    } computes[] = {{&p->vertices_pipe_, "render/raster_vertices.comp"},
                    {&p->tile_depth_pipe_, "render/raster_tile_depth.comp"},
                    {&p->bin_pipe_, p->direct_ ? "render/raster_bin_texels.comp" : "render/raster_bin.comp"},
                    {&p->scan_pipe_, "render/raster_scan.comp"},
                    {&p->tiles_pipe_, p->direct_ ? "render/raster_tiles_direct.comp" : "render/raster_tiles.comp"}};
    auto preview = create_compute_pipeline(device, p->direct_ ? "render/raster_tiles_direct_preview.comp"
                                                              : "render/raster_tiles_preview.comp",
                                           p->compute_layout_.get());
    if (!preview) return preview.error();
    p->tiles_preview_pipe_ = std::move(*preview);
    for (auto& c : computes) {
        auto pipe = create_compute_pipeline(device, c.shader, p->compute_layout_.get());
        if (!pipe) return pipe.error();
        *c.pipe = std::move(*pipe);
    }

    GraphicsPipelineDesc cd;
    cd.vertex_shader = "render/raster_composite.vert";
    cd.fragment_shader = "render/raster_composite.frag";
    cd.layout = p->composite_layout_.get();
    cd.render_pass = setup.main_pass;
    cd.samples = setup.samples;
    cd.depth_test = cd.depth_write = false;
    cd.blend = Blend::Premultiplied;
    cd.name = "hair composite";
    auto comp = create_graphics_pipeline(device, cd);
    if (!comp) return comp.error();
    p->composite_pipe_ = std::move(*comp);

    // The meshes' depth, sized to the target on the first frame.
    auto dt = DepthTarget::create(device, 1, 1, 0, "hair raster mesh depth");
    if (!dt) return dt.error();
    p->mesh_depth_ = std::move(*dt);
    GraphicsPipelineDesc dd;
    dd.vertex_shader = "render/mesh.vert";
    dd.fragment_shader = "";
    dd.layout = p->depth_layout_.get();
    dd.render_pass = p->mesh_depth_.render_pass();
    dd.color_attachments = 0;
    dd.name = "hair raster mesh depth";
    auto dpipe = create_graphics_pipeline(device, dd);
    if (!dpipe) return dpipe.error();
    p->depth_pipe_ = std::move(*dpipe);
    // The slice plane hides the hair behind it where it is mostly opaque (render/overlay_pass.h: SlicePass).
    dd.vertex_shader = "render/slice.vert";
    dd.fragment_shader = "render/slice_depth.frag";
    dd.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    dd.name = "hair raster slice depth";
    auto spipe = create_graphics_pipeline(device, dd);
    if (!spipe) return spipe.error();
    p->slice_depth_pipe_ = std::move(*spipe);

    gpu::BufferDesc sb;
    sb.size = 16;
    sb.intent = gpu::MemoryIntent::Readback;
    sb.name = "hair raster stats";
    auto stats = device.create_buffer(sb);
    if (!stats) return stats.error();
    p->stats_buffer_ = std::move(*stats);
    std::memset(p->stats_buffer_.mapped(), 0, 16);
    auto set = p->raster_layout_.allocate();
    if (!set) return set.error();
    p->set_ = std::move(*set);
    return p;
}

Status ComputeRasterHairPass::ensure_buffer(gpu::Buffer& buffer, VkDeviceSize bytes, const char* name, bool& grown,
                                            VkFormat texel_format) {
    bytes = std::max<VkDeviceSize>(bytes, 16);
    if (buffer.valid() && buffer.size() >= bytes) return {};
    gpu::BufferDesc d;
    d.size = bytes;
    d.name = name;
    d.texel_format = texel_format;
    auto b = device_->create_buffer(d);
    if (!b) return b.error();
    buffer = std::move(*b);
    grown = true;
    return {};
}

Status ComputeRasterHairPass::ensure_targets(uint32_t width, uint32_t height) {
    if (width == width_ && height == height_) return {};
    TRESSEL_TRY(mesh_depth_.resize(width, height));
    const uint64_t tiles = uint64_t(gpu::div_round_up(width, kRasterTile)) * gpu::div_round_up(height, kRasterTile);
    const uint64_t cells = tiles * kRasterDepthBins;
    const uint64_t blocks = gpu::div_round_up(cells, kRasterScanBlock);
    if (blocks > gpu_shared::kRasterMaxScanBlocks)
        return make_error(ErrorCode::InvalidArgument, "hair raster: the target is too large to bin");
    // New buffers of exactly this size (shrinking too, so resizes do not keep the largest size forever).
    tile_depth_ = {};
    counts_ = {};
    offsets_ = {};
    cursors_ = {};
    blocks_ = {};
    image_ = {};
    bool grown = false;
    TRESSEL_TRY(ensure_buffer(tile_depth_, tiles * 4, "hair raster tile depth", grown));
    TRESSEL_TRY(ensure_buffer(counts_, cells * 4, "hair raster cell counts", grown));
    TRESSEL_TRY(ensure_buffer(offsets_, (cells + 1) * 4, "hair raster cell offsets", grown));
    TRESSEL_TRY(ensure_buffer(cursors_, cells * 4, "hair raster cell cursors", grown));
    TRESSEL_TRY(ensure_buffer(blocks_, blocks * 4, "hair raster scan blocks", grown));
    TRESSEL_TRY(ensure_buffer(image_, uint64_t(width) * height * 8, "hair raster image", grown));
    width_ = width;
    height_ = height;
    return {};
}

void ComputeRasterHairPass::bind_set() {
    using namespace gpu_shared;
    set_.bind_buffer(kRasterBindVertices, vertices_);
    set_.bind_buffer(kRasterBindTileDepth, tile_depth_);
    set_.bind_buffer(kRasterBindCounts, counts_);
    set_.bind_buffer(kRasterBindOffsets, offsets_);
    set_.bind_buffer(kRasterBindCursors, cursors_);
    set_.bind_buffer(kRasterBindBlocks, blocks_);
    set_.bind_buffer(kRasterBindList, list_);
    set_.bind_buffer(kRasterBindImage, image_);
    set_.bind_image(kRasterBindMeshDepth, mesh_depth_.image(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                    shared_->nearest_clamp.get());
    set_.bind_buffer(kRasterBindStats, stats_buffer_);
    set_.bind_texel_buffer(kRasterBindVertexTexels, vertices_);
    set_.bind_texel_buffer(kRasterBindListTexels, list_);
}

bool ComputeRasterHairPass::needs_another_frame() {
    if (!drew_) return false;
    const auto* s = static_cast<const uint32_t*>(stats_buffer_.mapped());
    uint64_t wanted = s[0];
    stats_.tile_entries = wanted;
    const uint64_t most = direct_ ? std::min<uint64_t>(kMaxListEntries, device_->info().max_texel_buffer_elements)
                                  : kMaxListEntries;
    if (wanted <= list_capacity_ || list_capacity_ >= most) return false;
    list_wanted_ = std::max(list_wanted_, wanted + wanted / 4);
    return true;
}

Status ComputeRasterHairPass::record_offscreen(FrameContext& ctx) {
    VkCommandBuffer c = ctx.cmd.handle();
    drew_ = false;
    // The previous frame (complete by the Renderer's contract) tells how many tile entries it needed.
    if (list_capacity_ > 0) {
        uint64_t wanted = static_cast<const uint32_t*>(stats_buffer_.mapped())[0];
        stats_.tile_entries = wanted;
        if (wanted > list_capacity_) list_wanted_ = std::max(list_wanted_, wanted + wanted / 4);
    }

    // Level of detail per visible group, and where each group's vertices go.
    struct Drawn {
        const HairGroupGpu* group;
        GroupLod lod;
        uint32_t base;
    };
    std::vector<Drawn> drawn;
    uint64_t vertex_count = 0, estimate = 0;
    HairLodStats stats;
    stats.width_scale = 1.0;
    glm::dvec3 eye = ctx.frame.camera.eye_m();
    glm::dvec3 forward = glm::normalize(ctx.frame.camera.target_m - eye);
    double depth_lo = 1e30, depth_hi = -1e30;
    for (auto& g : ctx.scene.hair()) {
        const HairDesc& d = g->desc;
        if (!d.visible || d.strand_count == 0 || d.vertices_per_strand < 2) continue;
        GroupLod lod = choose_lod(d, ctx.frame, ctx.height);
        drawn.push_back({g.get(), lod, uint32_t(vertex_count)});
        vertex_count += uint64_t(lod.strands) * lod.vertices;
        const uint64_t segments = uint64_t(lod.strands) * (lod.vertices - 1);
        // Tiles a segment touches, roughly: its length plus the binning radius, over a tile, across two tiles.
        double reach = lod.segment_px + lod.width_px + 2.0 * (kRasterTile * 0.7071 + 1.0);
        estimate += uint64_t(double(segments) * (1.0 + 2.0 * reach / kRasterTile));
        stats.strands_total += d.strand_count;
        stats.strands_drawn += lod.strands;
        stats.vertices_per_strand = std::max(stats.vertices_per_strand, lod.vertices);
        stats.vertices_total = std::max(stats.vertices_total, d.vertices_per_strand);
        stats.width_scale = std::max(stats.width_scale, double(lod.width_scale));
        stats.segments += segments;
        for (int corner = 0; corner < 8; ++corner) {
            glm::dvec3 p((corner & 1) ? d.bounds_max_m.x : d.bounds_min_m.x,
                         (corner & 2) ? d.bounds_max_m.y : d.bounds_min_m.y,
                         (corner & 4) ? d.bounds_max_m.z : d.bounds_min_m.z);
            double z = glm::dot(p - eye, forward);
            depth_lo = std::min(depth_lo, z);
            depth_hi = std::max(depth_hi, z);
        }
    }
    stats.tile_entries = stats_.tile_entries;
    if (drawn.empty() || vertex_count >= (uint64_t(1) << 31)) {
        stats.tile_capacity = list_capacity_;
        stats_ = stats;
        return {};
    }

    TRESSEL_TRY(ensure_targets(ctx.width, ctx.height));
    // When the hair itself changes (another scene, a regrow: new buffers), the buffers are made again at
    // what this hair needs, so capacity follows the hair down as well as up and a scene opened again holds
    // what it held before whatever was drawn in between. (Keyed on the counts alone and keeping up to 4
    // times the need, hair grown on a scalp scaled up 10^5 times and undone left a reopened scene holding
    // 28.1 MiB against 18.6: the editor soak's cycle that did it.)
    uint64_t signature = drawn.size();
    for (const Drawn& dr : drawn)
        signature = signature * 1000003u + uint64_t(dr.group->desc.strand_count) * dr.group->desc.vertices_per_strand +
                    uint64_t(reinterpret_cast<uintptr_t>(dr.group->desc.strand_info ? dr.group->desc.strand_info->handle() : VK_NULL_HANDLE));
    if (signature != hair_signature_) {
        hair_signature_ = signature;
        vertices_ = {};
        list_ = {};
        list_capacity_ = 0;
        list_wanted_ = 0;
    }
    bool grown = false;
    if (!vertices_.valid() || vertices_.size() < vertex_count * sizeof(RasterVertex))
        vertices_ = {};
    // Every buffer the texel views cover; beyond maxTexelBufferElements the direct kernel could not
    // read them (a CPU driver never gets there: 2^27 texels on the one we know).
    const uint64_t max_texels = device_->info().max_texel_buffer_elements;
    TRESSEL_TRY(ensure_buffer(vertices_, vertex_count * sizeof(RasterVertex) * 5 / 4, "hair raster vertices", grown,
                              VK_FORMAT_R32G32B32A32_UINT));
    uint64_t want_list = std::min<uint64_t>(std::max(estimate, list_wanted_), kMaxListEntries);
    if (direct_) want_list = std::min(want_list, max_texels);
    if (!list_.valid() || list_capacity_ < want_list) {
        list_ = {};
        TRESSEL_TRY(ensure_buffer(list_, want_list * 4, "hair raster tile lists", grown, VK_FORMAT_R32_UINT));
        list_capacity_ = want_list;
    }
    if (direct_ && vertex_count * 2 > max_texels)
        return make_error(ErrorCode::InvalidArgument, "hair raster: " + std::to_string(vertex_count) +
                                                          " vertices are more than this device's texel buffers hold");
    bind_set();
    stats.tile_capacity = list_capacity_;
    stats_ = stats;

    const uint32_t tiles_x = gpu::div_round_up(ctx.width, kRasterTile), tiles_y = gpu::div_round_up(ctx.height, kRasterTile);
    RasterPush rp{};
    rp.width = ctx.width;
    rp.height = ctx.height;
    rp.tiles_x = tiles_x;
    rp.tiles_y = tiles_y;
    rp.vertex_count = uint32_t(vertex_count);
    rp.list_capacity = uint32_t(list_capacity_);
    rp.cells = tiles_x * tiles_y * kRasterDepthBins;
    rp.scan_blocks = gpu::div_round_up(rp.cells, kRasterScanBlock);
    double near_m = ctx.frame.camera.near_m > 0.0 ? ctx.frame.camera.near_m : ctx.frame.camera.distance_m / 100.0;
    depth_lo = std::max(depth_lo, near_m);
    depth_hi = std::max(depth_hi, depth_lo + 1e-4);
    rp.bin_near = float(depth_lo);
    rp.bin_scale = float(double(kRasterDepthBins) / (depth_hi - depth_lo));

    {
        auto span = ctx.time("hair_bin");
        // Last frame's reads of these buffers (composite, tiles) before this frame's writes.
        VkMemoryBarrier war{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        war.srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        war.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        vkCmdPipelineBarrier(c, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &war, 0,
                             nullptr, 0, nullptr);
        // 1. The meshes' depth.
        mesh_depth_.begin(ctx.cmd);
        for (auto& m : ctx.scene.meshes())
            if (m.style == MeshStyle::Opaque)
                draw_mesh(c, depth_pipe_.get(), depth_layout_.get(), ctx.frame_set, m, {.color = m.color, .opacity = 1.0f});
        if (ctx.frame.show_slice && ctx.scene.slice().valid)
            draw_slice_quad(c, slice_depth_pipe_.get(), depth_layout_.get(), ctx.frame_set, ctx.scene.slice());
        mesh_depth_.end(ctx.cmd);
        vkCmdFillBuffer(c, counts_.handle(), 0, VK_WHOLE_SIZE, 0);

        const VkPipelineLayout layout = compute_layout_.get();
        auto bind_raster = [&](VkPipeline pipe) {
            vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
            VkDescriptorSet fs = ctx.frame_set;
            VkDescriptorSet rs = set_.handle();
            vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout, gpu_shared::kRenderSetFrame, 1, &fs, 0,
                                    nullptr);
            vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout, gpu_shared::kRenderSetHairRaster, 1, &rs,
                                    0, nullptr);
        };
        auto push = [&](RasterPush p) { vkCmdPushConstants(c, layout, kComputeStage, 0, sizeof(p), &p); };

        // 2. Vertices, group by group (they read the strand and shading sets of their group).
        vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, vertices_pipe_.get());
        for (const Drawn& dr : drawn) {
            VkDescriptorSet sets[] = {ctx.frame_set, dr.group->strands.handle(), dr.group->shading.handle(),
                                      set_.handle()};
            vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 4, sets, 0, nullptr);
            HairPush hp = ribbon_push(dr.group->desc, ctx.frame.debug, ctx.frame.shadows, /*light_pass=*/false);
            hp.raster_vertex_base = dr.base;
            hp.lod_strands = dr.lod.strands;
            hp.lod_vertices = dr.lod.vertices;
            hp.lod_width_scale = dr.lod.width_scale;
            vkCmdPushConstants(c, layout, kComputeStage, 0, sizeof(hp), &hp);
            auto ds = gpu::dispatch_size(*device_, uint64_t(dr.lod.strands) * dr.lod.vertices, 64);
            vkCmdDispatch(c, ds.x, ds.y, ds.z);
        }
        // Tile depth (its own dispatch; reads the mesh depth the render pass left).
        bind_raster(tile_depth_pipe_.get());
        push(rp);
        vkCmdDispatch(c, tiles_x, tiles_y, 1);
        compute_barrier(c);

        // 3. Count, scan, scatter.
        auto vs = gpu::dispatch_size(*device_, vertex_count, 64);
        bind_raster(bin_pipe_.get());
        rp.phase = gpu_shared::kRasterBinCount;
        push(rp);
        vkCmdDispatch(c, vs.x, vs.y, vs.z);
        compute_barrier(c);
        bind_raster(scan_pipe_.get());
        rp.phase = gpu_shared::kRasterScanReduce;
        push(rp);
        vkCmdDispatch(c, rp.scan_blocks, 1, 1);
        compute_barrier(c);
        rp.phase = gpu_shared::kRasterScanBlocks;
        push(rp);
        vkCmdDispatch(c, 1, 1, 1);
        compute_barrier(c);
        rp.phase = gpu_shared::kRasterScanWrite;
        push(rp);
        vkCmdDispatch(c, rp.scan_blocks, 1, 1);
        compute_barrier(c);
        bind_raster(bin_pipe_.get());
        rp.phase = gpu_shared::kRasterBinScatter;
        push(rp);
        vkCmdDispatch(c, vs.x, vs.y, vs.z);
        compute_barrier(c);
    }
    {
        // 4. Tiles.
        auto span = ctx.time("hair_raster");
        vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE,
                          ctx.frame.hair_preview ? tiles_preview_pipe_.get() : tiles_pipe_.get());
        VkDescriptorSet fs = ctx.frame_set, rs = set_.handle();
        vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, compute_layout_.get(), 0, 1, &fs, 0, nullptr);
        vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, compute_layout_.get(), 3, 1, &rs, 0, nullptr);
        vkCmdPushConstants(c, compute_layout_.get(), kComputeStage, 0, sizeof(rp), &rp);
        vkCmdDispatch(c, tiles_x, tiles_y, 1);
    }
    // The image to the composite's fragment shader; the stats to the host.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0,
                         nullptr);
    drew_ = true;
    return {};
}

Status ComputeRasterHairPass::record_main(FrameContext& ctx) {
    auto span = ctx.time("hair");
    if (!drew_) return {};
    VkCommandBuffer c = ctx.cmd.handle();
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, composite_pipe_.get());
    VkDescriptorSet fs = ctx.frame_set, rs = set_.handle();
    vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, composite_layout_.get(), 0, 1, &fs, 0, nullptr);
    vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, composite_layout_.get(), 3, 1, &rs, 0, nullptr);
    vkCmdDraw(c, 3, 1, 0, 0);
    return {};
}

}  // namespace tressel::render
