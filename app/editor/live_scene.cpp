#include "live_scene.h"

#include "groom/scene_groom.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "render/hair_data.h"
#include "sdf/sdf_slice.h"
#include "sim/motion.h"

namespace tressel::editor {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

bool same_mesh_inputs(const Scene& a, const Scene& b) {
    return a.meshes == b.meshes && a.units == b.units && a.up_axis == b.up_axis;
}

bool same_groom_inputs(const HairGroup& a, const HairGroup& b) {
    return a.name == b.name && a.scalp == b.scalp && a.growth == b.growth && a.follow == b.follow &&
           a.smoothing == b.smoothing && a.visible == b.visible && a.shading.fiber_radius_m == b.shading.fiber_radius_m;
}

bool same_sdf_inputs(const CollisionMesh& a, const CollisionMesh& b) {
    return a.mesh == b.mesh && a.cells_x == b.cells_x && a.padding == b.padding && a.sign == b.sign;
}

// What the simulation world's layout depends on; anything else is updated in place.
bool same_sim_structure(const Scene& a, const Scene& b) {
    if (a.hair_groups.size() != b.hair_groups.size() || a.colliders.size() != b.colliders.size() ||
        a.collision_meshes.size() != b.collision_meshes.size())
        return false;
    for (size_t i = 0; i < a.hair_groups.size(); ++i) {
        const auto &x = a.hair_groups[i].simulation, &y = b.hair_groups[i].simulation;
        if (x.gpu_vertices_per_strand != y.gpu_vertices_per_strand || x.sdf != y.sdf || x.colliders != y.colliders ||
            x.enabled != y.enabled)
            return false;
    }
    for (size_t i = 0; i < a.colliders.size(); ++i)
        if (a.colliders[i].name != b.colliders[i].name || a.colliders[i].type != b.colliders[i].type ||
            a.colliders[i].attach_to != b.colliders[i].attach_to)
            return false;
    return a.motion.mesh == b.motion.mesh && a.motion.type == b.motion.type && a.motion.animation == b.motion.animation;
}

const SceneMesh* find_mesh(const std::vector<SceneMesh>& meshes, const std::string& name) {
    for (auto& m : meshes)
        if (m.name == name) return &m;
    return nullptr;
}

}  // namespace

ContentPlan plan_content(const Scene& scene, const SceneContent* current) {
    if (!current) return {};
    ContentPlan p;
    p.meshes = !same_mesh_inputs(scene, current->scene);
    p.grooms = p.meshes || scene.hair_groups.size() != current->scene.hair_groups.size();
    for (size_t i = 0; !p.grooms && i < scene.hair_groups.size(); ++i)
        p.grooms = !same_groom_inputs(scene.hair_groups[i], current->scene.hair_groups[i]);
    p.sdfs = p.meshes || scene.collision_meshes.size() != current->scene.collision_meshes.size();
    for (size_t i = 0; !p.sdfs && i < scene.collision_meshes.size(); ++i)
        p.sdfs = !same_sdf_inputs(scene.collision_meshes[i], current->scene.collision_meshes[i]);
    return p;
}

