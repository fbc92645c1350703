#version 450
// The compute hair rasterizer's image (premultiplied colour and coverage per pixel, raster_tiles.comp)
// laid over what the main target holds (blend: one, one minus source alpha). Depth was tested in compute.
#include "shared/render.h"
#include "shared/hair_raster.h"
#include "render/render_common.glsl"
layout(set = kRenderSetHairRaster, binding = kRasterBindImage, std430) readonly buffer Image { uvec2 hair_image[]; };
layout(location = 0) out vec4 out_color;

void main() {
    uvec2 px = uvec2(gl_FragCoord.xy);
    uint width = uint(frame.viewport_px.x);
    uvec2 h = hair_image[px.y * width + px.x];
    vec2 rg = unpackHalf2x16(h.x), ba = unpackHalf2x16(h.y);
    out_color = vec4(rg, ba);
}
