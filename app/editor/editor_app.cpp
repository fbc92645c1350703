#include "editor_app.h"

#include <algorithm>
#include <cstdio>
#include <thread>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>
#include <stb_image_write.h>

#include "core/file_io.h"
#include "gpu/vk_error.h"
#include "runtime/scene_export.h"
#include "param_widgets.h"
#include "scene/scene_io.h"
#include "script.h"

namespace tressel::editor {

namespace fs = std::filesystem;

namespace {

void check_vk(VkResult r) {
    if (r < 0) std::fprintf(stderr, "Dear ImGui Vulkan backend: %s\n", gpu::vk_result_name(r));
}

void glfw_error(int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); }

double now_s(const EditorContext& ctx) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx.start).count();
}

bool is_scene_file(const fs::path& p) {
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".json";
}

}  // namespace

void drop_callback(GLFWwindow* window, int count, const char** paths) {
    auto* app = static_cast<EditorApp*>(glfwGetWindowUserPointer(window));
    for (int i = 0; i < count; ++i) app->dropped_.push_back(paths[i]);
}

void close_callback(GLFWwindow* window) {
    auto* app = static_cast<EditorApp*>(glfwGetWindowUserPointer(window));
    if (app->ctx_.dirty() && !app->quit_now_ && app->options_.script.empty() && app->options_.max_frames == 0) {
        glfwSetWindowShouldClose(window, 0);
        app->confirm_close_ = true;
    }
}

EditorApp::EditorApp(EditorOptions options) : options_(std::move(options)) {
    panels_.push_back(std::make_unique<ScenePanel>());
    panels_.push_back(std::make_unique<GroomPanel>());
    panels_.push_back(std::make_unique<SimulationPanel>());
    panels_.push_back(std::make_unique<CollisionPanel>());
    panels_.push_back(std::make_unique<ShadingPanel>());
    panels_.push_back(std::make_unique<StatsPanel>());
    panels_.push_back(std::make_unique<LogPanel>());
    panels_.push_back(std::make_unique<ExportPanel>());
}

EditorApp::~EditorApp() { shutdown(); }