Result<std::shared_ptr<SceneContent>> build_content(const Scene& scene, ContentPlan plan,
                                                          std::shared_ptr<const SceneContent> previous,
                                                          Progress* progress) {
    auto out = std::make_shared<SceneContent>();
    out->scene = scene;
    if (plan.meshes || !previous) {
        if (progress) progress->set(0.0f, "importing meshes");
        auto t_import = std::chrono::steady_clock::now();
        auto meshes = load_scene_meshes(scene, progress);
        out->diagnostics.info("scene", "imported " + std::to_string(meshes ? meshes->size() : 0) +
                                                          " meshes in " + std::to_string(int(ms_since(t_import))) + " ms");
        if (!meshes) return meshes.error();
        for (auto& m : *meshes) out->diagnostics.items.insert(out->diagnostics.items.end(), m.imported.diagnostics.items.begin(),
                                                              m.imported.diagnostics.items.end());
        out->meshes = std::make_shared<const std::vector<SceneMesh>>(std::move(*meshes));
    } else {
        out->meshes = previous->meshes;
    }
    if (progress && progress->cancelled()) return make_error(ErrorCode::Cancelled, "cancelled");
    const std::vector<SceneMesh>& meshes = *out->meshes;

    auto t_groom = std::chrono::steady_clock::now();
    for (size_t gi = 0; gi < scene.hair_groups.size(); ++gi) {
        const HairGroup& group = scene.hair_groups[gi];
        bool reuse = !plan.grooms && previous && gi < previous->grooms.size();
        if (!reuse && previous && !plan.meshes && gi < previous->scene.hair_groups.size() &&
            same_groom_inputs(group, previous->scene.hair_groups[gi]))
            reuse = true;
        if (reuse) {
            out->grooms.push_back(previous->grooms[gi]);
            continue;
        }
        if (!group.visible) {
            out->grooms.push_back(nullptr);
            continue;
        }
        if (progress) progress->set(0.3f + 0.4f * float(gi) / float(scene.hair_groups.size()), "growing hair");
        auto groom = grow_scene_group(scene, group, meshes, progress);
        if (!groom) return groom.error();
        out->diagnostics.items.insert(out->diagnostics.items.end(), groom->diagnostics.items.begin(),
                                      groom->diagnostics.items.end());
        out->grooms.push_back(std::make_shared<const GroomResult>(std::move(*groom)));
    }
    out->groom_ms = ms_since(t_groom);
    out->diagnostics.info("groom", "grew hair in " + std::to_string(int(out->groom_ms)) + " ms");

    for (size_t ci = 0; ci < scene.collision_meshes.size(); ++ci) {
        const CollisionMesh& cm = scene.collision_meshes[ci];
        if (previous && !plan.meshes && ci < previous->scene.collision_meshes.size() &&
            same_sdf_inputs(cm, previous->scene.collision_meshes[ci]) && ci < previous->sdfs.size()) {
            out->sdfs.push_back(previous->sdfs[ci]);
            out->sdf_build_ms.push_back(previous->sdf_build_ms[ci]);
            continue;
        }
        if (!find_mesh(meshes, cm.mesh))
            return make_error(ErrorCode::NotFound, "collision mesh '" + cm.mesh + "' names no mesh of the scene");
        out->sdfs.push_back(nullptr);
        out->sdf_build_ms.push_back(0.0);
    }
    if (progress) progress->set(1.0f, "done");
    return out;
}

Result<std::unique_ptr<LiveScene>> LiveScene::create(gpu::Device& device, uint32_t width, uint32_t height) {
    std::unique_ptr<LiveScene> s(new LiveScene());
    s->device_ = &device;
    // The CPU Vulkan driver rasterises on the CPU: one sample and a smaller shadow map keep the editor
    // interactive there; GPUs get 4x MSAA.
    const bool cpu = device.info().is_cpu();
    auto r = render::Renderer::create(device, {std::max(width, 1u), std::max(height, 1u), cpu ? 1u : 4u, cpu ? 512u : 1024u, 64});
    if (!r) return r.error();
    s->renderer_ = std::move(*r);
    auto p = SimGpuPipelines::create(device);
    if (!p) return p.error();
    s->pipelines_.emplace(std::move(*p));
    auto sp = SdfGpuPipelines::create(device);
    if (!sp) return sp.error();
    s->sdf_pipelines_.emplace(std::move(*sp));
    return s;
}

Status LiveScene::build_sdfs(SceneContent& c) {
    for (size_t ci = 0; ci < c.sdfs.size() && ci < c.scene.collision_meshes.size(); ++ci) {
        if (c.sdfs[ci]) continue;
        const CollisionMesh& cm = c.scene.collision_meshes[ci];
        const SceneMesh* mesh = find_mesh(*c.meshes, cm.mesh);
        if (!mesh) return make_error(ErrorCode::NotFound, "collision mesh '" + cm.mesh + "' names no mesh of the scene");
        const SdfBuildDesc sd = sdf_build_desc(cm, mesh->mesh);
        std::vector<gpu::PassTime> times;
        auto field = build_sdf_gpu(*device_, *sdf_pipelines_, sd, c.diagnostics, &times);
        if (!field) return make_error(field.error().code, "SDF of collision mesh '" + cm.mesh + "': " + field.error().message);
        auto grid = read_back_sdf(*device_, *field);
        if (!grid) return make_error(grid.error().code, "SDF of collision mesh '" + cm.mesh + "': " + grid.error().message);
        double ms = 0.0;
        for (auto& t : times) ms += t.ms;
        c.sdf_build_ms[ci] = ms;
        c.diagnostics.info("sdf", "built the SDF of '" + cm.mesh + "' on the GPU: " + std::to_string(ms) + " ms of passes");
        c.sdfs[ci] = std::make_shared<const SdfGrid>(std::move(*grid));
    }
    return {};
}

