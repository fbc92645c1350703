#version 450
// Deep opacity maps by compute: per texel, the nearest depth (1 where no hair) and the opacity layers
// summed front to back (layer i: the optical depth of the hair in front of z0 + (i + 1) * layer), written
// as the frame set's textures hold them (R32 depth; two RGBA16F images), for a buffer-to-image copy.
#include "shared/render.h"
#include "shared/hair_raster.h"
#include "shared/dispatch.h"
layout(set = kRenderSetShadowSplat, binding = kShadowBindDepthBits, std430) buffer DepthBits { uint depth_bits[]; };
layout(set = kRenderSetShadowSplat, binding = kShadowBindLayers, std430) buffer Layers { uint layers[]; };
layout(set = kRenderSetShadowSplat, binding = kShadowBindDepthOut, std430) buffer DepthOut { float depth_out[]; };
layout(set = kRenderSetShadowSplat, binding = kShadowBindOpacityOut, std430) buffer OpacityOut { uvec2 opacity_out[]; };
layout(push_constant, std430) uniform PushBlock { ShadowPush sp; };

layout(local_size_x = 64) in;

void main() {
    uint texel = LINEAR_INVOCATION_INDEX;
    uint texels = sp.size * sp.size;
    if (texel >= texels) return;
    depth_out[texel] = min(uintBitsToFloat(depth_bits[texel]), 1.0);
    float o[8];
    float run = 0.0;
    for (uint i = 0u; i < kOpacityLayers; ++i) {
        run += float(layers[texel * kOpacityLayers + i]) / kShadowScale;
        o[i] = run;
    }
    // Image 0 (layers 0-3) first, then image 1 (layers 4-7): two tightly packed RGBA16F images.
    opacity_out[texel] = uvec2(packHalf2x16(vec2(o[0], o[1])), packHalf2x16(vec2(o[2], o[3])));
    opacity_out[texels + texel] = uvec2(packHalf2x16(vec2(o[4], o[5])), packHalf2x16(vec2(o[6], o[7])));
}
