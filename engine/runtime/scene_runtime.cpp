#include "runtime/scene_runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>

#include "core/clock.h"
#include "render/hair_data.h"
#include "shared/render.h"
#include "sdf/sdf_slice.h"
#include <limits>
#include "sim/mesh_oracle.h"
#include "sim/sim_metrics.h"
#include "sim/motion.h"
#include "sim/soft_body.h"
#include "groom/spatial.h"

namespace tressel::runtime {

namespace {

// What the simulation world's layout depends on; anything else is updated in place by sync().
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
            a.colliders[i].attach_to != b.colliders[i].attach_to || a.colliders[i].attach_joint != b.colliders[i].attach_joint)
            return false;
    for (size_t i = 0; i < a.collision_meshes.size(); ++i)
        if (a.collision_meshes[i].mesh != b.collision_meshes[i].mesh ||
            a.collision_meshes[i].animated_band_only != b.collision_meshes[i].animated_band_only)
            return false;
    // Accessories: any change rebuilds their cloths (their masses, constraints and pins hang on every value).
    if (!(a.accessories == b.accessories)) return false;
    return a.motion.mesh == b.motion.mesh && a.motion.type == b.motion.type && a.motion.animation == b.motion.animation;
}

}  // namespace

void RebuildReport::merge(const RebuildReport& o) {
    meshes = meshes || o.meshes;
    grooms.insert(grooms.end(), o.grooms.begin(), o.grooms.end());
    sdfs.insert(sdfs.end(), o.sdfs.begin(), o.sdfs.end());
    simulation = simulation || o.simulation;
    simulation_params = simulation_params || o.simulation_params;
    sag_free = sag_free || o.sag_free;
    shading = shading || o.shading;
    restyled.insert(restyled.end(), o.restyled.begin(), o.restyled.end());
    drawn_meshes = drawn_meshes || o.drawn_meshes;
    slice = slice || o.slice;
    ms.insert(ms.end(), o.ms.begin(), o.ms.end());
}

std::string RebuildReport::summary() const {
    std::string s;
    auto add = [&](const std::string& part) { s += (s.empty() ? "" : "; ") + part; };
    for (const auto& [part, t] : ms) add(part + " " + std::to_string(int(std::lround(t))) + " ms");
    if (simulation) add("simulation rebuilt at rest");
    else if (simulation_params) add("simulation values set in place");
    if (sag_free) add("sag-free rest state solved");
    if (shading) add("shading");
    for (const std::string& g : restyled) add("widths of '" + g + "'");
    if (drawn_meshes) add("drawn meshes");
    if (slice) add("slice");
    return s.empty() ? "nothing" : s;
}

Result<std::unique_ptr<SceneRuntime>> SceneRuntime::create(gpu::Device* device, const RuntimeOptions& options) {
    std::unique_ptr<SceneRuntime> rt(new SceneRuntime());
    rt->device_ = device;
    rt->options_ = options;
    rt->sdf_ = options.sdf;
    if (options.sdf == SdfBackend::Auto) rt->sdf_ = device && !device->info().is_cpu() ? SdfBackend::Gpu : SdfBackend::Cpu;
    if (!device) {
        if (options.renderer) return make_error(ErrorCode::InvalidArgument, "scene runtime: drawing needs a GPU device");
        return rt;
    }
    if (options.renderer) {
        render::RendererDesc rd = *options.renderer;
        rd.width = std::max(rd.width, 1u);
        rd.height = std::max(rd.height, 1u);
        auto r = render::Renderer::create(*device, rd);
        if (!r) return r.error();
        rt->renderer_ = std::move(*r);
    }
    if (options.simulation != SimBackend::None || options.renderer) {
        auto p = SimGpuPipelines::create(*device);
        if (!p) return p.error();
        rt->sim_pipelines_.emplace(std::move(*p));
    }
    if (rt->sdf_ == SdfBackend::Gpu) {
        auto p = SdfGpuPipelines::create(*device);
        if (!p) return p.error();
        rt->sdf_pipelines_.emplace(std::move(*p));
    }
    return rt;
}

SceneRuntime::~SceneRuntime() {
    if (rest_job_) {
        rest_job_->progress->request_cancel();
        rest_job_->result.wait();
    }
    if (device_) (void)device_->wait_idle();
    if (renderer_) renderer_->clear_hair();
    hair_.clear();
    sim_.reset();
}

Status SceneRuntime::apply(const Scene& scene, Progress* progress) {
    RebuildReport total;
    const ContentPlan p = plan(scene);
    if (!content_ || p.any()) {
        // Without a device, fields are built only when asked for explicitly (groom and export need none).
        const bool cpu_fields = fields_on_worker() && (device_ || options_.sdf == SdfBackend::Cpu);
        auto content = prepare_content(scene, p, content_, progress, cpu_fields);
        if (!content) return content.error();
        TRESSEL_TRY(install(*content, progress));
        total = report_;
    }
    TRESSEL_TRY(sync(scene));
    total.merge(report_);
    report_ = std::move(total);
    return {};
}

Status SceneRuntime::build_sdfs(SceneContent& c, Progress* progress) {
    if (sdf_ == SdfBackend::Cpu) return (device_ || options_.sdf == SdfBackend::Cpu) ? build_fields_cpu(c, progress) : Status{};
    if (!device_) return {};  // a runtime without a device builds no GPU fields (groom, export)
    const FieldBuilder gpu = [this](const SdfBuildDesc& desc, Diagnostics& diag) -> Result<BuiltField> {
        BuiltField out;
        auto field = build_sdf_gpu(*device_, *sdf_pipelines_, desc, diag, &out.passes);
        if (!field) return field.error();
        auto grid = read_back_sdf(*device_, *field);
        if (!grid) return grid.error();
        out.grid = std::move(*grid);
        for (const gpu::PassTime& t : out.passes) out.ms += t.ms;  // GPU time of the passes
        return out;
    };
    return build_missing_fields(c, gpu, "on the GPU", progress);
}

Status SceneRuntime::install(std::shared_ptr<SceneContent> content, Progress* progress) {
    TRESSEL_ASSERT(content != nullptr, "SceneRuntime::install: content is required");
    TRESSEL_TRY(build_sdfs(*content, progress));
    RebuildReport r = content->report;
    auto previous = std::move(content_);
    content_ = std::move(content);
    refused_.reset();  // new meshes may hold what a refused scene asked for
    device_refused_.reset();
    if (device_) {
        const auto t0 = std::chrono::steady_clock::now();
        report_ = {};  // what building the simulation reports (the sag-free solve)
        Status s = build_simulation(content_->scene);
        if (!s) {
            content_ = std::move(previous);
            if (content_) (void)build_simulation(scene_);
            return s;
        }
        r.simulation = true;
        r.add_time("simulation and drawing", ms_since(t0));
        r.merge(report_);
    }
    scene_ = content_->scene;
    report_ = std::move(r);
    return {};
}

Status SceneRuntime::build_simulation(const Scene& scene) {
    TRESSEL_TRY(device_->wait_idle());
    if (renderer_) renderer_->clear_hair();
    hair_.clear();
    sim_.reset();
    world_.reset();
    group_of_sim_.clear();
    slice_key_.reset();
    accumulator_s_ = 0.0;
    const SceneContent& c = *content_;
    SimWorldInputs in;
    for (size_t gi = 0; gi < scene.hair_groups.size() && gi < c.grooms.size(); ++gi) {
        if (!c.grooms[gi]) continue;
        const HairGroup& g = scene.hair_groups[gi];
        SimGroupInputs gin;
        gin.name = g.name;
        gin.groom = c.grooms[gi].get();
        const SceneMesh* scalp = c.find_mesh(g.scalp.mesh);
        gin.scalp = scalp ? &scalp->mesh : nullptr;
        gin.scalp_mesh = g.scalp.mesh;
        gin.params = g.simulation;
        in.groups.push_back(std::move(gin));
        group_of_sim_.push_back(gi);
    }
    for (size_t ci = 0; ci < scene.collision_meshes.size() && ci < c.sdfs.size(); ++ci) {
        if (!c.sdfs[ci]) return make_error(ErrorCode::InvalidArgument, "collision mesh '" + scene.collision_meshes[ci].mesh + "' has no field");
        in.sdfs.push_back(SimSdfInputs{scene.collision_meshes[ci].mesh, c.sdfs[ci].get(), scene.collision_meshes[ci].margin_m});
    }
    in.colliders = scene.colliders;
    in.environment = scene.environment;
    in.motion = scene.motion;
    in.max_frames_per_advance = options_.max_frames_per_advance;
    auto world = build_sim_world(in);
    if (!world) return world.error();
    world_ = std::move(*world);
    // The clip before the accessories: a cloth pinned to a joint is placed and its field sized by the clip.
    TRESSEL_TRY(build_playback(scene));
    if (playback_) {
        world_->root_driver = [this](SimWorld& w, double t) { drive_roots(w, t); };
        if (!playback_->joint_colliders.empty())
            world_->collider_driver = [this](size_t i, double t, glm::mat4& out) { return collider_at(i, t, out); };
        if (!playback_->joint_accessories.empty())
            world_->cloth_driver = [this](size_t i, double t, glm::mat4& out) { return cloth_at(i, t, out); };
    }
    TRESSEL_TRY(build_cloths(scene));
    if (playback_) reset_to_rest(*world_);  // the roots where the clip starts
    const bool gpu_state = options_.simulation == SimBackend::Gpu || renderer_;
    if (gpu_state) {
        SimGpuMode mode = device_->info().is_cpu() ? SimGpuMode::Split : SimGpuMode::Fused;
        if (options_.sim_mode) mode = *options_.sim_mode;
        auto sim = SimGpu::create(*device_, *sim_pipelines_, *world_, options_.max_steps_per_record, mode);
        if (!sim) return sim.error();
        sim_ = std::move(*sim);
    }
    TRESSEL_TRY(build_playback_gpu());
    TRESSEL_TRY(solve_rest_state(true));
    TRESSEL_TRY(pose_fields(0.0));  // an animated body's fields where the clip starts
    scene_ = scene;
    meshes_time_s_ = -1.0;
    hair_moved_ = false;
    if (!renderer_) return {};
    TRESSEL_TRY(build_hair_drawing(scene));
    TRESSEL_TRY(populate_meshes(scene, 0.0));
    // The ground grid under the meshes and the rest pose of the hair.
    render::SceneBounds b;
    for (const SceneMesh& m : *c.meshes)
        for (glm::vec3 p : m.mesh.positions) b.add(p);
    for (const HairDraw& h : hair_) {
        b.add(h.rest_min);
        b.add(h.rest_max);
    }
    if (b.empty()) b.add(glm::vec3(-0.5f)), b.add(glm::vec3(0.5f));
    const glm::vec3 size = b.max_m - b.min_m;
    const double extent = std::max({double(size.x), double(size.y), double(size.z)});
    const double spacing = std::pow(10.0, std::floor(std::log10(std::max(extent, 1e-3) / 2.0)));
    const glm::vec3 centre = 0.5f * (b.min_m + b.max_m);
    TRESSEL_TRY(renderer_->set_grid(glm::vec3(centre.x, b.min_m.y, centre.z), extent, spacing));
    return update_slice(scene);
}