LiveScene::~LiveScene() {
    if (device_) (void)device_->wait_idle();
    if (renderer_) renderer_->clear_hair();
    hair_.clear();
    sim_.reset();
}

Status LiveScene::install(std::shared_ptr<const SceneContent> content, const Scene& scene) {
    auto previous = std::move(content_);
    content_ = std::move(content);
    Status s = build_simulation(scene);
    if (!s) {
        content_ = std::move(previous);
        if (content_) (void)build_simulation(synced_);
        return s;
    }
    return {};
}

Status LiveScene::build_simulation(const Scene& scene) {
    TRESSEL_TRY(device_->wait_idle());
    renderer_->clear_hair();
    hair_.clear();
    sim_.reset();
    world_.reset();
    group_of_sim_.clear();
    slice_key_.reset();
    const SceneContent& c = *content_;
    SimWorldInputs in;
    for (size_t gi = 0; gi < scene.hair_groups.size() && gi < c.grooms.size(); ++gi) {
        if (!c.grooms[gi]) continue;
        const HairGroup& g = scene.hair_groups[gi];
        SimGroupInputs gin;
        gin.name = g.name;
        gin.groom = c.grooms[gi].get();
        const SceneMesh* scalp = find_mesh(*c.meshes, g.scalp.mesh);
        gin.scalp = scalp ? &scalp->mesh : nullptr;
        gin.scalp_mesh = g.scalp.mesh;
        gin.params = g.simulation;
        in.groups.push_back(std::move(gin));
        group_of_sim_.push_back(gi);
    }
    for (size_t ci = 0; ci < scene.collision_meshes.size() && ci < c.sdfs.size(); ++ci)
        in.sdfs.push_back(SimSdfInputs{scene.collision_meshes[ci].mesh, c.sdfs[ci].get(), scene.collision_meshes[ci].margin_m});
    in.colliders = scene.colliders;
    in.environment = scene.environment;
    in.motion = scene.motion;
    auto world = build_sim_world(in);
    if (!world) return world.error();
    world_ = std::move(*world);
    // The fused step's sweeps take a workgroup barrier per vertex; on the CPU driver every barrier switches
    // each invocation out and back, and the split passes run faster (Rat Boy: 174 vs 537 ms a step).
    const SimGpuMode mode = device_->info().is_cpu() ? SimGpuMode::Split : SimGpuMode::Fused;
    auto sim = SimGpu::create(*device_, *pipelines_, *world_, 128, mode);
    if (!sim) return sim.error();
    sim_ = std::move(*sim);

    for (size_t i = 0; i < world_->groups.size(); ++i) {
        const SimGroupState& g = world_->groups[i];
        const GroomResult& groom = *c.grooms[group_of_sim_[i]];
        HairDraw d;
        gpu::BufferDesc bd;
        bd.size = std::max<VkDeviceSize>(VkDeviceSize(g.vertex_count()) * sizeof(glm::vec4), 16);
        bd.name = g.name + " guide positions (render)";
        auto pos = device_->create_buffer(bd);
        if (!pos) return pos.error();
        d.guide_positions = std::move(*pos);
        std::vector<glm::uvec2> ginfo(g.strand_count), finfo(g.follow_count());
        for (uint32_t s = 0; s < g.strand_count; ++s) ginfo[s] = {s < groom.guides.seeds.size() ? groom.guides.seeds[s] : s, s};
        for (size_t f = 0; f < finfo.size(); ++f)
            finfo[f] = {f < groom.follows.seeds.size() ? groom.follows.seeds[f] : uint32_t(f), g.follow_descriptors[f].guides.x};
        auto gi = device_->create_buffer_with(std::span<const glm::uvec2>(ginfo), 0, g.name + " guide info");
        if (!gi) return gi.error();
        d.guide_info = std::move(*gi);
        auto fi = device_->create_buffer_with(std::span<const glm::uvec2>(finfo), 0, g.name + " follow info");
        if (!fi) return fi.error();
        d.follow_info = std::move(*fi);
        hair_.push_back(std::move(d));
    }
    render::SceneBounds b = bounds();
    for (size_t i = 0; i < world_->groups.size(); ++i) {
        const SimGroupState& g = world_->groups[i];
        const HairGroup& hg = scene.hair_groups[group_of_sim_[i]];
        render::HairDesc hd;
        hd.shading = hg.shading;
        hd.bounds_min_m = b.min_m;
        hd.bounds_max_m = b.max_m;
        hd.vertices_per_strand = g.n;
        if (g.strand_count > 0) {
            hd.positions = &hair_[i].guide_positions;
            hd.strand_info = &hair_[i].guide_info;
            hd.rest_lengths = &sim_->group(i).rest_lengths;
            hd.strand_count = g.strand_count;
            auto id = renderer_->add_hair(hd);
            if (!id) return id.error();
            hair_[i].guides_index = *id;
        }
        if (g.follow_count() > 0) {
            hd.positions = &sim_->follow_positions(i);
            hd.strand_info = &hair_[i].follow_info;
            hd.rest_lengths = nullptr;
            hd.strand_count = uint32_t(g.follow_count());
            auto id = renderer_->add_hair(hd);
            if (!id) return id.error();
            hair_[i].follows_index = *id;
        }
    }
    copy_pending_ = true;
    synced_ = scene;
    meshes_time_s_ = -1.0;
    TRESSEL_TRY(populate_meshes(scene, 0.0));
    glm::vec3 size = b.max_m - b.min_m;
    double extent = std::max({double(size.x), double(size.y), double(size.z), 1e-3});
    double spacing = std::pow(10.0, std::floor(std::log10(extent / 2.0)));
    glm::vec3 centre = 0.5f * (b.min_m + b.max_m);
    TRESSEL_TRY(renderer_->set_grid(glm::vec3(centre.x, b.min_m.y, centre.z), extent, spacing));
    return update_slice(scene);
}

