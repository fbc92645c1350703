#include "editor_app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

#include <malloc.h>
#include <unistd.h>

#include <GLFW/glfw3.h>  // key codes of the ImGui GLFW backend's key map
#include <imgui.h>

#include "core/file_io.h"
#include "param_widgets.h"
#include "render/hair_data.h"
#include "runtime/scene_export.h"
#include "scene/scene_io.h"
#include "sdf/sdf_slice.h"
#include "sim/sim_metrics.h"
#include "script.h"

namespace tressel::editor {

namespace {

struct BrushButton {
    BrushType type;
    const char* label;
    const char* key;
    const char* meaning;
};
constexpr BrushButton kBrushButtons[] = {
    {BrushType::Comb, "Comb", "1", "drag the strands under the brush along the stroke; every segment keeps its length"},
    {BrushType::Smooth, "Smooth", "2", "straighten kinks and zigzags under the brush; lengths kept"},
    {BrushType::Grow, "Grow", "3", "lengthen the strands under the brush (Ctrl: shorten), up to 10% a dab"},
    {BrushType::Cut, "Cut", "4", "cut the strands the stroke crosses where it crosses them"},
    {BrushType::Puff, "Puff", "5", "lift the strands whose roots are under the brush toward the scalp normal (Ctrl: flatten)"},
    {BrushType::Clump, "Clump", "6", "pinch the strands under the brush toward its centre (Ctrl: spread)"},
    {BrushType::Add, "Add", "7", "grow new guides on the scalp under the brush, shaped by the group's growth (Ctrl: delete)"},
    {BrushType::Delete, "Delete", "8", "remove the guides whose roots are under the brush (strength thins)"},
};

struct PaintButton {
    PaintLayer layer;
    const char* label;
    const char* key;
    const char* meaning;
    float min, max;
    const char* format;
    const char* value_tip;
};
constexpr PaintButton kPaintButtons[] = {
    {PaintLayer::Mask, "Mask", "Shift+1", "where hair grows; the first stroke makes the region the painted mask (scalp.region type paint)", 0.0f, 1.0f, "%.2f", ""},
    {PaintLayer::Density, "Density", "Shift+2", "how many guides and follow hairs grow, as a scale of the group's density; strokes add or remove guides only where they paint", 0.0f,
     kPaintDensityMax, "x%.2f", "Density painted: x the group's density, 0 to 8, default 2. Ctrl paints back to 1"},
    {PaintLayer::Length, "Length", "Shift+3", "the strand length, as a scale of growth.length (and of the length map)", kPaintLengthMin, kPaintLengthMax, "x%.2f",
     "Length painted: x growth.length, 0.01 to 4, default 0.5. Ctrl paints back to 1"},
    {PaintLayer::Comb, "Comb map", "Shift+4", "the comb direction: the stroke's direction laid on the scalp, replacing growth.comb_direction where painted", 0.0f, 1.0f, "%.2f",
     "Comb amount painted: 0 (along the scalp normal) to 1 (flat along the stroke), default 1. Ctrl removes the painted comb"},
};

int brush_group(const EditorContext& ctx) {
    if (ctx.scene.hair_groups.empty()) return -1;
    return ctx.selected_group >= 0 && size_t(ctx.selected_group) < ctx.scene.hair_groups.size() ? ctx.selected_group : 0;
}

}  // namespace


namespace fs = std::filesystem;

namespace {

double now_s(const EditorContext& ctx) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx.start).count();
}

bool is_scene_file(const fs::path& p) {
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".json";
}

}  // namespace

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

EditorApp::~EditorApp() {
    // Workers first (they may hold content), then what draws, then the shell with the device.
    ctx_.jobs.cancel_and_wait();
    ctx_.meshes = nullptr;
    if (shell_) (void)shell_->device().wait_idle();
    presenter_.reset();
    live_.reset();
    shell_.reset();
}

Status EditorApp::init() {
    ctx_.config_dir = config_dir();
    ctx_.load_recent();
    if (!options_.script.empty()) {
        auto steps = load_script(options_.script);
        if (!steps) return steps.error();
        script_.emplace(std::move(*steps));
    }
    ShellOptions so;
    so.width = options_.width;
    so.height = options_.height;
    so.device = options_.device;
    so.validation = options_.validation;
    auto shell = AppShell::create(so);
    if (!shell) return shell.error();
    shell_ = std::move(*shell);
    shell_->on_drop = [this](std::vector<std::string> paths) {
        dropped_.insert(dropped_.end(), paths.begin(), paths.end());
    };
    shell_->on_close = [this] {
        if (ctx_.dirty() && !quit_now_ && !script_ && options_.max_frames == 0) {
            confirm_close_ = true;
            return false;
        }
        return true;
    };
    layout_file_ = ctx_.config_dir / ("layout_" + std::to_string(options_.width) + "x" + std::to_string(options_.height) + ".ini");
    if (std::error_code ec; fs::exists(layout_file_, ec)) ImGui::LoadIniSettingsFromDisk(layout_file_.string().c_str());
    gpu::Device& device = shell_->device();
    ctx_.add_log(Severity::Info, "gpu", device.info().name + " (" + gpu::to_string(device.info().type) + ")");
    TRESSEL_TRY(create_gpu_parts());

    const bool recovery_present = ctx_.has_recovery();
    if (options_.recover) {
        TRESSEL_TRY(recover());
    } else {
        new_scene();  // an empty scene to add a mesh to, and the one that stays when the file fails to open
        if (!options_.scene.empty()) open_path(options_.scene);
        if (recovery_present && !script_ && options_.max_frames == 0) offer_recovery_ = true;
    }
    last_autosave_s_ = now_s(ctx_);
    return {};
}

Status EditorApp::create_gpu_parts() {
    gpu::Device& device = shell_->device();
    // The CPU Vulkan driver rasterises on the CPU: one sample and a smaller shadow map keep the editor
    // interactive there; GPUs get 4x MSAA.
    runtime::RuntimeOptions ro;
    const bool cpu = device.info().is_cpu();
    ro.renderer = render::RendererDesc{800, 600, cpu ? 1u : 4u, cpu ? 512u : 1024u, 64};
    ro.sag_free_async = true;  // an edit's sag-free solve waits for the edits to pause, and on a CPU device runs on a worker
    auto live = runtime::SceneRuntime::create(&device, ro);
    if (!live) return live.error();
    live_ = std::move(*live);
    auto presenter = ViewportPresenter::create(device, shell_->ui_pass());
    if (!presenter) return presenter.error();
    presenter_ = std::move(*presenter);
    presented_image_ = nullptr;
    presented_handle_ = VK_NULL_HANDLE;
    return {};
}

bool EditorApp::restart_gpu(const std::string& why) {
    // Give up when restarts do not help (the same failure again within seconds, three times running).
    const double t = now_s(ctx_);
    gpu_restarts_ = t - last_gpu_restart_s_ < 10.0 ? gpu_restarts_ + 1 : 1;
    last_gpu_restart_s_ = t;
    if (gpu_restarts_ > 3) {
        ctx_.report_error("the GPU keeps failing (" + why + "); quitting");
        return false;
    }
    // The scene's CPU products (meshes, grooms, fields) outlive the device: only what lives on it is made again.
    ctx_.jobs.cancel_and_wait();
    auto content = live_ ? live_->shared_content() : nullptr;
    if (auto wrote = ctx_.autosave(); !wrote) ctx_.add_log(Severity::Warning, "autosave", wrote.error().message);
    presenter_.reset();
    live_.reset();
    Status s = shell_->restart_gpu();
    if (s) s = create_gpu_parts();
    // A copy of the content shares its parts; install only fills in what is missing (nothing, here).
    if (s && content) s = live_->install(std::make_shared<runtime::SceneContent>(*content));
    if (!s) {
        ctx_.report_error("the GPU could not be started again after: " + why + " (" + s.error().message + ")");
        return false;
    }
    sim_frames_this_frame_ = 0;
    sim_elapsed_this_frame_s_ = 0.0;
    ctx_.add_log(Severity::Warning, "gpu", "restarted: " + shell_->device().info().name);
    ctx_.report_error(why + ". Tressel started its GPU work again and rebuilt the viewport from the scene; your scene and its "
                      "undo history are as they were" + (ctx_.dirty() ? " (unsaved changes are also in the recovery file)." : "."));
    return true;
}

Status EditorApp::inject_gpu_fault(const std::string& kind) {
    using F = gpu::Device::Fault;
    static const std::pair<const char*, F> kinds[] = {{"buffer_memory", F::BufferMemory}, {"image_memory", F::ImageMemory},
                                                      {"descriptor_pool", F::DescriptorPool}, {"device_lost", F::DeviceLost}};
    for (const auto& [name, fault] : kinds)
        if (kind == name) {
            shell_->device().inject_fault(fault);
            return {};
        }
    return make_error(ErrorCode::InvalidArgument,
                      "inject_gpu_fault: unknown fault '" + kind + "' (buffer_memory, image_memory, descriptor_pool, device_lost)");
}

// ---------------------------------------------------------------------------------------------------
// Files

void EditorApp::open_path(const fs::path& path) {
    if (is_scene_file(path)) {
        open_scene(path);
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
    content_failed_ = false;
    ctx_.add_log(Severity::Info, "scene", "adding mesh " + ref.path);
}

void EditorApp::open_scene(const fs::path& path) {
    load_failed_ = false;
    const bool cpu_fields = live_->fields_on_worker();
    const bool started = ctx_.jobs.start("Opening " + path.filename().string(), [this, path, cpu_fields](Progress& progress) -> std::function<void()> {
        progress.set(0.0f, "reading scene");
        auto loaded = load_scene(path);
        if (!loaded) {
            std::string msg = loaded.error().message;
            return [this, msg] {
                load_failed_ = true;
                ctx_.report_error(msg);  // the previous scene stays loaded
            };
        }
        auto content = runtime::prepare_content(loaded->scene, runtime::ContentPlan{}, nullptr, &progress, cpu_fields);
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
            if (Status s = live_->install(c); !s) {
                load_failed_ = true;
                ctx_.report_error(path.string() + ": " + s.error().message);
                return;
            }
            ctx_.reset_scene(shared->scene, fs::absolute(path), true);
            // A scene that never had a view (every camera key at its default) opens framed on its content.
            const View none;
            const View& v = ctx_.scene.view;
            if (v.target_m == none.target_m && v.yaw_deg == none.yaw_deg && v.pitch_deg == none.pitch_deg && v.distance_m == none.distance_m) {
                const render::SceneBounds b = live_->bounds();
                if (!b.empty()) ctx_.camera.frame_bounds(b.min_m, b.max_m, 1.0);
            }
            ctx_.playing = false;
            content_failed_ = false;
            ctx_.add_diagnostics(shared->diagnostics);
            ctx_.add_diagnostics(c->diagnostics);
            install_advice(*c);
            ctx_.add_log(Severity::Info, "scene", "opened " + path.string() + " (" + std::to_string(c->meshes->size()) + " meshes)");
            ctx_.add_log(Severity::Info, "scene", "built: " + live_->report().summary());
            ctx_.stats.last_rebuild = live_->report().summary();
            Diagnostics warnings;
            ctx_.note_recent(path, warnings);
            ctx_.add_diagnostics(warnings);
        };
    });
    if (!started) ctx_.report_error("wait for '" + ctx_.jobs.current()->title + "' to finish before opening another scene");
}

void EditorApp::save_to(const fs::path& path) {
    ctx_.store_camera();
    Diagnostics warnings;
    Status s = ctx_.save_to(path, warnings);
    ctx_.add_diagnostics(warnings);
    if (!s) return ctx_.report_error(s.error().message);
    ctx_.add_log(Severity::Info, "scene", "saved " + ctx_.scene_path.string());
}

void EditorApp::new_scene() {
    Scene s;
    ctx_.reset_scene(s, {}, true);
    ctx_.playing = false;
    auto content = runtime::prepare_content(s, runtime::ContentPlan{}, nullptr, nullptr);
    if (content) (void)live_->install(*content);
}

Status EditorApp::recover() {
    TRESSEL_TRY(ctx_.recover());
    auto content = runtime::prepare_content(ctx_.scene, runtime::ContentPlan{}, nullptr, nullptr, live_->fields_on_worker());
    if (!content) return content.error();
    TRESSEL_TRY(live_->install(*content));
    ctx_.camera = render::OrbitCamera::from_view(ctx_.scene.view);
    ctx_.add_log(Severity::Info, "scene", "recovered unsaved changes" + (ctx_.scene_path.empty() ? std::string() : " to " + ctx_.scene_path.string()));
    return {};
}

void EditorApp::autosave() {
    const double t = now_s(ctx_);
    if (t - last_autosave_s_ < options_.autosave_seconds) return;
    last_autosave_s_ = t;
    auto wrote = ctx_.autosave();
    if (!wrote) return ctx_.add_log(Severity::Warning, "autosave", wrote.error().message);
    if (*wrote) ctx_.add_log(Severity::Info, "autosave", "wrote " + ctx_.recovery_path().string());
}

