// The CPU products of a scene: its imported meshes, each hair group grown on its scalp, and a slot per
// collision mesh for its field. Immutable once built, so the UI thread and a worker building the next
// content can share the parts that did not change (shared_ptr per part).
//
// What a scene edit touches (plan_content) is decided here, once, for the editor and every CLI command:
//   meshes   the scene's mesh list, units or up axis
//   a groom  its group's scalp, growth, follow and smoothing, the scalp's mesh,
//            and the clearance the groom keeps from its scalp (the margin of the scalp's collision mesh
//            when the group collides with it: groom/scene_groom.h)
//   a field  its collision mesh's mesh, cells_x, padding and sign (the margin is a simulation value)
// Everything else (simulation, environment, motion, colliders, shading, lighting, view) is applied to
// the running scene in place by SceneRuntime::sync. The fibre radius (a shading value) also sets the
// guides' widths that exports carry: an edit recomputes them on a copy of the groom (restyled_groom),
// exactly as growing again would, without growing again.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/progress.h"
#include "core/result.h"
#include "gpu/timestamps.h"
#include "groom/brush.h"
#include "groom/scalp_paint.h"
#include "groom/grow.h"
#include "groom/guides_file.h"
#include "io/scene_meshes.h"
#include "runtime/rebuild_report.h"
#include "scene/scene_types.h"
#include "sdf/sdf.h"
#include "sdf/sdf_check.h"

namespace tressel::runtime {

struct SceneContent {
    Scene scene;                                              // what it was built from
    std::shared_ptr<const std::vector<SceneMesh>> meshes;     // scene.meshes order, world space
    std::vector<std::shared_ptr<const GroomResult>> grooms;   // per hair group, hidden ones too (visible only draws)
    std::vector<std::shared_ptr<const SdfGrid>> sdfs;         // per collision mesh; null until built
    // The diagnostics of this content that come with a one-click fix (DiagnosticFix): a unit a mesh file
    // declares, follow hairs far from file guides; kept from the previous content for the parts reused.
    std::vector<Diagnostic> advice;
    std::vector<double> sdf_build_ms;                         // per collision mesh: GPU (or CPU) ms of its build
    std::vector<SdfCoverage> sdf_coverage;                    // per collision mesh: how much of the mesh its field sees
    std::vector<std::vector<gpu::PassTime>> sdf_pass_times;   // per collision mesh: GPU ms per pass (GPU builds)
    double groom_ms = 0.0;                                    // wall clock of the grooms grown for this content
    Diagnostics diagnostics;                                  // import and growth messages of the parts built here
    RebuildReport report;                                     // what building this content redid

    const SceneMesh* find_mesh(const std::string& name) const;
    bool complete() const;                                    // every groom and every field present
};

// Which CPU products must be rebuilt for `scene`, given the content on screen (null: everything).
struct ContentPlan {
    bool meshes = true;
    std::vector<bool> grooms;   // per hair group of the new scene: regrow (missing entries: regrow)
    std::vector<bool> sdfs;     // per collision mesh of the new scene: rebuild (missing entries: rebuild)

    bool groom(size_t i) const { return meshes || i >= grooms.size() || grooms[i]; }
    bool sdf(size_t i) const { return meshes || i >= sdfs.size() || sdfs[i]; }
    bool any() const;
    bool any_groom() const;
    bool any_sdf() const;
    // Everything of `scene` but the meshes: the editor's Regrow and Rebuild SDF actions.
    static ContentPlan regrow_all(const Scene& scene);
    static ContentPlan rebuild_all_sdfs(const Scene& scene);
};
ContentPlan plan_content(const Scene& scene, const SceneContent* current);

// Whether group `a` of scene `sa` and group `b` of scene `sb` grow the same groom (see the file comment).
bool same_groom_inputs(const Scene& sa, const HairGroup& a, const Scene& sb, const HairGroup& b);
bool same_sdf_inputs(const CollisionMesh& a, const CollisionMesh& b);

// `groom` with the widths `group`'s fibre radius gives (groom/grow.h restyle_widths): the same pointer
// when they already are, else a restyled copy.
std::shared_ptr<const GroomResult> restyled_groom(const std::shared_ptr<const GroomResult>& groom, const HairGroup& group);

// What the brushes of hair group `group` act on in `content` (groom/brush.h): its scalp mesh (null when
// the content lacks it), the collision fields the group collides with at their margins, its growth
// parameters (for add) and root width, and the mirror plane x = the scalp's bounds centre.
BrushTarget brush_target(const Scene& scene, const SceneContent& content, size_t group);

// Takes `guides` into hand for `group`: placement "edited", growth.guides their count, the guides held in
// memory until the scene is saved, and (unless the group already has one) the guides file
// "<scene_stem>.<group>.tguides" beside the scene.
void take_guides_into_hand(HairGroup& group, std::shared_ptr<const EditedGuides> guides, const std::string& scene_stem);

// Scalp paint for hair group `group`: the paint growth read (a copy to paint on), or a blank one for
// `scalp`, with layer `layer` started (the mask from the group's current region, groom/scalp_paint.h).
ScalpPaint paint_to_edit(const GroomResult* groom, const Mesh& scalp, PaintLayer layer);

// Takes `paint` into the scene for `group`: held in memory until saved, the file
// "<scene_stem>.<group>.tpaint" unless the group has one. The first painted mask switches the region to
// "paint"; the first painted mask or density on a random placement whose growth.density_per_cm2 is 0 sets
// it to the group's guide density now (`groom`'s count over its region), so later strokes add and remove
// guides only where they paint. Returns what it changed besides the paint, for the log ("" when nothing).
std::string take_paint_into_hand(HairGroup& group, std::shared_ptr<const ScalpPaint> paint, const GroomResult* groom, const std::string& scene_stem);

// The import diagnostics of mesh `m` of `scene`, with a fix where one helps: a unit the file declares
// (code "unit_conflict") gets "read it in that unit" when the unit used makes the mesh an implausible
// size for a character or prop (not 5 cm to 5 m across) and the declared one would not.
Diagnostics mesh_diagnostics_with_fixes(const Scene& scene, const SceneMesh& m);

// Builds what `plan` asks for on the CPU and shares the rest with `previous` (may be null when the plan
// asks for everything). Fields to rebuild are built here with the CPU reference when `cpu_fields` (the
// runtime's choice on a CPU device: SceneRuntime::fields_on_worker), else left null for
// SceneRuntime::install to build on the GPU. Thread-safe: reads only its arguments. Errors name the
// mesh, hair group or collision mesh; Cancelled when `progress` asks for it.
Result<std::shared_ptr<SceneContent>> prepare_content(const Scene& scene, const ContentPlan& plan,
                                                      std::shared_ptr<const SceneContent> previous,
                                                      Progress* progress = nullptr, bool cpu_fields = false);

// One field built: the grid, the milliseconds the report gives for it, the GPU pass times if any.
struct BuiltField {
    SdfGrid grid;
    double ms = 0.0;
    std::vector<gpu::PassTime> passes;
};
using FieldBuilder = std::function<Result<BuiltField>(const SdfBuildDesc& desc, Diagnostics& diag)>;

// Builds the content's missing fields with `build` (in collision mesh order, with progress, cancel and
// the report filled); errors name the collision mesh. `where` ("on the CPU") goes into the log line.
Status build_missing_fields(SceneContent& content, const FieldBuilder& build, const char* where, Progress* progress = nullptr);

// build_missing_fields with the CPU reference (prepare_content does this when asked).
Status build_fields_cpu(SceneContent& content, Progress* progress = nullptr);

}  // namespace tressel::runtime
