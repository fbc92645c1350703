#version 450
#extension GL_EXT_control_flow_attributes : require
// Compute hair rasterizer, for GPUs: one workgroup per 8 x 8 pixel tile, one thread per pixel. The tile's
// segments are read depth bin by depth bin, front to back, 64 at a time: each thread sets one up in
// shared memory, then every pixel evaluates them all against its centre (raster_fragment.glsl). Once
// every pixel of the tile is opaque after a depth bin, the farther bins are skipped.
// raster_tiles_direct.comp is the same pixel work without shared memory or barriers, for CPU drivers.
// Writes premultiplied colour and coverage per pixel (half floats) for raster_composite.frag.
#include "shared/render.h"
#include "shared/hair_raster.h"
layout(push_constant, std430) uniform PushBlock { RasterPush rp; };
#include "render/raster_common.glsl"
#include "render/raster_fragment.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

shared RasterSegment s_seg[64];
shared uint s_open;

void main() {
    uint lid = gl_LocalInvocationIndex;
    uvec2 tile = gl_WorkGroupID.xy;
    uvec2 px = tile * kRasterTile + gl_LocalInvocationID.xy;
    bool inside = px.x < rp.width && px.y < rp.height;
    vec2 centre = vec2(px) + 0.5;
    float scene_depth = inside ? texelFetch(mesh_depth, ivec2(px), 0).r : 0.0;

    uint cell0 = (tile.y * rp.tiles_x + tile.x) * kRasterDepthBins;
    // A tile no segment touches: transparent, and no further work (most of the screen, usually).
    if (cell_offsets[cell0] == cell_offsets[cell0 + kRasterDepthBins]) {
        if (inside) hair_image[px.y * rp.width + px.x] = uvec2(0u);
        return;
    }
    pixel_begin();
    // A pixel gone opaque takes no more fragments, as in raster_tiles_direct.comp: both give one image.
    bool done = false;
    for (uint bin = 0u; bin < kRasterDepthBins; ++bin) {
        uint start = min(cell_offsets[cell0 + bin], rp.list_capacity);
        uint end = min(cell_offsets[cell0 + bin + 1u], rp.list_capacity);
        // Empty bins cost no barrier (uniform over the workgroup: every thread reads the same offsets).
        if (start == end) continue;
        for (uint first = start; first < end; first += 64u) {
            if (first + lid < end) {
                uint vi = tile_list[first + lid];
                RasterVertex va = raster_vertices[vi], vb = raster_vertices[vi + 1u];
                s_seg[lid] = raster_segment(va.screen, va.color, vb.screen, vb.color, vi);
            }
            barrier();
            uint count = min(64u, end - first);
            if (!done)
                for (uint j = 0u; j < count; ++j) pixel_add(s_seg[j], centre, scene_depth);
            barrier();
        }
        // Early out: every pixel of the tile opaque (transmittance below 1/512) after this bin.
        done = done || pixel_transmittance() <= 1.0 / 512.0;
        barrier();
        if (lid == 0u) s_open = 0u;
        barrier();
        if (inside && !done) s_open = 1u;
        barrier();
        if (s_open == 0u) break;
    }
    if (inside) hair_image[px.y * rp.width + px.x] = pixel_resolve();
}
