#version 450
// Deep opacity maps by compute: per texel, the nearest depth (1 where no hair) and the opacity layers
// summed front to back (layer i: the optical depth of the hair in front of z0 + (i + 1) * layer), written
// into the frame set's two RGBA16F opacity images, and the depth (R32) for a buffer-to-image copy.
#include "shared/render.h"
#include "shared/hair_raster.h"
#include "shared/dispatch.h"
layout(set = kRenderSetShadowSplat, binding = kShadowBindDepthBits, std430) buffer DepthBits { uint depth_bits[]; };
layout(set = kRenderSetShadowSplat, binding = kShadowBindLayers, std430) buffer Layers { uint layers[]; };
layout(set = kRenderSetShadowSplat, binding = kShadowBindDepthOut, std430) buffer DepthOut { float depth_out[]; };
layout(set = kRenderSetShadowSplat, binding = kShadowBindOpacity0, rgba16f) uniform writeonly image2D opacity0;
layout(set = kRenderSetShadowSplat, binding = kShadowBindOpacity1, rgba16f) uniform writeonly image2D opacity1;
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
    ivec2 at = ivec2(texel % sp.size, texel / sp.size);
    imageStore(opacity0, at, vec4(o[0], o[1], o[2], o[3]));
    imageStore(opacity1, at, vec4(o[4], o[5], o[6], o[7]));
}
