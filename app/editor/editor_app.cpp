#include "editor_app.h"

#include <cstdio>
#include <thread>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include "gpu/vk_error.h"
#include "scene/scene_io.h"

namespace tressel::editor {

namespace {

void check_vk(VkResult r) {
    if (r < 0) std::fprintf(stderr, "Dear ImGui Vulkan backend: %s\n", gpu::vk_result_name(r));
}

void glfw_error(int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); }

}  // namespace

EditorApp::EditorApp(EditorOptions options) : options_(std::move(options)) {
    panels_.push_back(std::make_unique<ScenePanel>());
    panels_.push_back(std::make_unique<StatsPanel>());
    panels_.push_back(std::make_unique<LogPanel>());
}

EditorApp::~EditorApp() { shutdown(); }

Status EditorApp::init() {
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) return make_error(ErrorCode::Unsupported, "cannot initialise GLFW (no display? set DISPLAY or use xvfb-run)");
    glfw_ready_ = true;
    if (!glfwVulkanSupported()) return make_error(ErrorCode::Unsupported, "GLFW found no Vulkan loader");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    window_ = glfwCreateWindow(options_.width, options_.height, "Tressel", nullptr, nullptr);
    if (!window_) return make_error(ErrorCode::Unsupported, "cannot create the editor window");

    gpu::DeviceDesc desc;
    desc.preference = options_.device;
    if (options_.validation) desc.validation = true;
    uint32_t n = 0;
    const char** exts = glfwGetRequiredInstanceExtensions(&n);
    for (uint32_t i = 0; i < n; ++i) desc.instance_extensions.push_back(exts[i]);
    GLFWwindow* window = window_;
    desc.create_surface = [window](VkInstance instance, VkSurfaceKHR* surface) {
        return glfwCreateWindowSurface(instance, window, nullptr, surface);
    };
    desc.on_validation_message = [](const gpu::ValidationMessage& m) {
        if (m.severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
            std::fprintf(stderr, "Vulkan validation: %s\n", m.text.c_str());
    };
    auto device = gpu::Device::create(desc);
    if (!device) return device.error();
    device_ = std::move(*device);
    ctx_.add_log(Severity::Info, "gpu", device_->info().name + " (" + gpu::to_string(device_->info().type) + ")");

    TRESSEL_TRY(create_swapchain());

    VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 64};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dpci.maxSets = 64;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &pool_size;
    TRESSEL_VK_TRY(vkCreateDescriptorPool(device_->device(), &dpci, nullptr, &imgui_pool_), "create the UI descriptor pool");

    for (auto& f : frames_) {
        VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        TRESSEL_VK_TRY(vkCreateSemaphore(device_->device(), &sci, nullptr, &f.acquired), "create a semaphore");
        TRESSEL_VK_TRY(vkCreateSemaphore(device_->device(), &sci, nullptr, &f.rendered), "create a semaphore");
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    imgui_ready_ = true;
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout comes from code, not from a file beside the binary
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForVulkan(window_, true);
    ImGui_ImplVulkan_InitInfo ii{};
    ii.Instance = device_->instance();
    ii.PhysicalDevice = device_->physical_device();
    ii.Device = device_->device();
    ii.QueueFamily = device_->queue_family();
    ii.Queue = device_->queue();
    ii.DescriptorPool = imgui_pool_;
    ii.MinImageCount = swapchain_.min_image_count();
    ii.ImageCount = swapchain_.image_count();
    ii.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    ii.CheckVkResultFn = check_vk;
    ImGui_ImplVulkan_Init(&ii, render_pass_);
    imgui_vulkan_ready_ = true;
    TRESSEL_TRY(device_->run_sync([](gpu::CommandBuffer& cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd.handle()); }));
    ImGui_ImplVulkan_DestroyFontUploadObjects();

    if (!options_.scene.empty()) open_scene(options_.scene);
    return {};
}

