#version 450
// Compute hair rasterizer: binning. One thread per RasterVertex; a segment runs from a vertex flagged
// kRasterSegment to the next record. Each segment is tested against the tiles its widened bounds touch
// (its footprint rectangle against the tile's box, below), and against the tile's farthest mesh depth;
// every tile it
// passes gets it in the depth bin of its nearer end. Mode kRasterBinCount counts the cells' segments;
// mode kRasterBinScatter writes the segment into the cell's list at the cursor the scan left.
#include "shared/render.h"
#include "shared/hair_raster.h"
#include "shared/dispatch.h"
layout(push_constant, std430) uniform PushBlock { RasterPush rp; };
#include "render/raster_common.glsl"

layout(local_size_x = 64) in;

#ifdef TRESSEL_RASTER_TEXELS
// The CPU drivers' variant (RasterTileKernel::Direct): through the texel view, which they read as vector
// gathers rather than one invocation at a time.
RasterVertex read_vertex(uint i) {
    RasterVertex v;
    v.screen = uintBitsToFloat(texelFetch(vertex_texels, int(2u * i)));
    v.color = texelFetch(vertex_texels, int(2u * i + 1u));
    return v;
}
#else
RasterVertex read_vertex(uint i) { return raster_vertices[i]; }
#endif

void main() {
    uint i = LINEAR_INVOCATION_INDEX;
    if (i + 1u >= rp.vertex_count) return;
    RasterVertex va = read_vertex(i);
    uint fa = va.color.z;
    if ((fa & (kRasterSegment | kRasterVisible)) != (kRasterSegment | kRasterVisible)) return;
    RasterVertex vb = read_vertex(i + 1u);
    if ((vb.color.z & kRasterVisible) == 0u) return;
    vec2 a = va.screen.xy, b = vb.screen.xy;
    float reach = max(va.screen.w, vb.screen.w) + 1.0;   // half width plus the pixel filter
    vec2 lo = min(a, b) - reach, hi = max(a, b) + reach;
    if (hi.x < 0.0 || hi.y < 0.0 || lo.x >= float(rp.width) || lo.y >= float(rp.height)) return;
    float zmin = min(va.screen.z, vb.screen.z);
    if (zmin > 1.0) return;
    ivec2 t0 = max(ivec2(floor(lo / float(kRasterTile))), ivec2(0));
    ivec2 t1 = min(ivec2(floor(hi / float(kRasterTile))), ivec2(rp.tiles_x - 1u, rp.tiles_y - 1u));
    float near_depth = min(uintBitsToFloat(va.color.w), uintBitsToFloat(vb.color.w));
    uint bin = uint(clamp((near_depth - rp.bin_near) * rp.bin_scale, 0.0, float(kRasterDepthBins - 1u)));
    // The segment's footprint is the rectangle of pixel centres that can get coverage: within half width
    // + 0.5 of its line (the minor-axis overlap reaches no further), within 0.5 beyond its ends (the root
    // and tip filters). A tile's centres lie in a box of half side 4 around its centre; the two can only
    // meet where their projections on the segment's direction and normal overlap (the bounds above cover
    // the screen axes).
    vec2 ab = b - a;
    float len = length(ab);
    vec2 dir = len > 1e-6 ? ab / len : vec2(1.0, 0.0);
    vec2 nrm = vec2(-dir.y, dir.x);
    vec2 mid = 0.5 * (a + b);
    float half_tile = 0.5 * float(kRasterTile);
    float across = max(va.screen.w, vb.screen.w) + 0.51 + half_tile * (abs(nrm.x) + abs(nrm.y));
    float along = 0.5 * len + 0.51 + half_tile * (abs(dir.x) + abs(dir.y));
    for (int ty = t0.y; ty <= t1.y; ++ty)
        for (int tx = t0.x; tx <= t1.x; ++tx) {
            vec2 c = (vec2(tx, ty) + 0.5) * float(kRasterTile) - mid;
            if (abs(dot(c, nrm)) > across || abs(dot(c, dir)) > along) continue;
            uint tile = uint(ty) * rp.tiles_x + uint(tx);
            if (zmin > tile_depth[tile]) continue;   // behind the meshes over the whole tile
            uint cell = tile * kRasterDepthBins + bin;
            if (rp.phase == kRasterBinCount) {
                atomicAdd(cell_counts[cell], 1u);
            } else {
                uint slot = atomicAdd(cell_cursors[cell], 1u);
                if (slot < rp.list_capacity) tile_list[slot] = i;
            }
        }
}