Status EditorApp::init() {
    config_dir_ = config_dir();
    ctx_.recent_files = load_recent_files(config_dir_);
    if (!options_.script.empty()) {
        auto steps = load_script(options_.script);
        if (!steps) return steps.error();
        script_ = std::move(*steps);
    }
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) return make_error(ErrorCode::Unsupported, "cannot initialise GLFW (no display? set DISPLAY or use xvfb-run)");
    glfw_ready_ = true;
    if (!glfwVulkanSupported()) return make_error(ErrorCode::Unsupported, "GLFW found no Vulkan loader");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    window_ = glfwCreateWindow(options_.width, options_.height, "Tressel", nullptr, nullptr);
    if (!window_) return make_error(ErrorCode::Unsupported, "cannot create the editor window");
    glfwSetWindowUserPointer(window_, this);
    glfwSetDropCallback(window_, drop_callback);
    glfwSetWindowCloseCallback(window_, close_callback);

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
        auto ts = gpu::TimestampQueries::create(*device_, 16);
        if (!ts) return ts.error();
        f.timestamps.emplace(std::move(*ts));
        auto sts = gpu::TimestampQueries::create(*device_, timestamp_capacity_);
        if (!sts) return sts.error();
        f.sim_timestamps.emplace(std::move(*sts));
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    imgui_ready_ = true;
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout comes from code, not from a file beside the binary
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 0.0f;
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

    // The CPU Vulkan driver rasterises on the CPU: one sample and a smaller shadow map keep the editor
    // interactive there; GPUs get 4x MSAA.
    runtime::RuntimeOptions ro;
    const bool cpu = device_->info().is_cpu();
    ro.renderer = render::RendererDesc{800, 600, cpu ? 1u : 4u, cpu ? 512u : 1024u, 64};
    auto live = runtime::SceneRuntime::create(device_.get(), ro);
    if (!live) return live.error();
    live_ = std::move(*live);
    auto presenter = ViewportPresenter::create(*device_, render_pass_);
    if (!presenter) return presenter.error();
    presenter_ = std::move(*presenter);

    std::error_code ec;
    bool recovery_present = fs::exists(recovery_file(config_dir_), ec);
    if (options_.recover) {
        TRESSEL_TRY(recover());
    } else {
        new_scene();  // an empty scene to add a mesh to, and the one that stays when the file fails to open
        if (!options_.scene.empty()) open_path(options_.scene);
        if (recovery_present && options_.script.empty() && options_.max_frames == 0) offer_recovery_ = true;
    }
    last_autosave_s_ = now_s(ctx_);
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
        // The viewport image is sampled in this pass: the renderer's writes must be visible first.
        VkSubpassDependency deps[2]{};
        deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
        deps[0].dstSubpass = 0;
        deps[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        deps[1].srcSubpass = 0;
        deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
        deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        deps[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        deps[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
        rpci.attachmentCount = 1;
        rpci.pAttachments = &color;
        rpci.subpassCount = 1;
        rpci.pSubpasses = &sub;
        rpci.dependencyCount = 2;
        rpci.pDependencies = deps;
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

// ---------------------------------------------------------------------------------------------------
// Files

void EditorApp::note_recent(const fs::path& path) {
    add_recent_file(ctx_.recent_files, path);
    if (Status s = save_recent_files(config_dir_, ctx_.recent_files); !s) ctx_.add_log(Severity::Warning, "files", s.error().message);
}

void EditorApp::open_path(const fs::path& path, bool from_script) {
    if (is_scene_file(path)) {
        open_scene(path, from_script);
        return;
    }
    // A mesh: added to the current scene as a display mesh; a failed import reverts the scene.
    std::error_code ec;
    std::vector<std::string> names;
    for (auto& m : ctx_.scene.meshes) names.push_back(m.name);
    MeshRef ref;
    ref.name = path.stem().string();
    for (int i = 2; std::find(names.begin(), names.end(), ref.name) != names.end(); ++i) ref.name = path.stem().string() + std::to_string(i);
    ref.path = fs::absolute(path, ec).string();
    ctx_.scene.meshes.push_back(ref);
    ctx_.commit();
    ctx_.add_log(Severity::Info, "scene", "adding mesh " + ref.path);
}

void EditorApp::open_scene(const fs::path& path, bool from_script) {
    if (ctx_.job) {
        ctx_.report_error("wait for '" + ctx_.job->title + "' to finish before opening another scene");
        return;
    }
    (void)from_script;
    Job job;
    job.title = "Opening " + path.filename().string();
    auto progress = job.progress;
    job.result = std::async(std::launch::async, [this, path, progress]() -> std::function<void()> {
        progress->set(0.0f, "reading scene");
        auto loaded = load_scene(path);
        if (!loaded) {
            std::string msg = loaded.error().message;
            return [this, msg] {
                load_failed_ = true;
                ctx_.report_error(msg);  // the previous scene stays loaded
            };
        }
        auto content = runtime::prepare_content(loaded->scene, runtime::ContentPlan{}, nullptr, progress.get());
        if (!content) {
            std::string msg = path.string() + ": " + content.error().message;
            return [this, msg] {
                load_failed_ = true;
                ctx_.report_error(msg);
            };
        }
        auto shared = std::make_shared<LoadedScene>(std::move(*loaded));
        auto c = *content;
        return [this, path, shared, c] {
            Status s = live_->install(c);
            if (!s) {
                load_failed_ = true;
                ctx_.report_error(path.string() + ": " + s.error().message);
                return;
            }
            ctx_.reset_scene(shared->scene, fs::absolute(path), true);
            ctx_.playing = false;
            content_failed_ = false;
            ctx_.add_diagnostics(shared->diagnostics);
            ctx_.add_diagnostics(c->diagnostics);
            ctx_.add_log(Severity::Info, "scene", "opened " + path.string() + " (" + std::to_string(c->meshes->size()) + " meshes)");
            ctx_.add_log(Severity::Info, "scene", "built: " + live_->report().summary());
            note_recent(path);
        };
    });
    ctx_.job = std::move(job);
}

Status EditorApp::save_to(const fs::path& path) {
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    // Paths are saved as written (save_scene's contract), so a scene saved into another folder still
    // compares equal to the one opened; warn when a relative path no longer finds its file from there.
    TRESSEL_TRY(validate_scene(ctx_.scene));
    TRESSEL_TRY(save_scene(ctx_.scene, abs));
    for (const MeshRef& m : ctx_.scene.meshes)
        if (!m.path.empty() && fs::path(m.path).is_relative() && !fs::exists(abs.parent_path() / m.path, ec))
            ctx_.add_log(Severity::Warning, "save", abs.string() + ": mesh '" + m.name + "' path '" + m.path +
                                                        "' is relative and does not resolve from the new folder");
    ctx_.saved = ctx_.scene;
    ctx_.scene_path = abs;
    fs::remove(recovery_file(config_dir_), ec);
    autosaved_.reset();
    note_recent(abs);
    ctx_.add_log(Severity::Info, "scene", "saved " + abs.string());
    return {};
}

void EditorApp::new_scene() {
    Scene s;
    ctx_.reset_scene(s, {}, true);
    ctx_.playing = false;
    auto content = runtime::prepare_content(s, runtime::ContentPlan{}, nullptr, nullptr);
    if (content) (void)live_->install(*content);
}

Status EditorApp::recover() {
    auto r = read_recovery(recovery_file(config_dir_));
    if (!r) return r.error();
    auto content = runtime::prepare_content(r->scene, runtime::ContentPlan{}, nullptr, nullptr);
    if (!content) return content.error();
    TRESSEL_TRY(live_->install(*content));
    ctx_.reset_scene(r->scene, r->scene_path, false);
    // What was saved before the crash is what the recovered scene is compared with for "unsaved".
    Scene saved_version;
    if (!r->scene_path.empty()) {
        if (auto on_disk = load_scene(r->scene_path)) saved_version = on_disk->scene;
    }
    ctx_.saved = saved_version;
    ctx_.add_log(Severity::Info, "scene", "recovered unsaved changes" + (r->scene_path.empty() ? std::string() : " to " + r->scene_path.string()));
    return {};
}

void EditorApp::autosave() {
    double t = now_s(ctx_);
    if (t - last_autosave_s_ < options_.autosave_seconds) return;
    last_autosave_s_ = t;
    if (!ctx_.dirty() || (autosaved_ && *autosaved_ == ctx_.scene)) return;
    Status s = write_recovery(recovery_file(config_dir_), ctx_.scene, ctx_.scene_path);
    if (!s) {
        ctx_.add_log(Severity::Warning, "autosave", s.error().message);
        return;
    }
    autosaved_ = ctx_.scene;
    ctx_.add_log(Severity::Info, "autosave", "wrote " + recovery_file(config_dir_).string());
}

// ---------------------------------------------------------------------------------------------------
// Content and jobs

void EditorApp::poll_job() {
    if (!ctx_.job) return;
    if (ctx_.job->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    auto finish = ctx_.job->result.get();
    ctx_.job.reset();
    if (finish) finish();
}

void EditorApp::start_content_job(runtime::ContentPlan plan, const std::string& title) {
    Job job;
    job.title = title;
    auto progress = job.progress;
    Scene scene = ctx_.scene;
    auto previous = live_->shared_content();
    job.result = std::async(std::launch::async, [this, scene, plan, previous, progress]() -> std::function<void()> {
        auto content = runtime::prepare_content(scene, plan, previous, progress.get());
        if (!content) {
            std::string msg = content.error().message;
            bool cancelled = content.error().code == ErrorCode::Cancelled;
            return [this, msg, scene, cancelled] {
                failed_scene_ = scene;
                content_failed_ = true;
                load_failed_ = true;
                if (cancelled) {
                    ctx_.add_log(Severity::Warning, "scene", "cancelled: the viewport keeps the previous content");
                    return;
                }
                ctx_.report_error(msg);
                // The edit that could not be built is taken back; the scene stays as it was.
                if (live_->content()) {
                    ctx_.scene = live_->content()->scene;
                    ctx_.scene.origin = scene.origin;
                    ctx_.committed = ctx_.scene;
                    if (!ctx_.history.undo.empty() && ctx_.history.undo.back() == ctx_.scene) ctx_.history.undo.pop_back();
                }
            };
        }
        auto c = *content;
        return [this, c, scene] {
            Status s = live_->install(c);
            if (!s) {
                failed_scene_ = scene;
                content_failed_ = true;
                load_failed_ = true;
                ctx_.report_error(s.error().message);
                if (live_->content()) {  // the scene stays as it was (install kept the previous content)
                    ctx_.scene = live_->content()->scene;
                    ctx_.scene.origin = scene.origin;
                    ctx_.committed = ctx_.scene;
                    if (!ctx_.history.undo.empty() && ctx_.history.undo.back() == ctx_.scene) ctx_.history.undo.pop_back();
                }
                return;
            }
            content_failed_ = false;
            ctx_.add_diagnostics(c->diagnostics);
            ctx_.add_log(Severity::Info, "scene", "rebuilt: " + live_->report().summary());
        };
    });
    ctx_.job = std::move(job);
}

void EditorApp::update_content() {
    if (!live_ || !live_->content()) return;
    runtime::ContentPlan plan = live_->plan(ctx_.scene);
    if (plan.any()) {
        if (!ctx_.job && !(content_failed_ && failed_scene_ == ctx_.scene))
            start_content_job(plan, plan.meshes ? "Importing meshes" : plan.any_groom() ? "Growing hair" : "Building SDFs");
        return;
    }
    Status s = live_->set_slice_range(ctx_.slice_range_m);
    if (s) s = live_->sync(ctx_.scene);
    if (!s) ctx_.report_error(s.error().message);
}

void EditorApp::start_export(const Request& r) {
    if (ctx_.job || !live_->content()) {
        ctx_.report_error("export: wait for the current operation to finish");
        return;
    }
    auto fmt = parse_export_format(r.format);
    if (!fmt) {
        ctx_.report_error(fmt.error().message);
        return;
    }
    Job job;
    job.title = "Exporting " + fs::path(r.path).filename().string();
    auto content = live_->shared_content();
    runtime::SceneExportRequest request;
    request.format = *fmt;
    request.out = r.path;
    request.include_follows = r.include_follows;
    job.result = std::async(std::launch::async, [this, content, request]() -> std::function<void()> {
        std::error_code ec;
        if (request.out.has_parent_path()) fs::create_directories(request.out.parent_path(), ec);
        auto report = runtime::export_scene(*content, request);
        if (!report) {
            std::string msg = "export: " + report.error().message;
            return [this, msg] { ctx_.report_error(msg); };
        }
        auto files = report->files;
        auto diag = report->diagnostics;
        return [this, files, diag] {
            ctx_.add_diagnostics(diag);
            for (auto& f : files) ctx_.add_log(Severity::Info, "export", "wrote " + f.string());
        };
    });
    ctx_.job = std::move(job);
}

// ---------------------------------------------------------------------------------------------------
// Requests, shortcuts, scripts

void EditorApp::handle_requests() {
    auto requests = std::move(ctx_.requests);
    ctx_.requests.clear();
    for (const Request& r : requests) {
        switch (r.action) {
            case Action::New: new_scene(); break;
            case Action::Open:
                if (r.path.empty()) {
                    dialog_purpose_ = DialogPurpose::Open;
                    file_dialog_.open("Open scene or mesh", FileDialog::Mode::Open, {".json", ".fbx", ".obj", ".gltf", ".glb", ".ply"},
                                      ctx_.scene.origin.dir);
                } else {
                    open_path(r.path);
                }
                break;
            case Action::Save:
                if (ctx_.scene_path.empty()) {
                    ctx_.request(Action::SaveAs);
                } else if (Status s = save_to(ctx_.scene_path); !s) {
                    ctx_.report_error(s.error().message);
                }
                break;
            case Action::SaveAs:
                if (r.path.empty()) {
                    dialog_purpose_ = DialogPurpose::SaveAs;
                    file_dialog_.open("Save scene as", FileDialog::Mode::Save, {".json"}, ctx_.scene.origin.dir);
                } else if (Status s = save_to(r.path); !s) {
                    ctx_.report_error(s.error().message);
                }
                break;
            case Action::Regrow:
                if (!ctx_.job) start_content_job(runtime::ContentPlan::regrow_all(ctx_.scene), "Growing hair");
                break;
            case Action::RebuildSdf:
                if (!ctx_.job) start_content_job(runtime::ContentPlan::rebuild_all_sdfs(ctx_.scene), "Building SDFs");
                break;
            case Action::Reset:
                if (Status s = live_->reset_simulation(); !s) ctx_.report_error(s.error().message);
                ctx_.playing = false;
                break;
            case Action::Play: ctx_.playing = true; break;
            case Action::Pause: ctx_.playing = false; break;
            case Action::Step: step_once_ = true; break;
            case Action::Undo:
                if (!ctx_.undo()) ctx_.add_log(Severity::Info, "edit", "nothing to undo");
                break;
            case Action::Redo:
                if (!ctx_.redo()) ctx_.add_log(Severity::Info, "edit", "nothing to redo");
                break;
            case Action::FrameAll: {
                render::SceneBounds b = live_->bounds();
                if (!b.empty()) ctx_.camera.frame_bounds(b.min_m, b.max_m, 1.0);
                break;
            }
            case Action::ViewFront: ctx_.camera.yaw_deg = 0.0, ctx_.camera.pitch_deg = 0.0; break;
            case Action::ViewSide: ctx_.camera.yaw_deg = 90.0, ctx_.camera.pitch_deg = 0.0; break;
            case Action::ViewTop: ctx_.camera.yaw_deg = 0.0, ctx_.camera.pitch_deg = 89.0; break;
            case Action::Export: start_export(r); break;
            case Action::Recover:
                if (Status s = recover(); !s) ctx_.report_error(s.error().message);
                offer_recovery_ = false;
                break;
            case Action::DiscardRecovery: {
                std::error_code ec;
                fs::remove(recovery_file(config_dir_), ec);
                offer_recovery_ = false;
                break;
            }
            case Action::Quit:
                quit_now_ = true;
                glfwSetWindowShouldClose(window_, 1);
                break;
        }
    }
}

void EditorApp::handle_shortcuts() {
    ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    bool ctrl = io.KeyCtrl;
    auto pressed = [](int key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey(key)), false); };
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_N, false)) ctx_.request(Action::New);
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_O, false)) ctx_.request(Action::Open);
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_S, false)) ctx_.request(io.KeyShift ? Action::SaveAs : Action::Save);
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_Z, false)) ctx_.request(Action::Undo);
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_Y, false)) ctx_.request(Action::Redo);
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) glfwSetWindowShouldClose(window_, 1);
    if (!ctrl && !io.WantCaptureKeyboard && ImGui::IsKeyPressed(GLFW_KEY_F, false)) ctx_.request(Action::FrameAll);
    if (!ctrl && !io.WantCaptureKeyboard && pressed(ImGuiKey_Space)) ctx_.request(ctx_.playing ? Action::Pause : Action::Play);
}

