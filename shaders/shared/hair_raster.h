// The compute hair rasterizer (engine/render/raster_pass.h, shaders/render/raster_*): its constants, the
// per-vertex record its passes exchange, its push constants and its descriptor set (set
// kRenderSetHairRaster, beside the frame, strand and shading sets of shared/render_bindings.h).
//
// One frame: every visible group's strand vertices are projected and shaded into RasterVertex records
// (raster_vertices.comp), each segment (a vertex and the next) is counted into the (tile, depth bin)
// cells it touches (raster_bin.comp), the counts are scanned into offsets (raster_scan.comp), the
// segments scattered into per-cell lists (raster_bin.comp again), and each tile rasterized front to back
// with analytic coverage and a per-pixel K-buffer (raster_tiles.comp); raster_composite.frag lays the
// result over the meshes in the main target.
#ifndef TRESSEL_SHARED_HAIR_RASTER_H
#define TRESSEL_SHARED_HAIR_RASTER_H
#include "shared/common.h"
#include "shared/render_bindings.h"

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kRasterTile, 8u);          // tile side, pixels: one 64-thread workgroup per tile
TRESSEL_CONST(uint, kRasterDepthBins, 16u);    // depth bins per tile, front to back over the hair's depth range
TRESSEL_CONST(uint, kRasterLayers, 4u);        // nearest fragments per pixel blended in depth order
TRESSEL_CONST(uint, kRasterScanBlock, 1024u);  // cells per workgroup of raster_scan.comp (256 threads x 4)
TRESSEL_CONST(uint, kRasterMaxScanBlocks, 65536u);  // so the block scan of one workgroup stays short

// RasterVertex::color.z flags.
TRESSEL_CONST(uint, kRasterRoot, 1u);          // the strand's first drawn vertex (its end is filtered)
TRESSEL_CONST(uint, kRasterTip, 2u);           // the strand's last drawn vertex
TRESSEL_CONST(uint, kRasterSegment, 4u);       // a segment runs from this vertex to the next record
TRESSEL_CONST(uint, kRasterVisible, 8u);       // in front of the camera's near plane

// raster_scan.comp phases (RasterPush::phase).
TRESSEL_CONST(uint, kRasterScanReduce, 0u);    // block sums of the cell counts
TRESSEL_CONST(uint, kRasterScanBlocks, 1u);    // exclusive scan of the block sums (one workgroup)
TRESSEL_CONST(uint, kRasterScanWrite, 2u);     // cell offsets and scatter cursors
// raster_bin.comp modes.
TRESSEL_CONST(uint, kRasterBinCount, 0u);
TRESSEL_CONST(uint, kRasterBinScatter, 1u);

// One projected, shaded strand vertex.
struct RasterVertex {
    vec4 screen;   // x, y pixels (y down, pixel centres at +0.5), z NDC depth [0, 1], w half width (pixels)
    uvec4 color;   // x packHalf2x16(r, g), y packHalf2x16(b, alpha), z flags (kRaster*), w view depth (float bits)
};
TRESSEL_CHECK_SIZE(RasterVertex, 32)

// Push constants of raster_bin, raster_scan, raster_tiles and raster_tile_depth.
struct RasterPush {
    uint width;            // target pixels
    uint height;
    uint tiles_x;          // ceil(width / kRasterTile)
    uint tiles_y;
    uint vertex_count;     // RasterVertex records this frame (every group)
    uint list_capacity;    // entries of the tile list
    uint cells;            // tiles x kRasterDepthBins
    uint scan_blocks;      // ceil(cells / kRasterScanBlock)
    float bin_near;        // view depth (m) where depth bin 0 starts
    float bin_scale;       // depth bins per metre of view depth
    uint phase;            // raster_scan.comp: kRasterScan*; raster_bin.comp: kRasterBin*
    uint pad0;
};
TRESSEL_CHECK_SIZE(RasterPush, 48)