// ---------------------------------------------------------------------------------------------------
// Content and jobs

void EditorApp::content_failed(const Scene& scene, const std::string& message, bool cancelled) {
    failed_scene_ = scene;
    content_failed_ = true;
    load_failed_ = true;
    if (cancelled) {
        ctx_.add_log(Severity::Warning, "scene", "cancelled: the viewport keeps the previous content");
        return;
    }
    ctx_.report_error(message);
    // The edit that could not be built is taken back, and only it: a rebuild asked for without an edit
    // (Regrow, Rebuild SDF) leaves the scene as it is, and edits applied in place since the content was
    // built (simulation, shading, view) stay. The content's own scene is the last resort.
    const runtime::SceneContent* content = live_->content();
    if (!content || !runtime::plan_content(ctx_.scene, content).any()) return;
    if (!ctx_.history.undo.empty() && !runtime::plan_content(ctx_.history.undo.back(), content).any())
        ctx_.revert_to(ctx_.history.undo.back());
    else
        ctx_.revert_to(content->scene);
}

void EditorApp::start_content_job(runtime::ContentPlan plan, const std::string& title) {
    Scene scene = ctx_.scene;
    auto previous = live_->shared_content();
    // Everything slow happens here, on the worker: import, growth, and on a CPU device the fields too (the
    // runtime's choice); install() on the UI thread then only builds the simulation's state.
    const bool cpu_fields = live_->fields_on_worker();
    ctx_.jobs.start(title, [this, scene, plan, previous, cpu_fields](Progress& progress) -> std::function<void()> {
        auto content = runtime::prepare_content(scene, plan, previous, &progress, cpu_fields);
        if (!content) {
            std::string msg = content.error().message;
            bool cancelled = content.error().code == ErrorCode::Cancelled;
            return [this, msg, scene, cancelled] { content_failed(scene, msg, cancelled); };
        }
        auto c = *content;
        return [this, c, scene] {
            if (Status s = live_->install(c); !s) return content_failed(scene, s.error().message, false);
            content_failed_ = false;
            ctx_.add_diagnostics(c->diagnostics);
            install_advice(*c);
            ctx_.add_log(Severity::Info, "scene", "rebuilt: " + live_->report().summary());
            ctx_.stats.last_rebuild = live_->report().summary();
        };
    });
}

void EditorApp::update_content() {
    if (!live_ || !live_->content()) return;
    runtime::ContentPlan plan = live_->plan(ctx_.scene);
    if (plan.any()) {
        if (!ctx_.jobs.busy() && !(content_failed_ && failed_scene_ == ctx_.scene))
            start_content_job(plan, plan.meshes ? "Importing meshes" : plan.any_groom() ? "Growing hair" : "Building SDFs");
        return;
    }
    Status s = live_->set_slice_range(ctx_.slice_range_m);
    if (s) s = live_->sync(ctx_.scene);
    const bool solving = live_->rest_state_pending();
    if (s) s = live_->poll_rest_state();
    if (s && solving && !live_->rest_state_pending() && !live_->sag_free_report().error.empty()) {
        ctx_.add_log(Severity::Warning, "simulation", live_->sag_free_report().error);
    } else if (s && solving && !live_->rest_state_pending()) {
        const SagFreeReport& r = live_->sag_free_report();
        char line[200];
        std::snprintf(line, sizeof(line), "sag-free rest state: %u groups, %u corrections, sag %.1f mm -> %.2f mm on average (%.0f ms)", r.groups,
                      r.iterations, r.sag_mean_m * 1e3, r.error_mean_m * 1e3, live_->sag_free_ms());
        ctx_.add_log(Severity::Info, "simulation", line);
    }
    if (live_->rest_state_pending()) {
        ctx_.stats.rest_state = "solving...";
    } else if (live_->sag_free_report().groups > 0) {
        char line[120];
        std::snprintf(line, sizeof(line), "%.2f mm from the groom on average (%u groups, %.0f ms)", live_->sag_free_report().error_mean_m * 1e3,
                      live_->sag_free_report().groups, live_->sag_free_ms());
        ctx_.stats.rest_state = line;
    } else {
        ctx_.stats.rest_state.clear();
    }
    if (s) {
        sync_refused_.reset();
    } else if (!sync_refused_ || !(sync_refused_->first == ctx_.scene) || sync_refused_->second != s.error().message) {
        sync_refused_.emplace(ctx_.scene, s.error().message);
        ctx_.report_error(s.error().message);
    }
}

void EditorApp::start_export(const Request& r) {
    if (ctx_.jobs.busy() || !live_->content()) return ctx_.report_error("export: wait for the current operation to finish");
    auto fmt = parse_export_format(r.format);
    if (!fmt) return ctx_.report_error(fmt.error().message);
    // The running scene: the content's grooms with every value edit since (simulation, shading).
    auto content = live_->shared_content();
    auto scene = std::make_shared<const Scene>(live_->scene());
    runtime::SceneExportRequest request;
    request.format = *fmt;
    request.out = r.path;
    request.include_follows = r.include_follows;
    const std::string format_name = r.format;
    ctx_.jobs.start("Exporting " + fs::path(r.path).filename().string(), [this, content, scene, request, format_name](Progress&) -> std::function<void()> {
        std::error_code ec;
        if (request.out.has_parent_path()) fs::create_directories(request.out.parent_path(), ec);
        auto report = runtime::export_scene(*scene, *content, request);
        EditorContext::ExportResult result;
        result.valid = true;
        result.format = format_name;
        if (!report) {
            std::string msg = "export: " + report.error().message;
            result.error = report.error().message;
            return [this, msg, result] {
                ctx_.last_export = result;
                ctx_.report_error(msg);
            };
        }
        result.ok = true;
        for (const fs::path& f : report->files) {
            std::error_code size_ec;
            const uint64_t bytes = fs::file_size(f, size_ec);
            result.files.emplace_back(fs::absolute(f, size_ec).string(), size_ec ? 0 : bytes);
        }
        for (const auto& d : report->diagnostics.items)
            if (d.severity != Severity::Info) result.warnings.push_back(d.where.empty() ? d.message : d.where + ": " + d.message);
        // What went out: the guides, and the follows where they were asked for (settings exports carry none).
        if (request.format != ExportFormat::Preset)
            for (const auto& g : content->grooms) {
                if (!g) continue;
                result.guides += g->guides.strand_count();
                result.vertices += g->guides.points_os_m.size();
                if (request.include_follows) result.follows += g->follows.size();
            }
        auto files = report->files;
        auto diag = report->diagnostics;
        return [this, files, diag, result] {
            ctx_.last_export = result;
            ctx_.add_diagnostics(diag);
            for (auto& f : files) ctx_.add_log(Severity::Info, "export", "wrote " + f.string());
        };
    });
}

void EditorApp::dump_positions(const fs::path& path) {
    // The simulated positions, as `tressel-cli bake --dump` writes a frame (runtime::positions_f32).
    if (!live_->world()) return ctx_.report_error("dump: the scene has no simulation");
    Status st = shell_->device().wait_idle();
    if (st) st = live_->download();
    if (st) st = write_file_atomic(path, runtime::positions_f32(*live_->world()));
    if (!st) return ctx_.report_error(st.error().message);
    ctx_.add_log(Severity::Info, "dump", "wrote " + path.string());
}

void EditorApp::install_advice(const runtime::SceneContent& content) {
    ctx_.advice = content.advice;
    content_frame_ = frames_drawn_;
    cost_checked_ = false;
}

// The hair costs more than this GPU draws live: after kCostFrames still frames, a GPU frame time above
// kLiveFrameMs offers fewer follow hairs in the group with the most (a count that would take about half
// the limit, by the frame time's share in the hair passes).
void EditorApp::check_hair_cost() {
    if (cost_checked_ || frames_drawn_ < content_frame_ + kCostFrames || ctx_.stats.interactive || !live_->world()) return;
    if (ctx_.stats.history.size() < 5) return;
    cost_checked_ = true;
    std::vector<double> totals, hair;
    for (auto it = ctx_.stats.history.end() - 5; it != ctx_.stats.history.end(); ++it) {
        double t = 0.0, h = 0.0;
        for (const gpu::PassTime& p : *it) {
            t += p.ms;
            if (p.name.rfind("hair", 0) == 0 || p.name.rfind("shadow", 0) == 0) h += p.ms;
        }
        totals.push_back(t);
        hair.push_back(h);
    }
    std::sort(totals.begin(), totals.end());
    std::sort(hair.begin(), hair.end());
    const double frame_ms = totals[2], hair_ms = hair[2];
    if (frame_ms <= kLiveFrameMs || hair_ms <= 0.5 * frame_ms) return;
    size_t best = SIZE_MAX;
    uint64_t most = 0, vertices = 0;
    for (size_t gi = 0; gi < ctx_.scene.hair_groups.size(); ++gi) {
        const HairGroup& g = ctx_.scene.hair_groups[gi];
        if (g.follow.mode != FollowMode::Barycentric || g.follow.density_per_cm2 > 0.0) continue;
        if (uint64_t(g.follow.count) > most) most = uint64_t(g.follow.count), best = gi;
    }
    for (const SimGroupState& g : live_->world()->groups) vertices += uint64_t(g.strand_count + g.follow_count()) * g.n;
    Diagnostic d;
    d.severity = Severity::Warning;
    d.where = "viewport";
    d.code = "hair_cost";
    char text[256];
    std::snprintf(text, sizeof text, "the hair (%llu vertices) takes %.0f ms of each %.0f ms frame on this GPU: under %.0f frames per second",
                  static_cast<unsigned long long>(vertices), hair_ms, frame_ms, 1000.0 / kLiveFrameMs);
    d.message = text;
    if (best != SIZE_MAX) {
        const double keep = std::clamp(0.5 * kLiveFrameMs / hair_ms, 0.01, 0.9);
        const uint64_t count = std::max<uint64_t>(100, uint64_t(double(most) * keep) / 100 * 100);
        d.fixes.push_back({"Draw " + std::to_string(count) + " follow hairs in '" + ctx_.scene.hair_groups[best].name + "' (from " +
                               std::to_string(most) + ")",
                           "hair_groups[" + std::to_string(best) + "].follow.count", std::to_string(count)});
    }
    ctx_.add_log(Severity::Warning, d.where, d.message);
    ctx_.advice.push_back(std::move(d));
}

void EditorApp::apply_fix(const std::string& code) {
    auto it = std::find_if(ctx_.advice.begin(), ctx_.advice.end(), [&](const Diagnostic& d) { return d.code == code && !d.fixes.empty(); });
    if (it == ctx_.advice.end()) return ctx_.report_error("fix: no advice '" + code + "' with a fix is shown");
    const DiagnosticFix fix = it->fixes.front();
    nlohmann::json value;
    try {
        value = nlohmann::json::parse(fix.value_json);
    } catch (const nlohmann::json::exception&) {
        return ctx_.report_error("fix: '" + fix.value_json + "' is not a value");
    }
    if (Status s = set_scene_value(ctx_, fix.path, value); !s) return ctx_.report_error("fix: " + s.error().message);
    ctx_.commit();
    ctx_.add_log(Severity::Info, "fix", fix.label + ": " + fix.path + " = " + fix.value_json);
    ctx_.advice.erase(it);
}

// The advice over the viewport's top: per advice its message (the whole of it in the tooltip), then its
// fix as a button and a dismiss button.
void EditorApp::draw_advice(ImVec2 pos, float width) {
    if (ctx_.advice.empty()) return;
    ImGui::SetCursorScreenPos(pos);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.25f, 0.18f, 0.05f, 0.92f));
    const float line = ImGui::GetFrameHeightWithSpacing();
    ImGui::BeginChild("advice", ImVec2(width, 2.0f * line * float(ctx_.advice.size()) + 8.0f), false, ImGuiWindowFlags_NoScrollbar);
    std::optional<std::string> fix, dismiss;
    for (size_t i = 0; i < ctx_.advice.size(); ++i) {
        const Diagnostic& d = ctx_.advice[i];
        ImGui::PushID(int(i));
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s", d.message.c_str());
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
            ImGui::TextUnformatted(d.message.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        if (!d.fixes.empty()) {
            if (ImGui::SmallButton(d.fixes.front().label.c_str())) fix = d.code;
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("sets %s to %s (undoable)", d.fixes.front().path.c_str(), d.fixes.front().value_json.c_str());
            ImGui::SameLine();
        }
        if (ImGui::SmallButton("Dismiss")) dismiss = d.code;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("hide until the scene is built again");
        ImGui::PopID();
    }
    ImGui::EndChild();
    ImGui::PopStyleColor();
    if (fix) ctx_.request(Action::ApplyFix, *fix);
    if (dismiss) ctx_.request(Action::DismissAdvice, *dismiss);
}