Status SceneRuntime::build_cloths(const Scene& scene) {
    cloth_of_accessory_.assign(scene.accessories.size(), -1);
    for (size_t ai = 0; ai < scene.accessories.size(); ++ai) {
        const Accessory& a = scene.accessories[ai];
        if (!a.enabled) continue;
        const std::string who = "accessories['" + a.name + "']";
        const SceneMesh* mesh = content_->find_mesh(a.mesh);
        if (!mesh) return make_error(ErrorCode::NotFound, who + ".mesh: no mesh '" + a.mesh + "' in the scene");
        const SceneMesh* attach = a.attach.empty() ? nullptr : content_->find_mesh(a.attach);
        if (!a.attach.empty() && !attach) return make_error(ErrorCode::NotFound, who + ".attach: no mesh '" + a.attach + "' in the scene");
        std::unique_ptr<MeshDistanceOracle> oracle;
        if (attach && a.pins.mode == PinMode::NearMesh) oracle = std::make_unique<MeshDistanceOracle>(attach->mesh);
        Result<ClothState> cloth = make_error(ErrorCode::InvalidArgument, who + ".type: unknown");
        if (a.type == AccessoryType::SoftBody) {
            SoftBodyBuildInputs in;
            in.name = a.name;
            in.mesh = &mesh->mesh;
            in.params = a.soft_body;
            in.pins = a.pins;
            in.attach = oracle.get();
            in.attach_mesh = a.attach;
            cloth = build_soft_body(in);
        } else {
            auto pins = select_pins(mesh->mesh, a.pins, oracle.get());
            if (!pins) return make_error(pins.error().code, who + ".pins: " + pins.error().message);
            ClothBuildInputs in;
            in.name = a.name;
            in.mesh = &mesh->mesh;
            in.params = a.cloth;
            in.pinned = std::move(*pins);
            in.attach_mesh = a.attach;
            cloth = build_cloth(in);
        }
        if (!cloth) return cloth.error();
        for (const std::string& name : a.sdf)
            for (uint32_t si = 0; si < world_->sdfs.size(); ++si)
                if (world_->sdfs[si].mesh == name) cloth->sdf_indices.push_back(si);
        for (const std::string& name : a.colliders)
            for (uint32_t ci = 0; ci < world_->colliders.size(); ++ci)
                if (world_->colliders[ci].desc.name == name) cloth->collider_indices.push_back(ci);
        cloth_of_accessory_[ai] = int(world_->cloths.size());
        world_->cloths.push_back(std::move(*cloth));
        // On the animated mesh without a joint: every pin follows the skin under it.
        if (playback_ && !a.attach.empty() && a.attach == playback_->mesh && a.attach_joint.empty())
            TRESSEL_TRY(pin_to_skin(world_->cloths.size() - 1, who));
    }
    if (playback_ && !playback_->skin_pins.empty()) {
        world_->cloth_driver = [this](size_t i, double t, glm::mat4& out) { return cloth_at(i, t, out); };
        world_->cloth_pin_driver = [this](size_t i, double t, std::vector<glm::mat4>& out) { return cloth_pins_at(i, t, out); };
    }
    reset_to_rest(*world_);
    // Hair against the accessories that ask for it: each one's field (a cloth's shell, a soft body's
    // signed distance) on a grid covering where its rest shape goes under the motion (64 times over 4 s)
    // with room to drape and swing: half its largest extent around (a flat sheet has no height at rest; a
    // cloth hangs from its pins).
    for (size_t ai = 0; ai < scene.accessories.size(); ++ai) {
        const Accessory& a = scene.accessories[ai];
        const bool soft = a.type == AccessoryType::SoftBody;
        if (cloth_of_accessory_[ai] < 0 || !(soft ? a.soft_body.hair_collision : a.cloth.hair_collision) || world_->groups.empty()) continue;
        const ClothState& cloth = world_->cloths[size_t(cloth_of_accessory_[ai])];
        const SceneMesh* attach = a.attach.empty() ? nullptr : content_->find_mesh(a.attach);
        const SceneMesh* under = attach ? attach : content_->find_mesh(world_->groups.front().scalp_mesh);
        if (!under) continue;
        glm::vec3 umin(std::numeric_limits<float>::infinity()), umax(-std::numeric_limits<float>::infinity());
        for (glm::vec3 q : under->mesh.positions) umin = glm::min(umin, q), umax = glm::max(umax, q);
        glm::vec3 rmin(std::numeric_limits<float>::infinity()), rmax(-std::numeric_limits<float>::infinity());
        for (const glm::vec4& q : accessory_surface(cloth)) rmin = glm::min(rmin, glm::vec3(q)), rmax = glm::max(rmax, glm::vec3(q));
        // Where its pins go: 64 times over 4 s of the motion, or over the blend-in and the clip for one
        // pinned to a joint of the playing skeleton.
        const size_t ci = size_t(cloth_of_accessory_[ai]);
        glm::mat4 m0;
        const bool on_joint = world_->cloth_driver && world_->cloth_driver(ci, 0.0, m0);
        const bool moves = on_joint || motion_moves_mesh(world_->motion, cloth.attach_mesh);
        const double span_s = on_joint ? Playback::kBlendInS + playback_->clip->duration_s() / std::max(std::abs(playback_->speed), 1e-3) : 4.0;
        // The grid travels with the attach mesh (accessory_field_placement: the carry of the rest shape's
        // centre), so it covers the turns and sways about that centre, not a walk across the room.
        glm::vec3 bmin = rmin, bmax = rmax;
        const glm::vec3 centre = 0.5f * (rmin + rmax);
        for (int i = 1; moves && i <= 64; ++i) {
            const glm::mat4 m = cloth_attach_now(*world_, ci, span_s * double(i) / 64.0) * glm::inverse(cloth_attach_now(*world_, ci, 0.0));
            const glm::vec3 travel = glm::vec3(m * glm::vec4(centre, 1.0f)) - centre;
            for (int k = 0; k < 8; ++k) {
                const glm::vec3 corner((k & 1) ? rmax.x : rmin.x, (k & 2) ? rmax.y : rmin.y, (k & 4) ? rmax.z : rmin.z);
                const glm::vec3 q = glm::vec3(m * glm::vec4(corner, 1.0f)) - travel;
                bmin = glm::min(bmin, q), bmax = glm::max(bmax, q);
            }
        }
        const glm::vec3 rsize = rmax - rmin;
        const glm::vec3 room(0.5f * std::max(rsize.x, std::max(rsize.y, rsize.z)));
        auto field = add_accessory_field(*world_, size_t(cloth_of_accessory_[ai]), bmin - room, bmax + room, kAccessoryFieldCellM,
                                         0.5f * (umin + umax));
        if (!field)
            return make_error(field.error().code,
                              "accessories['" + a.name + "']." + (soft ? "soft_body" : "cloth") + ".hair_collision: " + field.error().message);
    }
    // The groomed hair holds a cloth up: each of its fields but a posed body's (rebuilt for every pose)
    // gets the hair grown on that mesh, as the world has it now (at rest).
    for (size_t ai = 0; ai < scene.accessories.size(); ++ai) {
        const Accessory& a = scene.accessories[ai];
        if (cloth_of_accessory_[ai] < 0 || a.type != AccessoryType::Cloth || !a.cloth.rest_on_hair || world_->groups.empty()) continue;
        const size_t ci = size_t(cloth_of_accessory_[ai]);
        for (size_t slot = 0; slot < world_->cloths[ci].sdf_indices.size(); ++slot) {
            const std::string mesh = world_->sdfs[world_->cloths[ci].sdf_indices[slot]].mesh;  // (the call below adds to sdfs)
            if (playback_ && mesh == playback_->mesh) continue;
            bool grown = false;
            for (const SimGroupState& g : world_->groups) grown = grown || g.scalp_mesh == mesh;
            if (!grown) continue;
            const auto t0 = std::chrono::steady_clock::now();
            auto rest = add_cloth_hair_rest_field(*world_, ci, slot);
            if (!rest) return make_error(rest.error().code, "accessories['" + a.name + "'].cloth.rest_on_hair: " + rest.error().message);
            report_.add_time("cloth '" + a.name + "' resting on the hair over '" + mesh + "'", ms_since(t0));
        }
    }
    return {};
}

Status SceneRuntime::build_hair_drawing(const Scene& scene) {
    copy_pending_ = true;
    for (size_t i = 0; i < world_->groups.size(); ++i) {
        const SimGroupState& g = world_->groups[i];
        const HairGroup& hg = scene.hair_groups[group_of_sim_[i]];
        const GroomResult& groom = *content_->grooms[group_of_sim_[i]];
        HairDraw d;
        gpu::BufferDesc bd;
        bd.size = std::max<VkDeviceSize>(VkDeviceSize(g.vertex_count()) * sizeof(glm::vec4), 16);
        bd.name = g.name + " guide positions (render)";
        auto pos = device_->create_buffer(bd);
        if (!pos) return pos.error();
        d.guide_positions = std::move(*pos);
        std::vector<glm::uvec2> ginfo(g.strand_count), finfo(g.follow_count());
        // The guide id carries the groom's flags for the problems colouring (kHairInfo*); a follow hair
        // carries its first guide's, so the part of the groom around a moved guide shows.
        auto info_id = [&](uint32_t guide) {
            const uint32_t flags = guide < groom.guides.flags.size() ? groom.guides.flags[guide] : 0u;
            return (guide & gpu_shared::kHairInfoIdMask) | (flags & kStrandMovedOut ? gpu_shared::kHairInfoMovedOut : 0u) |
                   (flags & kStrandDegenerate ? gpu_shared::kHairInfoDegenerate : 0u);
        };
        for (uint32_t s = 0; s < g.strand_count; ++s) ginfo[s] = {s < groom.guides.seeds.size() ? groom.guides.seeds[s] : s, info_id(s)};
        for (size_t f = 0; f < finfo.size(); ++f)
            finfo[f] = {f < groom.follows.seeds.size() ? groom.follows.seeds[f] : uint32_t(f), info_id(g.follow_descriptors[f].guides.x)};
        auto gi = device_->create_buffer_with(std::span<const glm::uvec2>(ginfo), 0, g.name + " guide info");
        if (!gi) return gi.error();
        d.guide_info = std::move(*gi);
        auto fi = device_->create_buffer_with(std::span<const glm::uvec2>(finfo), 0, g.name + " follow info");
        if (!fi) return fi.error();
        d.follow_info = std::move(*fi);
        // Shadow maps frame the rest pose exactly; once the hair moves, each strand may swing its length.
        render::SceneBounds rest;
        for (const glm::vec4& p : g.positions) rest.add(glm::vec3(p));
        for (const glm::vec4& p : g.follow_positions) rest.add(glm::vec3(p));
        if (rest.empty()) rest.add(glm::vec3(0.0f));
        d.rest_min = rest.min_m;
        d.rest_max = rest.max_m;
        d.reach_m = float(hg.growth.length_m * (1.0 + hg.growth.length_variation));
        // The longest guide as grown or imported (follows blend guides): the renderer spaces drawn vertices
        // along it. Imported guides (a .tfx) need not match the growth length.
        for (uint32_t st = 0; st < g.strand_count && g.rest_lengths_m.size() >= size_t(g.strand_count) * g.n; ++st) {
            float len = 0.0f;
            for (uint32_t k = 0; k + 1 < g.n; ++k) len += g.rest_lengths_m[size_t(st) * g.n + k];
            d.longest_m = std::max(d.longest_m, len);
        }
        hair_.push_back(std::move(d));
    }
    for (size_t i = 0; i < world_->groups.size(); ++i) {
        const SimGroupState& g = world_->groups[i];
        const HairGroup& hg = scene.hair_groups[group_of_sim_[i]];
        render::HairDesc hd;
        hd.shading = hg.shading;
        hd.strand_length_m = hair_[i].longest_m > 0.0f ? hair_[i].longest_m : hair_[i].reach_m;
        hd.bounds_min_m = hair_[i].rest_min;
        hd.bounds_max_m = hair_[i].rest_max;
        hd.vertices_per_strand = g.n;
        if (g.strand_count > 0) {
            hd.positions = &hair_[i].guide_positions;
            hd.strand_info = &hair_[i].guide_info;
            hd.rest_lengths = &sim_->group(i).rest_lengths;
            hd.collision_depth = &sim_->field_depth(i, false);
            hd.strand_count = g.strand_count;
            hd.visible = hg.visible && scene.view.show_guides;
            auto id = renderer_->add_hair(hd);
            if (!id) return id.error();
            hair_[i].guides_index = *id;
        }
        if (g.follow_count() > 0) {
            hd.positions = &sim_->follow_positions(i);
            hd.strand_info = &hair_[i].follow_info;
            hd.rest_lengths = nullptr;
            hd.collision_depth = &sim_->field_depth(i, true);
            hd.strand_count = uint32_t(g.follow_count());
            hd.visible = hg.visible && scene.view.show_follows;
            auto id = renderer_->add_hair(hd);
            if (!id) return id.error();
            hair_[i].follows_index = *id;
        }
    }
    return {};
}