Status LiveScene::populate_meshes(const Scene& scene, double t_s) {
    renderer_->clear_meshes();
    if (!content_) return {};
    bool moving = scene.motion.type != MotionType::None;
    glm::dmat4 m = moving ? motion_transform(scene.motion, t_s) : glm::dmat4(1.0);
    for (const SceneMesh& sm : *content_->meshes) {
        const MeshRef* ref = nullptr;
        for (auto& r : scene.meshes)
            if (r.name == sm.name) ref = &r;
        bool collision = std::any_of(scene.collision_meshes.begin(), scene.collision_meshes.end(),
                                     [&](const CollisionMesh& c) { return c.mesh == sm.name; });
        const Mesh* draw = &sm.mesh;
        Mesh moved;
        if (moving && motion_moves_mesh(scene.motion, sm.name)) {
            moved = sm.mesh;
            transform_mesh(moved, m);
            draw = &moved;
        }
        if (!ref || ref->visible) {
            auto id = renderer_->add_mesh(*draw, render::MeshStyle::Opaque);
            if (!id) return id.error();
        }
        if (collision) {
            auto id = renderer_->add_mesh(*draw, render::MeshStyle::CollisionOverlay);
            if (!id) return id.error();
        }
    }
    for (const Collider& c : scene.colliders) {
        auto id = renderer_->add_mesh(render::make_collider_mesh(c), render::MeshStyle::Collider);
        if (!id) return id.error();
    }
    meshes_time_s_ = t_s;
    return {};
}

Status LiveScene::update_slice(const Scene& scene) {
    if (!content_ || content_->sdfs.empty()) {
        renderer_->clear_slice();
        slice_key_.reset();
        return {};
    }
    size_t mi = 0;
    for (size_t i = 0; i < scene.collision_meshes.size(); ++i)
        if (scene.collision_meshes[i].mesh == scene.view.slice_mesh) mi = i;
    if (mi >= content_->sdfs.size()) mi = 0;
    double margin = mi < scene.collision_meshes.size() ? scene.collision_meshes[mi].margin_m : 0.0;
    SliceKey key{scene.view.slice_axis, scene.view.slice_position, margin, slice_range_m_, mi, content_->sdfs[mi].get()};
    if (slice_key_ && *slice_key_ == key) return {};
    SliceStyle style;
    style.margin_m = margin;
    style.range_m = slice_range_m_;
    style.upscale = 2;
    TRESSEL_TRY(renderer_->set_slice(render::make_slice_view(*content_->sdfs[mi], key.axis, key.position, style)));
    slice_key_ = key;
    return {};
}