// Set kRenderSetHairRaster: the rasterizer's own buffers (engine/render/raster_pass.cpp owns them).
TRESSEL_CONST(uint, kRenderSetHairRaster, 3u);
TRESSEL_CONST(uint, kRasterBindVertices, 0u);   // RasterVertex per drawn strand vertex
TRESSEL_CONST(uint, kRasterBindTileDepth, 1u);  // float per tile: farthest mesh depth (NDC) in the tile
TRESSEL_CONST(uint, kRasterBindCounts, 2u);     // uint per cell (tile x depth bin): segments touching it
TRESSEL_CONST(uint, kRasterBindOffsets, 3u);    // uint per cell + 1: where its list starts (exclusive scan)
TRESSEL_CONST(uint, kRasterBindCursors, 4u);    // uint per cell: scatter cursor
TRESSEL_CONST(uint, kRasterBindBlocks, 5u);     // uint per scan block
TRESSEL_CONST(uint, kRasterBindList, 6u);       // uint per (segment, cell): the segment's first vertex
TRESSEL_CONST(uint, kRasterBindImage, 7u);      // uvec2 per pixel: premultiplied colour and alpha, half floats
TRESSEL_CONST(uint, kRasterBindMeshDepth, 8u);  // sampler2D: depth of the opaque meshes (NDC), 1 sample
TRESSEL_CONST(uint, kRasterBindStats, 9u);      // uint[4]: cell entries wanted, entries dropped, -, -
// The vertices and the tile list again, as uniform texel buffers (RGBA32UI, two texels per RasterVertex;
// R32UI): raster_tiles_direct.comp reads them through the texture path (see engine/render/README.md).
TRESSEL_CONST(uint, kRasterBindVertexTexels, 10u);
TRESSEL_CONST(uint, kRasterBindListTexels, 11u);
#ifdef __cplusplus
inline constexpr RenderBinding kHairRasterSetBindings[] = {
    {kRasterBindVertices, kStorageBuffer, kComputeStage},
    {kRasterBindTileDepth, kStorageBuffer, kComputeStage},
    {kRasterBindCounts, kStorageBuffer, kComputeStage},
    {kRasterBindOffsets, kStorageBuffer, kComputeStage},
    {kRasterBindCursors, kStorageBuffer, kComputeStage},
    {kRasterBindBlocks, kStorageBuffer, kComputeStage},
    {kRasterBindList, kStorageBuffer, kComputeStage},
    {kRasterBindImage, kStorageBuffer, kComputeStage | kFragmentStage},
    {kRasterBindMeshDepth, kSampledTexture, kComputeStage},
    {kRasterBindStats, kStorageBuffer, kComputeStage},
    {kRasterBindVertexTexels, kTexelBuffer, kComputeStage},
    {kRasterBindListTexels, kTexelBuffer, kComputeStage},
};
static_assert(bindings_are_dense(kHairRasterSetBindings));
#endif

// The key light's deep opacity maps splatted by compute (render/shadow_pass.h with the compute
// rasterizer): shadow_splat.comp samples every segment kShadowSampleTexels apart in the light's view,
// first keeping the nearest depth per texel (atomic min), then adding each sample's optical depth into the
// opacity layer it falls in (fixed point, kShadowScale per unit); shadow_resolve.comp sums the layers
// front to back and writes what the frame set's textures hold, which are then copied into them.
TRESSEL_CONST(uint, kShadowSplatDepth, 0u);
TRESSEL_CONST(uint, kShadowSplatOpacity, 1u);
TRESSEL_CONST(float, kShadowScale, 65536.0f);
TRESSEL_CONST(uint, kShadowMaxSamples, 64u);   // samples per segment at most
TRESSEL_CONST(float, kShadowSampleTexels, 2.0f);  // texels between samples (each spreads over 2 x 2 texels)
// Strands splatted per frame at most (all groups): beyond it a spread prefix of each group's strands is
// splatted, widened by strands / splatted, as the level of detail does on screen.
TRESSEL_CONST(uint, kShadowStrandBudget, 16384u);

struct ShadowPush {
    uint size;                 // shadow map texels per side
    uint mode;                 // kShadowSplat*
    uint vertices_per_strand;
    uint strand_count;
    float optical;             // -ln(1 - shadow_alpha): optical depth of one fibre a texel wide
    float root_half_width_m;
    float tip_half_width_m;
    uint pad0;
};
TRESSEL_CHECK_SIZE(ShadowPush, 32)

// Set kRenderSetShadowSplat of shadow_splat.comp and shadow_resolve.comp.
TRESSEL_CONST(uint, kRenderSetShadowSplat, 3u);
TRESSEL_CONST(uint, kShadowBindDepthBits, 0u);  // uint per texel: nearest depth (float bits, atomic min)
TRESSEL_CONST(uint, kShadowBindLayers, 1u);     // uint per texel x kOpacityLayers: optical depth per layer
TRESSEL_CONST(uint, kShadowBindDepthOut, 2u);   // float per texel: the depth map
TRESSEL_CONST(uint, kShadowBindOpacity0, 3u);   // storage image rgba16f: layers 0-3 (the frame set's map 0)
TRESSEL_CONST(uint, kShadowBindOpacity1, 4u);   // storage image rgba16f: layers 4-7
#ifdef __cplusplus
inline constexpr RenderBinding kShadowSplatSetBindings[] = {
    {kShadowBindDepthBits, kStorageBuffer, kComputeStage},
    {kShadowBindLayers, kStorageBuffer, kComputeStage},
    {kShadowBindDepthOut, kStorageBuffer, kComputeStage},
    {kShadowBindOpacity0, kStorageImage, kComputeStage},
    {kShadowBindOpacity1, kStorageImage, kComputeStage},
};
static_assert(bindings_are_dense(kShadowSplatSetBindings));
#endif

TRESSEL_SHARED_END
#endif