void EditorApp::save_layout() {
    size_t bytes = 0;
    const char* ini = ImGui::SaveIniSettingsToMemory(&bytes);
    ImGui::GetIO().WantSaveIniSettings = false;
    if (layout_file_.empty() || !ini) return;
    std::error_code ec;
    fs::create_directories(layout_file_.parent_path(), ec);
    if (Status s = write_file_atomic(layout_file_, std::string_view(ini, bytes)); !s)
        ctx_.add_log(Severity::Warning, "layout", "cannot remember the window layout: " + s.error().message);
}

void EditorApp::capture_turntable_image() {
    Turntable& t = *turntable_;
    render::FrameDesc desc = viewport_frame();
    desc.camera.yaw_deg = t.yaw0_deg + 360.0 * double(t.next) / double(t.count);
    Status st = shell_->device().wait_idle();
    std::vector<uint8_t> png;
    if (st) {
        auto rgba = live_->render_to_rgba(desc);
        if (!rgba) st = rgba.error();
        else if (auto enc = encode_png_rgba(*rgba, int(live_->renderer()->width()), int(live_->renderer()->height())); !enc) st = enc.error();
        else png = std::move(*enc);
    }
    char name[32];
    std::snprintf(name, sizeof name, "turntable_%03d.png", t.next);
    if (st) st = write_file_atomic(t.dir / name, std::span<const uint8_t>(png));
    if (!st) {
        ctx_.report_error("turntable: " + st.error().message);
        turntable_.reset();
        return;
    }
    if (++t.next < t.count) return;
    last_turntable_ = {{"dir", t.dir.string()},
                       {"images", t.count},
                       {"width", live_->renderer()->width()},
                       {"height", live_->renderer()->height()}};
    ctx_.add_log(Severity::Info, "turntable", "wrote " + std::to_string(t.count) + " images into " + t.dir.string());
    turntable_.reset();
}

// The status bar along the window's bottom: the running job (an import, a regrow, a rebuild, an export, a
// turntable) with its progress and Cancel, else "Ready"; then the scene's file and the last Log line.
void EditorApp::draw_status_bar(ImVec2 pos, ImVec2 size) {
    ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
    ImGui::SetNextWindowSize(size, ImGuiCond_Always);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 2));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##status", nullptr, flags);
    ImGui::PopStyleVar();
    if (const Job* job = ctx_.jobs.current()) {
        ImGui::TextUnformatted(job->title.c_str());
        ImGui::SameLine();
        ImGui::ProgressBar(job->progress->fraction(), ImVec2(260, 0), job->progress->stage().c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) ctx_.request(Action::Cancel);
    } else if (turntable_) {
        ImGui::Text("Capturing turntable: %d of %d images", turntable_->next, turntable_->count);
        ImGui::SameLine();
        ImGui::ProgressBar(float(turntable_->next) / float(std::max(turntable_->count, 1)), ImVec2(260, 0));
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) ctx_.request(Action::Cancel);
    } else {
        ImGui::TextDisabled("Ready");
    }
    ImGui::SameLine();
    ImGui::TextDisabled("  |  %s", ctx_.scene_path.empty() ? "(unsaved scene)" : ctx_.scene_path.string().c_str());
    if (!ctx_.log.empty()) {
        const auto& last = ctx_.log.back();
        ImGui::SameLine();
        ImGui::TextDisabled("  |  %s: %s", last.diagnostic.where.c_str(), last.diagnostic.message.c_str());
    }
    ImGui::End();
}

