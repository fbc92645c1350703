#include "viewport.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "gpu/vk_error.h"
#include "render/graphics.h"

namespace tressel::editor {


Result<std::unique_ptr<ViewportPresenter>> ViewportPresenter::create(gpu::Device& device, VkRenderPass ui_pass) {
    std::unique_ptr<ViewportPresenter> p(new ViewportPresenter());
    p->device_ = &device;
    render::BindingDesc binding{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT};
    auto sl = render::create_set_layout(device, std::span<const render::BindingDesc>(&binding, 1));
    if (!sl) return sl.error();
    p->set_layout_ = std::move(*sl);
    VkDescriptorSetLayout layouts[] = {p->set_layout_.get()};
    auto pl = render::create_pipeline_layout(device, layouts, 0);
    if (!pl) return pl.error();
    p->layout_ = std::move(*pl);
    auto sampler = render::create_sampler(device, VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
    if (!sampler) return sampler.error();
    p->sampler_ = std::move(*sampler);

    render::GraphicsPipelineDesc pd;
    pd.vertex_shader = "editor/viewport.vert";
    pd.fragment_shader = "editor/viewport.frag";
    pd.layout = p->layout_.get();
    pd.render_pass = ui_pass;
    pd.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    pd.depth_test = pd.depth_write = false;
    pd.name = "viewport";
    auto pipe = render::create_graphics_pipeline(device, pd);
    if (!pipe) return pipe.error();
    p->pipeline_ = std::move(*pipe);
    return p;
}

Status ViewportPresenter::set_image(const gpu::Image& image) {
    auto set = device_->create_descriptor_set(set_layout_.get(), {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
    if (!set) return set.error();
    set->bind_image(0, image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler_.get());
    set_ = std::move(*set);
    return {};
}

void ViewportPresenter::add_to(ImDrawList* list, ImVec2 min, ImVec2 max) {
    if (!set_.valid()) return;
    min_ = min;
    max_ = max;
    list->AddCallback(&ViewportPresenter::draw_callback, this);
    list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void ViewportPresenter::draw_callback(const ImDrawList*, const ImDrawCmd* dc) {
    auto* self = static_cast<ViewportPresenter*>(dc->UserCallbackData);
    if (!self->cmd_ || self->extent_.width == 0) return;
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    VkViewport v{self->min_.x * scale.x, self->min_.y * scale.y, (self->max_.x - self->min_.x) * scale.x,
                 (self->max_.y - self->min_.y) * scale.y, 0.0f, 1.0f};
    if (v.width <= 0.0f || v.height <= 0.0f) return;
    float x0 = std::clamp(dc->ClipRect.x * scale.x, 0.0f, float(self->extent_.width));
    float y0 = std::clamp(dc->ClipRect.y * scale.y, 0.0f, float(self->extent_.height));
    float x1 = std::clamp(dc->ClipRect.z * scale.x, 0.0f, float(self->extent_.width));
    float y1 = std::clamp(dc->ClipRect.w * scale.y, 0.0f, float(self->extent_.height));
    if (x1 <= x0 || y1 <= y0) return;
    VkRect2D scissor{{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
    VkCommandBuffer cmd = self->cmd_;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, self->pipeline_.get());
    VkDescriptorSet set = self->set_.handle();
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, self->layout_.get(), 0, 1, &set, 0, nullptr);
    vkCmdSetViewport(cmd, 0, 1, &v);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdDraw(cmd, 4, 1, 0, 0);
}

void handle_camera_input(render::OrbitCamera& camera, ImVec2 size_px, bool hovered, bool active) {
    if (!hovered && !active) return;
    ImGuiIO& io = ImGui::GetIO();
    ImVec2 d = io.MouseDelta;
    const double h = std::max(1.0f, size_px.y);
    double zoom = 0.0;
    if (active && (d.x != 0.0f || d.y != 0.0f)) {
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            camera.yaw_deg -= d.x * 0.4;
            camera.pitch_deg = std::clamp(camera.pitch_deg + d.y * 0.4, -89.0, 89.0);
        } else if (ImGui::IsMouseDown(ImGuiMouseButton_Middle)) {
            // World metres per pixel at the target's depth, so the point under the cursor follows it.
            double m_per_px = 2.0 * camera.distance_m * std::tan(glm::radians(camera.fov_deg) * 0.5) / h;
            glm::mat4 view = camera.view();
            glm::dvec3 right(view[0][0], view[1][0], view[2][0]);
            glm::dvec3 up(view[0][1], view[1][1], view[2][1]);
            camera.target_m += (-double(d.x) * right + double(d.y) * up) * m_per_px;
        } else if (ImGui::IsMouseDown(ImGuiMouseButton_Right) && io.KeyAlt) {
            zoom = (d.x + d.y) * 0.005;
        }
    }
    if (hovered && io.MouseWheel != 0.0f) zoom = -io.MouseWheel * 0.1;
    if (zoom != 0.0) camera.distance_m = std::clamp(camera.distance_m * std::exp(zoom), 1e-3, 1e4);
}

}  // namespace tressel::editor