void EditorApp::script_fail(const std::string& message) {
    std::fprintf(stderr, "script: step %zu: %s\n", script_index_, message.c_str());
    exit_code_ = 5;
    quit_now_ = true;
    glfwSetWindowShouldClose(window_, 1);
}

void EditorApp::run_script() {
    if (script_.empty() || exit_code_ != 0) return;
    if (ctx_.job) return;  // every step sees the result of the previous one
    if (script_check_job_) {  // a step that ran as a job (export) fails the script when the job failed
        script_check_job_ = false;
        if (ctx_.modal_error) return script_fail(*ctx_.modal_error);
    }
    if (script_waiting_open_) {
        script_waiting_open_ = false;
        bool failed = load_failed_;
        if (failed && !script_expect_error_) return script_fail("open failed: " + (ctx_.modal_error ? *ctx_.modal_error : std::string()));
        if (!failed && script_expect_error_) return script_fail("the open was expected to fail but succeeded");
        ctx_.modal_error.reset();
        ++script_index_;
        return;
    }
    if (script_wait_frames_ > 0) {
        --script_wait_frames_;
        if (script_wait_frames_ == 0) {
            script_playing_ = false;
            ++script_index_;
        }
        return;
    }
    // Content changed by a previous step is rebuilt before the next step runs.
    if (live_->content() && live_->plan(ctx_.scene).any() && !content_failed_) return;
    if (script_index_ >= script_.size()) return;
    const nlohmann::json& s = script_[script_index_];
    ctx_.modal_error.reset();
    ctx_.add_log(Severity::Info, "script", "step " + std::to_string(script_index_) + ": " + s.dump());
    if (s.contains("open")) {
        load_failed_ = false;
        script_expect_error_ = s.value("expect_error", false);
        fs::path p = s["open"].get<std::string>();
        if (is_scene_file(p)) {
            open_scene(p, true);
        } else {
            content_failed_ = false;
            open_path(p, true);
            // a mesh import failure shows up as content_failed_ after the rebuild
        }
        script_waiting_open_ = true;
        if (!is_scene_file(p)) {
            // Wait for the rebuild job that the new mesh starts (update_content runs before the next step).
            update_content();
            if (ctx_.job) {
                auto finish_flag = [this] { load_failed_ = content_failed_; };
                (void)finish_flag;
            }
        }
        return;
    }
    if (s.contains("set")) {
        Status st = set_scene_value(ctx_, s["set"].get<std::string>(), s["value"]);
        if (!st) return script_fail(st.error().message);
        ctx_.commit();
    } else if (s.contains("play")) {
        script_wait_frames_ = s["play"].get<uint64_t>();
        script_playing_ = script_wait_frames_ > 0;
        if (!script_playing_) ++script_index_;
        return;
    } else if (s.contains("frames")) {
        script_wait_frames_ = s["frames"].get<uint64_t>();
        if (script_wait_frames_ == 0) ++script_index_;
        return;
    } else if (s.contains("action")) {
        static const std::pair<const char*, Action> map[] = {
            {"regrow", Action::Regrow},       {"rebuild_sdf", Action::RebuildSdf}, {"reset", Action::Reset},
            {"undo", Action::Undo},           {"redo", Action::Redo},              {"save", Action::Save},
            {"recover", Action::Recover},     {"frame_all", Action::FrameAll},     {"view_front", Action::ViewFront},
            {"view_side", Action::ViewSide},  {"view_top", Action::ViewTop},       {"play", Action::Play},
            {"pause", Action::Pause},         {"step", Action::Step},              {"new", Action::New}};
        std::string a = s["action"].get<std::string>();
        for (auto& [name, action] : map)
            if (a == name) ctx_.request(action);
        if (a == "save" && ctx_.scene_path.empty()) return script_fail("save: the scene has no file yet; use {\"save\": path}");
        handle_requests();
        if (ctx_.modal_error) return script_fail(*ctx_.modal_error);
    } else if (s.contains("screenshot")) {
        screenshot_ = fs::path(s["screenshot"].get<std::string>());
    } else if (s.contains("save")) {
        if (Status st = save_to(s["save"].get<std::string>()); !st) return script_fail(st.error().message);
    } else if (s.contains("dump")) {
        // The simulated positions, as `tressel-cli bake --dump` writes a frame (runtime::positions_f32).
        if (!live_->world()) return script_fail("dump: the scene has no simulation");
        Status st = device_->wait_idle();
        if (st) st = live_->download();
        if (st) st = write_file_atomic(s["dump"].get<std::string>(), runtime::positions_f32(*live_->world()));
        if (!st) return script_fail(st.error().message);
    } else if (s.contains("export")) {
        ctx_.requests.push_back(Request{Action::Export, s["export"].get<std::string>(), s["format"].get<std::string>(), s.value("follows", false)});
        handle_requests();
        if (ctx_.modal_error) return script_fail(*ctx_.modal_error);
        script_check_job_ = true;
    } else if (s.contains("quit")) {
        quit_now_ = true;
        glfwSetWindowShouldClose(window_, 1);
    }
    ++script_index_;
}