void SceneRuntime::expand_hair_bounds() {
    if (hair_moved_ || !renderer_) return;
    hair_moved_ = true;
    for (const HairDraw& h : hair_) {
        const glm::vec3 lo = h.rest_min - glm::vec3(h.reach_m), hi = h.rest_max + glm::vec3(h.reach_m);
        if (h.guides_index) renderer_->set_hair_bounds(*h.guides_index, lo, hi);
        if (h.follows_index) renderer_->set_hair_bounds(*h.follows_index, lo, hi);
    }
}

Status SceneRuntime::populate_meshes(const Scene& scene, double t_s) {
    if (!renderer_) return {};
    if (playback_) {  // the draws of the animated mesh are made again below
        playback_->draws.clear();
        if (playback_->skinned) TRESSEL_TRY(playback_->skinned->set_vertex_output(nullptr));
    }
    renderer_->clear_meshes();
    if (!content_) return {};
    const bool moving = scene.motion.type != MotionType::None;
    const glm::dmat4 m = moving ? motion_transform(scene.motion, t_s) : glm::dmat4(1.0);
    for (const SceneMesh& sm : *content_->meshes) {
        const MeshRef* ref = nullptr;
        for (const MeshRef& r : scene.meshes)
            if (r.name == sm.name) ref = &r;
        const bool collision = std::any_of(scene.collision_meshes.begin(), scene.collision_meshes.end(),
                                           [&](const CollisionMesh& c) { return c.mesh == sm.name; });
        const Mesh* draw = &sm.mesh;
        Mesh moved;
        if (playback_ && sm.name == playback_->mesh && pose_at(t_s).ok()) {
            moved = sm.mesh;
            moved.positions = playback_->posed;
            if (playback_->posed_normals.size() == moved.normals.size()) moved.normals = playback_->posed_normals;
            draw = &moved;
        } else if (moving && motion_moves_mesh(scene.motion, sm.name)) {
            moved = sm.mesh;
            transform_mesh(moved, m);
            draw = &moved;
        }
        const bool animated = playback_ && sm.name == playback_->mesh;
        bool simulated = false;  // an accessory's mesh is drawn from its cloth instead
        for (size_t ai = 0; ai < scene.accessories.size() && ai < cloth_of_accessory_.size(); ++ai)
            simulated = simulated || (scene.accessories[ai].mesh == sm.name && cloth_of_accessory_[ai] >= 0);
        if ((!ref || ref->visible) && !simulated) {
            auto id = renderer_->add_mesh(*draw, render::MeshStyle::Opaque);
            if (!id) return id.error();
            if (animated) playback_->draws.push_back(*id);
        }
        if (collision) {
            auto id = renderer_->add_mesh(*draw, render::MeshStyle::CollisionOverlay);
            if (!id) return id.error();
            if (animated) playback_->draws.push_back(*id);
        }
    }
    // The GPU path skins the drawn mesh in place every frame (the first draw; the others copy it).
    if (playback_ && playback_->skinned && !playback_->draws.empty()) {
        TRESSEL_TRY(playback_->skinned->set_vertex_output(renderer_->mesh_vertices(playback_->draws.front())));
        for (uint32_t id : playback_->draws) renderer_->set_mesh_bounds(id, playback_->clip_min, playback_->clip_max);
    }
    for (const Collider& c : scene.colliders) {
        auto id = renderer_->add_mesh(render::make_collider_mesh(c), render::MeshStyle::Collider);
        if (!id) return id.error();
    }
    // Cloths and soft bodies: their meshes at the current positions; the device rewrites the vertices
    // after every step.
    for (size_t ai = 0; ai < scene.accessories.size() && ai < cloth_of_accessory_.size() && world_; ++ai) {
        const int ci = cloth_of_accessory_[ai];
        if (ci < 0 || !scene.accessories[ai].visible) continue;
        const ClothState& cloth = world_->cloths[size_t(ci)];
        auto id = renderer_->add_mesh(cloth_mesh(cloth), render::MeshStyle::Opaque, glm::vec3(scene.accessories[ai].color));
        if (!id) return id.error();
        glm::vec3 lo(1e30f), hi(-1e30f);
        for (const gpu_shared::ClothVertex& v : cloth.vertices) lo = glm::min(lo, glm::vec3(v.rest_os)), hi = glm::max(hi, glm::vec3(v.rest_os));
        // A cloth swings at most its own size about its pins; a soft body may also fall onto what is below it.
        const float reach = glm::length(hi - lo) + (cloth.soft_body ? 1.0f : 0.0f);
        renderer_->set_mesh_bounds(*id, lo - glm::vec3(reach), hi + glm::vec3(reach));
        if (sim_ && size_t(ci) < sim_->cloth_count()) TRESSEL_TRY(sim_->set_cloth_draw_target(size_t(ci), renderer_->mesh_vertices(*id)));
        copy_pending_ = true;
    }
    meshes_time_s_ = t_s;
    return {};
}

Status SceneRuntime::update_density_slice(const Scene& scene) {
    // The group named by view.slice_group (the first simulated one for ""), on its volume grid as the
    // world holds it (the rest pose before a step; on the GPU path the last download()).
    // A name no simulated group has (renamed, removed, not simulated) falls back to the first.
    std::optional<size_t> gi, first;
    for (size_t i = 0; world_ && i < world_->groups.size() && i < group_of_sim_.size(); ++i) {
        if (world_->groups[i].positions.empty()) continue;
        if (!first) first = i;
        if (scene.hair_groups[group_of_sim_[i]].name == scene.view.slice_group) {
            gi = i;
            break;
        }
    }
    if (!gi) gi = first;
    if (!gi) {
        renderer_->clear_slice();
        slice_key_.reset();
        slice_ = {};
        slice_grid_.reset();
        return {};
    }
    SliceKey key{scene.view.slice_axis, scene.view.slice_position, 0.0, 0.0, 0, nullptr, -1.0};
    key.density = true;
    key.group = *gi;
    key.world = world_generation_;
    key.steps = world_->clock.steps;
    key.downloads = downloads_;
    if (slice_key_ && *slice_key_ == key) return {};
    density_grid_ = std::make_shared<const SimDensityGrid>(volume_density_grid(world_->groups[*gi]));
    const SimDensityGrid& grid = *density_grid_;
    slice_ = render::make_density_slice_view(grid.nodes, grid.origin_m, grid.cell_m, grid.per_cm2, grid.target_per_cm2,
                                             key.axis, key.position);
    slice_grid_.reset();
    slice_mesh_ = scene.hair_groups[group_of_sim_[*gi]].name;
    if (slice_.width_px == 0) {
        renderer_->clear_slice();
        slice_key_.reset();
        return {};
    }
    TRESSEL_TRY(renderer_->set_slice(slice_));
    slice_key_ = key;
    report_.slice = true;
    return {};
}

Result<bool> SceneRuntime::refresh_density_slice() {
    if (!renderer_ || !world_ || !scene_.view.show_slice || scene_.view.slice_of != SliceSource::HairDensity) return false;
    if (slice_key_ && slice_key_->density && slice_key_->steps == world_->clock.steps && slice_key_->world == world_generation_) return false;
    TRESSEL_TRY(download());
    const std::optional<SliceKey> before = slice_key_;
    TRESSEL_TRY(update_density_slice(scene_));
    return !(before && slice_key_ && *before == *slice_key_);
}

Status SceneRuntime::update_slice(const Scene& scene) {
    if (!renderer_) return {};
    if (scene.view.slice_of == SliceSource::HairDensity) return update_density_slice(scene);
    if (!content_ || content_->sdfs.empty() || !content_->sdfs.front()) {
        renderer_->clear_slice();
        slice_key_.reset();
        slice_ = {};
        slice_grid_.reset();
        return {};
    }
    size_t mi = 0;
    for (size_t i = 0; i < scene.collision_meshes.size(); ++i)
        if (scene.collision_meshes[i].mesh == scene.view.slice_mesh) mi = i;
    if (mi >= content_->sdfs.size() || !content_->sdfs[mi]) mi = 0;
    const double margin = mi < scene.collision_meshes.size() ? scene.collision_meshes[mi].margin_m : 0.0;
    // An animated body's slice shows the field the hair collides with now (read back from the device on
    // the GPU path), while the slice is on screen.
    double pose_t = -1.0;
    if (playback_ && world_ && scene.view.show_slice && mi < world_->sdfs.size())
        for (const Playback::Field& f : playback_->fields)
            if (f.sdf == mi && f.posed_t >= 0.0 && world_->clock.steps > 0) pose_t = f.posed_t;
    const SliceKey key{scene.view.slice_axis, scene.view.slice_position, margin, slice_range_m_, mi, content_->sdfs[mi].get(), pose_t};
    if (slice_key_ && *slice_key_ == key) return {};
    SliceStyle style;
    style.margin_m = margin;
    style.range_m = slice_range_m_;
    style.upscale = 2;
    if (pose_t >= 0.0) {
        auto posed = current_field(uint32_t(mi));
        if (!posed) return posed.error();
        slice_grid_ = std::make_shared<const SdfGrid>(std::move(*posed));
    } else {
        slice_grid_ = content_->sdfs[mi];
    }
    // The diagnosis is of the still field and the mesh as loaded; a posed field is shown without it.
    const SdfFieldCheck* check = nullptr;
    const MeshEdgeProblems* edges = nullptr;
    if (pose_t < 0.0) {
        if (field_check_grid_ != slice_grid_.get() || !field_check_) {
            field_check_ = std::make_shared<const SdfFieldCheck>(check_sdf_field(*slice_grid_));
            field_check_grid_ = slice_grid_.get();
        }
        check = field_check_.get();
        const SceneMesh* mesh = mi < scene.collision_meshes.size() ? content_->find_mesh(scene.collision_meshes[mi].mesh) : nullptr;
        if (mesh && (edge_problems_mesh_ != &mesh->mesh || !edge_problems_)) {
            edge_problems_ = std::make_shared<const MeshEdgeProblems>(find_mesh_edge_problems(mesh->mesh));
            edge_problems_mesh_ = &mesh->mesh;
        }
        if (mesh) edges = edge_problems_.get();
    }
    slice_ = render::make_slice_view(*slice_grid_, key.axis, key.position, style, check, edges);
    slice_mesh_ = mi < scene.collision_meshes.size() ? scene.collision_meshes[mi].mesh : std::string();
    TRESSEL_TRY(renderer_->set_slice(slice_));
    slice_key_ = key;
    report_.slice = true;
    return {};
}