void EditorApp::draw_turntable_dialog() {
    if (turntable_dialog_) {
        ImGui::OpenPopup("Capture turntable");
        turntable_dialog_ = false;
    }
    if (!ImGui::BeginPopupModal("Capture turntable", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted("Images of the scene as it is now, the camera going once around the character.");
    ImGui::SetNextItemWidth(120.0f);
    ImGui::DragInt("Images", &turntable_count_, 1.0f, 1, 3600, "%d", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("images around the character, 1 to 3600 (default 36: every 10 degrees)");
    char dir[1024];
    std::snprintf(dir, sizeof dir, "%s", turntable_dir_.c_str());
    ImGui::SetNextItemWidth(420.0f);
    if (ImGui::InputText("Folder", dir, sizeof dir)) turntable_dir_ = dir;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("written as turntable_000.png, turntable_001.png ... at the viewport's size");
    if (ImGui::Button("Capture")) {
        Request r{Action::Turntable, turntable_dir_};
        r.amount = double(turntable_count_);
        ctx_.requests.push_back(r);
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// ---------------------------------------------------------------------------------------------------
// Requests

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
                if (ctx_.scene_path.empty()) ctx_.request(Action::SaveAs);
                else save_to(ctx_.scene_path);
                break;
            case Action::SaveAs:
                if (r.path.empty()) {
                    dialog_purpose_ = DialogPurpose::SaveAs;
                    file_dialog_.open("Save scene as", FileDialog::Mode::Save, {".json"}, ctx_.scene.origin.dir);
                } else {
                    save_to(r.path);
                }
                break;
            case Action::Regrow:
                if (!ctx_.jobs.busy()) start_content_job(runtime::ContentPlan::regrow_all(ctx_.scene), "Growing hair");
                break;
            case Action::RebuildSdf:
                if (!ctx_.jobs.busy()) start_content_job(runtime::ContentPlan::rebuild_all_sdfs(ctx_.scene), "Building SDFs");
                break;
            case Action::Reset:
                if (Status s = live_->reset_simulation(); !s) ctx_.report_error(s.error().message);
                ctx_.playing = false;
                ctx_.timeline.seek_target.reset();
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
            case Action::FrameSelected: {
                // The selected group's hair, else every group's, else everything.
                render::SceneBounds b;
                for (size_t gi = 0; gi < ctx_.scene.hair_groups.size(); ++gi)
                    if (ctx_.selected_group < 0 || size_t(ctx_.selected_group) == gi) {
                        const render::SceneBounds h = live_->hair_bounds(gi);
                        if (!h.empty()) b.add(h.min_m), b.add(h.max_m);
                    }
                if (b.empty()) b = live_->bounds();
                if (!b.empty()) ctx_.camera.frame_bounds(b.min_m, b.max_m, 1.1);
                break;
            }
            case Action::SelectGroup:
                ctx_.selected_group = r.amount >= 0.0 && size_t(r.amount) < ctx_.scene.hair_groups.size() ? int(r.amount) : -1;
                break;
            case Action::ViewFront: ctx_.camera.yaw_deg = 0.0, ctx_.camera.pitch_deg = 0.0; break;
            case Action::ViewSide: ctx_.camera.yaw_deg = 90.0, ctx_.camera.pitch_deg = 0.0; break;
            case Action::ViewTop: ctx_.camera.yaw_deg = 0.0, ctx_.camera.pitch_deg = 89.0; break;
            case Action::Export: start_export(r); break;
            case Action::Recover:
                if (Status s = recover(); !s) ctx_.report_error(s.error().message);
                offer_recovery_ = false;
                break;
            case Action::DiscardRecovery:
                ctx_.discard_recovery();
                offer_recovery_ = false;
                break;
            case Action::Quit:
                if (ctx_.dirty() && !script_ && options_.max_frames == 0) {
                    confirm_close_ = true;
                } else {
                    quit_now_ = true;
                    shell_->close();
                }
                break;
            case Action::Screenshot: screenshot_ = fs::path(r.path); break;
            case Action::DumpPositions: dump_positions(r.path); break;
            case Action::Orbit: ctx_.camera.yaw_deg += r.amount; break;
            case Action::SaveStats: save_stats(r.path); break;
            case Action::FindParameter: ctx_.param_filter = r.path; break;
            case Action::ProbeSlice:
                if (r.amount < 0.0 || r.amount2 < 0.0) scripted_probe_.reset();
                else scripted_probe_ = ImVec2(float(std::min(r.amount, 1.0)), float(std::min(r.amount2, 1.0)));
                break;
            case Action::Cancel:
                ctx_.jobs.cancel();
                if (turntable_) {
                    ctx_.add_log(Severity::Warning, "turntable", "cancelled after " + std::to_string(turntable_->next) + " of " +
                                                                     std::to_string(turntable_->count) + " images");
                    turntable_.reset();
                }
                break;
            case Action::ResetLayout:
                layout_reset_ = true;
                for (auto& p : panels_) p->open = true;
                if (std::error_code ec; !layout_file_.empty()) fs::remove(layout_file_, ec);
                ctx_.add_log(Severity::Info, "layout", "every panel back to the default layout");
                break;
            case Action::ShowLighting: ctx_.select_lighting_tab = true; break;
            case Action::ApplyFix: apply_fix(r.path); break;
            case Action::Stroke: start_scripted_stroke(r.path); break;
            case Action::ReleaseGuides: release_guides(int(r.amount)); break;
            case Action::Part: {
                nlohmann::json k = nlohmann::json::parse(r.path, nullptr, false);
                const glm::vec2 size(viewport_max_.x - viewport_min_.x, viewport_max_.y - viewport_min_.y);
                const bool fractions = k.contains("points");
                const auto& pts = k[fractions ? "points" : "points_px"];
                if (k.contains("group")) ctx_.selected_group = k["group"].get<int>();
                std::vector<glm::vec2> path;
                for (const auto& q : pts) path.push_back(glm::vec2(q[0].get<float>(), q[1].get<float>()) * (fractions ? size : glm::vec2(1.0f)));
                apply_part_path(path);
                break;
            }
            case Action::DismissAdvice:
                std::erase_if(ctx_.advice, [&](const Diagnostic& d) { return d.code == r.path; });
                break;
            case Action::PlaceWindow: place_window_ = r; break;
            case Action::Turntable: {
                const int count = int(std::lround(r.amount));
                std::error_code ec;
                fs::create_directories(r.path, ec);
                if (ec || count < 1 || count > 3600) {
                    ctx_.report_error("turntable: cannot write " + std::to_string(count) + " images into " + r.path +
                                      (ec ? " (" + ec.message() + ")" : std::string(" (1 to 3600 images)")));
                    break;
                }
                if (!live_->content()) {
                    ctx_.report_error("turntable: there is no scene to capture yet");
                    break;
                }
                turntable_ = Turntable{fs::absolute(r.path), count, 0, ctx_.camera.yaw_deg};
                break;
            }
            case Action::Seek: seek(uint64_t(std::max(0.0, std::round(r.amount)))); break;
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Scripts: the host side (script_runner.h)

void EditorApp::save_stats(const fs::path& path) {
    const FrameStats& st = ctx_.stats;
    nlohmann::json j;
    j["fps"] = st.fps();
    j["frames_measured"] = st.frame_s.size();
    j["device"] = shell_->device().info().name;
    j["viewport"] = {{"width", st.viewport_px[0]}, {"height", st.viewport_px[1]}, {"scale", st.viewport_scale},
                     {"interactive", st.interactive}};
    j["hair_lod"] = {{"strands_total", st.hair_lod.strands_total},       {"strands_drawn", st.hair_lod.strands_drawn},
                     {"vertices_per_strand", st.hair_lod.vertices_per_strand}, {"vertices_total", st.hair_lod.vertices_total},
                     {"width_scale", st.hair_lod.width_scale}};
    nlohmann::json passes = nlohmann::json::object();
    if (!st.history.empty())
        for (auto& p : st.history.back()) passes[p.name] = p.ms;
    j["gpu_ms"] = passes;
    j["strands"] = st.strands;
    if (ctx_.last_export.valid) {
        const auto& e = ctx_.last_export;
        nlohmann::json files = nlohmann::json::array();
        for (const auto& [file, bytes] : e.files) files.push_back({{"path", file}, {"bytes", bytes}});
        j["last_export"] = {{"ok", e.ok}, {"format", e.format}, {"error", e.error}, {"files", files}, {"guides", e.guides},
                            {"follows", e.follows}, {"guide_vertices", e.vertices}, {"warnings", e.warnings}};
    } else {
        j["last_export"] = nullptr;
    }
    if (st.health.valid)
        j["health"] = {{"max_stretch", st.health.max_stretch}, {"mean_stretch", st.health.mean_stretch},
                       {"guide_vertices_inside", st.health.inside}, {"deepest_m", st.health.deepest_m},
                       {"non_finite", st.health.non_finite}, {"at_s", st.health.at_s}};
    else
        j["health"] = nullptr;
    // The parameters the last frame drew (the layout check reads `clipped`).
    nlohmann::json drawn = nlohmann::json::array();
    for (const auto& d : ctx_.drawn_params)
        drawn.push_back({{"panel", d.panel}, {"key", d.key}, {"label", d.label}, {"clipped", d.clipped}, {"below", d.below}});
    j["parameters_drawn"] = std::move(drawn);
    j["parameter_filter"] = ctx_.param_filter;
    // The slice probe's last reading (null where none: no slice, or the point misses it).
    if (slice_probe_) {
        const auto& p = *slice_probe_;
        auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
        j["slice_probe"] = {{"mesh", p.mesh},
                            {"density", p.density},
                            {"density_per_cm2", p.density_per_cm2},
                            {"point_m", {p.point_m.x, p.point_m.y, p.point_m.z}},
                            {"distance_m", num(p.distance_m)},
                            {"cell", {p.cell.x, p.cell.y, p.cell.z}},
                            {"cell_distance_m", num(p.cell_distance_m)},
                            {"cell_size_m", p.cell_size_m},
                            {"cell_mark", p.mark == kSdfCellCavity ? "cavity" : p.mark == kSdfCellSignJump ? "sign_jump" : "none"}};
    } else {
        j["slice_probe"] = nullptr;
    }
    // The windows as drawn, the remembered layout and the last turntable.
    nlohmann::json windows = nlohmann::json::object();
    for (const auto& [title, r] : ctx_.window_rects) windows[title] = {r[0], r[1], r[2], r[3]};
    windows["Viewport"] = {viewport_min_.x, viewport_min_.y, viewport_max_.x - viewport_min_.x, viewport_max_.y - viewport_min_.y};
    j["windows"] = std::move(windows);
    j["layout_file"] = layout_file_.string();
    j["selected_group"] = ctx_.selected_group;
    // What the status bar shows: the running job with its progress (Cancel beside it), or ready.
    if (const Job* job = ctx_.jobs.current())
        j["status"] = {{"job", job->title}, {"stage", job->progress->stage()}, {"progress", job->progress->fraction()}, {"cancel", true}};
    else if (turntable_)
        j["status"] = {{"job", "Capturing turntable"}, {"progress", double(turntable_->next) / double(std::max(turntable_->count, 1))}, {"cancel", true}};
    else
        j["status"] = {{"job", nullptr}, {"cancel", false}};
    j["camera_now"] = {{"target_m", {ctx_.camera.target_m.x, ctx_.camera.target_m.y, ctx_.camera.target_m.z}},
                       {"distance_m", ctx_.camera.distance_m},
                       {"yaw_deg", ctx_.camera.yaw_deg},
                       {"pitch_deg", ctx_.camera.pitch_deg}};
    nlohmann::json advice = nlohmann::json::array();
    for (const Diagnostic& d : ctx_.advice) {
        nlohmann::json fixes = nlohmann::json::array();
        for (const DiagnosticFix& f : d.fixes) fixes.push_back({{"label", f.label}, {"path", f.path}, {"value", f.value_json}});
        advice.push_back({{"code", d.code}, {"message", d.message}, {"fixes", std::move(fixes)}});
    }
    j["advice"] = std::move(advice);
    j["last_turntable"] = last_turntable_.is_null() ? nlohmann::json(nullptr) : last_turntable_;
    // The slice's diagnosis of its field and mesh (sdf/sdf_check.h), as the legend states it.
    if (const render::SliceView& sv = live_->slice(); sv.width_px > 0 && ctx_.scene.view.show_slice)
        j["slice_check"] = {{"checked", sv.checked},
                            {"cavity_cells", sv.cavity_cells},
                            {"cavity_regions", sv.cavity_regions},
                            {"sign_jump_cells", sv.sign_jump_cells},
                            {"sign_jump_regions", sv.sign_jump_regions},
                            {"plane_cavity_cells", sv.plane_cavity_cells},
                            {"plane_sign_jump_cells", sv.plane_sign_jump_cells},
                            {"open_edges", sv.open_edges},
                            {"non_manifold_edges", sv.non_manifold_edges},
                            {"inconsistent_edges", sv.inconsistent_edges},
                            {"inside_out", sv.inside_out},
                            {"edge_segments_drawn", sv.edge_colours.size()}};
    else
        j["slice_check"] = nullptr;
    // A hair density slice: what its legend states.
    if (const render::SliceView& sv = live_->slice(); sv.width_px > 0 && ctx_.scene.view.show_slice && sv.density)
        j["slice_density"] = {{"full_per_cm2", sv.density_full_per_cm2},
                              {"target_per_cm2", sv.density_target_per_cm2},
                              {"plane_m", sv.plane_m},
                              {"cell_m", sv.cell_size_m},
                              {"steps", live_->world() ? live_->world()->clock.steps : 0}};
    else
        j["slice_density"] = nullptr;
    // Memory, for soak runs: the process's resident set, and what the GPU holds (bytes the device allocated
    // and its live objects).
    malloc_trim(0);  // what the allocator keeps of freed memory is not the editor's
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    gpu::Device& device = shell_->device();
    uint64_t gpu_bytes = 0;
    for (int i = 0; i < 4; ++i) gpu_bytes += device.allocated_bytes(static_cast<gpu::MemoryIntent>(i));
    const struct mallinfo2 heap = mallinfo2();
    j["memory"] = {{"resident_bytes", uint64_t(resident) * uint64_t(sysconf(_SC_PAGESIZE))},
                   {"heap_bytes", uint64_t(heap.uordblks + heap.hblkhd)},
                   {"gpu_bytes", gpu_bytes},
                   {"gpu_objects", device.live_objects()},
                   {"log_entries", ctx_.log.size()}};
    j["elapsed_s"] = now_s(ctx_);
    j["frames_drawn"] = frames_drawn_;
    j["validation_errors"] = device.validation_error_count();
    auto written = write_file_atomic(path, std::string_view(j.dump(2) + "\n"));
    if (written) ctx_.add_log(Severity::Info, "stats", "wrote " + path.string());
    else ctx_.report_error("saving the stats: " + written.error().message);
}

void EditorApp::seek(uint64_t frame) {
    if (!live_->world()) return;
    ctx_.playing = false;
    const uint64_t now = live_->frames_stepped();
    if (frame < now) {
        // The simulation cannot run backwards: from the start again, a few frames per drawn frame.
        if (Status s = live_->reset_simulation(); !s) return ctx_.report_error(s.error().message);
    }
    ctx_.timeline.seek_from = live_->frames_stepped();
    ctx_.timeline.seek_target = frame;
}

bool EditorApp::busy() const {
    if (ctx_.jobs.busy() || ctx_.timeline.seek_target || turntable_ || scripted_stroke_ || brush_.stroking()) return true;
    return live_->content() && live_->plan(ctx_.scene).any() && !(content_failed_ && failed_scene_ == ctx_.scene);
}

Status EditorApp::set_value(const std::string& path, const nlohmann::json& value) {
    if (Status s = set_scene_value(ctx_, path, value); !s) {
        ctx_.add_log(Severity::Warning, "set", "refused " + value.dump() + ": " + s.error().message);
        return s;
    }
    ctx_.commit();
    return {};
}

std::optional<std::string> EditorApp::take_error() {
    auto e = std::move(ctx_.modal_error);
    ctx_.modal_error.reset();
    return e;
}

// ---------------------------------------------------------------------------------------------------
// UI

void EditorApp::draw_viewport(float x, float y, float w, float h) {
    const ImGuiCond cond = layout_reset_ ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    ImGui::SetNextWindowPos(ImVec2(x, y), cond);
    ImGui::SetNextWindowSize(ImVec2(w, h), cond);
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
    if (ImGui::SmallButton("Frame (F)")) ctx_.request(Action::FrameSelected);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("frame the hair group selected in the Groom panel (all hair when none is); with a brush chosen, F sets the brush radius instead");
    ImGui::SameLine();
    if (ImGui::SmallButton("All (A)")) ctx_.request(Action::FrameAll);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("frame the whole scene");
    ImGui::SameLine();
    if (ImGui::SmallButton(ctx_.playing ? "Pause" : "Play")) ctx_.request(ctx_.playing ? Action::Pause : Action::Play);
    ImGui::SameLine();
    // Debug colourings of the hair (view.colour_by).
    static const char* colourings[] = {"shaded", "by guide", "stretch", "collision depth", "root to tip", "moved / degenerate"};
    int colouring = int(v.colour_by);
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("moved / degenerate").x + ImGui::GetFrameHeight() * 2.0f);
    if (ImGui::Combo("##colour_by", &colouring, colourings, IM_ARRAYSIZE(colourings))) v.colour_by = HairColouring(colouring);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", param_tooltip(ctx_, "view", "colour_by").c_str());
    draw_brush_toolbar();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    avail.x = std::max(avail.x, 8.0f);
    avail.y = std::max(avail.y, 8.0f);
    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("viewport", avail, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
    const bool hovered = ImGui::IsItemHovered(), dragging = ImGui::IsItemActive();
    // With a brush chosen the left button strokes (Alt + left still orbits, as in Maya).
    const bool brushing = brush_.stroking() || ((brush_.active() || part_tool_) && !ImGui::GetIO().KeyAlt && ImGui::IsMouseDown(ImGuiMouseButton_Left)) ||
                          brush_adjust_ != BrushAdjust::None || part_from_.has_value();
    handle_camera_input(ctx_.camera, avail, hovered, dragging && !brushing);
    viewport_min_ = pos;
    viewport_max_ = ImVec2(pos.x + avail.x, pos.y + avail.y);
    presenter_->add_to(ImGui::GetWindowDrawList(), viewport_min_, viewport_max_);
    handle_brush_input(pos, avail, hovered);
    draw_slice_overlays(pos, avail, hovered, dragging && !brushing);
    draw_advice(ImVec2(pos.x + 4.0f, pos.y + 4.0f), avail.x - 8.0f);
    if (!live_->content()) {
        ImGui::GetWindowDrawList()->AddText(ImVec2(pos.x + 12, pos.y + 12), IM_COL32(200, 200, 200, 255), "No scene: File > Open, or drop a scene or mesh here");
    }
    ImGui::End();
}

namespace {

// A length for the overlays: millimetres below a metre.
std::string length_text(double m, bool sign = false) {
    char buf[48];
    if (std::abs(m) < 1.0) std::snprintf(buf, sizeof buf, sign ? "%+.2f mm" : "%.2f mm", m * 1000.0);
    else std::snprintf(buf, sizeof buf, sign ? "%+.3f m" : "%.3f m", m);
    return buf;
}

ImU32 im_colour(glm::vec3 c, float alpha = 1.0f) {
    return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, alpha));
}

// Lines of text on a dark box at `at` (its top left), kept inside [lo, hi].
void text_box(ImDrawList* dl, ImVec2 at, ImVec2 lo, ImVec2 hi, const std::vector<std::string>& lines) {
    float w = 0.0f, h = 0.0f;
    for (const std::string& l : lines) {
        ImVec2 t = ImGui::CalcTextSize(l.c_str());
        w = std::max(w, t.x);
        h += ImGui::GetTextLineHeightWithSpacing();
    }
    const float pad = 5.0f;
    at.x = std::clamp(at.x, lo.x, std::max(lo.x, hi.x - w - 2 * pad));
    at.y = std::clamp(at.y, lo.y, std::max(lo.y, hi.y - h - 2 * pad));
    dl->AddRectFilled(at, ImVec2(at.x + w + 2 * pad, at.y + h + 2 * pad), IM_COL32(20, 22, 26, 225), 4.0f);
    float y = at.y + pad;
    for (const std::string& l : lines) {
        dl->AddText(ImVec2(at.x + pad, y), IM_COL32(235, 235, 235, 255), l.c_str());
        y += ImGui::GetTextLineHeightWithSpacing();
    }
}

}  // namespace

// The SDF slice explains itself: a legend of its colours and lines (in metres and cells) in the viewport's
// corner, and the reading under the mouse (or a script's point): the signed distance, where it is, the cell.
void EditorApp::draw_slice_overlays(ImVec2 pos, ImVec2 size, bool hovered, bool dragging) {
    slice_probe_.reset();
    const render::SliceView& slice = live_->slice();
    if (!ctx_.scene.view.show_slice || slice.width_px == 0 || !live_->content()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 lo = pos, hi(pos.x + size.x, pos.y + size.y);
    const SliceStyle style;  // the runtime's colours (it sets only the margin and the range)
    static const char* axes[] = {"x", "y", "z"};
    const char* axis = axes[std::clamp(slice.axis, 0, 2)];
    const double cell = slice.cell_size_m;
    if (slice.density) {
        // The hair density slice's legend: its colour bar from no hair to full, the target contour.
        const float bar_w = 180.0f, bar_h = 10.0f, line = ImGui::GetTextLineHeightWithSpacing();
        char head[160], ends[64], target[160];
        std::snprintf(head, sizeof head, "Hair density slice %s = %.4f m (node %d of %d, cells of %s)", axis, slice.plane_m, slice.index,
                      slice.cells_along, length_text(cell).c_str());
        std::snprintf(ends, sizeof ends, "0 .. %.1f hairs/cm^2", slice.density_full_per_cm2);
        std::snprintf(target, sizeof target, "white line: volume_density, %.1f hairs/cm^2 (denser hair is pushed apart when volume is on)",
                      slice.density_target_per_cm2);
        const std::string rows[] = {"black: no hair; brighter: denser", target, "remade a few times a second while the hair moves"};
        float box_w = 300.0f;
        for (const std::string& r : rows) box_w = std::max(box_w, 12.0f + ImGui::CalcTextSize(r.c_str()).x);
        box_w = std::max(box_w, 12.0f + ImGui::CalcTextSize(head).x);
        const float box_h = 8.0f + line + bar_h + 4.0f + line * 3.0f + 6.0f;
        ImVec2 at(lo.x + 8.0f, hi.y - box_h - 8.0f);
        dl->AddRectFilled(at, ImVec2(at.x + box_w, at.y + box_h), IM_COL32(20, 22, 26, 215), 4.0f);
        float y = at.y + 5.0f;
        dl->AddText(ImVec2(at.x + 6.0f, y), IM_COL32(235, 235, 235, 255), head);
        y += line;
        const int segments = 48;
        for (int i = 0; i < segments; ++i) {
            const float x0 = at.x + 6.0f + bar_w * float(i) / segments, x1 = at.x + 6.0f + bar_w * float(i + 1) / segments;
            dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + bar_h), im_colour(render::density_colour((i + 0.5) / segments, 1.0)));
        }
        dl->AddText(ImVec2(at.x + 12.0f + bar_w, y - 3.0f), IM_COL32(235, 235, 235, 255), ends);
        y += bar_h + 4.0f;
        for (const std::string& r : rows) {
            dl->AddText(ImVec2(at.x + 6.0f, y), IM_COL32(235, 235, 235, 255), r.c_str());
            y += line;
        }
    }
    // The legend: the colour bar from -range (inside) to +range (outside), its ends in metres and cells, then
    // the lines the slice draws.
    if (!slice.density) {
        // The rows under the bar: a swatch and a line each.
        std::vector<std::pair<glm::vec3, std::string>> rows = {
            {style.inside_rgb, "blue: inside the mesh (distance < 0)"},
            {style.outside_rgb, "orange: outside (distance > 0)"},
            {style.zero_rgb + glm::vec3(0.25f), "black line: the surface (distance 0)"},
            {style.margin_rgb, slice.margin_m >= 0.0 ? "yellow line: the margin, " + length_text(slice.margin_m) + " out"
                                                     : std::string("yellow line: the margin (none)")},
            {glm::vec3(0.55f), slice.isoline_m > 0.0 ? "darker lines: every " + length_text(slice.isoline_m) + " (" +
                                                           std::to_string(int(std::lround(slice.isoline_m / std::max(cell, 1e-12)))) + " cells)"
                                                     : std::string("darker lines: none")},
            {style.unwritten_rgb, "magenta: no distance (outside the band)"},
        };
        // The field's diagnosis (sdf/sdf_check.h): a cavity and a sign error look different.
        if (slice.checked) {
            rows.push_back({style.cavity_rgb, "green stripes: cavity, enclosed by the surface: " +
                                                  std::to_string(slice.cavity_regions) + " in the field, " +
                                                  std::to_string(slice.plane_cavity_cells) + " cells here"});
            rows.push_back({style.sign_jump_rgb, "red stripes: sign flips with no surface: " +
                                                     std::to_string(slice.sign_jump_cells) + " cells, " +
                                                     std::to_string(slice.plane_sign_jump_cells) + " here"});
        } else {
            rows.push_back({glm::vec3(0.4f), "no cavity / sign check (the field is posed)"});
        }
        const uint64_t bad_edges = slice.open_edges + slice.non_manifold_edges + slice.inconsistent_edges;
        rows.push_back({bad_edges ? glm::vec3(1.0f, 0.15f, 0.1f) : glm::vec3(0.4f),
                        bad_edges ? "mesh edges drawn: " + std::to_string(slice.open_edges) + " open (red), " +
                                        std::to_string(slice.non_manifold_edges) + " non-manifold (yellow), " +
                                        std::to_string(slice.inconsistent_edges) + " mis-wound (magenta)"
                                  : std::string("mesh: closed, manifold, consistently wound")});
        std::string verdict;
        if (slice.checked && slice.sign_jump_cells > 0)
            verdict = "The sign is doubtful where striped red: mend the mesh's open edges, or try sign 'winding'.";
        else if (slice.checked && slice.cavity_regions > 0)
            verdict = "Outside pockets inside the mesh are cavities of its surface, not sign errors.";
        if (!verdict.empty()) rows.push_back({glm::vec3(-1.0f), verdict});

        const float bar_w = 180.0f, bar_h = 10.0f, line = ImGui::GetTextLineHeightWithSpacing();
        float box_w = 300.0f;
        for (const auto& r : rows) box_w = std::max(box_w, 40.0f + ImGui::CalcTextSize(r.second.c_str()).x);
        box_w = std::min(box_w, std::max(size.x - 16.0f, 300.0f));
        const float box_h = 8.0f + line + bar_h + 4.0f + line * float(rows.size()) + 6.0f;
        ImVec2 at(lo.x + 8.0f, hi.y - box_h - 8.0f);
        dl->AddRectFilled(at, ImVec2(at.x + box_w, at.y + box_h), IM_COL32(20, 22, 26, 215), 4.0f);
        float y = at.y + 5.0f;
        char head[128];
        std::snprintf(head, sizeof head, "SDF slice %s = %.4f m (cell %d of %d)", axis, slice.plane_m, slice.index, slice.cells_along);
        dl->AddText(ImVec2(at.x + 6.0f, y), IM_COL32(235, 235, 235, 255), head);
        y += line;
        const int segments = 48;
        for (int i = 0; i < segments; ++i) {
            const double d0 = slice.range_m * (2.0 * (i + 0.5) / segments - 1.0);
            const float x0 = at.x + 6.0f + bar_w * float(i) / segments, x1 = at.x + 6.0f + bar_w * float(i + 1) / segments;
            dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + bar_h), im_colour(slice_colour(d0, slice.range_m, style)));
        }
        char ends[96];
        std::snprintf(ends, sizeof ends, "+-%s (%.1f cells)", length_text(slice.range_m).c_str(), cell > 0.0 ? slice.range_m / cell : 0.0);
        dl->AddText(ImVec2(at.x + 12.0f + bar_w, y - 3.0f), IM_COL32(235, 235, 235, 255), ends);
        y += bar_h + 4.0f;
        for (const auto& [colour, text] : rows) {
            if (colour.x >= 0.0f)
                dl->AddRectFilled(ImVec2(at.x + 6.0f, y + 3.0f), ImVec2(at.x + 22.0f, y + line - 5.0f), im_colour(colour));
            dl->AddText(ImVec2(at.x + (colour.x >= 0.0f ? 28.0f : 6.0f), y), IM_COL32(235, 235, 235, 255), text.c_str());
            y += line;
        }
    }
    // The probe: under a script's point, or under the mouse while it rests on the viewport.
    std::optional<ImVec2> at;
    if (scripted_probe_) at = ImVec2(lo.x + scripted_probe_->x * size.x, lo.y + scripted_probe_->y * size.y);
    else if (hovered && !dragging) at = ImGui::GetMousePos();
    if (!at) return;
    // The camera's ray through the point: Vulkan's clip space has y down, depth 0 at the near plane.
    const double aspect = double(size.x) / double(std::max(size.y, 1.0f));
    const glm::dmat4 inv = glm::inverse(glm::dmat4(ctx_.camera.view_projection(aspect)));
    const double nx = 2.0 * (at->x - lo.x) / size.x - 1.0, ny = 2.0 * (at->y - lo.y) / size.y - 1.0;
    glm::dvec4 n = inv * glm::dvec4(nx, ny, 0.0, 1.0), f = inv * glm::dvec4(nx, ny, 1.0, 1.0);
    const glm::dvec3 near_m = glm::dvec3(n) / n.w, far_m = glm::dvec3(f) / f.w;
    slice_probe_ = live_->probe_slice(near_m, far_m - near_m);
    dl->AddCircle(*at, 4.0f, IM_COL32(255, 255, 255, 230), 12, 1.5f);
    if (!slice_probe_) return;
    const auto& p = *slice_probe_;
    std::vector<std::string> lines;
    char buf[200];
    if (p.density) {
        std::snprintf(buf, sizeof buf, "hair group '%s' at (%.4f, %.4f, %.4f) m", p.mesh.c_str(), p.point_m.x, p.point_m.y, p.point_m.z);
        lines.push_back(buf);
        std::snprintf(buf, sizeof buf, "density %.2f hairs/cm^2: %s volume_density (%.1f)", p.density_per_cm2,
                      p.density_per_cm2 > p.target_per_cm2 ? "above" : "below", p.target_per_cm2);
        lines.push_back(buf);
        std::snprintf(buf, sizeof buf, "nearest node (%d, %d, %d), cells of %s", p.cell.x, p.cell.y, p.cell.z, length_text(p.cell_size_m).c_str());
        lines.push_back(buf);
        text_box(dl, ImVec2(at->x + 14.0f, at->y + 10.0f), lo, hi, lines);
        return;
    }
    std::snprintf(buf, sizeof buf, "field '%s' at (%.4f, %.4f, %.4f) m", p.mesh.c_str(), p.point_m.x, p.point_m.y, p.point_m.z);
    lines.push_back(buf);
    if (std::isfinite(p.distance_m)) {
        const char* where = p.distance_m < 0.0 ? "inside the mesh"
                            : p.margin_m >= 0.0 && p.distance_m < p.margin_m ? "outside, within the margin: hair is pushed out"
                                                                               : "outside";
        std::snprintf(buf, sizeof buf, "distance %s (%+.2f cells): %s", length_text(p.distance_m, true).c_str(),
                      p.cell_size_m > 0.0 ? p.distance_m / p.cell_size_m : 0.0, where);
    } else {
        std::snprintf(buf, sizeof buf, "no distance here: cells outside the field's band");
    }
    lines.push_back(buf);
    std::snprintf(buf, sizeof buf, "cell (%d, %d, %d): %s", p.cell.x, p.cell.y, p.cell.z,
                  std::isfinite(p.cell_distance_m) ? length_text(p.cell_distance_m, true).c_str() : "no distance");
    lines.push_back(buf);
    if (p.mark == kSdfCellCavity) lines.push_back("a cavity: outside, but enclosed by the surface");
    if (p.mark == kSdfCellSignJump) lines.push_back("sign in doubt: it flips here with no surface between");
    text_box(dl, ImVec2(at->x + 14.0f, at->y + 10.0f), lo, hi, lines);
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
                    shell_->close();
                }
                confirm_close_ = false;
                ImGui::CloseCurrentPopup();
            }
            ImGui::SameLine();
            if (ImGui::Button("Quit without saving")) {
                quit_now_ = true;
                shell_->close();
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
    if (offer_recovery_ && !ctx_.jobs.busy()) {
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
    ctx_.drawn_params.clear();
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
            if (ImGui::MenuItem("Capture turntable...", nullptr, false, live_->content() != nullptr && !turntable_)) {
                turntable_dialog_ = true;
                if (turntable_dir_.empty())
                    turntable_dir_ = ((ctx_.scene_path.empty() ? fs::current_path() : ctx_.scene_path.parent_path()) / "turntable").string();
            }
            ImGui::Separator();
            if (ImGui::MenuItem("Quit", "Ctrl+Q")) ctx_.request(Action::Quit);
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Edit")) {
            if (ImGui::MenuItem("Undo", "Ctrl+Z", false, !ctx_.history.undo.empty())) ctx_.request(Action::Undo);
            if (ImGui::MenuItem("Redo", "Ctrl+Y", false, !ctx_.history.redo.empty())) ctx_.request(Action::Redo);
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Window")) {
            for (auto& p : panels_) ImGui::MenuItem(p->title(), nullptr, &p->open);
            ImGui::Separator();
            if (ImGui::MenuItem("Lighting")) ctx_.request(Action::ShowLighting);
            if (ImGui::MenuItem("Reset layout")) ctx_.request(Action::ResetLayout);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("every panel back where it starts, and open (the layout is remembered per window size)");
            ImGui::EndMenu();
        }
        // The parameter search: every panel then lists only the parameters whose display name or JSON key
        // contains the text.
        char find[128];
        std::snprintf(find, sizeof find, "%s", ctx_.param_filter.c_str());
        ImGui::SetNextItemWidth(220.0f);
        if (ImGui::InputTextWithHint("##find_parameter", "find a parameter (name or key)", find, sizeof find))
            ctx_.param_filter = find;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("lists only the parameters whose display name or JSON key contains this text, in every panel");
        ImGui::TextDisabled("   %s%s", ctx_.scene_path.empty() ? "(unsaved scene)" : ctx_.scene_path.filename().c_str(), ctx_.dirty() ? " *" : "");
        ImGui::EndMainMenuBar();
    }
    // Below the menu bar (the viewport's work area takes the bar's height only from the next frame, and the
    // first frame's placement is the one kept).
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float bar = ImGui::GetFrameHeight();
    const float status_h = ImGui::GetFrameHeightWithSpacing() + 4.0f;  // the status bar along the bottom
    float top = vp->Pos.y + bar, w = vp->Size.x, h = vp->Size.y - bar - status_h;
    float left = std::max(300.0f, w * 0.23f), right = std::max(300.0f, w * 0.25f);
    float centre = w - left - right, view_h = h * 0.66f;
    const ImGuiCond cond = layout_reset_ ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    auto place = [cond](float x, float y, float ww, float hh) {
        ImGui::SetNextWindowPos(ImVec2(x, y), cond);
        ImGui::SetNextWindowSize(ImVec2(ww, hh), cond);
    };
    draw_viewport(left, top, centre, view_h);
    place(0, top, left, h * 0.42f);
    panels_[0]->draw_window(ctx_);  // Scene
    place(0, top + h * 0.42f, left, h * 0.58f);
    panels_[1]->draw_window(ctx_);  // Groom
    place(w - right, top, right, h * 0.36f);
    panels_[2]->draw_window(ctx_);  // Simulation
    place(w - right, top + h * 0.36f, right, h * 0.28f);
    panels_[3]->draw_window(ctx_);  // Collision
    place(w - right, top + h * 0.64f, right, h * 0.36f);
    panels_[4]->draw_window(ctx_);  // Shading: tall enough for the Lighting tab without scrolling
    place(left + centre * 0.45f, top + view_h, centre * 0.30f, h - view_h);
    panels_[5]->draw_window(ctx_);  // Stats
    place(left, top + view_h, centre * 0.45f, h - view_h);
    panels_[6]->draw_window(ctx_);  // Log
    place(left + centre * 0.75f, top + view_h, centre * 0.25f, h - view_h);
    panels_[7]->draw_window(ctx_);  // Export
    layout_reset_ = false;
    // A script's window placement, as a drag would leave it (applied inside the frame, after the windows
    // exist).
    if (place_window_) {
        ImGui::SetWindowPos(place_window_->path.c_str(), ImVec2(place_window_->rect[0], place_window_->rect[1]));
        ImGui::SetWindowSize(place_window_->path.c_str(), ImVec2(place_window_->rect[2], place_window_->rect[3]));
        ImGui::GetIO().WantSaveIniSettings = true;  // remembered as a drag's end is
        place_window_.reset();
    }
    draw_status_bar(ImVec2(vp->Pos.x, top + h), ImVec2(w, status_h));
    draw_turntable_dialog();


    draw_modals();
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
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) ctx_.request(Action::Quit);
    // With a brush chosen, F and Shift+F set its radius and strength (Blender's sculpt keys), 1 to 8 pick a
    // brush, X toggles X symmetry, Esc goes back to the camera; without one, F frames the selected group.
    if (!ctrl && !io.WantCaptureKeyboard && brush_.active() && !brush_.stroking() && ImGui::IsKeyPressed(GLFW_KEY_F, false) &&
        brush_adjust_ == BrushAdjust::None) {
        brush_adjust_ = io.KeyShift ? BrushAdjust::Strength : BrushAdjust::Radius;
        adjust_before_ = io.KeyShift ? brush_.settings.strength : brush_.settings.radius_px;
        const float d = io.KeyShift ? brush_.settings.strength * 200.0f : brush_.settings.radius_px;
        adjust_anchor_ = ImVec2(io.MousePos.x - d, io.MousePos.y);
    } else if (!ctrl && !io.WantCaptureKeyboard && ImGui::IsKeyPressed(GLFW_KEY_F, false) && !brush_.active()) {
        ctx_.request(Action::FrameSelected);
    }
    if (!ctrl && !io.WantCaptureKeyboard && !brush_.stroking()) {
        // 1 to 8 the guide brushes, Shift + 1 to 4 the scalp paint layers.
        for (int i = 0; i < 8; ++i)
            if (ImGui::IsKeyPressed(GLFW_KEY_1 + i, false)) {
                if (io.KeyShift && i < 4) choose_tool({}, kAllPaintLayers[i], false);
                else if (!io.KeyShift) choose_tool(kBrushButtons[i].type, {}, false);
            }
        if (ImGui::IsKeyPressed(GLFW_KEY_9, false)) choose_tool({}, {}, true);
        if (brush_.active() && ImGui::IsKeyPressed(GLFW_KEY_X, false)) brush_.settings.symmetry_x = !brush_.settings.symmetry_x;
        if (brush_adjust_ == BrushAdjust::None && ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) choose_tool({}, {}, false);
    }
    if (!ctrl && !io.WantCaptureKeyboard && (ImGui::IsKeyPressed(GLFW_KEY_A, false) || ImGui::IsKeyPressed(GLFW_KEY_HOME, false)))
        ctx_.request(Action::FrameAll);
    if (!ctrl && !io.WantCaptureKeyboard && pressed(ImGuiKey_Space)) ctx_.request(ctx_.playing ? Action::Pause : Action::Play);
}

