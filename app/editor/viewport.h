// The 3D viewport: the renderer's target drawn inside the ImGui frame, and the orbit camera controls.
//
// How the image reaches the screen: Dear ImGui 1.86's Vulkan backend binds only its font descriptor set
// and ignores ImTextureID (its header lists "user texture binding" as unsupported), so the image cannot
// be passed to ImGui::Image. Instead the viewport window adds a draw callback at its place in the draw
// list; the callback binds a small pipeline of ours (a textured rectangle, shaders/viewport.*) in the
// same UI render pass, then ImGui resets its own render state. The image is therefore drawn in ImGui's
// order (windows on top of the viewport cover it) with no extra pass or copy, and resizing the window
// only re-points one descriptor set at the renderer's new target.
#pragma once

#include <memory>

#include <imgui.h>

#include "core/result.h"
#include "gpu/device.h"
#include "render/camera.h"
#include "render/graphics.h"

namespace tressel::editor {

class ViewportPresenter {
public:
    // `ui_pass`: the render pass ImGui draws in (one colour attachment, no depth).
    static Result<std::unique_ptr<ViewportPresenter>> create(gpu::Device& device, VkRenderPass ui_pass);

    // Points the presenter at `image` (sampled, SHADER_READ_ONLY_OPTIMAL when drawn). Call again after the
    // image was recreated (renderer resize); the old set is retired after the frames using it.
    Status set_image(const gpu::Image& image);
    // Queues the image over [min, max] (framebuffer pixels) in `list`.
    void add_to(ImDrawList* list, ImVec2 min, ImVec2 max);
    // The command buffer the next ImGui_ImplVulkan_RenderDrawData records into.
    void begin_frame(VkCommandBuffer cmd, VkExtent2D framebuffer) {
        cmd_ = cmd;
        extent_ = framebuffer;
    }

private:
    ViewportPresenter() = default;
    static void draw_callback(const ImDrawList* list, const ImDrawCmd* cmd);

    gpu::Device* device_ = nullptr;
    render::SetLayout set_layout_;
    render::PipelineLayout layout_;
    render::Pipeline pipeline_;
    render::Sampler sampler_;
    gpu::DescriptorSet set_;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    VkExtent2D extent_{0, 0};
    ImVec2 min_{0, 0}, max_{0, 0};
};

// Maya-style camera input: left drag (with or without Alt) orbits, middle drag pans, wheel or Alt + right
// drag zooms. `active`: a drag started on the viewport; `hovered`: the cursor is over it (wheel);
// `size_px`: the viewport's size in pixels.
void handle_camera_input(render::OrbitCamera& camera, ImVec2 size_px, bool hovered, bool active);

}  // namespace tressel::editor