std::optional<SceneRuntime::SliceProbe> SceneRuntime::probe_slice(glm::dvec3 origin_m, glm::dvec3 direction) const {
    if (slice_.width_px == 0 || (slice_.density ? !density_grid_ : !slice_grid_)) return std::nullopt;
    const int a = slice_.axis;
    if (!(std::abs(direction[a]) > 1e-12)) return std::nullopt;  // along the plane
    const double t = (slice_.plane_m - origin_m[a]) / direction[a];
    if (!(t > 0.0)) return std::nullopt;                          // behind the camera
    const glm::dvec3 p = origin_m + t * direction;
    for (int k = 0; k < 3; ++k)
        if (k != a && (p[k] < double(slice_.grid_min_m[k]) || p[k] > double(slice_.grid_max_m[k]))) return std::nullopt;
    if (slice_.density) {
        // Bilinear between the plane's nodes, as the image is drawn.
        const SimDensityGrid& g = *density_grid_;
        const int n = int(g.nodes);
        SliceProbe probe;
        probe.mesh = slice_mesh_;
        probe.point_m = p;
        probe.density = true;
        probe.cell_size_m = g.cell_m;
        probe.target_per_cm2 = g.target_per_cm2;
        const glm::dvec3 u = (p - glm::dvec3(g.origin_m)) / double(g.cell_m);
        glm::ivec3 i0 = glm::clamp(glm::ivec3(glm::floor(u)), glm::ivec3(0), glm::ivec3(n - 2));
        i0[a] = slice_.index;
        glm::dvec3 f = glm::clamp(u - glm::dvec3(i0), glm::dvec3(0.0), glm::dvec3(1.0));
        f[a] = 0.0;
        auto at = [&](glm::ivec3 c) { return double(g.per_cm2[(size_t(c.z) * size_t(n) + size_t(c.y)) * size_t(n) + size_t(c.x)]); };
        double value = 0.0;
        for (int corner = 0; corner < 8; ++corner) {
            const glm::ivec3 d((corner & 1) ? 1 : 0, (corner & 2) ? 1 : 0, (corner & 4) ? 1 : 0);
            if (d[a] != 0) continue;
            double w = 1.0;
            for (int k = 0; k < 3; ++k)
                if (k != a) w *= d[k] ? f[k] : 1.0 - f[k];
            value += w * at(glm::min(i0 + d, glm::ivec3(n - 1)));
        }
        probe.density_per_cm2 = value;
        probe.cell = glm::clamp(glm::ivec3(glm::round(u)), glm::ivec3(0), glm::ivec3(n - 1));
        probe.cell[a] = slice_.index;
        probe.distance_m = std::numeric_limits<double>::quiet_NaN();
        probe.cell_distance_m = std::numeric_limits<double>::quiet_NaN();
        return probe;
    }
    const SdfGrid& g = *slice_grid_;
    SliceProbe probe;
    probe.mesh = slice_mesh_;
    probe.point_m = p;
    probe.distance_m = double(g.sample_m(glm::vec3(p)));
    const glm::dvec3 c = (p - g.grid.origin_m) / g.grid.cell_size_m;
    probe.cell = glm::clamp(glm::ivec3(glm::round(c)), glm::ivec3(0), g.grid.dims - 1);
    probe.cell[a] = slice_.index;
    probe.cell_distance_m = double(g.at(probe.cell.x, probe.cell.y, probe.cell.z));
    if (slice_.checked && field_check_ && field_check_grid_ == &g)
        probe.mark = field_check_->marks[g.index(probe.cell.x, probe.cell.y, probe.cell.z)];
    probe.cell_size_m = g.grid.cell_size_m;
    probe.margin_m = slice_.margin_m;
    return probe;
}

Status SceneRuntime::sync(const Scene& scene) {
    report_ = {};
    if (!content_) return make_error(ErrorCode::InvalidArgument, "scene runtime: no content installed");
    // A fibre radius edit: the guides' widths (what exports carry) follow on a copy of the groom.
    std::shared_ptr<SceneContent> restyled;
    for (size_t gi = 0; gi < scene.hair_groups.size() && gi < content_->grooms.size(); ++gi) {
        auto g = restyled_groom(content_->grooms[gi], scene.hair_groups[gi]);
        if (g == content_->grooms[gi]) continue;
        if (!restyled) restyled = std::make_shared<SceneContent>(*content_);
        restyled->grooms[gi] = std::move(g);
        report_.restyled.push_back(scene.hair_groups[gi].name);
    }
    if (restyled) content_ = std::move(restyled);
    if (!world_) {  // no device: nothing runs
        scene_ = scene;
        return {};
    }
    if (!same_sim_structure(scene, scene_)) {
        if (refused_ && refused_->first == scene) return refused_->second;
        if (device_refused_ && device_refused_->scene == scene &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - device_refused_->at).count() < options_.device_retry_s)
            return device_refused_->status;
        if (Status st = build_simulation(scene); !st) {
            // The edit's simulation could not be built (a clip or joint the file does not have): the scene
            // as it was runs again, from rest.
            (void)build_simulation(scene_);
            // The scene's own fault is kept; a failure of the device (memory, a lost GPU) is tried again,
            // after options_.device_retry_s.
            const ErrorCode code = st.error().code;
            if (code != ErrorCode::OutOfMemory && code != ErrorCode::DeviceLost && code != ErrorCode::Gpu && code != ErrorCode::Io &&
                code != ErrorCode::Cancelled)
                refused_.emplace(scene, st);
            else
                device_refused_ = DeviceRefusal{scene, st, std::chrono::steady_clock::now()};
            return st;
        }
        refused_.reset();
        device_refused_.reset();
        report_.simulation = true;
        return {};
    }
    for (size_t i = 0; i < world_->groups.size(); ++i) {
        const HairGroup& hg = scene.hair_groups[group_of_sim_[i]];
        const HairGroup& old = scene_.hair_groups[group_of_sim_[i]];
        if (!(hg.simulation == old.simulation)) report_.simulation_params = true;
        world_->groups[i].params = hg.simulation;
        if (renderer_ && !(hg.shading == old.shading)) {
            if (hair_[i].guides_index) renderer_->set_hair_shading(*hair_[i].guides_index, hg.shading);
            if (hair_[i].follows_index) renderer_->set_hair_shading(*hair_[i].follows_index, hg.shading);
            report_.shading = true;
        }
    }
    if (!(scene.environment == scene_.environment) || !(scene.motion == scene_.motion) ||
        !(scene.colliders == scene_.colliders) || !(scene.collision_meshes == scene_.collision_meshes))
        report_.simulation_params = true;
    // What the rest state hangs on: every group's simulation values, gravity and the step, the contacts.
    // Not the motion or the wind, which the solve leaves out.
    Environment still_env = scene.environment, old_env = scene_.environment;
    still_env.wind = old_env.wind = Wind{};
    bool resolve = !(still_env == old_env) || !(scene.colliders == scene_.colliders) || !(scene.collision_meshes == scene_.collision_meshes);
    for (size_t i = 0; i < world_->groups.size(); ++i)
        resolve = resolve || !(scene.hair_groups[group_of_sim_[i]].simulation == scene_.hair_groups[group_of_sim_[i]].simulation);
    world_->environment = scene.environment;
    world_->motion = scene.motion;
    if (playback_) {  // the clip's timing: the next frame poses the body at the new clip time
        playback_->start_s = scene.motion.animation_start_s;
        playback_->speed = scene.motion.animation_speed;
        playback_->loop = scene.motion.animation_loop;
        playback_->posed_t = -1.0;
        for (Playback::Field& f : playback_->fields) f.posed_t = -1.0;
    }
    for (size_t i = 0; i < world_->colliders.size() && i < scene.colliders.size(); ++i) world_->colliders[i].desc = scene.colliders[i];
    for (SimSdfState& sdf : world_->sdfs)
        for (const CollisionMesh& cm : scene.collision_meshes)
            if (cm.mesh == sdf.mesh) sdf.margin_m = cm.margin_m;
    if (resolve) TRESSEL_TRY(solve_rest_state(false));
    if (renderer_ && (!(scene.colliders == scene_.colliders) || !(scene.meshes == scene_.meshes) ||
                      !(scene.motion == scene_.motion) || !(scene.collision_meshes == scene_.collision_meshes))) {
        TRESSEL_TRY(populate_meshes(scene, world_->time_s()));
        report_.drawn_meshes = true;
    }
    scene_ = scene;
    set_hair_visibility(scene.view.show_guides, scene.view.show_follows);
    return update_slice(scene);
}