// ---------------------------------------------------------------------------------------------------
// Frames

void EditorApp::update_stats() {
    const SimWorld* world = live_->world();
    if (world) {
        ctx_.stats.sim_time_s = world->time_s();
        ctx_.stats.sim_steps = world->clock.steps;
    }
    EditorContext::Timeline& tl = ctx_.timeline;
    tl.frame = live_->frames_stepped();
    tl.rate_hz = world ? 1.0 / world->frame_dt_s() : ctx_.scene.environment.sim_rate_hz;
    const auto playing = live_->playback_info();
    tl.animated = playing.has_value();
    if (playing) {
        tl.clips = playing->clips;
        tl.clip = playing->clip;
        tl.clip_duration_s = playing->clip_duration_s;
        tl.clip_time_s = playing->clip_time_s;
        tl.blend_in_s = playing->blend_in_s;
        tl.start_s = playing->start_s;
        tl.speed = playing->speed;
        tl.loop = playing->loop;
    }
    const runtime::RuntimeCounts counts = live_->counts();
    ctx_.stats.guides = counts.guides;
    ctx_.stats.follows = counts.follows;
    ctx_.stats.strands = counts.guides + counts.follows;
    ctx_.stats.vertices = counts.guide_vertices + counts.follow_vertices;
    const gpu::Device& device = shell_->device();
    ctx_.gpu_bytes = device.allocated_bytes(gpu::MemoryIntent::DeviceLocal);
    ctx_.upload_bytes = device.allocated_bytes(gpu::MemoryIntent::Upload) + device.allocated_bytes(gpu::MemoryIntent::Constants);
    ctx_.readback_bytes = device.allocated_bytes(gpu::MemoryIntent::Readback);
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
    // The hair's health about once a second while the hair moves: read the positions back and measure the
    // guides (the follows are set aside: nothing here needs their million vertices).
    SimWorld* sim_world = live_->world();
    const auto now = std::chrono::steady_clock::now();
    if (!sim_world || !live_->content()) {
        ctx_.stats.health = {};
    } else if (now - last_health_ >= std::chrono::seconds(1) && (sim_world->clock.steps != health_steps_ || !ctx_.stats.health.valid)) {
        last_health_ = now;
        health_steps_ = sim_world->clock.steps;
        if (live_->download()) {
            std::vector<SimSdfOracle> oracles;
            for (const SimSdfState& f : sim_world->sdfs) {
                const SdfGrid* grid = f.grid;
                oracles.push_back([grid](glm::vec3 p) { return grid ? grid->sample_m(p) : 1.0f; });
            }
            std::vector<std::vector<glm::vec4>> follows(sim_world->groups.size());
            for (size_t i = 0; i < follows.size(); ++i) std::swap(follows[i], sim_world->groups[i].follow_positions);
            const SimFrameMetrics m = measure_frame(*sim_world, oracles);
            for (size_t i = 0; i < follows.size(); ++i) std::swap(follows[i], sim_world->groups[i].follow_positions);
            auto& h = ctx_.stats.health;
            h.valid = true;
            h.max_stretch = m.max_stretch;
            h.mean_stretch = m.mean_stretch;
            h.inside = m.vertices_inside;
            h.deepest_m = m.max_depth_vertex_m;
            h.non_finite = m.non_finite;
            h.at_s = sim_world->time_s();
        }
    }
    // A hair density slice follows the hair, about four times a second while it moves.
    if (sim_world && now - last_density_slice_ >= std::chrono::milliseconds(250)) {
        last_density_slice_ = now;
        if (auto r = live_->refresh_density_slice(); !r) ctx_.add_log(Severity::Warning, "slice", "hair density slice: " + r.error().message);
    }
    const render::SliceView& slice = live_->slice();
    ctx_.slice_info = {};
    if (slice.width_px > 0) {
        ctx_.slice_info.valid = true;
        ctx_.slice_info.axis = slice.axis;
        ctx_.slice_info.index = slice.index;
        ctx_.slice_info.cells = slice.cells_along;
        ctx_.slice_info.plane_m = slice.plane_m;
        ctx_.slice_info.grid_lo_m = slice.grid_min_m[slice.axis];
        ctx_.slice_info.grid_hi_m = slice.grid_max_m[slice.axis];
        ctx_.slice_info.cell_size_m = slice.cell_size_m;
    }
}

