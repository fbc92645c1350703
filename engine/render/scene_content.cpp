#include "render/scene_content.h"

#include <algorithm>
#include <cmath>

#include "groom/grow.h"
#include "groom/scene_groom.h"
#include "sdf/sdf_slice.h"

namespace tressel::render {

Result<SceneContent> load_scene_content(gpu::Device& device, const SceneContentDesc& desc) {
    TRESSEL_ASSERT(desc.scene, "load_scene_content: desc.scene is required");
    const Scene& scene = *desc.scene;
    SceneContent out;
    auto meshes = load_scene_meshes(scene);
    if (!meshes) return meshes.error();
    out.meshes = std::move(*meshes);
    for (auto& m : out.meshes)
        for (glm::vec3 p : m.mesh.positions) out.mesh_bounds.add(p);
    auto find_mesh = [&](const std::string& name) -> const SceneMesh* {
        for (auto& m : out.meshes)
            if (m.name == name) return &m;
        return nullptr;
    };
    for (const HairGroup& group : scene.hair_groups) {
        if (!group.visible) continue;
        auto groom = grow_scene_group(scene, group, out.meshes);
        if (!groom) return groom.error();
        uint32_t n = static_cast<uint32_t>(group.simulation.gpu_vertices_per_strand);
        auto strands = strands_from_groom(*groom, n);
        if (!strands)
            return make_error(strands.error().code, "hair group '" + group.name + "': " + strands.error().message);
        auto buffers = upload_strands(device, *strands, group.name);
        if (!buffers) return buffers.error();
        out.hair_bounds.add(buffers->bounds_min_m);
        out.hair_bounds.add(buffers->bounds_max_m);
        Shading shading = group.shading;
        if (desc.shading_override) shading.model = *desc.shading_override;
        out.hair.push_back(std::move(*buffers));
        out.hair_shading.push_back(shading);
        out.hair_names.push_back(group.name);
    }
    if (desc.build_sdf) {
        if (scene.collision_meshes.empty())
            return make_error(ErrorCode::InvalidArgument, "SDF slice: the scene has no collision mesh");
        const CollisionMesh* cm = &scene.collision_meshes.front();
        for (auto& c : scene.collision_meshes)
            if (c.mesh == scene.view.slice_mesh) cm = &c;
        const SceneMesh* mesh = find_mesh(cm->mesh);
        if (!mesh) return make_error(ErrorCode::NotFound, "SDF slice: collision mesh '" + cm->mesh + "' names no mesh");
        SdfBuildDesc sd;
        sd.mesh = &mesh->mesh;
        sd.cells_x = desc.sdf_cells_x > 0 ? desc.sdf_cells_x : cm->cells_x;
        sd.padding = cm->padding;
        sd.sign = cm->sign;
        auto grid = build_sdf_cpu(sd, out.diagnostics);
        if (!grid) return make_error(grid.error().code, "SDF of '" + cm->mesh + "': " + grid.error().message);
        out.sdf = std::move(*grid);
        out.sdf_mesh = cm->mesh;
        out.sdf_margin_m = cm->margin_m;
    }
    return out;
}

Result<FrameDesc> populate_renderer(Renderer& renderer, const Scene& scene, const SceneContent& content,
                                    const SceneFrameOptions& options) {
    renderer.clear_meshes();
    renderer.clear_hair();
    renderer.clear_slice();
    for (size_t i = 0; i < content.meshes.size(); ++i) {
        const MeshRef* ref = nullptr;
        for (auto& r : scene.meshes)
            if (r.name == content.meshes[i].name) ref = &r;
        if (ref && !ref->visible) continue;
        auto id = renderer.add_mesh(content.meshes[i].mesh, MeshStyle::Opaque);
        if (!id) return id.error();
        bool collision = std::any_of(scene.collision_meshes.begin(), scene.collision_meshes.end(),
                                     [&](const CollisionMesh& c) { return c.mesh == content.meshes[i].name; });
        if (collision && scene.view.show_collision) {
            auto o = renderer.add_mesh(content.meshes[i].mesh, MeshStyle::CollisionOverlay);
            if (!o) return o.error();
        }
    }
    for (const Collider& c : scene.colliders) {
        auto id = renderer.add_mesh(make_collider_mesh(c), MeshStyle::Collider);
        if (!id) return id.error();
    }
    for (size_t i = 0; i < content.hair.size(); ++i) {
        auto id = renderer.add_hair(content.hair[i].desc(content.hair_shading[i]));
        if (!id) return id.error();
    }
    SceneBounds b = content.mesh_bounds;
    if (!content.hair_bounds.empty()) {
        b.add(content.hair_bounds.min_m);
        b.add(content.hair_bounds.max_m);
    }
    if (b.empty()) b.add(glm::vec3(-0.5f)), b.add(glm::vec3(0.5f));
    glm::vec3 size = b.max_m - b.min_m;
    double extent = std::max({size.x, size.y, size.z});
    double spacing = std::pow(10.0, std::floor(std::log10(std::max(extent, 1e-3) / 2.0)));
    glm::vec3 centre = 0.5f * (b.min_m + b.max_m);
    TRESSEL_TRY(renderer.set_grid(glm::vec3(centre.x, b.min_m.y, centre.z), extent, spacing));

    FrameDesc f;
    f.camera = OrbitCamera::from_view(scene.view);
    if (options.frame_from_bounds && !content.mesh_bounds.empty())
        f.camera.frame_bounds(content.mesh_bounds.min_m, content.mesh_bounds.max_m, 1.0);
    f.lighting = scene.lighting;
    f.show_grid = scene.view.show_grid;
    f.show_collision = scene.view.show_collision;
    f.show_colliders = scene.view.show_colliders;
    if (options.slice_axis && content.sdf) {
        SliceStyle style;
        style.margin_m = content.sdf_margin_m;
        style.upscale = 2;
        TRESSEL_TRY(renderer.set_slice(make_slice_view(*content.sdf, *options.slice_axis, options.slice_position, style)));
        f.show_slice = true;
    } else {
        f.show_slice = false;
    }
    return f;
}

}  // namespace tressel::render