Status SceneRuntime::build_playback(const Scene& scene) {
    playback_.reset();
    if (scene.motion.type != MotionType::Animation || !content_) return {};
    const std::string who = "motion (animation)";
    // The animated mesh: the one motion.mesh names, or the first skinned one.
    size_t index = scene.meshes.size();
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        const SceneMesh* sm = content_->find_mesh(scene.meshes[i].name);
        if (!scene.motion.mesh.empty() ? scene.meshes[i].name == scene.motion.mesh : (sm && sm->mesh.skin >= 0)) {
            index = i;
            break;
        }
    }
    if (index == scene.meshes.size())
        return make_error(ErrorCode::InvalidArgument, who + ": " + (scene.motion.mesh.empty() ? std::string("no mesh is skinned")
                                                                                              : "there is no mesh '" + scene.motion.mesh + "'"));
    auto p = std::make_unique<Playback>();
    p->mesh = scene.meshes[index].name;
    p->scene_mesh = content_->find_mesh(p->mesh);
    if (!p->scene_mesh) return make_error(ErrorCode::InvalidArgument, who + ": mesh '" + p->mesh + "' is not loaded");
    const Mesh& mesh = p->scene_mesh->mesh;
    const MeshRef& ref = scene.meshes[index];
    if (mesh.skin < 0 || size_t(mesh.skin) >= p->scene_mesh->imported.skins.size())
        return make_error(ErrorCode::InvalidArgument, who + ": mesh '" + p->mesh + "' is not skinned (its file gives it no joints)");
    // The file whose nodes and clips move it: its own, or the one meshes[].skeleton names (a TressFX body
    // names its bones and has no skeleton).
    size_t rig_index = index;
    if (!ref.skeleton.empty()) {
        for (size_t i = 0; i < scene.meshes.size(); ++i)
            if (scene.meshes[i].name == ref.skeleton) rig_index = i;
        const SceneMesh* rig = content_->find_mesh(ref.skeleton);
        if (!rig || rig_index == index)
            return make_error(ErrorCode::InvalidArgument, "meshes['" + p->mesh + "'].skeleton: mesh '" + ref.skeleton + "' is not loaded");
        p->file = &rig->imported;
        auto skin = retarget_skin(p->scene_mesh->imported, p->scene_mesh->imported.skins[size_t(mesh.skin)], *p->file);
        if (!skin) return make_error(skin.error().code, "meshes['" + p->mesh + "'].skeleton: " + skin.error().message);
        p->own_skin = std::move(*skin);
    } else {
        p->file = &p->scene_mesh->imported;
    }
    const ImportedScene& file = *p->file;
    const Animation* clip = nullptr;
    std::string names;
    for (const Animation& a : file.animations) {
        names += (names.empty() ? "" : ", ") + std::string("'") + a.name + "'";
        if (!clip && (scene.motion.animation.empty() || a.name == scene.motion.animation)) clip = &a;
    }
    if (!clip)
        return make_error(ErrorCode::InvalidArgument, who + ": mesh '" + p->mesh + "' has no clip '" + scene.motion.animation + "'" +
                                                          (names.empty() ? std::string(" (it has no clips)") : " (it has " + names + ")"));
    p->clip = std::make_unique<ClipSampler>(file, *clip);
    p->start_s = scene.motion.animation_start_s;
    p->speed = scene.motion.animation_speed;
    p->loop = scene.motion.animation_loop;
    p->skin = ref.skeleton.empty() ? &file.skins[size_t(mesh.skin)] : &p->own_skin;
    auto options = scene_import_options(scene, rig_index);
    if (!options) return options.error();
    p->to_scene = transform_matrix(scene.meshes[rig_index].transform) * to_engine_space(options->units, options->up_axis);
    const std::vector<glm::mat4> rest_joints = joint_matrices(*p->skin, world_transforms(file, rest_pose(file)), p->to_scene);
    auto bind = unbind_mesh(mesh, rest_joints);
    if (!bind) return make_error(bind.error().code, who + ": " + bind.error().message);
    p->bind = std::move(*bind);
    auto boxes = joint_bounds(mesh, p->bind, p->skin->joints.size());
    if (!boxes) return make_error(boxes.error().code, who + ": " + boxes.error().message);
    p->joint_boxes = std::move(*boxes);
    // Colliders and accessories on a joint of this skin: each follows its joint from the rest pose.
    const std::vector<glm::dmat4> rest_world = world_transforms(file, rest_pose(file));
    auto attach_to_joint = [&](std::vector<Playback::JointAttachment>& out, size_t scene_index, const std::string& path,
                               const std::string& joint) -> Status {
        int node = -1;
        for (size_t n = 0; n < file.nodes.size() && node < 0; ++n)
            if (file.nodes[n].name == joint) node = int(n);
        if (node < 0)
            return make_error(ErrorCode::InvalidArgument, path + ".attach_joint: mesh '" + p->mesh + "' has no joint '" + joint + "'");
        out.push_back({scene_index, node, glm::inverse(rest_world[size_t(node)])});
        return {};
    };
    for (size_t ci = 0; ci < scene.colliders.size(); ++ci) {
        const Collider& c = scene.colliders[ci];
        if (!c.attach_joint.empty() && c.attach_to == p->mesh)
            TRESSEL_TRY(attach_to_joint(p->joint_colliders, ci, "colliders['" + c.name + "']", c.attach_joint));
    }
    for (size_t ai = 0; ai < scene.accessories.size(); ++ai) {
        const Accessory& a = scene.accessories[ai];
        if (!a.attach_joint.empty() && a.attach == p->mesh)
            TRESSEL_TRY(attach_to_joint(p->joint_accessories, ai, "accessories['" + a.name + "']", a.attach_joint));
    }
    playback_ = std::move(p);
    // The bounds of every pose the clip takes (sampled 24 times) and the bind pose: the drawn mesh's bounds
    // when the device moves it. The fields' grids are placed around each pose instead (Playback::Field):
    // sized for the largest pose's box (its joints' boxes carried, posed_bounds), centred on the pose's.
    glm::dvec3 bmin(std::numeric_limits<double>::infinity()), bmax(-std::numeric_limits<double>::infinity());
    for (const glm::vec3& q : mesh.positions) bmin = glm::min(bmin, glm::dvec3(q)), bmax = glm::max(bmax, glm::dvec3(q));
    glm::dvec3 box_lo, box_hi;
    if (!posed_bounds(playback_->joint_boxes, rest_joints, box_lo, box_hi))
        return make_error(ErrorCode::InvalidArgument, who + ": no joint of mesh '" + playback_->mesh + "' moves a vertex");
    playback_->bind_centre = 0.5 * (box_lo + box_hi);
    glm::dvec3 pose_extent = box_hi - box_lo;
    for (int i = 0; i <= 24; ++i) {
        TRESSEL_TRY(pose_at(Playback::kBlendInS + playback_->clip->duration_s() * double(i) / 24.0));
        for (const glm::vec3& q : playback_->posed) bmin = glm::min(bmin, glm::dvec3(q)), bmax = glm::max(bmax, glm::dvec3(q));
        if (posed_bounds(playback_->joint_boxes, playback_->joints, box_lo, box_hi)) pose_extent = glm::max(pose_extent, box_hi - box_lo);
    }
    playback_->clip_min = glm::vec3(bmin);
    playback_->clip_max = glm::vec3(bmax);
    for (const CollisionMesh& cm : scene.collision_meshes) {
        if (cm.mesh != playback_->mesh || !world_) continue;
        uint32_t k = 0;
        while (k < world_->sdfs.size() && world_->sdfs[k].mesh != cm.mesh) ++k;
        if (k == world_->sdfs.size()) continue;
        Diagnostics diag;
        const glm::dvec3 c = playback_->bind_centre;
        auto grid = compute_grid(c - 0.5 * pose_extent, c + 0.5 * pose_extent, cm.cells_x, cm.padding, diag);
        if (!grid) return make_error(grid.error().code, who + ": the field of '" + cm.mesh + "': " + grid.error().message);
        Playback::Field f;
        f.sdf = k;
        f.desc = sdf_build_desc(cm, mesh);
        f.desc.fixed_grid = *grid;
        f.desc.band_only = cm.animated_band_only;
        SdfBuildDesc bind_desc = f.desc;  // the bind pose's field (the sag-free solve's) is built whole
        bind_desc.band_only = false;
        auto built = build_sdf_cpu(bind_desc, diag);
        if (!built) return make_error(built.error().code, who + ": the field of '" + cm.mesh + "': " + built.error().message);
        f.bind = std::make_unique<SdfGrid>(std::move(*built));
        playback_->fields.push_back(std::move(f));
        SimSdfState& sdf = world_->sdfs[k];
        sdf.moves = false;
        sdf.transform = glm::mat4(1.0f);
        sdf.grid = playback_->fields.back().bind.get();
        sdf.grid_params = sdf.grid->gpu_params();
    }
    if (!playback_->fields.empty()) playback_->posed_mesh = mesh;
    return build_playback_gpu();
}

Status SceneRuntime::build_playback_gpu() {
    if (!playback_ || !sim_ || !world_ || options_.simulation != SimBackend::Gpu) return {};
    Playback& p = *playback_;
    if (p.skinned) return {};
    if (!sdf_pipelines_ && !p.fields.empty()) {
        auto pipes = SdfGpuPipelines::create(*device_);
        if (!pipes) return {};  // a device that cannot build fields: the CPU builds and roots stay
        sdf_pipelines_.emplace(std::move(*pipes));
    }
    if (!skin_pipeline_) {
        auto pipe = SkinGpuPipeline::create(*device_);
        if (!pipe) return {};  // the CPU skins, drives the roots and builds the fields instead
        skin_pipeline_.emplace(std::move(*pipe));
    }
    const std::string who = "motion (animation) on the GPU";
    auto skinned = SkinnedMeshGpu::create(*device_, *skin_pipeline_, p.scene_mesh->mesh, p.bind, uint32_t(p.skin->joints.size()));
    if (!skinned) return make_error(skinned.error().code, who + ": " + skinned.error().message);
    for (Playback::Field& f : p.fields) {
        Diagnostics diag;
        SdfBuildDesc desc = f.desc;
        desc.mesh = &p.scene_mesh->mesh;
        auto field = build_sdf_gpu(*device_, *sdf_pipelines_, desc, diag);
        if (!field) return make_error(field.error().code, who + ": the field of '" + p.mesh + "': " + field.error().message);
        auto refit = prepare_sdf_refit(*device_, *sdf_pipelines_, *field, skinned->positions(), skinned->vertex_count());
        if (!refit) return make_error(refit.error().code, who + ": the field of '" + p.mesh + "': " + refit.error().message);
        f.gpu = std::move(*field);
        f.refit = std::move(*refit);
        f.posed.reset();
        f.posed_t = -1.0;
    }
    // The roots of every group grown on the animated mesh, from the skinned scalp on the device.
    p.device_roots.clear();
    p.device_rooted.assign(world_->groups.size(), false);
    for (size_t gi = 0; gi < world_->groups.size() && gi < group_of_sim_.size(); ++gi) {
        if (world_->groups[gi].scalp_mesh != p.mesh) continue;
        const GroomResult* groom = content_->grooms[group_of_sim_[gi]].get();
        if (!groom || groom->guides.roots.size() != world_->groups[gi].strand_count) continue;  // guides from a file: no scalp triangles
        auto roots = SkinnedRootsGpu::create(*device_, *skin_pipeline_, p.scene_mesh->mesh, groom->guides.roots, skinned->positions(),
                                             skinned->vertex_count());
        if (!roots) return make_error(roots.error().code, who + ": the roots of '" + world_->groups[gi].name + "': " + roots.error().message);
        p.device_roots.push_back({gi, std::make_unique<SkinnedRootsGpu>(std::move(*roots))});
        TRESSEL_TRY(sim_->set_device_root_targets(*device_, *world_, gi, &p.device_roots.back().second->targets()));
        p.device_rooted[gi] = true;
    }
    p.skinned = std::move(*skinned);
    p.gpu_posed_t = -1.0;
    if (!p.device_roots.empty()) {
        // The rest placement without the CPU's roots, as a reset places it, so that a reset replays the
        // build's frames bit for bit; the device's roots are placed at their targets by the first pose.
        reset_to_rest(*world_);
        TRESSEL_TRY(sim_->upload_state(*device_, *world_));
    }
    return {};
}