// ---------------------------------------------------------------------------------------------------
// UI

void EditorApp::draw_viewport(float x, float y, float w, float h) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_FirstUseEver);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(2, 2));
    bool open = ImGui::Begin("Viewport", nullptr, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoCollapse);
    ImGui::PopStyleVar();
    if (!open) {
        ImGui::End();
        return;
    }
    View& v = ctx_.scene.view;
    auto toggle = [&](const char* label, bool* value, const char* key) {
        ImGui::Checkbox(label, value);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", param_tooltip(ctx_, "view", key).c_str());
        ImGui::SameLine();
    };
    toggle("guides", &v.show_guides, "show_guides");
    toggle("follows", &v.show_follows, "show_follows");
    toggle("collision", &v.show_collision, "show_collision");
    toggle("colliders", &v.show_colliders, "show_colliders");
    toggle("slice", &v.show_slice, "show_slice");
    toggle("grid", &v.show_grid, "show_grid");
    if (ImGui::SmallButton("Front")) ctx_.request(Action::ViewFront);
    ImGui::SameLine();
    if (ImGui::SmallButton("Side")) ctx_.request(Action::ViewSide);
    ImGui::SameLine();
    if (ImGui::SmallButton("Top")) ctx_.request(Action::ViewTop);
    ImGui::SameLine();
    if (ImGui::SmallButton("Frame (F)")) ctx_.request(Action::FrameAll);
    ImGui::SameLine();
    if (ImGui::SmallButton(ctx_.playing ? "Pause" : "Play")) ctx_.request(ctx_.playing ? Action::Pause : Action::Play);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    avail.x = std::max(avail.x, 8.0f);
    avail.y = std::max(avail.y, 8.0f);
    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("viewport", avail, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
    handle_camera_input(ctx_.camera, avail, ImGui::IsItemHovered(), ImGui::IsItemActive());
    viewport_min_ = pos;
    viewport_max_ = ImVec2(pos.x + avail.x, pos.y + avail.y);
    presenter_->add_to(ImGui::GetWindowDrawList(), viewport_min_, viewport_max_);
    if (!live_->content()) {
        ImGui::GetWindowDrawList()->AddText(ImVec2(pos.x + 12, pos.y + 12), IM_COL32(200, 200, 200, 255), "No scene: File > Open, or drop a scene or mesh here");
    }
    ImGui::End();
}