render::FrameDesc EditorApp::viewport_frame() const {
    render::FrameDesc desc;
    desc.camera = ctx_.camera;
    desc.lighting = ctx_.scene.lighting;
    desc.show_grid = ctx_.scene.view.show_grid;
    desc.show_collision = ctx_.scene.view.show_collision;
    desc.show_colliders = ctx_.scene.view.show_colliders;
    desc.show_slice = ctx_.scene.view.show_slice;
    desc.debug = runtime::hair_debug(ctx_.scene.view.colour_by);
    return desc;
}

Status EditorApp::render_frame() {
    auto begun = shell_->begin_frame();
    if (!begun) return begun.error();
    if (!*begun) return {};  // the swapchain was rebuilt: draw the next frame
    AppShell::Frame& frame = **begun;
    if (!frame.last_times.empty()) {
        ctx_.stats.history.push_back(std::move(frame.last_times));
        while (ctx_.stats.history.size() > 120) ctx_.stats.history.pop_front();
    }
    // Interactive quality: on a CPU device, while the camera turns or the hair moves, draw the viewport at
    // half size (the presenter stretches it) with 0.15 of the level-of-detail bias (at most a quarter
    // of the strands, widened to keep coverage) and the rasterizer's preview blending; refine once still.
    const auto now = std::chrono::steady_clock::now();
    const render::OrbitCamera& cam = ctx_.camera;
    const bool camera_moved = cam.yaw_deg != last_camera_.yaw_deg || cam.pitch_deg != last_camera_.pitch_deg ||
                              cam.distance_m != last_camera_.distance_m || cam.target_m != last_camera_.target_m ||
                              cam.fov_deg != last_camera_.fov_deg;
    last_camera_ = cam;
    const bool moving = camera_moved || ctx_.playing || sim_frames_this_frame_ > 0;
    if (moving) last_motion_ = now;
    still_frames_ = moving ? 0 : still_frames_ + 1;
    // A script refines after a count of still frames, not a time, so that what it captures does not
    // depend on the machine's speed.
    constexpr double kRefineAfterS = 0.3;
    constexpr uint64_t kScriptRefineAfterFrames = 2;
    const bool still = script_ ? still_frames_ >= kScriptRefineAfterFrames
                               : std::chrono::duration<double>(now - last_motion_).count() >= kRefineAfterS;
    ctx_.stats.interactive = shell_->device().info().is_cpu() && !still;
    ctx_.stats.viewport_scale = ctx_.stats.interactive ? 0.5 : 1.0;
    // Resize the render target with the viewport window (the old target is retired by the device).
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    const float vs = float(ctx_.stats.viewport_scale);
    const uint32_t vw = uint32_t(std::max(8.0f, (viewport_max_.x - viewport_min_.x) * scale.x * vs));
    const uint32_t vh = uint32_t(std::max(8.0f, (viewport_max_.y - viewport_min_.y) * scale.y * vs));
    TRESSEL_TRY(live_->resize(vw, vh));
    ctx_.stats.viewport_px[0] = vw;
    ctx_.stats.viewport_px[1] = vh;
    const gpu::Image& viewport_image = live_->renderer()->color_image();
    if (presented_image_ != &viewport_image || viewport_image.handle() != presented_handle_) {
        TRESSEL_TRY(presenter_->set_image(viewport_image));
        presented_image_ = &viewport_image;
        presented_handle_ = viewport_image.handle();
    }

    render::FrameDesc desc = viewport_frame();
    if (ctx_.stats.interactive) {
        desc.hair_lod_bias = 0.15;          // fewer strands and vertices than the automatic choice
        desc.hair_lod_max_fraction = 0.25;  // a quarter of the strands at most (each widened to keep coverage)
        desc.hair_preview = true;       // one depth-sorted fragment per pixel, the rest blended
    }
    live_->set_hair_visibility(ctx_.scene.view.show_guides, ctx_.scene.view.show_follows);
    if (sim_frames_this_frame_ > 0) {
        TRESSEL_TRY(live_->step(sim_frames_this_frame_, &frame.cmd, frame.sim_timestamps, frame.sim_timestamp_capacity));
    } else if (sim_elapsed_this_frame_s_ > 0.0) {
        auto ran = live_->advance(sim_elapsed_this_frame_s_, &frame.cmd, frame.sim_timestamps, frame.sim_timestamp_capacity);
        if (!ran) return ran.error();
    }
    TRESSEL_TRY(live_->record_render(frame.cmd, desc, frame.timestamps));
    ctx_.stats.hair_lod = live_->renderer()->hair_lod();

    std::optional<fs::path> shot = std::move(screenshot_);
    screenshot_.reset();
    Status shot_status;
    TRESSEL_TRY(shell_->finish_frame(std::move(frame), *presenter_, shot, &shot_status));
    if (shot) {
        if (shot_status) ctx_.add_log(Severity::Info, "screenshot", "wrote " + shot->string());
        else ctx_.report_error(shot_status.error().message);
    }
    return {};
}

