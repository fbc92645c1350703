#include "sim/scene_sim.h"

#include "groom/scene_groom.h"

namespace tressel {

namespace {
const SceneMesh* find_mesh(const std::vector<SceneMesh>& meshes, const std::string& name) {
    for (const SceneMesh& m : meshes)
        if (m.name == name) return &m;
    return nullptr;
}
}  // namespace

Result<std::unique_ptr<SceneSim>> build_scene_sim(const SceneSimDesc& desc) {
    TRESSEL_ASSERT(desc.scene && desc.meshes, "build_scene_sim: scene and meshes are required");
    const Scene& scene = *desc.scene;
    auto out = std::make_unique<SceneSim>();
    SdfBuildFn build_sdf = desc.build_sdf ? desc.build_sdf
                                          : SdfBuildFn([](const SdfBuildDesc& d, Diagnostics& diag) { return build_sdf_cpu(d, diag); });
    const size_t total = scene.hair_groups.size() + scene.collision_meshes.size();
    size_t done = 0;
    auto step = [&](const char* stage) -> Status {
        if (!desc.progress) return {};
        if (desc.progress->cancelled()) return make_error(ErrorCode::Cancelled, "preparing the simulation was cancelled");
        desc.progress->set(total ? float(done) / float(total) : 1.0f, stage);
        return {};
    };

    SimWorldInputs in;
    for (const HairGroup& group : scene.hair_groups) {
        TRESSEL_TRY(step("growing hair"));
        auto groom = grow_scene_group(scene, group, *desc.meshes);
        if (!groom) return groom.error();
        const SceneMesh* scalp = find_mesh(*desc.meshes, group.scalp.mesh);
        out->diagnostics.append(groom->diagnostics);
        out->grooms.push_back(std::make_unique<GroomResult>(std::move(*groom)));
        SimGroupInputs g;
        g.name = group.name;
        g.groom = out->grooms.back().get();
        g.scalp = &scalp->mesh;
        g.scalp_mesh = group.scalp.mesh;
        g.params = group.simulation;
        in.groups.push_back(g);
        ++done;
    }
    for (const CollisionMesh& cm : scene.collision_meshes) {
        TRESSEL_TRY(step("building collision fields"));
        const SceneMesh* mesh = find_mesh(*desc.meshes, cm.mesh);
        if (!mesh) return make_error(ErrorCode::NotFound, "collision mesh '" + cm.mesh + "' is not loaded");
        const SdfBuildDesc sd = sdf_build_desc(cm, mesh->mesh);
        auto field = build_sdf(sd, out->diagnostics);
        if (!field) return make_error(field.error().code, "collision mesh '" + cm.mesh + "': " + field.error().message);
        out->fields.push_back(std::make_unique<SdfGrid>(std::move(*field)));
        out->collision_meshes.push_back(&mesh->mesh);
        in.sdfs.push_back({cm.mesh, out->fields.back().get(), cm.margin_m});
        ++done;
    }
    in.colliders = scene.colliders;
    in.environment = scene.environment;
    in.motion = scene.motion;
    auto world = build_sim_world(in);
    if (!world) return world.error();
    out->world = std::move(*world);
    if (desc.progress) desc.progress->set(1.0f, "ready");
    return out;
}

}  // namespace tressel
