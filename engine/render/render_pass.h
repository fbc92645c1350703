// The interface between the Renderer (renderer.h, the facade the engine uses) and its passes: what a pass
// gets to make its pipelines (PassSetup), what it gets each frame (FrameContext), and the two calls the
// Renderer makes on it each frame (RenderPassBase). README.md describes the passes and their order.
//
// Threading and lifetime: the device's thread. A pass lives as long as its Renderer; everything in a
// PassSetup outlives the pass, everything in a FrameContext only the record() that made it.
#pragma once

#include <cstdint>

#include "core/result.h"
#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "render/graphics.h"

namespace tressel::render {

struct FrameDesc;
struct RendererDesc;
class RenderScene;
struct SharedResources;

// What a pass is created with.
struct PassSetup {
    gpu::Device& device;
    const RendererDesc& desc;
    const SharedResources& shared;   // samplers, the set layouts of shared/render_bindings.h, placeholders
    VkRenderPass main_pass;          // the main target's render pass: pipelines that record_main() uses
    VkSampleCountFlagBits samples;   // the main target's sample count (what the device has of desc.samples)
};

// A timestamp span over the commands recorded while it lives (gpu::TimestampQueries begin / end).
class TimestampSpan {
public:
    TimestampSpan(gpu::TimestampQueries* queries, gpu::CommandBuffer& cmd, const char* name);
    ~TimestampSpan();
    TimestampSpan(const TimestampSpan&) = delete;
    TimestampSpan& operator=(const TimestampSpan&) = delete;

private:
    gpu::TimestampQueries* queries_;
    gpu::CommandBuffer& cmd_;
};

// One frame being recorded.
struct FrameContext {
    gpu::CommandBuffer& cmd;
    const FrameDesc& frame;
    const RenderScene& scene;        // meshes, hair groups, grid and slice, as the Renderer was given them
    VkDescriptorSet frame_set;       // set kRenderSetFrame: the frame uniforms and the shadow maps
    uint32_t width = 0, height = 0;  // the main target, pixels
    gpu::TimestampQueries* timestamps = nullptr;  // null: the caller asked for no timestamps

    // Times the commands recorded while the span lives as the pass `name`. The names are read by tests,
    // the editor's Stats panel and `tressel-cli bench`: renderer.h lists them.
    [[nodiscard]] TimestampSpan time(const char* name) { return TimestampSpan(timestamps, cmd, name); }
};

// A pass owns its pipelines, pipeline layouts and any targets of its own, and records itself. Every
// frame the Renderer calls record_offscreen() on each pass in order, then begins the main target's render
// pass (colour cleared to the frame's background, depth to 1) and calls record_main() on each pass in
// order, so a later pass draws over an earlier one.
class RenderPassBase {
public:
    RenderPassBase() = default;
    virtual ~RenderPassBase() = default;
    RenderPassBase(const RenderPassBase&) = delete;
    RenderPassBase& operator=(const RenderPassBase&) = delete;

    // Work outside the main target's render pass: the pass's own render passes, compute dispatches,
    // barriers. Its results are visible to every record_main() (the pass records the barriers).
    virtual Status record_offscreen(FrameContext& ctx);
    // Draws into the main target, inside its render pass, with the viewport over the whole target.
    virtual Status record_main(FrameContext& ctx);
};

}  // namespace tressel::render
