// Growing one hair group: region -> guide roots -> guide shapes (or guides from a file) -> follow-hair
// descriptors, with statistics and diagnostics. Pure function of its inputs: the same inputs give a
// bit-identical groom on every run and machine (own PRNG streams per item, sequential reductions).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "core/diagnostics.h"
#include "core/progress.h"
#include "core/result.h"
#include "groom/groom.h"
#include "groom/region.h"
#include "io/mesh.h"
#include "io/tfxbone.h"
#include "scene/scene_types.h"

namespace tressel {

struct GroomInputs {
    const Mesh* scalp = nullptr;          // required; engine space (metres), not owned
    HairGroup group;                      // scalp.region, growth, follow, shading.fiber_radius_m are read
    std::filesystem::path base_dir;       // relative mask / length-map / guide-file paths resolve here
    glm::mat4 file_to_mesh{1.0f};         // placement "file": maps the file's coordinates to scalp mesh space
    // Grown guides are kept this far (metres) outside the scalp mesh (groom/clearance.h); negative: off.
    // grow_scene_group() sets it to the collision margin when the group collides with its scalp mesh, so
    // the simulation starts with no vertex to push out. Off by default: the pass costs a closest-point
    // search per point near the surface (bench groom --clearance). Guides from files are never moved.
    double scalp_clearance_m = -1.0;
    // Closed meshes (same space as the scalp) the grown guides are kept out of as they are kept out of the
    // scalp, each with its clearance: the soft bodies the hair collides with (a bun on the scalp), so that
    // the hair is grown around them instead of through them (grow_scene_group fills it). Guides rooted
    // inside one, or within its clearance, are left as grown (the simulation leaves them to the body).
    struct Obstacle {
        const Mesh* mesh = nullptr;  // not owned
        double clearance_m = 0.0;
        std::string name;            // for the diagnostics
    };
    std::vector<Obstacle> obstacles;
};

struct GroomStats {
    size_t guides = 0, guide_points = 0;
    size_t follows = 0, follow_points = 0;        // follow points = follows x the guides' point count
    double length_min_m = 0.0, length_mean_m = 0.0, length_max_m = 0.0;  // guides
    size_t region_triangles = 0;
    double region_area_m2 = 0.0, region_area_cm2 = 0.0;
    double guides_per_cm2 = 0.0, follows_per_cm2 = 0.0;
    size_t degenerate_guides = 0;
    double root_distance_max_m = 0.0, root_distance_mean_m = 0.0;  // file guides: root to scalp surface
};

// Wall-clock milliseconds per phase (not part of the groom's content: they vary run to run).
struct GroomTimings {
    double region_ms = 0.0, guides_ms = 0.0, follow_ms = 0.0, total_ms = 0.0;
};

struct GroomResult {
    Strands guides;                                  // scalp-mesh space, metres
    // Whether guides.widths_m come from Shading::fiber_radius_m (taper_width below), not from a file's
    // thickness: then restyle_widths() can follow a fibre radius edit without growing again.
    bool widths_from_fiber_radius = false;
    double widths_fiber_radius_m = 0.0;              // the fibre radius they were computed for
    std::vector<gpu_shared::GuideFrame> guide_frames;  // root frame per guide (follow offsets live in it)
    // Guides read from a .tfx keep what the file says of them: its root UVs (one per guide, empty when the
    // file has none) and the skin of the .tfxbone beside it (strand i = guide i), which the TressFX export
    // writes as read instead of skinning the roots again from the scalp.
    std::vector<glm::vec2> file_root_uvs;
    std::optional<TfxBoneData> file_skin;
    FollowHairs follows;
    RegionInfo region;
    // The scalp paint growth read (Scalp::painted, or scalp.paint's file); null when the group has none.
    std::shared_ptr<const ScalpPaint> paint;
    GroomStats stats;
    GroomTimings timings;
    Diagnostics diagnostics;
};

// InvalidArgument / LimitExceeded naming the parameter for bad parameters (length, vertices per strand,
// guide count over kMaxGuides, an empty region, a uv_mask on a mesh without UVs, ...); file errors name
// the file. Cancelled when `progress` asks for it.
Result<GroomResult> grow_group(const GroomInputs& in, Progress* progress = nullptr);

// The widths grow_group would give the same guides for another fibre radius, bit for bit (a fibre
// radius edit is a shading edit: it must not regrow). No-op unless widths_from_fiber_radius.
void restyle_widths(GroomResult& groom, double fiber_radius_m, double tip_width_scale);

}  // namespace tressel