Status SceneRuntime::pose_fields(double t_s, bool bind_pose) {
    if (!playback_ || !world_) return {};
    Playback& p = *playback_;
    if (p.skinned && !bind_pose) {
        // On the device: skin, the roots' targets, refit, rebuild and copy into the simulation's fields. The
        // world's CPU grid stays the bind pose's (nothing on the host reads a posed field while the GPU
        // steps). At the start (a new world or a reset) the roots are placed at their targets.
        if (p.gpu_posed_t == t_s) return {};
        p.joints = joint_matrices(*p.skin, world_transforms(*p.file, p.local_pose(t_s)), p.to_scene);
        TRESSEL_TRY(p.skinned->set_joints(p.joints));
        const glm::dvec3 centre = p.pose_centre(p.joints);
        const bool start = world_->clock.steps == 0;
        Status copied;
        TRESSEL_TRY(device_->run_sync([&](gpu::CommandBuffer& cmd) {
            for (Playback::Field& f : p.fields) record_sdf_place(cmd, *f.gpu, f.origin_for(centre, p.bind_centre));
            p.skinned->record(cmd, *skin_pipeline_);
            if (renderer_ && p.draws.size() > 1) {  // the collision overlay draws the same skinned vertices
                for (size_t i = 1; i < p.draws.size(); ++i)
                    cmd.copy(*renderer_->mesh_vertices(p.draws.front()), *renderer_->mesh_vertices(p.draws[i]));
                cmd.transfer_barrier();
            }
            for (const auto& [gi, roots] : p.device_roots) roots->record(cmd, *skin_pipeline_);
            if (start) sim_->record_snap_device_roots(cmd);
            for (Playback::Field& f : p.fields) {
                record_sdf_refit(cmd, *sdf_pipelines_, *f.gpu, *f.refit, nullptr);
                record_sdf_build(cmd, *sdf_pipelines_, *f.gpu, nullptr);
                if (copied.ok()) copied = sim_->record_sdf_field_copy(cmd, *world_, f.sdf, f.gpu->distance);
            }
        }));
        TRESSEL_TRY(copied);
        for (Playback::Field& f : p.fields) {
            world_->sdfs[f.sdf].grid = f.bind.get();
            set_sdf_placement(world_->sdfs[f.sdf], glm::vec3(f.gpu->plan.grid.origin_m - f.desc.fixed_grid->origin_m));
            f.posed_t = t_s;
        }
        p.gpu_posed_t = t_s;
        return {};
    }
    if (bind_pose) p.gpu_posed_t = -1.0;  // the GPU path poses again after
    for (Playback::Field& f : p.fields) {
        if (bind_pose) {
            world_->sdfs[f.sdf].grid = f.bind.get();
            set_sdf_placement(world_->sdfs[f.sdf], glm::vec3(0.0f));
            f.posed_t = -1.0;  // the GPU path rebuilds the pose after
        } else {
            if (f.posed_t != t_s || !f.posed) {
                TRESSEL_TRY(pose_at(t_s));
                p.posed_mesh.positions = p.posed;
                SdfBuildDesc desc = f.desc;
                desc.mesh = &p.posed_mesh;
                desc.fixed_grid->origin_m = f.origin_for(p.pose_centre(p.joints), p.bind_centre);
                Diagnostics diag;
                auto built = build_sdf_cpu(desc, diag);
                if (!built) return make_error(built.error().code, "the field of '" + p.mesh + "' posed at " + std::to_string(t_s) + " s: " + built.error().message);
                f.posed = std::make_unique<SdfGrid>(std::move(*built));
                f.posed_t = t_s;
            }
            world_->sdfs[f.sdf].grid = f.posed.get();
            set_sdf_placement(world_->sdfs[f.sdf], glm::vec3(f.posed->grid.origin_m - f.desc.fixed_grid->origin_m));
        }
        if (sim_) TRESSEL_TRY(sim_->upload_sdf_field(*device_, *world_, f.sdf));
    }
    return {};
}

glm::dvec3 SceneRuntime::Playback::pose_centre(std::span<const glm::mat4> pose_joints) const {
    glm::dvec3 lo, hi;
    return posed_bounds(joint_boxes, pose_joints, lo, hi) ? 0.5 * (lo + hi) : bind_centre;
}

glm::dvec3 SceneRuntime::Playback::Field::origin_for(glm::dvec3 centre, glm::dvec3 bind_centre) const {
    const SdfGridDesc& g = *desc.fixed_grid;
    return g.origin_m + glm::round((centre - bind_centre) / g.cell_size_m) * g.cell_size_m;
}

std::vector<NodeTransform> SceneRuntime::Playback::local_pose(double t_s) const {
    // The blend-in: from the bind pose (the groom's, outside the body) into the clip's first frame, so
    // that play and reset start the hair where it was grown and the body moves into it smoothly.
    std::vector<NodeTransform> local = rest_pose(*file);
    const ClipTimeMode mode = loop ? ClipTimeMode::Loop : ClipTimeMode::Clamp;
    if (t_s < kBlendInS) {
        std::vector<NodeTransform> first = local;
        clip->sample(start_s, first, mode);
        const double u = std::max(0.0, t_s) / kBlendInS;
        return blend_poses(local, first, u * u * (3.0 - 2.0 * u));  // eased: no jolt at either end
    }
    clip->sample(clip_time_s(t_s), local, mode);
    return local;
}

glm::mat4 SceneRuntime::Playback::joint_motion(int node, const glm::dmat4& inverse_rest, double t_s) {
    if (joint_world_t != t_s) {
        joint_world = world_transforms(*file, local_pose(t_s));
        joint_world_t = t_s;
    }
    return glm::mat4(to_scene * joint_world[size_t(node)] * inverse_rest * glm::inverse(to_scene));
}

bool SceneRuntime::collider_at(size_t index, double t_s, glm::mat4& out) {
    if (!playback_) return false;
    for (const Playback::JointAttachment& jc : playback_->joint_colliders) {
        if (jc.index != index) continue;
        out = playback_->joint_motion(jc.node, jc.inverse_rest, t_s);
        return true;
    }
    return false;
}

bool SceneRuntime::cloth_at(size_t cloth, double t_s, glm::mat4& out) {
    if (!playback_) return false;
    for (const Playback::JointAttachment& ja : playback_->joint_accessories) {
        if (ja.index >= cloth_of_accessory_.size() || cloth_of_accessory_[ja.index] != int(cloth)) continue;
        out = playback_->joint_motion(ja.node, ja.inverse_rest, t_s);
        return true;
    }
    // Pins on the skin: the cloth as a whole (its contacts' frame, its field's grid, a reset) follows the
    // pin nearest the pins' centre.
    for (Playback::SkinPins& sp : playback_->skin_pins) {
        if (sp.cloth != cloth) continue;
        auto transforms = playback_->skin_pins_at(sp, t_s);
        if (!transforms) return false;
        out = (**transforms)[sp.representative];
        return true;
    }
    return false;
}

bool SceneRuntime::cloth_pins_at(size_t cloth, double t_s, std::vector<glm::mat4>& out) {
    if (!playback_) return false;
    for (Playback::SkinPins& sp : playback_->skin_pins) {
        if (sp.cloth != cloth) continue;
        auto transforms = playback_->skin_pins_at(sp, t_s);
        if (!transforms) return false;
        out.assign(sp.vertex_count, glm::mat4(1.0f));
        for (size_t i = 0; i < sp.vertex.size(); ++i) out[sp.vertex[i]] = (**transforms)[i];
        return true;
    }
    return false;
}

Result<const std::vector<glm::mat4>*> SceneRuntime::Playback::skin_pins_at(SkinPins& sp, double t_s) {
    for (uint32_t i = 0; i < 2; ++i)
        if (sp.transforms_t[i] == t_s && sp.transforms[i].size() == sp.at.size()) return &sp.transforms[i];
    const uint32_t slot = sp.oldest;
    sp.transforms_t[slot] = -1.0;
    const std::vector<glm::mat4> pose_joints = joint_matrices(*skin, world_transforms(*file, local_pose(t_s)), to_scene);
    std::vector<glm::vec3> corners_posed;
    TRESSEL_TRY(skin_mesh(sp.corners, sp.bind, pose_joints, corners_posed));
    TRESSEL_TRY(root_transforms(sp.corners, corners_posed, sp.at, sp.transforms[slot]));
    sp.transforms_t[slot] = t_s;
    sp.oldest = 1 - slot;
    return &sp.transforms[slot];
}

Status SceneRuntime::pin_to_skin(size_t cloth, const std::string& who) {
    Playback& p = *playback_;
    ClothState& c = world_->cloths[cloth];
    const Mesh& mesh = p.scene_mesh->mesh;
    if (mesh.joints.size() != mesh.positions.size() || mesh.weights.size() != mesh.positions.size() || mesh.indices.empty())
        return make_error(ErrorCode::InvalidArgument, who + ".attach: mesh '" + p.mesh + "' has no skinned triangles to pin to");
    const TriangleBvh bvh(mesh.positions, mesh.indices);
    Playback::SkinPins sp;
    sp.cloth = cloth;
    sp.vertex_count = c.vertex_count();
    sp.corners.name = mesh.name + " (pins of '" + c.name + "')";
    sp.corners.skin = mesh.skin;
    std::unordered_map<uint32_t, uint32_t> corner_of;  // mesh vertex -> vertex of `corners`
    auto corner = [&](uint32_t v) {
        auto [it, added] = corner_of.emplace(v, uint32_t(sp.corners.positions.size()));
        if (added) {
            sp.corners.positions.push_back(mesh.positions[v]);
            sp.corners.joints.push_back(mesh.joints[v]);
            sp.corners.weights.push_back(mesh.weights[v]);
        }
        return it->second;
    };
    glm::dvec3 centre(0.0);
    for (uint32_t v = 0; v < uint32_t(c.vertex_count()); ++v) {
        if (c.vertices[v].rest_os.w > 0.0f) continue;
        const glm::vec3 rest(c.vertices[v].rest_os);
        const ClosestPoint hit = bvh.closest(rest);
        for (int k = 0; k < 3; ++k) sp.corners.indices.push_back(corner(mesh.indices[3 * size_t(hit.triangle) + size_t(k)]));
        sp.at.push_back({uint32_t(sp.at.size()), hit.barycentric});
        sp.vertex.push_back(v);
        centre += glm::dvec3(rest);
    }
    if (sp.at.empty()) return {};  // nothing pinned: it falls under gravity
    centre /= double(sp.at.size());
    double nearest = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < sp.vertex.size(); ++i) {
        const double d = glm::length(glm::dvec3(c.vertices[sp.vertex[i]].rest_os) - centre);
        if (d < nearest) nearest = d, sp.representative = i;
    }
    const std::vector<glm::mat4> rest_joints = joint_matrices(*p.skin, world_transforms(*p.file, rest_pose(*p.file)), p.to_scene);
    auto bind = unbind_mesh(sp.corners, rest_joints);
    if (!bind) return make_error(bind.error().code, who + ".attach: " + bind.error().message);
    sp.bind = std::move(*bind);
    c.pins_on_skin = true;
    p.skin_pins.push_back(std::move(sp));
    return {};
}

Result<SdfGrid> SceneRuntime::current_field(uint32_t sdf) {
    if (!world_ || sdf >= world_->sdfs.size() || !world_->sdfs[sdf].grid)
        return make_error(ErrorCode::InvalidArgument, "scene runtime: there is no field " + std::to_string(sdf));
    if (playback_ && playback_->skinned)
        for (const Playback::Field& f : playback_->fields)
            if (f.sdf == sdf && f.gpu && f.posed_t >= 0.0) {
                TRESSEL_TRY(device_->wait_idle());
                return read_back_sdf(*device_, *f.gpu);
            }
    return *world_->sdfs[sdf].grid;
}

