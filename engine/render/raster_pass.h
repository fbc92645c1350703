// HairRenderer::ComputeRaster: hair drawn by compute shaders, no fixed-function rasterization
// (shared/hair_raster.h has the data; the shaders are shaders/render/raster_*).
//
// record_offscreen(), outside the main target:
//   1. the opaque meshes' depth (and the SDF slice plane's, when shown), one sample per pixel, in a
//      depth-only render pass of its own (the main target's depth is transient and multisampled), and its
//      farthest value per 8 x 8 tile;
//   2. per visible group, every drawn strand vertex projected, given a width in pixels and shaded
//      (raster_vertices.comp: the ribbon pass's colours, Kajiya-Kay or Marschner, the key light's
//      transmittance from the opacity maps);
//   3. binning: each segment counted into the (tile, depth bin) cells it touches, the counts scanned into
//      offsets, the segments scattered into per-cell lists (raster_bin.comp, raster_scan.comp);
//   4. each tile rasterized front to back with analytic coverage and a K-buffer (raster_tiles.comp).
// record_main() lays the result over the meshes (raster_composite.*), before the overlays.
//
// Why depth bins rather than sorting each tile's segments: binning by the nearer end's view depth into
// kRasterDepthBins slices (as Frostbite's and Unreal's strand rasterizers do) orders a tile's work front
// to back at the cost of one more counter per cell, no sort; exact order is not needed because the
// K-buffer keeps the nearest fragments of each pixel whatever order they arrive in, and the bins only make
// the early out (a tile gone opaque skips its farther bins) and the K-buffer's hit rate good.
//
// Level of detail (FrameDesc::hair_lod*): when a strand's width on screen falls below
// kLodTargetWidthPx / bias, only a prefix of the group's strands is drawn (follow hairs are ordered so a
// prefix is spread over the scalp: groom/follow.h) and each is widened by strands / drawn, which keeps the
// summed coverage; vertices per strand fall as the strand's length on screen does.
//
// Timestamps: "hair_bin" (steps 1-3), "hair_raster" (step 4), "hair" (the composite).
#pragma once

#include <memory>

#include "render/hair_pass.h"

namespace tressel::render {

class ComputeRasterHairPass final : public HairPassBase {
public:
    static Result<std::unique_ptr<ComputeRasterHairPass>> create(const PassSetup& setup);

    Status record_offscreen(FrameContext& ctx) override;
    Status record_main(FrameContext& ctx) override;
    HairLodStats lod_stats() const override { return stats_; }
    bool needs_another_frame() override;

private:
    ComputeRasterHairPass() = default;
    Status ensure_targets(uint32_t width, uint32_t height);
    Status ensure_buffer(gpu::Buffer& buffer, VkDeviceSize bytes, const char* name, bool& grown,
                         VkFormat texel_format = VK_FORMAT_UNDEFINED);
    void bind_set();

    gpu::Device* device_ = nullptr;
    bool direct_ = false;   // raster_tiles_direct.comp (RasterTileKernel)
    const SharedResources* shared_ = nullptr;
    DescriptorLayout raster_layout_;
    gpu::DescriptorSet set_;
    PipelineLayout compute_layout_, composite_layout_, depth_layout_;
    Pipeline vertices_pipe_, tile_depth_pipe_, bin_pipe_, scan_pipe_, tiles_pipe_, tiles_preview_pipe_, composite_pipe_,
        depth_pipe_, slice_depth_pipe_;
    DepthTarget mesh_depth_;
    gpu::Buffer vertices_, tile_depth_, counts_, offsets_, cursors_, blocks_, list_, image_, stats_buffer_;
    uint32_t width_ = 0, height_ = 0;
    uint64_t list_capacity_ = 0;      // entries of list_
    uint64_t list_wanted_ = 0;        // entries the last recorded frame may need (estimate or measured)
    bool drew_ = false;               // the last record_offscreen() rasterized something
    uint64_t hair_signature_ = 0;     // counts and buffers of every hair group drawn last frame
    HairLodStats stats_;
};

}  // namespace tressel::render