Status EditorApp::create_swapchain() {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    VkSwapchainKHR old = swapchain_.handle();
    auto sc = gpu::Swapchain::create(*device_, {static_cast<uint32_t>(w), static_cast<uint32_t>(h), true}, old);
    if (!sc) return sc.error();
    destroy_framebuffers();
    swapchain_ = std::move(*sc);

    if (!render_pass_) {
        VkAttachmentDescription color{};
        color.format = swapchain_.format();
        color.samples = VK_SAMPLE_COUNT_1_BIT;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        color.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkSubpassDescription sub{};
        sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        sub.colorAttachmentCount = 1;
        sub.pColorAttachments = &ref;
        VkSubpassDependency dep{};
        dep.srcSubpass = VK_SUBPASS_EXTERNAL;
        dep.dstSubpass = 0;
        dep.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        dep.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        dep.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
        rpci.attachmentCount = 1;
        rpci.pAttachments = &color;
        rpci.subpassCount = 1;
        rpci.pSubpasses = &sub;
        rpci.dependencyCount = 1;
        rpci.pDependencies = &dep;
        TRESSEL_VK_TRY(vkCreateRenderPass(device_->device(), &rpci, nullptr, &render_pass_), "create the UI render pass");
    }
    for (uint32_t i = 0; i < swapchain_.image_count(); ++i) {
        VkImageView view = swapchain_.view(i);
        VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        fci.renderPass = render_pass_;
        fci.attachmentCount = 1;
        fci.pAttachments = &view;
        fci.width = swapchain_.extent().width;
        fci.height = swapchain_.extent().height;
        fci.layers = 1;
        VkFramebuffer fb = VK_NULL_HANDLE;
        TRESSEL_VK_TRY(vkCreateFramebuffer(device_->device(), &fci, nullptr, &fb), "create a framebuffer");
        framebuffers_.push_back(fb);
    }
    if (imgui_vulkan_ready_) ImGui_ImplVulkan_SetMinImageCount(swapchain_.min_image_count());
    return {};
}

void EditorApp::destroy_framebuffers() {
    if (!device_) return;
    if (!framebuffers_.empty()) vkDeviceWaitIdle(device_->device());
    for (VkFramebuffer fb : framebuffers_) vkDestroyFramebuffer(device_->device(), fb, nullptr);
    framebuffers_.clear();
}

void EditorApp::open_scene(const std::filesystem::path& path) {
    if (ctx_.job) {
        ctx_.report_error("wait for '" + ctx_.job->title + "' to finish before opening another scene");
        return;
    }
    Job job;
    job.title = "Opening " + path.filename().string();
    auto progress = job.progress;
    job.result = std::async(std::launch::async, [this, path, progress]() -> std::function<void()> {
        progress->set(0.0f, "reading scene");
        auto loaded = load_scene(path);
        if (!loaded) {
            std::string msg = loaded.error().message;
            return [this, msg] { ctx_.report_error(msg); };  // the previous scene stays loaded
        }
        auto meshes = load_scene_meshes(loaded->scene, progress.get());
        if (!meshes) {
            std::string msg = meshes.error().message;
            return [this, msg] { ctx_.report_error(msg); };
        }
        auto shared = std::make_shared<std::pair<LoadedScene, std::vector<SceneMesh>>>(std::move(*loaded), std::move(*meshes));
        return [this, path, shared] {
            ctx_.scene = std::move(shared->first.scene);
            ctx_.meshes = std::move(shared->second);
            ctx_.scene_path = path;
            ctx_.dirty = false;
            ctx_.add_diagnostics(shared->first.diagnostics);
            for (auto& m : ctx_.meshes) ctx_.add_diagnostics(m.imported.diagnostics);
            ctx_.add_log(Severity::Info, "scene", "opened " + path.string() + " (" + std::to_string(ctx_.meshes.size()) + " meshes)");
        };
    });
    ctx_.job = std::move(job);
}