void EditorApp::draw_modals() {
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
    if (confirm_close_) {
        ImGui::OpenPopup("Unsaved changes");
        if (ImGui::BeginPopupModal("Unsaved changes", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
            ImGui::TextUnformatted("The scene has unsaved changes.");
            if (ImGui::Button("Save and quit")) {
                ctx_.request(Action::Save);
                handle_requests();
                if (!ctx_.dirty()) {
                    quit_now_ = true;
                    glfwSetWindowShouldClose(window_, 1);
                }
                confirm_close_ = false;
                ImGui::CloseCurrentPopup();
            }
            ImGui::SameLine();
            if (ImGui::Button("Quit without saving")) {
                quit_now_ = true;
                glfwSetWindowShouldClose(window_, 1);
                confirm_close_ = false;
                ImGui::CloseCurrentPopup();
            }
            ImGui::SameLine();
            if (ImGui::Button("Cancel")) {
                confirm_close_ = false;
                ImGui::CloseCurrentPopup();
            }
            ImGui::EndPopup();
        }
    }
    if (offer_recovery_ && !ctx_.job) {
        ImGui::OpenPopup("Recover");
        if (ImGui::BeginPopupModal("Recover", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
            ImGui::TextUnformatted("The editor did not close cleanly last time. Recover the unsaved scene?");
            if (ImGui::Button("Recover")) {
                ctx_.request(Action::Recover);
                ImGui::CloseCurrentPopup();
            }
            ImGui::SameLine();
            if (ImGui::Button("Discard")) {
                ctx_.request(Action::DiscardRecovery);
                ImGui::CloseCurrentPopup();
            }
            ImGui::EndPopup();
        }
    }
    if (auto chosen = file_dialog_.draw()) {
        if (dialog_purpose_ == DialogPurpose::Open) ctx_.request(Action::Open, chosen->string());
        if (dialog_purpose_ == DialogPurpose::SaveAs) ctx_.request(Action::SaveAs, chosen->string());
        dialog_purpose_ = DialogPurpose::None;
    }
}

void EditorApp::draw_ui() {
    if (ImGui::BeginMainMenuBar()) {
        if (ImGui::BeginMenu("File")) {
            if (ImGui::MenuItem("New", "Ctrl+N")) ctx_.request(Action::New);
            if (ImGui::MenuItem("Open...", "Ctrl+O")) ctx_.request(Action::Open);
            if (ImGui::BeginMenu("Open recent", !ctx_.recent_files.empty())) {
                for (auto& f : ctx_.recent_files)
                    if (ImGui::MenuItem(f.c_str())) ctx_.request(Action::Open, f);
                ImGui::EndMenu();
            }
            if (ImGui::MenuItem("Save", "Ctrl+S")) ctx_.request(Action::Save);
            if (ImGui::MenuItem("Save as...", "Ctrl+Shift+S")) ctx_.request(Action::SaveAs);
            ImGui::Separator();
            if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(window_, 1);
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Edit")) {
            if (ImGui::MenuItem("Undo", "Ctrl+Z", false, !ctx_.history.undo.empty())) ctx_.request(Action::Undo);
            if (ImGui::MenuItem("Redo", "Ctrl+Y", false, !ctx_.history.redo.empty())) ctx_.request(Action::Redo);
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Window")) {
            for (auto& p : panels_) ImGui::MenuItem(p->title(), nullptr, &p->open);
            ImGui::EndMenu();
        }
        ImGui::TextDisabled("   %s%s", ctx_.scene_path.empty() ? "(unsaved scene)" : ctx_.scene_path.filename().c_str(), ctx_.dirty() ? " *" : "");
        ImGui::EndMainMenuBar();
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    float top = vp->WorkPos.y, w = vp->WorkSize.x, h = vp->WorkSize.y;
    float left = std::max(300.0f, w * 0.23f), right = std::max(300.0f, w * 0.25f);
    float centre = w - left - right, view_h = h * 0.66f;
    auto place = [](float x, float y, float ww, float hh) {
        ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(ww, hh), ImGuiCond_FirstUseEver);
    };
    draw_viewport(left, top, centre, view_h);
    place(0, top, left, h * 0.42f);
    panels_[0]->draw_window(ctx_);  // Scene
    place(0, top + h * 0.42f, left, h * 0.58f);
    panels_[1]->draw_window(ctx_);  // Groom
    place(w - right, top, right, h * 0.42f);
    panels_[2]->draw_window(ctx_);  // Simulation
    place(w - right, top + h * 0.42f, right, h * 0.30f);
    panels_[3]->draw_window(ctx_);  // Collision
    place(w - right, top + h * 0.72f, right, h * 0.28f);
    panels_[4]->draw_window(ctx_);  // Shading
    place(left + centre * 0.45f, top + view_h, centre * 0.30f, h - view_h);
    panels_[5]->draw_window(ctx_);  // Stats
    place(left, top + view_h, centre * 0.45f, h - view_h);
    panels_[6]->draw_window(ctx_);  // Log
    place(left + centre * 0.75f, top + view_h, centre * 0.25f, h - view_h);
    panels_[7]->draw_window(ctx_);  // Export

    if (ctx_.job) {
        ImGui::SetNextWindowPos(ImVec2(left + centre * 0.5f, top + view_h * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
        ImGui::Begin("Working", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
        ImGui::TextUnformatted(ctx_.job->title.c_str());
        ImGui::ProgressBar(ctx_.job->progress->fraction(), ImVec2(320, 0), ctx_.job->progress->stage().c_str());
        if (ImGui::Button("Cancel")) ctx_.job->progress->request_cancel();
        ImGui::End();
    }
    draw_modals();
}

// ---------------------------------------------------------------------------------------------------
// Frames

Status EditorApp::write_screenshot(const std::vector<uint8_t>& pixels, uint32_t w, uint32_t h, bool bgr, const fs::path& out) {
    std::vector<uint8_t> rgba(pixels);
    for (size_t i = 0; i < rgba.size(); i += 4) {
        if (bgr) std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255;
    }
    std::vector<uint8_t> png;
    auto sink = [](void* ctx, void* data, int size) {
        auto* v = static_cast<std::vector<uint8_t>*>(ctx);
        v->insert(v->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
    };
    if (!stbi_write_png_to_func(sink, &png, int(w), int(h), 4, rgba.data(), int(w * 4)))
        return make_error(ErrorCode::Io, out.string() + ": PNG encoding failed");
    std::error_code ec;
    if (out.has_parent_path()) fs::create_directories(out.parent_path(), ec);
    return write_file_atomic(out, std::span<const uint8_t>(png));
}

Status EditorApp::render_frame() {
    FrameSlot& slot = frames_[frame_index_ % frames_.size()];
    // The renderer writes its frame uniforms in place: the previous frame must be done (renderer.h).
    if (last_serial_) TRESSEL_TRY(device_->wait(last_serial_));
    if (slot.timestamps_written) {
        auto sim_times = slot.sim_timestamps->read();
        auto times = slot.timestamps->read();
        if (!times) ctx_.add_log(Severity::Warning, "stats", times.error().message);
        if (times && sim_times) times->insert(times->begin(), sim_times->begin(), sim_times->end());
        if (times && !times->empty()) {
            ctx_.stats.history.push_back(std::move(*times));
            while (ctx_.stats.history.size() > 120) ctx_.stats.history.pop_front();
        }
        slot.timestamps_written = false;
    }

    if (swapchain_.out_of_date()) TRESSEL_TRY(create_swapchain());
    auto index = swapchain_.acquire(slot.acquired);
    if (!index) {
        if (swapchain_.out_of_date()) return create_swapchain();
        return index.error();
    }
    // Resize the render target with the viewport window (the old target is retired by the device).
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    uint32_t vw = uint32_t(std::max(8.0f, (viewport_max_.x - viewport_min_.x) * scale.x));
    uint32_t vh = uint32_t(std::max(8.0f, (viewport_max_.y - viewport_min_.y) * scale.y));
    TRESSEL_TRY(live_->resize(vw, vh));
    const gpu::Image& viewport_image = live_->renderer()->color_image();
    if (presented_image_ != &viewport_image || viewport_image.handle() != presented_handle_) {
        TRESSEL_TRY(presenter_->set_image(viewport_image));
        presented_image_ = &viewport_image;
        presented_handle_ = viewport_image.handle();
    }

    auto cmd = device_->begin_commands();
    if (!cmd) return cmd.error();
    gpu::TimestampQueries* ts = slot.timestamps && slot.timestamps->supported() ? &*slot.timestamps : nullptr;
    gpu::TimestampQueries* sim_ts = slot.sim_timestamps && slot.sim_timestamps->supported() ? &*slot.sim_timestamps : nullptr;
    if (ts) ts->reset(*cmd);
    if (sim_ts) sim_ts->reset(*cmd);
    render::FrameDesc frame;
    frame.camera = ctx_.camera;
    frame.lighting = ctx_.scene.lighting;
    frame.show_grid = ctx_.scene.view.show_grid;
    frame.show_collision = ctx_.scene.view.show_collision;
    frame.show_colliders = ctx_.scene.view.show_colliders;
    frame.show_slice = ctx_.scene.view.show_slice;
    live_->set_hair_visibility(ctx_.scene.view.show_guides, ctx_.scene.view.show_follows);
    if (sim_frames_this_frame_ > 0) {
        TRESSEL_TRY(live_->step(sim_frames_this_frame_, &*cmd, sim_ts, timestamp_capacity_));
    } else if (sim_elapsed_this_frame_s_ > 0.0) {
        auto ran = live_->advance(sim_elapsed_this_frame_s_, &*cmd, sim_ts, timestamp_capacity_);
        if (!ran) return ran.error();
    }
    TRESSEL_TRY(live_->record_render(*cmd, frame, ts));
    slot.timestamps_written = ts != nullptr;

    presenter_->begin_frame(cmd->handle(), swapchain_.extent());
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
    presenter_->begin_frame(VK_NULL_HANDLE, {0, 0});

    // Screenshot: the finished swapchain image, copied out before it is presented.
    gpu::Buffer readback;
    VkExtent2D ext = swapchain_.extent();
    std::optional<fs::path> shot = std::move(screenshot_);
    screenshot_.reset();
    if (shot && !swapchain_.supports_readback()) {
        if (!options_.script.empty()) script_fail("screenshot: this window system does not allow reading the window back");
        shot.reset();
    }
    if (shot) {
        gpu::BufferDesc bd;
        bd.size = VkDeviceSize(ext.width) * ext.height * 4;
        bd.intent = gpu::MemoryIntent::Readback;
        bd.name = "screenshot";
        auto b = device_->create_buffer(bd);
        if (!b) return b.error();
        readback = std::move(*b);
        VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        ib.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        ib.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        ib.oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        ib.image = swapchain_.image(*index);
        ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(cmd->handle(), VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                             nullptr, 0, nullptr, 1, &ib);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {ext.width, ext.height, 1};
        vkCmdCopyImageToBuffer(cmd->handle(), ib.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.handle(), 1, &region);
        ib.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        ib.dstAccessMask = 0;
        ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        ib.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        vkCmdPipelineBarrier(cmd->handle(), VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &ib);
    }

    gpu::SubmitDesc submit;
    submit.wait_semaphores = {slot.acquired};
    submit.wait_stages = {VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT};
    submit.signal_semaphores = {slot.rendered};
    auto serial = device_->submit(std::move(*cmd), submit);
    if (!serial) return serial.error();
    slot.serial = *serial;
    last_serial_ = *serial;
    ++frame_index_;
    Status presented = swapchain_.present(*index, slot.rendered);
    if (shot) {
        TRESSEL_TRY(device_->wait(*serial));
        std::vector<uint8_t> pixels(size_t(ext.width) * ext.height * 4);
        std::memcpy(pixels.data(), readback.mapped(), pixels.size());
        bool bgr = swapchain_.format() == VK_FORMAT_B8G8R8A8_UNORM || swapchain_.format() == VK_FORMAT_B8G8R8A8_SRGB;
        Status st = write_screenshot(pixels, ext.width, ext.height, bgr, *shot);
        if (!st) {
            if (!options_.script.empty()) script_fail(st.error().message);
            else ctx_.report_error(st.error().message);
        } else {
            ctx_.add_log(Severity::Info, "screenshot", "wrote " + shot->string());
        }
    }
    if (!presented && swapchain_.out_of_date()) return create_swapchain();
    return presented;
}

int EditorApp::run() {
    Status s = init();
    if (!s) {
        std::fprintf(stderr, "error: %s\n", s.error().message.c_str());
        return exit_code_ ? exit_code_ : 1;
    }
    uint64_t frames = 0;
    auto last = std::chrono::steady_clock::now();
    while (!glfwWindowShouldClose(window_)) {
        glfwPollEvents();
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        if (w == 0 || h == 0) {  // minimised
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        auto now = std::chrono::steady_clock::now();
        double elapsed_s = std::chrono::duration<double>(now - last).count();
        last = now;
        for (auto& d : dropped_) open_path(d);
        dropped_.clear();
        poll_job();
        run_script();
        handle_requests();
        update_content();
        autosave();

        // Simulation frames this display frame: scripts run exactly one per frame (deterministic);
        // interactive play keeps the fixed rate against the wall clock, at most 4 per frame.
        sim_frames_this_frame_ = 0;
        sim_elapsed_this_frame_s_ = 0.0;
        const SimWorld* world = live_->world();
        if (world && !ctx_.job) {
            if (script_playing_ || step_once_) sim_frames_this_frame_ = 1;
            else if (ctx_.playing) sim_elapsed_this_frame_s_ = elapsed_s;  // the runtime keeps the fixed rate
            step_once_ = false;
        }
        if (world) {
            ctx_.stats.sim_time_s = world->time_s();
            ctx_.stats.sim_steps = world->clock.steps;
        }
        const runtime::RuntimeCounts counts = live_->counts();
        ctx_.stats.guides = counts.guides;
        ctx_.stats.follows = counts.follows;
        ctx_.stats.strands = counts.guides + counts.follows;
        ctx_.stats.vertices = counts.guide_vertices + counts.follow_vertices;
        ctx_.gpu_bytes = device_->allocated_bytes(gpu::MemoryIntent::DeviceLocal);
        ctx_.upload_bytes = device_->allocated_bytes(gpu::MemoryIntent::Upload) +
                            device_->allocated_bytes(gpu::MemoryIntent::Constants);
        ctx_.readback_bytes = device_->allocated_bytes(gpu::MemoryIntent::Readback);
        ctx_.meshes = live_->content() ? live_->content()->meshes.get() : nullptr;
        ctx_.sdf_info.clear();
        if (const runtime::SceneContent* c = live_->content()) {
            ctx_.stats.last_groom_ms = c->groom_ms;
            for (size_t i = 0; i < c->sdfs.size(); ++i) {
                if (!c->sdfs[i]) continue;
                SdfInfo info;
                const auto& g = c->sdfs[i]->grid;
                info.dims[0] = g.dims.x, info.dims[1] = g.dims.y, info.dims[2] = g.dims.z;
                info.cell_size_m = g.cell_size_m;
                info.build_ms = c->sdf_build_ms[i];
                ctx_.sdf_info.push_back(info);
            }
        }

        ImGui_ImplVulkan_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        handle_shortcuts();
        draw_ui();
        // A change becomes an undo step once no widget is held (editor_context.h History).
        if (!ImGui::IsAnyItemActive()) ctx_.commit();
        ImGui::Render();
        Status r = render_frame();
        if (!r) {
            std::fprintf(stderr, "error: %s\n", r.error().message.c_str());
            shutdown();
            return 1;
        }
        ++frames;
        // --frames N: quit after N frames once any pending load has finished (used by tests).
        if (options_.max_frames > 0 && frames >= options_.max_frames && !ctx_.job) break;
        if (!script_.empty() && script_index_ >= script_.size() && !ctx_.job && exit_code_ == 0 && options_.max_frames == 0 && quit_now_) break;
    }
    if (!ctx_.stats.history.empty()) {
        std::string passes;
        for (auto& p : ctx_.stats.history.back()) passes += " " + p.name + "=" + std::to_string(p.ms).substr(0, 6);
        std::fprintf(stderr, "tressel: GPU ms per pass, last frame:%s\n", passes.c_str());
    }
    int errors = static_cast<int>(device_ ? device_->validation_error_count() : 0);
    std::fprintf(stderr, "tressel: %llu frames, %zu meshes loaded, %d validation errors\n",
                 static_cast<unsigned long long>(frames), ctx_.meshes ? ctx_.meshes->size() : size_t(0), errors);
    // A clean exit leaves no recovery file behind unless the scene has unsaved changes the user chose to drop.
    if (quit_now_ || !ctx_.dirty()) {
        std::error_code ec;
        if (!ctx_.dirty()) fs::remove(recovery_file(config_dir_), ec);
    }
    shutdown();
    if (exit_code_) return exit_code_;
    if (errors) return 3;
    return load_failed_ && script_.empty() ? 4 : 0;
}

void EditorApp::shutdown() {
    if (ctx_.job && ctx_.job->result.valid()) {
        ctx_.job->progress->request_cancel();
        ctx_.job->result.wait();
    }
    ctx_.job.reset();
    if (device_) vkDeviceWaitIdle(device_->device());
    ctx_.meshes = nullptr;
    presenter_.reset();
    live_.reset();
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
            f.acquired = f.rendered = VK_NULL_HANDLE;
            f.timestamps.reset();
            f.sim_timestamps.reset();
        }
        if (render_pass_) vkDestroyRenderPass(device_->device(), render_pass_, nullptr);
        render_pass_ = VK_NULL_HANDLE;
        if (imgui_pool_) vkDestroyDescriptorPool(device_->device(), imgui_pool_, nullptr);
        imgui_pool_ = VK_NULL_HANDLE;
        (void)device_->wait_idle();
        device_.reset();
    }
    if (window_) glfwDestroyWindow(window_);
    window_ = nullptr;
    if (glfw_ready_) glfwTerminate();
    glfw_ready_ = false;
}

}  // namespace tressel::editor