std::optional<SceneRuntime::PlaybackInfo> SceneRuntime::playback_info() const {
    if (!playback_) return std::nullopt;
    const Playback& p = *playback_;
    PlaybackInfo info;
    info.mesh = p.mesh;
    info.clip = p.clip->name();
    for (const Animation& a : p.file->animations) info.clips.push_back(a.name);
    info.clip_duration_s = p.clip->duration_s();
    info.clip_time_s = world_ ? p.clip_time_s(world_->time_s()) : p.start_s;
    info.blend_in_s = Playback::kBlendInS;
    info.start_s = p.start_s;
    info.speed = p.speed;
    info.loop = p.loop;
    return info;
}

uint64_t SceneRuntime::frames_stepped() const {
    return world_ ? world_->clock.steps / uint64_t(std::max(1, world_->environment.substeps)) : 0;
}

std::optional<Mesh> SceneRuntime::animated_mesh_now(const std::string& name) {
    if (!playback_ || !world_ || playback_->mesh != name || !pose_at(world_->time_s()).ok()) return std::nullopt;
    Mesh m = playback_->scene_mesh->mesh;
    m.positions = playback_->posed;
    if (playback_->posed_normals.size() == m.normals.size()) m.normals = playback_->posed_normals;
    return m;
}

Status SceneRuntime::pose_at(double t_s) {
    if (!playback_) return {};
    Playback& p = *playback_;
    if (p.posed_t == t_s && !p.posed.empty()) return {};
    const std::vector<NodeTransform> local = p.local_pose(t_s);
    p.joints = joint_matrices(*p.skin, world_transforms(*p.file, local), p.to_scene);
    TRESSEL_TRY(skin_mesh(p.scene_mesh->mesh, p.bind, p.joints, p.posed, &p.posed_normals));
    p.posed_t = t_s;
    return {};
}

void SceneRuntime::drive_roots(SimWorld& w, double t_s) {
    if (!playback_ || !content_ || !pose_at(t_s).ok()) return;
    std::vector<glm::mat4> transforms;
    for (size_t gi = 0; gi < w.groups.size() && gi < group_of_sim_.size(); ++gi) {
        if (w.groups[gi].scalp_mesh != playback_->mesh) continue;
        if (gi < playback_->device_rooted.size() && playback_->device_rooted[gi]) continue;  // placed on the device
        const GroomResult* groom = content_->grooms[group_of_sim_[gi]].get();
        if (!groom || groom->guides.roots.size() != w.groups[gi].strand_count) continue;  // guides from a file: no scalp triangles
        if (root_transforms(playback_->scene_mesh->mesh, playback_->posed, groom->guides.roots, transforms).ok())
            (void)set_root_transforms(w, gi, transforms);
    }
}

Status SceneRuntime::solve_rest_state(bool building) {
    ++world_generation_;  // a worker's solve started before is for another world or other values
    if (!world_ || !options_.sag_free_async) return solve_rest_state_now();
    // A new world on a GPU: solved now, as part of the build (half a second for the default scene).
    if (building && options_.simulation == SimBackend::Gpu && !device_->info().is_cpu()) return solve_rest_state_now();
    // Otherwise when edits pause (poll_rest_state); a new world's solve starts at the next poll.
    rest_pending_ = true;
    rest_pending_since_ = std::chrono::steady_clock::now() - (building ? std::chrono::seconds(10) : std::chrono::seconds(0));
    if (building) rest_blocks_step_ = true;
    return {};
}

Status SceneRuntime::finish_rest_state() {
    for (int round = 0; rest_blocks_step_ && round < 4; ++round) {
        if (rest_job_) {
            rest_job_->result.wait();
        } else if (rest_pending_) {
            rest_pending_since_ = std::chrono::steady_clock::now() - std::chrono::seconds(10);  // play needs it now
        } else {
            break;
        }
        TRESSEL_TRY(poll_rest_state());
    }
    rest_blocks_step_ = false;
    return {};
}

Status SceneRuntime::poll_rest_state() {
    if (!options_.sag_free_async || !world_) return {};
    using namespace std::chrono;
    if (rest_job_ && rest_job_->result.wait_for(seconds(0)) == std::future_status::ready) {
        RestJob job = std::move(*rest_job_);
        rest_job_.reset();
        auto r = job.result.get();
        if (job.generation == world_generation_) {
            if (!r) {
                if (r.error().code != ErrorCode::Cancelled) {
                    sag_free_ = SagFreeReport{};
                    sag_free_.error = "sag-free rest state not solved: " + r.error().message;
                }
            } else {
                TRESSEL_TRY(take_rest_targets(*job.world));
                rest_blocks_step_ = false;
                sag_free_ = *r;
                sag_free_ms_ = duration<double, std::milli>(steady_clock::now() - job.started).count();
            }
        }
    }
    if (!rest_pending_ || steady_clock::now() - rest_pending_since_ < duration<double>(kRestStateSettleS)) return {};
    if (rest_job_) {  // a solve of older values: stopped, and the new one starts once it has
        rest_job_->progress->request_cancel();
        return {};
    }
    rest_pending_ = false;
    bool any = false;
    for (const SimGroupState& g : world_->groups) any = any || sag_free_applies(g);
    const bool now = !any || options_.simulation == SimBackend::None ||
                     (options_.simulation == SimBackend::Gpu && options_.sag_free_on_gpu.value_or(!device_->info().is_cpu()));
    if (now || (playback_ && !playback_->fields.empty())) return solve_rest_state_now();  // fields rebuilt per frame: no worker
    return start_rest_job();
}

Status SceneRuntime::start_rest_job() {
    RestJob job;
    job.world = std::make_shared<SimWorld>(*world_);  // the solve starts from the groom: stale GPU positions do not matter
    job.content = content_;
    job.progress = std::make_shared<Progress>();
    job.generation = world_generation_;
    job.started = std::chrono::steady_clock::now();
    job.result = std::async(std::launch::async, [w = job.world, p = job.progress]() { return solve_sag_free(*w, SagFreeOptions{}, {}, p.get()); });
    rest_job_ = std::move(job);
    return {};
}

Status SceneRuntime::take_rest_targets(const SimWorld& solved) {
    if (solved.groups.size() != world_->groups.size()) return {};
    for (size_t i = 0; i < solved.groups.size(); ++i) {
        SimGroupState& g = world_->groups[i];
        const SimGroupState& s = solved.groups[i];
        if (s.rest_positions_os.size() != g.rest_positions_os.size() || s.ref_vectors_m.size() != g.ref_vectors_m.size() ||
            s.groomed_positions_os.size() != g.groomed_positions_os.size() || s.groomed_ref_vectors_m.size() != g.groomed_ref_vectors_m.size())
            return {};
    }
    // The targets, and the groom they hold (lifted out of the collision margins by the solve): a reset
    // places the hair there.
    for (size_t i = 0; i < solved.groups.size(); ++i) {
        world_->groups[i].rest_positions_os = solved.groups[i].rest_positions_os;
        world_->groups[i].ref_vectors_m = solved.groups[i].ref_vectors_m;
        world_->groups[i].groomed_positions_os = solved.groups[i].groomed_positions_os;
        world_->groups[i].groomed_ref_vectors_m = solved.groups[i].groomed_ref_vectors_m;
    }
    report_.sag_free = true;
    if (sim_) TRESSEL_TRY(device_->wait_idle());
    // A simulation that has not stepped yet starts from the groom the solve holds, as a solve on this
    // thread leaves it (solve_sag_free).
    if (world_->clock.steps == 0) {
        reset_to_rest(*world_);
        copy_pending_ = true;
        if (sim_) TRESSEL_TRY(sim_->upload_state(*device_, *world_));
    }
    return sim_ ? sim_->upload_targets(*device_, *world_) : Status{};
}

Status SceneRuntime::solve_rest_state_now() {
    if (!world_) return {};
    const bool gpu_steps = options_.simulation == SimBackend::Gpu && sim_ && options_.sag_free_on_gpu.value_or(!device_->info().is_cpu());
    SagFreeStepper stepper;
    if (sim_) {
        stepper.targets_changed = [this](const SimWorld& w) { return sim_->upload_targets(*device_, w); };
        stepper.state_changed = [this](const SimWorld& w) { return sim_->upload_state(*device_, w); };
    }
    if (options_.simulation == SimBackend::Gpu && sim_) {  // the running state is the GPU's: the solve gives it back
        TRESSEL_TRY(device_->wait_idle());
        TRESSEL_TRY(sim_->download(*device_, *world_));
    }
    if (gpu_steps) {
        stepper.run = [this](SimWorld& w, uint32_t frames) -> Status {
            const uint32_t substeps = uint32_t(std::max(1, w.environment.substeps));
            const uint32_t per_record = std::max(1u, options_.max_steps_per_record / substeps);
            for (uint32_t done = 0; done < frames;) {
                const uint32_t f = std::min(per_record, frames - done);
                Status recorded;
                TRESSEL_TRY(device_->run_sync([&](gpu::CommandBuffer& c) { recorded = sim_->record_steps(c, w, f * substeps, nullptr); }));
                TRESSEL_TRY(recorded);
                done += f;
            }
            return sim_->download(*device_, w);
        };
    }
    bool any = false;
    for (const SimGroupState& g : world_->groups) any = any || sag_free_applies(g);
    if (options_.simulation == SimBackend::None || !any) {  // nothing steps it, or nothing asks for it
        for (SimGroupState& g : world_->groups) clear_sag_free(g);
        if (stepper.targets_changed) TRESSEL_TRY(stepper.targets_changed(*world_));
        sag_free_ = SagFreeReport{};
        sag_free_ms_ = 0.0;
        return {};
    }
    const auto t0 = std::chrono::steady_clock::now();
    // The rest state is the bind pose's: the body's fields and the roots of the bind pose for the solve,
    // then the running pose again.
    const bool animated = playback_ != nullptr;
    if (animated) TRESSEL_TRY(pose_fields(0.0, true));
    if (sim_) sim_->set_device_roots_enabled(false);
    auto r = solve_sag_free(*world_, SagFreeOptions{}, stepper);
    if (sim_) sim_->set_device_roots_enabled(true);
    if (animated) TRESSEL_TRY(pose_fields(world_->time_s()));
    if (!r) {
        // The hair still runs, from targets that are the groom's: a solve that failed (a step that went
        // non-finite) must not take the scene down with it. The report says why.
        for (SimGroupState& g : world_->groups) clear_sag_free(g);
        if (stepper.targets_changed) TRESSEL_TRY(stepper.targets_changed(*world_));
        sag_free_ = SagFreeReport{};
        sag_free_.error = "sag-free rest state not solved: " + r.error().message;
        return {};
    }
    sag_free_ = *r;
    sag_free_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    report_.sag_free = true;
    report_.add_time("sag-free rest state", sag_free_ms_);
    copy_pending_ = true;
    return {};
}

void SceneRuntime::set_hair_visibility(bool guides, bool follows) {
    if (!renderer_) return;
    for (size_t i = 0; i < hair_.size(); ++i) {
        const bool group = scene_.hair_groups[group_of_sim_[i]].visible;
        if (hair_[i].guides_index) renderer_->set_hair_visible(*hair_[i].guides_index, group && guides);
        if (hair_[i].follows_index) renderer_->set_hair_visible(*hair_[i].follows_index, group && follows);
    }
}

Status SceneRuntime::set_slice_range(double range_m) {
    slice_range_m_ = range_m;
    return update_slice(scene_);
}