Status LiveScene::sync(const Scene& scene, double slice_range_m) {
    if (!content_ || !world_) return {};
    slice_range_m_ = slice_range_m;
    if (!same_sim_structure(scene, synced_)) return build_simulation(scene);
    for (size_t i = 0; i < world_->groups.size(); ++i) {
        const HairGroup& hg = scene.hair_groups[group_of_sim_[i]];
        world_->groups[i].params = hg.simulation;
        if (!(hg.shading == synced_.hair_groups[group_of_sim_[i]].shading)) {
            if (hair_[i].guides_index) renderer_->set_hair_shading(*hair_[i].guides_index, hg.shading);
            if (hair_[i].follows_index) renderer_->set_hair_shading(*hair_[i].follows_index, hg.shading);
        }
    }
    world_->environment = scene.environment;
    world_->motion = scene.motion;
    for (size_t i = 0; i < world_->colliders.size() && i < scene.colliders.size(); ++i) world_->colliders[i].desc = scene.colliders[i];
    for (auto& sdf : world_->sdfs)
        for (auto& cm : scene.collision_meshes)
            if (cm.mesh == sdf.mesh) sdf.margin_m = cm.margin_m;
    if (!(scene.colliders == synced_.colliders) || !(scene.meshes == synced_.meshes) || !(scene.motion == synced_.motion))
        TRESSEL_TRY(populate_meshes(scene, world_->time_s()));
    synced_ = scene;
    return update_slice(scene);
}

Status LiveScene::record(gpu::CommandBuffer& cmd, const render::FrameDesc& frame, uint32_t sim_frames,
                         gpu::TimestampQueries* sim_ts, uint32_t sim_ts_capacity, gpu::TimestampQueries* render_ts) {
    if (sim_ && world_ && sim_frames > 0) {
        uint32_t substeps = uint32_t(std::max(1, world_->environment.substeps));
        sim_frames = std::clamp(sim_frames, 1u, std::max(1u, 128u / substeps));
        const uint32_t steps = sim_frames * substeps;
        const bool fits = uint64_t(steps) * (world_->groups.size() * 12 + 1) <= sim_ts_capacity;
        TRESSEL_TRY(sim_->record_steps(cmd, *world_, steps, fits ? sim_ts : nullptr));
        copy_pending_ = true;
        if (synced_.motion.type != MotionType::None) TRESSEL_TRY(populate_meshes(synced_, world_->time_s()));
    }
    if (sim_ && copy_pending_) {
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd.handle(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
        for (size_t i = 0; i < hair_.size(); ++i) cmd.copy(sim_->guide_positions(i), hair_[i].guide_positions);
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cmd.handle(), VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
        copy_pending_ = false;
    }
    return renderer_->record(cmd, frame, render_ts);
}

void LiveScene::set_hair_visibility(bool guides, bool follows) {
    for (auto& h : hair_) {
        if (h.guides_index) renderer_->set_hair_visible(*h.guides_index, guides);
        if (h.follows_index) renderer_->set_hair_visible(*h.follows_index, follows);
    }
}

Status LiveScene::reset_simulation() {
    if (!sim_ || !world_) return {};
    TRESSEL_TRY(device_->wait_idle());
    reset_to_rest(*world_);
    TRESSEL_TRY(sim_->upload_state(*device_, *world_));
    copy_pending_ = true;
    if (synced_.motion.type != MotionType::None) TRESSEL_TRY(populate_meshes(synced_, 0.0));
    return {};
}

Status LiveScene::resize(uint32_t width, uint32_t height) {
    if (width == renderer_->width() && height == renderer_->height()) return {};
    return renderer_->resize(width, height);
}

render::SceneBounds LiveScene::bounds() const {
    render::SceneBounds b;
    if (!content_) return b;
    for (auto& m : *content_->meshes)
        for (glm::vec3 p : m.mesh.positions) b.add(p);
    double longest = 0.0;
    for (auto& g : content_->grooms)
        if (g) longest = std::max(longest, g->stats.length_max_m);
    if (!b.empty() && longest > 0.0) {
        b.add(b.min_m - glm::vec3(float(longest)));
        b.add(b.max_m + glm::vec3(float(longest)));
    }
    return b;
}

size_t LiveScene::guide_count() const {
    size_t n = 0;
    if (world_)
        for (auto& g : world_->groups) n += g.strand_count;
    return n;
}
size_t LiveScene::follow_count() const {
    size_t n = 0;
    if (world_)
        for (auto& g : world_->groups) n += g.follow_count();
    return n;
}
size_t LiveScene::vertex_count() const {
    size_t n = 0;
    if (world_)
        for (auto& g : world_->groups) n += (g.strand_count + g.follow_count()) * g.n;
    return n;
}

}  // namespace tressel::editor
