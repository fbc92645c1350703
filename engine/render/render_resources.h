// What every pass of the renderer shares: samplers, the descriptor set layouts of
// shared/render_bindings.h, and placeholders bound where a hair group or object lacks an optional buffer
// or texture. Made once by the Renderer, read-only afterwards.
#pragma once

#include <memory>

#include "core/result.h"
#include "gpu/device.h"
#include "render/graphics.h"

namespace tressel::render {

inline constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;   // the main target (resolved image)
inline constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;      // the main target and the shadow depth

struct SharedResources {
    Sampler linear_clamp, nearest_clamp;
    DescriptorLayout frame;          // set kRenderSetFrame
    DescriptorLayout strands;        // set kRenderSetStrands
    DescriptorLayout hair_shading;   // set kRenderSetHairShading
    DescriptorLayout object;         // set kRenderSetObject
    gpu::Buffer placeholder_buffer;  // 16 zero bytes (storage)
    gpu::Image placeholder_texture;  // 1 x 1 white, sRGB, SHADER_READ_ONLY_OPTIMAL

    static Result<std::unique_ptr<SharedResources>> create(gpu::Device& device);
};

}  // namespace tressel::render