Status SceneRuntime::step(uint32_t frames, gpu::CommandBuffer* cmd, gpu::TimestampQueries* ts, uint32_t ts_capacity) {
    if (!world_) return make_error(ErrorCode::InvalidArgument, "scene runtime: there is no simulation to step");
    TRESSEL_TRY(poll_rest_state());
    if (frames == 0) return {};
    TRESSEL_TRY(finish_rest_state());
    if (playback_ && (!playback_->fields.empty() || playback_->skinned) && options_.simulation != SimBackend::None) {
        // An animated body's fields are rebuilt from its pose at the end of every frame before the frame
        // steps, so frames run one at a time, each waited for.
        const uint32_t substeps = uint32_t(std::max(1, world_->environment.substeps));
        for (uint32_t f = 0; f < frames; ++f) {
            const double t_end = double(world_->clock.steps / substeps + 1) * world_->frame_dt_s();
            TRESSEL_TRY(pose_fields(t_end));
            if (options_.simulation == SimBackend::Cpu) {
                Status st = run_frames(*world_, 1);
                if (sim_) TRESSEL_TRY(sim_->upload_state(*device_, *world_));
                TRESSEL_TRY(st);
            } else {
                Status recorded;
                TRESSEL_TRY(device_->run_sync([&](gpu::CommandBuffer& c) { recorded = sim_->record_steps(c, *world_, substeps, nullptr); }));
                TRESSEL_TRY(recorded);
            }
        }
        copy_pending_ = true;
        expand_hair_bounds();
        // The GPU path skinned the drawn mesh with the fields; the CPU path draws its CPU skinning.
        if (renderer_ && !playback_->skinned) TRESSEL_TRY(populate_meshes(scene_, world_->time_s()));
        return update_slice(scene_);
    }
    const uint32_t substeps = uint32_t(std::max(1, world_->environment.substeps));
    switch (options_.simulation) {
        case SimBackend::None:
            return make_error(ErrorCode::InvalidArgument, "scene runtime: created without a simulation backend");
        case SimBackend::Cpu: {
            Status st = run_frames(*world_, frames);
            if (sim_) TRESSEL_TRY(sim_->upload_state(*device_, *world_));
            copy_pending_ = true;
            TRESSEL_TRY(st);
            break;
        }
        case SimBackend::Gpu: {
            // Frames beyond what one record's constant slots hold (many substeps, a seek's batch) run first, a
            // record at a time, each submitted and waited for: a record's constants live in its slots until the
            // device has run it.
            const uint32_t per_record = std::max(1u, options_.max_steps_per_record / substeps);
            while (frames > per_record) {
                Status recorded;
                TRESSEL_TRY(device_->run_sync([&](gpu::CommandBuffer& c) { recorded = sim_->record_steps(c, *world_, per_record * substeps, nullptr); }));
                TRESSEL_TRY(recorded);
                frames -= per_record;
            }
            const uint64_t steps = uint64_t(frames) * substeps;
            if (steps > options_.max_steps_per_record)  // substeps alone over the slots
                return make_error(ErrorCode::InvalidArgument, "scene runtime: " + std::to_string(steps) + " steps in one record; at most " +
                                                                  std::to_string(options_.max_steps_per_record));
            const bool fits = ts_capacity == 0 || steps * (world_->groups.size() * 12 + 1) <= ts_capacity;
            if (cmd) {
                TRESSEL_TRY(sim_->record_steps(*cmd, *world_, uint32_t(steps), fits ? ts : nullptr));
            } else {
                Status recorded;
                TRESSEL_TRY(device_->run_sync([&](gpu::CommandBuffer& c) { recorded = sim_->record_steps(c, *world_, uint32_t(steps), fits ? ts : nullptr); }));
                TRESSEL_TRY(recorded);
            }
            copy_pending_ = true;
            break;
        }
    }
    expand_hair_bounds();
    if (renderer_ && scene_.motion.type != MotionType::None) TRESSEL_TRY(populate_meshes(scene_, world_->time_s()));
    return {};
}

Result<uint32_t> SceneRuntime::advance(double elapsed_s, gpu::CommandBuffer* cmd, gpu::TimestampQueries* ts, uint32_t ts_capacity) {
    if (!std::isfinite(elapsed_s) || elapsed_s < 0.0)
        return make_error(ErrorCode::InvalidArgument, "scene runtime: elapsed time must be finite and >= 0 s");
    if (!world_) return 0u;
    accumulator_s_ += elapsed_s;
    const double dt = world_->frame_dt_s();
    const uint64_t due = uint64_t(accumulator_s_ / dt);
    const uint32_t max_frames = std::max(1u, std::min(options_.max_frames_per_advance,
                                                      options_.max_steps_per_record / uint32_t(std::max(1, world_->environment.substeps))));
    uint32_t frames = uint32_t(std::min<uint64_t>(due, max_frames));
    if (due > max_frames) {
        world_->clock.dropped_frames += due - max_frames;
        accumulator_s_ = 0.0;
    } else {
        accumulator_s_ -= double(frames) * dt;
    }
    TRESSEL_TRY(step(frames, cmd, ts, ts_capacity));
    return frames;
}

Status SceneRuntime::reset_simulation() {
    if (!world_) return {};
    TRESSEL_TRY(device_->wait_idle());
    reset_to_rest(*world_);
    accumulator_s_ = 0.0;
    if (playback_) playback_->gpu_posed_t = -1.0;  // the roots placed at the start again
    if (sim_) TRESSEL_TRY(sim_->upload_state(*device_, *world_));
    TRESSEL_TRY(pose_fields(0.0));
    copy_pending_ = true;
    if (renderer_) {
        hair_moved_ = false;
        for (const HairDraw& h : hair_) {
            if (h.guides_index) renderer_->set_hair_bounds(*h.guides_index, h.rest_min, h.rest_max);
            if (h.follows_index) renderer_->set_hair_bounds(*h.follows_index, h.rest_min, h.rest_max);
        }
        if (scene_.motion.type != MotionType::None) TRESSEL_TRY(populate_meshes(scene_, 0.0));
        TRESSEL_TRY(update_slice(scene_));
    }
    return {};
}

Status SceneRuntime::download() {
    if (!world_ || options_.simulation != SimBackend::Gpu || !sim_) return {};
    ++downloads_;
    return sim_->download(*device_, *world_);
}

render::FrameDesc SceneRuntime::frame_desc(bool frame_on_meshes) const {
    render::FrameDesc f;
    f.camera = render::OrbitCamera::from_view(scene_.view);
    if (frame_on_meshes && content_ && content_->meshes) {
        render::SceneBounds b;
        for (const SceneMesh& m : *content_->meshes)
            for (glm::vec3 p : m.mesh.positions) b.add(p);
        if (!b.empty()) f.camera.frame_bounds(b.min_m, b.max_m, 1.0);
    }
    f.lighting = scene_.lighting;
    f.show_grid = scene_.view.show_grid;
    f.show_collision = scene_.view.show_collision;
    f.show_colliders = scene_.view.show_colliders;
    f.show_slice = scene_.view.show_slice && slice_key_.has_value();
    f.debug = hair_debug(scene_.view.colour_by);
    return f;
}

Status SceneRuntime::record_render(gpu::CommandBuffer& cmd, const render::FrameDesc& frame, gpu::TimestampQueries* ts) {
    if (!renderer_) return make_error(ErrorCode::InvalidArgument, "scene runtime: created without a renderer");
    // The hair moved only if the simulation stepped, reset or was rebuilt since the last frame: otherwise
    // the renderer may keep its shadow maps.
    render::FrameDesc f = frame;
    f.hair_moved = frame.hair_moved && (copy_pending_ || !sim_);
    if (sim_ && copy_pending_) {
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd.handle(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
        for (size_t i = 0; i < hair_.size(); ++i) cmd.copy(sim_->guide_positions(i), hair_[i].guide_positions);
        sim_->record_cloth_draws(cmd);
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cmd.handle(), VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
        copy_pending_ = false;
    }
    if (sim_ && world_ && f.debug == render::HairDebug::Depth) sim_->record_field_depth(cmd, *world_);
    return renderer_->record(cmd, f, ts);
}

Result<std::vector<uint8_t>> SceneRuntime::render_to_rgba(const render::FrameDesc& frame) {
    if (!renderer_) return make_error(ErrorCode::InvalidArgument, "scene runtime: created without a renderer");
    if (sim_ && copy_pending_) {
        Status recorded;
        TRESSEL_TRY(device_->run_sync([&](gpu::CommandBuffer& cmd) {
            for (size_t i = 0; i < hair_.size(); ++i) cmd.copy(sim_->guide_positions(i), hair_[i].guide_positions);
            sim_->record_cloth_draws(cmd);
            cmd.transfer_barrier();
        }));
        copy_pending_ = false;
    }
    if (sim_ && world_ && frame.debug == render::HairDebug::Depth)
        TRESSEL_TRY(device_->run_sync([&](gpu::CommandBuffer& cmd) { sim_->record_field_depth(cmd, *world_); }));
    return renderer_->render_to_rgba(frame);
}

Status SceneRuntime::resize(uint32_t width, uint32_t height) {
    if (!renderer_) return {};
    if (width == renderer_->width() && height == renderer_->height()) return {};
    return renderer_->resize(width, height);
}

render::SceneBounds SceneRuntime::bounds() const {
    render::SceneBounds b;
    if (!content_ || !content_->meshes) return b;
    for (const SceneMesh& m : *content_->meshes)
        for (glm::vec3 p : m.mesh.positions) b.add(p);
    double longest = 0.0;
    for (const auto& g : content_->grooms)
        if (g) longest = std::max(longest, g->stats.length_max_m);
    if (!b.empty() && longest > 0.0) {
        b.add(b.min_m - glm::vec3(float(longest)));
        b.add(b.max_m + glm::vec3(float(longest)));
    }
    return b;
}

render::SceneBounds SceneRuntime::hair_bounds(size_t group) const {
    render::SceneBounds b;
    if (!world_) return b;
    for (size_t i = 0; i < world_->groups.size() && i < group_of_sim_.size(); ++i) {
        if (group_of_sim_[i] != group) continue;
        for (const glm::vec4& p : world_->groups[i].positions) b.add(glm::vec3(p));
        for (const glm::vec4& p : world_->groups[i].follow_positions) b.add(glm::vec3(p));
    }
    return b;
}

RuntimeCounts SceneRuntime::counts() const {
    RuntimeCounts c;
    if (!world_) return c;
    for (const SimGroupState& g : world_->groups) {
        c.guides += g.strand_count;
        c.guide_vertices += g.positions.size();
        c.follows += g.follow_count();
        c.follow_vertices += g.follow_positions.size();
    }
    return c;
}

std::vector<uint8_t> positions_f32(const SimWorld& world) {
    std::vector<uint8_t> bytes;
    auto put = [&](const glm::vec4& p) {
        const float xyz[3] = {p.x, p.y, p.z};
        const uint8_t* b = reinterpret_cast<const uint8_t*>(xyz);
        bytes.insert(bytes.end(), b, b + sizeof(xyz));  // x86-64 and every GPU host here are little-endian
    };
    for (const SimGroupState& g : world.groups) {
        for (const glm::vec4& p : g.positions) put(p);
        for (const glm::vec4& p : g.follow_positions) put(p);
    }
    return bytes;
}

}  // namespace tressel::runtime