int EditorApp::run() {
    if (Status s = init(); !s) {
        std::fprintf(stderr, "error: %s\n", s.error().message.c_str());
        return exit_code_ ? exit_code_ : 1;
    }
    uint64_t& frames = frames_drawn_;
    auto last = std::chrono::steady_clock::now();
    while (!shell_->should_close()) {
        shell_->poll_events();
        if (shell_->minimised()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        const auto now = std::chrono::steady_clock::now();
        const double elapsed_s = std::chrono::duration<double>(now - last).count();
        last = now;
        if (frames > 0) {
            ctx_.stats.frame_s.push_back(elapsed_s);
            while (ctx_.stats.frame_s.size() > 30) ctx_.stats.frame_s.pop_front();
        }
        for (const std::string& d : dropped_) open_path(d);
        dropped_.clear();
        ctx_.jobs.poll();
        if (script_ && exit_code_ == 0) {
            script_->tick(*this);
            if (script_->failure()) {
                std::fprintf(stderr, "script: %s\n", script_->failure()->c_str());
                exit_code_ = 5;
                quit_now_ = true;
                shell_->close();
            }
        }
        handle_requests();
        update_content();
        autosave();

        // Simulation this display frame: a Step (and every scripted "play" frame) runs exactly one frame;
        // play hands the wall time to the runtime, which keeps the scene's fixed rate.
        sim_frames_this_frame_ = 0;
        sim_elapsed_this_frame_s_ = 0.0;
        if (live_->world() && !ctx_.jobs.busy()) {
            if (ctx_.timeline.seek_target) {
                const uint64_t now_frame = live_->frames_stepped();
                if (now_frame >= *ctx_.timeline.seek_target) ctx_.timeline.seek_target.reset();
                else sim_frames_this_frame_ = uint32_t(std::min<uint64_t>(*ctx_.timeline.seek_target - now_frame, kSeekFramesPerDraw));
            }
            if (sim_frames_this_frame_ > 0) {
            } else if (step_once_) {
                sim_frames_this_frame_ = 1;
            } else if (ctx_.playing) {
                sim_elapsed_this_frame_s_ = elapsed_s;
            }
        }
        step_once_ = false;
        update_stats();
        if (turntable_ && live_->content()) capture_turntable_image();
        check_hair_cost();

        shell_->new_imgui_frame();
        handle_shortcuts();
        draw_ui();
        // A change becomes an undo step once no widget is held (document.h).
        if (!ImGui::IsAnyItemActive()) ctx_.commit();
        ctx_.sync_camera();
        ImGui::Render();
        if (ImGui::GetIO().WantSaveIniSettings) save_layout();
        if (Status r = render_frame(); !r) {
            // A frame that failed half-way (its image acquired, its commands not submitted) leaves the
            // frame's objects in no state to go on with: the GPU side starts again, the document stays.
            const std::string why = shell_->device().lost() ? "The GPU was lost (" + r.error().message + ")"
                                                            : "A frame failed on the GPU (" + r.error().message + ")";
            if (!restart_gpu(why)) {
                std::fprintf(stderr, "error: %s\n", r.error().message.c_str());
                exit_code_ = 1;
                break;
            }
        }
        ++frames;
        // --frames N: quit after N frames once any pending load has finished (used by tests).
        if (options_.max_frames > 0 && frames >= options_.max_frames && !ctx_.jobs.busy()) break;
    }
    if (!ctx_.stats.history.empty()) {
        std::string passes;
        for (auto& p : ctx_.stats.history.back()) passes += " " + p.name + "=" + std::to_string(p.ms).substr(0, 6);
        std::fprintf(stderr, "tressel: GPU ms per pass, last frame:%s\n", passes.c_str());
    }
    save_layout();
    const int errors = static_cast<int>(shell_->device().validation_error_count());
    std::fprintf(stderr, "tressel: %llu frames, %zu meshes loaded, %d validation errors\n", static_cast<unsigned long long>(frames),
                 ctx_.meshes ? ctx_.meshes->size() : size_t(0), errors);
    // A clean exit leaves no recovery file behind unless the scene has unsaved changes the user chose to drop.
    ctx_.on_clean_exit();
    if (exit_code_) return exit_code_;
    if (errors) return 3;
    return load_failed_ && !script_ ? 4 : 0;
}

// ---------------------------------------------------------------------------------------------------
// Grooming brushes

// SameLine when an item `width` wide still fits the window's row, else a new row.
static void same_line_if_fits(float width) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

void EditorApp::choose_tool(std::optional<BrushType> brush, std::optional<PaintLayer> paint, bool part) {
    brush_.tool = brush;
    brush_.paint = paint;
    part_tool_ = part;
}

void EditorApp::draw_brush_toolbar() {
    ImGui::TextUnformatted("Groom:");
    ImGui::SameLine();
    if (ImGui::Selectable("Camera", !brush_.active() && !part_tool_, 0, ImGui::CalcTextSize("Camera"))) choose_tool({}, {}, false);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the camera tools: left drag orbits (Esc)");
    for (const BrushButton& b : kBrushButtons) {
        same_line_if_fits(ImGui::CalcTextSize(b.label).x);
        if (ImGui::Selectable(b.label, brush_.tool == b.type, 0, ImGui::CalcTextSize(b.label))) choose_tool(b.type, {}, false);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s brush (%s): %s. Left drag strokes, Alt + left drag orbits, Ctrl inverts", b.label, b.key, b.meaning);
    }
    same_line_if_fits(ImGui::CalcTextSize("Part").x);
    if (ImGui::Selectable("Part", part_tool_, 0, ImGui::CalcTextSize("Part"))) choose_tool({}, {}, true);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Part (9): drag a line on the scalp; the selected group's hair is combed away from it on either side, along the scalp. A straight line is a plane parting (growth.part, comb_space surface), a curved one is painted into the comb map along the curve (undoable)");
    same_line_if_fits(ImGui::CalcTextSize("Paint:").x);
    ImGui::TextDisabled("Paint:");
    for (const PaintButton& b : kPaintButtons) {
        same_line_if_fits(ImGui::CalcTextSize(b.label).x);
        if (ImGui::Selectable(b.label, brush_.paint == b.layer, 0, ImGui::CalcTextSize(b.label))) choose_tool({}, b.layer, false);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Paint the scalp's %s (%s): %s. The group regrows after each stroke; Ctrl erases. Saved beside the scene (scalp.paint)", b.label, b.key, b.meaning);
    }
    if (!brush_.active()) return;
    if (brush_.paint && *brush_.paint != PaintLayer::Mask) {
        const PaintButton& b = kPaintButtons[size_t(*brush_.paint)];
        const float wv = ImGui::GetFontSize() * 6.0f;
        same_line_if_fits(wv + ImGui::CalcTextSize("value").x);
        ImGui::SetNextItemWidth(wv);
        ImGui::SliderFloat("value##paint", &brush_.paint_value[size_t(*brush_.paint)], b.min, b.max, b.format, ImGuiSliderFlags_AlwaysClamp);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", b.value_tip);
    }
    BrushSettings& st = brush_.settings;
    const float w = ImGui::GetFontSize() * 6.0f;
    same_line_if_fits(w + ImGui::CalcTextSize("radius").x);
    ImGui::SetNextItemWidth(w);
    ImGui::SliderFloat("radius##brush", &st.radius_px, 1.0f, 400.0f, "%.0f px", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Brush radius: px, 1 to 400 here (2000 in scripts), default 40. The circle on screen the brush acts in; F, then move the mouse, sets it");
    same_line_if_fits(w + ImGui::CalcTextSize("strength").x);
    ImGui::SetNextItemWidth(w);
    ImGui::SliderFloat("strength##brush", &st.strength, 0.0f, 1.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Brush strength: 0 to 1, default 0.5. How much of the brush's full effect one dab applies; Shift+F sets it");
    same_line_if_fits(ImGui::CalcTextSize("constant").x + ImGui::GetFrameHeight() * 2.0f);
    static const char* falloffs[] = {"smooth", "linear", "constant", "sharp"};
    int f = int(st.falloff);
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("constant").x + ImGui::GetFrameHeight() * 2.0f);
    if (ImGui::Combo("##falloff", &f, falloffs, IM_ARRAYSIZE(falloffs))) st.falloff = BrushFalloff(f);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Falloff: smooth (default), linear, constant or sharp. How the effect fades from the centre (full) to the rim (none)");
    same_line_if_fits(ImGui::CalcTextSize("X sym").x + ImGui::GetFrameHeight() * 1.5f);
    ImGui::Checkbox("X sym", &st.symmetry_x);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("X symmetry: on or off, default off (X). Also apply the stroke's mirror image across the scalp mesh's middle (x = its bounds centre)");
    same_line_if_fits(ImGui::CalcTextSize("Front only").x + ImGui::GetFrameHeight() * 1.5f);
    ImGui::Checkbox("Front only", &st.front_faces_only);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Front faces only: on or off, default on. Only strands whose roots face the camera are brushed (not the far side of the head)");
    const int g = brush_group(ctx_);
    if (g >= 0) {
        const HairGroup& group = ctx_.scene.hair_groups[size_t(g)];
        same_line_if_fits(ImGui::CalcTextSize(group.name.c_str()).x + ImGui::CalcTextSize("on ''").x);
        ImGui::TextDisabled("on '%s'", group.name.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("the brushes act on the hair group selected in the Groom panel (the first when none is)");
        if (group.growth.placement == Placement::Edited) {
            same_line_if_fits(ImGui::CalcTextSize("Release guides").x + 8.0f);
            if (ImGui::SmallButton("Release guides")) {
                Request r{Action::ReleaseGuides};
                r.amount = double(g);
                ctx_.requests.push_back(r);
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("give the guides edited by hand back to growth: the group grows from its parameters again (Undo brings the brush work back; the .tguides file stays on disk)");
        }
    }
}

Status EditorApp::begin_stroke(glm::vec2 at, bool invert) {
    const int g = brush_group(ctx_);
    if (g < 0) return make_error(ErrorCode::InvalidArgument, "brush: the scene has no hair group");
    if (busy()) return make_error(ErrorCode::InvalidArgument, "brush: wait for the hair to finish growing");
    const ImVec2 size(viewport_max_.x - viewport_min_.x, viewport_max_.y - viewport_min_.y);
    return brush_.begin(live_->scene(), live_->shared_content(), g, ctx_.camera, size, at, invert);
}

void EditorApp::finish_stroke() {
    const int g = brush_.group();
    if (brush_.painting()) {
        const std::string layer = brush_.paint ? std::string(paint_layer_name(*brush_.paint)) : std::string("paint");
        // The groom the stroke started from (its region and guide count).
        const std::shared_ptr<const GroomResult> groom = brush_.stroke_groom();
        PaintStats st;
        auto paint = brush_.finish_paint(&st);
        HairGroup* group = g >= 0 && size_t(g) < ctx_.scene.hair_groups.size() ? &ctx_.scene.hair_groups[size_t(g)] : nullptr;
        if (!paint || !group) {
            ctx_.add_log(Severity::Info, "paint", layer + ": the stroke painted nothing");
            return;
        }
        const std::string stem = ctx_.scene_path.empty() ? std::string() : fs::path(ctx_.scene_path).stem().string();
        const std::string changed = runtime::take_paint_into_hand(*group, std::move(paint), groom.get(), stem);
        ctx_.commit();
        char line[200];
        std::snprintf(line, sizeof line, "%s: %zu scalp vertices painted (%zu dabs%s); the group regrows", layer.c_str(), st.vertices_changed, st.dabs,
                      st.dabs_off_scalp ? ", some off the scalp" : "");
        ctx_.add_log(Severity::Info, "paint", line);
        if (!changed.empty()) ctx_.add_log(Severity::Info, "paint", changed);
        return;
    }
    const std::string name = brush_.tool ? std::string(brush_type_name(*brush_.tool)) : std::string("brush");
    StrokeStats st;
    auto guides = brush_.finish(&st);
    if (!guides || g < 0 || size_t(g) >= ctx_.scene.hair_groups.size()) {
        ctx_.add_log(Severity::Info, "brush", name + ": the stroke changed no guide");
        return;
    }
    const std::string stem = ctx_.scene_path.empty() ? std::string() : fs::path(ctx_.scene_path).stem().string();
    runtime::take_guides_into_hand(ctx_.scene.hair_groups[size_t(g)], std::move(guides), stem);
    ctx_.commit();
    char line[200];
    std::snprintf(line, sizeof line, "%s: %zu guides changed, %zu added, %zu removed (%zu dabs, %zu points kept out of collision meshes)", name.c_str(),
                  st.strands_changed, st.strands_added, st.strands_removed, st.dabs, st.points_pushed_out);
    ctx_.add_log(Severity::Info, "brush", line);
}

void EditorApp::start_scripted_stroke(const std::string& spec) {
    nlohmann::json k = nlohmann::json::parse(spec, nullptr, false);
    std::optional<BrushType> type;
    std::optional<PaintLayer> layer;
    if (k.contains("paint")) {
        layer = paint_layer_from_name(k.value("paint", std::string()));
        if (!layer) return ctx_.report_error("stroke: unknown paint layer '" + k.value("paint", std::string()) + "' (mask, density, length, comb)");
        if (k.contains("value") && k["value"].is_number()) brush_.paint_value[size_t(*layer)] = k["value"].get<float>();
    } else {
        type = brush_type_from_name(k.value("brush", std::string()));
        if (!type) return ctx_.report_error("stroke: unknown brush '" + k.value("brush", std::string()) + "' (comb, smooth, grow, cut, puff, clump, add, delete)");
    }
    BrushSettings& st = brush_.settings;
    auto number = [&](const char* key, float& out) {
        if (k.contains(key) && k[key].is_number()) out = k[key].get<float>();
    };
    number("radius_px", st.radius_px);
    number("strength", st.strength);
    if (k.contains("falloff")) {
        auto f = brush_falloff_from_name(k.value("falloff", std::string()));
        if (!f) return ctx_.report_error("stroke: unknown falloff '" + k.value("falloff", std::string()) + "' (smooth, linear, constant, sharp)");
        st.falloff = *f;
    }
    st.symmetry_x = k.value("symmetry_x", st.symmetry_x);
    st.front_faces_only = k.value("front_faces_only", st.front_faces_only);
    if (k.contains("group")) ctx_.selected_group = k["group"].get<int>();
    choose_tool(type, layer, false);
    const glm::vec2 size(viewport_max_.x - viewport_min_.x, viewport_max_.y - viewport_min_.y);
    ScriptedStroke s;
    const bool fractions = k.contains("points");
    for (const auto& p : k[fractions ? "points" : "points_px"]) {
        glm::vec2 q(p[0].get<float>(), p[1].get<float>());
        s.points.push_back(fractions ? q * size : q);
    }
    if (Status b = begin_stroke(s.points[0], k.value("invert", false)); !b) return ctx_.report_error(b.error().message);
    s.next = 1;
    scripted_stroke_ = std::move(s);
}

void EditorApp::handle_brush_input(ImVec2 pos, ImVec2 size, bool hovered) {
    ImGuiIO& io = ImGui::GetIO();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const glm::vec2 mouse(io.MousePos.x - pos.x, io.MousePos.y - pos.y);
    // The brush circle, laid on the selected group's scalp where it is under the point.
    auto cursor = [&](ImVec2 at) {
        const Mesh* scalp = nullptr;
        const int g = brush_group(ctx_);
        if (g >= 0 && live_->content() && size_t(g) < live_->scene().hair_groups.size())
            if (const SceneMesh* m = live_->content()->find_mesh(live_->scene().hair_groups[size_t(g)].scalp.mesh)) scalp = &m->mesh;
        const BrushView v = brush_view();
        brush_.draw_cursor(dl, at, pos, scalp, &v);
    };
    if (scripted_stroke_) {
        // Two points a frame, as a mouse drag delivers them.
        ScriptedStroke& s = *scripted_stroke_;
        for (int i = 0; i < 2 && s.next < s.points.size() && brush_.stroking(); ++i, ++s.next)
            if (Status st = brush_.extend(s.points[s.next]); !st) ctx_.report_error(st.error().message);
        const glm::vec2 at = s.points[std::min(s.next, s.points.size()) - 1];
        brush_.draw_stroke(dl, pos);
        cursor(ImVec2(pos.x + at.x, pos.y + at.y));
        if (s.next >= s.points.size() || !brush_.stroking()) {
            if (brush_.stroking()) finish_stroke();
            scripted_stroke_.reset();
        }
        return;
    }
    if (brush_adjust_ != BrushAdjust::None) {
        // F / Shift+F: the circle stays where the key was pressed; the mouse's distance from it is the radius
        // (or strength x 200 px). A click or Enter keeps it, Esc or the right button puts it back.
        const float d = std::hypot(io.MousePos.x - adjust_anchor_.x, io.MousePos.y - adjust_anchor_.y);
        if (brush_adjust_ == BrushAdjust::Radius) brush_.settings.radius_px = std::clamp(d, 1.0f, 400.0f);
        else brush_.settings.strength = std::clamp(d / 200.0f, 0.0f, 1.0f);
        brush_.draw_cursor(dl, adjust_anchor_);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) || ImGui::IsKeyPressed(GLFW_KEY_ENTER, false)) {
            brush_adjust_ = BrushAdjust::None;
        } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
            if (brush_adjust_ == BrushAdjust::Radius) brush_.settings.radius_px = adjust_before_;
            else brush_.settings.strength = adjust_before_;
            brush_adjust_ = BrushAdjust::None;
        }
        return;
    }
    if (part_tool_) {
        // The mouse's path: nearly straight, a plane parting; curved, a parting along the curve.
        if (hovered && !io.KeyAlt && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            part_from_ = mouse;
            part_path_.assign(1, mouse);
        }
        if (part_from_) {
            if (glm::length(mouse - part_path_.back()) > 2.0f) part_path_.push_back(mouse);
            std::vector<ImVec2> line;
            for (const glm::vec2& q : part_path_) line.push_back(ImVec2(pos.x + q.x, pos.y + q.y));
            line.push_back(io.MousePos);
            dl->AddPolyline(line.data(), int(line.size()), IM_COL32(255, 230, 120, 230), 0, 2.0f);
            if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
                part_path_.push_back(mouse);
                apply_part_path(part_path_);
                part_from_.reset();
                part_path_.clear();
            }
        }
        return;
    }
    if (!brush_.active()) return;
    if (brush_.paint) {
        // The painted layer over the scalp: the working paint during a stroke, else what the group grew from.
        const int g = brush_group(ctx_);
        const runtime::SceneContent* content = live_->content();
        if (g >= 0 && content && size_t(g) < content->grooms.size() && content->grooms[size_t(g)] && size_t(g) < live_->scene().hair_groups.size())
            if (const SceneMesh* m = content->find_mesh(live_->scene().hair_groups[size_t(g)].scalp.mesh))
                brush_.draw_paint(dl, pos, &m->mesh, content->grooms[size_t(g)]->paint.get(), brush_view());
    }
    if (brush_.stroking()) {
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            if (Status st = brush_.extend(mouse); !st) ctx_.report_error(st.error().message);
        } else {
            finish_stroke();
        }
    } else if (hovered && !io.KeyAlt && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        if (Status st = begin_stroke(mouse, io.KeyCtrl); !st) ctx_.report_error(st.error().message);
    }
    brush_.draw_stroke(dl, pos);
    if (hovered || brush_.stroking()) cursor(io.MousePos);
    (void)size;
}