void EditorApp::poll_job() {
    if (!ctx_.job) return;
    if (ctx_.job->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    auto finish = ctx_.job->result.get();
    ctx_.job.reset();
    if (finish) finish();
}

void EditorApp::draw_ui() {
    if (ImGui::BeginMainMenuBar()) {
        if (ImGui::BeginMenu("File")) {
            if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(window_, 1);
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Window")) {
            for (auto& p : panels_) ImGui::MenuItem(p->title(), nullptr, &p->open);
            ImGui::EndMenu();
        }
        ImGui::EndMainMenuBar();
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    float top = vp->WorkPos.y, w = vp->WorkSize.x, h = vp->WorkSize.y;
    float side = std::max(280.0f, w * 0.24f);
    ImGui::SetNextWindowPos(ImVec2(0, top), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(side, h * 0.7f), ImGuiCond_FirstUseEver);
    if (panels_[0]->open) panels_[0]->draw(ctx_);
    ImGui::SetNextWindowPos(ImVec2(w - side, top), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(side, h * 0.7f), ImGuiCond_FirstUseEver);
    if (panels_[1]->open) panels_[1]->draw(ctx_);
    ImGui::SetNextWindowPos(ImVec2(0, top + h * 0.7f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(w, h * 0.3f), ImGuiCond_FirstUseEver);
    if (panels_[2]->open) panels_[2]->draw(ctx_);

    if (ctx_.job) {
        ImGui::SetNextWindowPos(ImVec2(w * 0.5f, top + h * 0.4f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
        ImGui::Begin("Working", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
        ImGui::TextUnformatted(ctx_.job->title.c_str());
        ImGui::ProgressBar(ctx_.job->progress->fraction(), ImVec2(320, 0), ctx_.job->progress->stage().c_str());
        if (ImGui::Button("Cancel")) ctx_.job->progress->request_cancel();
        ImGui::End();
    }
    if (ctx_.modal_error) {
        ImGui::OpenPopup("Error");
        if (ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
            ImGui::PushTextWrapPos(520.0f);
            ImGui::TextUnformatted(ctx_.modal_error->c_str());
            ImGui::PopTextWrapPos();
            if (ImGui::Button("OK")) {
                ctx_.modal_error.reset();
                ImGui::CloseCurrentPopup();
            }
            ImGui::EndPopup();
        }
    }
}

Status EditorApp::render_frame() {
    FrameSlot& slot = frames_[frame_index_ % frames_.size()];
    if (slot.serial) TRESSEL_TRY(device_->wait(slot.serial));

    if (swapchain_.out_of_date()) TRESSEL_TRY(create_swapchain());
    auto index = swapchain_.acquire(slot.acquired);
    if (!index) {
        if (swapchain_.out_of_date()) return create_swapchain();
        return index.error();
    }
    auto cmd = device_->begin_commands();
    if (!cmd) return cmd.error();
    VkClearValue clear{};
    clear.color = {{0.09f, 0.10f, 0.12f, 1.0f}};
    VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rpbi.renderPass = render_pass_;
    rpbi.framebuffer = framebuffers_[*index];
    rpbi.renderArea.extent = swapchain_.extent();
    rpbi.clearValueCount = 1;
    rpbi.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd->handle(), &rpbi, VK_SUBPASS_CONTENTS_INLINE);
    ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd->handle());
    vkCmdEndRenderPass(cmd->handle());

    gpu::SubmitDesc submit;
    submit.wait_semaphores = {slot.acquired};
    submit.wait_stages = {VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT};
    submit.signal_semaphores = {slot.rendered};
    auto serial = device_->submit(std::move(*cmd), submit);
    if (!serial) return serial.error();
    slot.serial = *serial;
    ++frame_index_;
    return swapchain_.present(*index, slot.rendered);
}

int EditorApp::run() {
    Status s = init();
    if (!s) {
        std::fprintf(stderr, "error: %s\n", s.error().message.c_str());
        return 1;
    }
    uint64_t frames = 0;
    while (!glfwWindowShouldClose(window_)) {
        glfwPollEvents();
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        if (w == 0 || h == 0) {  // minimised
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        poll_job();
        ImGui_ImplVulkan_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        draw_ui();
        ImGui::Render();
        Status r = render_frame();
        if (!r) {
            std::fprintf(stderr, "error: %s\n", r.error().message.c_str());
            return 1;
        }
        ++frames;
        // --frames N: quit after N frames once any pending load has finished (used by tests).
        if (options_.max_frames > 0 && frames >= options_.max_frames && !ctx_.job) break;
    }
    int errors = static_cast<int>(device_ ? device_->validation_error_count() : 0);
    bool loaded_ok = true;
    for (auto& e : ctx_.log) loaded_ok &= e.diagnostic.severity != Severity::Error;
    std::fprintf(stderr, "tressel: %llu frames, %zu meshes loaded, %d validation errors\n",
                 static_cast<unsigned long long>(frames), ctx_.meshes.size(), errors);
    shutdown();
    if (errors) return 3;
    return loaded_ok ? 0 : 4;
}

void EditorApp::shutdown() {
    if (ctx_.job && ctx_.job->result.valid()) {
        ctx_.job->progress->request_cancel();
        ctx_.job->result.wait();
    }
    ctx_.job.reset();
    if (device_) vkDeviceWaitIdle(device_->device());
    if (imgui_vulkan_ready_) ImGui_ImplVulkan_Shutdown();
    imgui_vulkan_ready_ = false;
    if (imgui_ready_) {
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    imgui_ready_ = false;
    if (device_) {
        destroy_framebuffers();
        swapchain_.destroy();
        for (auto& f : frames_) {
            if (f.acquired) vkDestroySemaphore(device_->device(), f.acquired, nullptr);
            if (f.rendered) vkDestroySemaphore(device_->device(), f.rendered, nullptr);
            f = {};
        }
        if (render_pass_) vkDestroyRenderPass(device_->device(), render_pass_, nullptr);
        render_pass_ = VK_NULL_HANDLE;
        if (imgui_pool_) vkDestroyDescriptorPool(device_->device(), imgui_pool_, nullptr);
        imgui_pool_ = VK_NULL_HANDLE;
        ctx_.meshes.clear();
        device_.reset();
    }
    if (window_) glfwDestroyWindow(window_);
    window_ = nullptr;
    if (glfw_ready_) glfwTerminate();
    glfw_ready_ = false;
}

}  // namespace tressel::editor
