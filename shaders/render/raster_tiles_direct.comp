#version 450
#extension GL_EXT_control_flow_attributes : require
// Compute hair rasterizer, for CPU drivers: the pixel work of raster_tiles.comp (raster_fragment.glsl)
// with no shared memory and no barriers. Every thread (pixel) reads its tile's segments itself, through
// uniform texel buffers, and sets each up. A CPU driver runs a workgroup as SIMD loops over its
// invocations: there, texel fetches are vector gathers while storage-buffer and shared-memory reads go one
// invocation at a time, and every barrier switches between the loops, so this form costs a fraction of
// the other (engine/render/README.md has the figures). The image is the same bit for bit.
#include "shared/render.h"
#include "shared/hair_raster.h"
layout(push_constant, std430) uniform PushBlock { RasterPush rp; };
#include "render/raster_common.glsl"
#include "render/raster_fragment.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

void main() {
    uvec2 tile = gl_WorkGroupID.xy;
    uvec2 px = tile * kRasterTile + gl_LocalInvocationID.xy;
    if (px.x >= rp.width || px.y >= rp.height) return;
    vec2 centre = vec2(px) + 0.5;
    float scene_depth = texelFetch(mesh_depth, ivec2(px), 0).r;
    uint cell0 = (tile.y * rp.tiles_x + tile.x) * kRasterDepthBins;
    pixel_begin();
    for (uint bin = 0u; bin < kRasterDepthBins; ++bin) {
        uint start = min(cell_offsets[cell0 + bin], rp.list_capacity);
        uint end = min(cell_offsets[cell0 + bin + 1u], rp.list_capacity);
        for (uint e = start; e < end; ++e) {
            uint vi = texelFetch(list_texels, int(e)).x;
            uvec4 a0 = texelFetch(vertex_texels, int(2u * vi)), a1 = texelFetch(vertex_texels, int(2u * vi + 1u));
            uvec4 b0 = texelFetch(vertex_texels, int(2u * vi + 2u)), b1 = texelFetch(vertex_texels, int(2u * vi + 3u));
            pixel_add(raster_segment(uintBitsToFloat(a0), a1, uintBitsToFloat(b0), b1, vi), centre, scene_depth);
        }
        // This pixel is opaque (transmittance below 1/512): the farther bins cannot show.
        if (pixel_transmittance() <= 1.0 / 512.0) break;
    }
    hair_image[px.y * rp.width + px.x] = pixel_resolve();
}