void EditorApp::release_guides(int g) {
    if (g < 0 || size_t(g) >= ctx_.scene.hair_groups.size()) return ctx_.report_error("release guides: no hair group " + std::to_string(g));
    HairGroup& group = ctx_.scene.hair_groups[size_t(g)];
    if (group.growth.placement != Placement::Edited) return ctx_.report_error("release guides: hair group '" + group.name + "' has no guides edited by hand");
    group.growth.placement = Placement::Random;
    group.growth.edited.reset();
    group.growth.guide_file.clear();
    ctx_.commit();
    ctx_.add_log(Severity::Info, "brush", "hair group '" + group.name + "' grows from its parameters again; Undo brings the brush work back");
}

BrushView EditorApp::brush_view() const {
    const ImVec2 size(viewport_max_.x - viewport_min_.x, viewport_max_.y - viewport_min_.y);
    BrushView v;
    v.object_to_clip = ctx_.camera.view_projection(double(size.x) / double(std::max(size.y, 1.0f)));
    v.viewport_px = glm::vec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f));
    v.eye_os_m = glm::vec3(ctx_.camera.eye_m());
    return v;
}

void EditorApp::apply_part_path(const std::vector<glm::vec2>& path) {
    if (path.size() < 2) return ctx_.report_error("part: draw a line on the scalp");
    if (polyline_is_straight(path)) return apply_part(path.front(), path.back());
    auto at = part_target();
    if (!at) return ctx_.report_error(at.error().message);
    const int g = at->group;
    const runtime::SceneContent* content = at->content;
    const BrushTarget& target = at->target;
    HairGroup& group = ctx_.scene.hair_groups[size_t(g)];
    const BrushView view = brush_view();
    std::vector<glm::vec3> curve;
    for (const glm::vec2& p : path)
        if (auto hit = pick_scalp(*target.scalp, view, p)) curve.push_back(hit->point_m);
    if (curve.size() < 2) return ctx_.report_error("part: draw the line on the scalp (it missed the mesh)");
    const std::shared_ptr<const GroomResult> groom = content->grooms[size_t(g)];
    ScalpPaint paint = runtime::paint_to_edit(groom.get(), *target.scalp, PaintLayer::Comb);
    const float amount = group.growth.comb > 0.0 ? float(group.growth.comb) : 0.5f;
    if (Status st = paint_part_curve(paint, *target.scalp, curve, amount); !st) return ctx_.report_error(st.error().message);
    const std::string stem = ctx_.scene_path.empty() ? std::string() : fs::path(ctx_.scene_path).stem().string();
    runtime::take_paint_into_hand(group, std::make_shared<const ScalpPaint>(std::move(paint)), groom.get(), stem);
    ctx_.commit();
    char line[200];
    std::snprintf(line, sizeof line, "hair group '%s' parted along a curve of %zu points on the scalp (the comb map, combed away from it at amount %.2f)",
                  group.name.c_str(), curve.size(), double(amount));
    ctx_.add_log(Severity::Info, "part", line);
}

Result<EditorApp::PartTarget> EditorApp::part_target() const {
    PartTarget t;
    t.group = brush_group(ctx_);
    t.content = live_->content();
    if (t.group < 0 || !t.content || size_t(t.group) >= t.content->grooms.size() || !t.content->grooms[size_t(t.group)])
        return make_error(ErrorCode::InvalidArgument, "part: the scene has no hair group");
    const HairGroup& group = ctx_.scene.hair_groups[size_t(t.group)];
    if (group.growth.placement == Placement::Edited || group.growth.placement == Placement::File)
        return make_error(ErrorCode::InvalidArgument, "part: hair group '" + group.name +
                                                          "' has guides from a file or edited by hand; a parting shapes grown guides (Release guides first)");
    t.target = runtime::brush_target(live_->scene(), *t.content, size_t(t.group));
    if (!t.target.scalp) return make_error(ErrorCode::NotFound, "part: hair group '" + group.name + "' has no scalp mesh");
    return t;
}

void EditorApp::apply_part(glm::vec2 from, glm::vec2 to) {
    auto at = part_target();
    if (!at) return ctx_.report_error(at.error().message);
    const int g = at->group;
    const runtime::SceneContent* content = at->content;
    const BrushTarget& target = at->target;
    HairGroup& group = ctx_.scene.hair_groups[size_t(g)];
    const BrushView view = brush_view();
    auto a = pick_scalp(*target.scalp, view, from), b = pick_scalp(*target.scalp, view, to);
    if (!a || !b) return ctx_.report_error("part: draw the line on the scalp (an end missed the mesh)");
    auto plane = part_plane(*a, *b);
    if (!plane) return ctx_.report_error("part: the line is too short (under a millimetre)");
    // A comb map painted earlier (a curved parting) would hide the plane's combing: the plane replaces it.
    const std::shared_ptr<const GroomResult> groom = size_t(g) < content->grooms.size() ? content->grooms[size_t(g)] : nullptr;
    if (groom && groom->paint && groom->paint->has(PaintLayer::Comb)) {
        auto without = std::make_shared<ScalpPaint>(*groom->paint);
        without->comb.clear();
        const std::string stem = ctx_.scene_path.empty() ? std::string() : fs::path(ctx_.scene_path).stem().string();
        runtime::take_paint_into_hand(group, std::move(without), groom.get(), stem);
    }
    group.growth.part = PartMode::Plane;
    group.growth.part_point_m = plane->first;
    group.growth.part_normal = plane->second;
    group.growth.comb_space = CombSpace::Surface;
    ctx_.commit();
    char line[200];
    std::snprintf(line, sizeof line, "hair group '%s' parted along the line from (%.3f, %.3f, %.3f) m, combed away on either side%s", group.name.c_str(),
                  plane->first.x, plane->first.y, plane->first.z, group.growth.comb > 0.0 ? "" : " (growth.comb is 0: raise it to see the parting)");
    ctx_.add_log(Severity::Info, "part", line);
}

}  // namespace tressel::editor
