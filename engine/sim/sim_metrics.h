// Bake metrics of a simulation frame (fed to `tressel-cli bake`): stretch, penetration against an exact
// signed-distance oracle per collision mesh, kinetic energy, non-finite values.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include <glm/glm.hpp>

#include "sim/sim.h"

namespace tressel {

// Signed distance in metres (negative inside) of a point given in the collision mesh's rest frame: e.g.
// exact_signed_distance (sdf/sdf_oracle.h) for small meshes, a fine CPU SdfGrid, or
// MeshDistanceOracle::as_function. Only depths are read: a positive value may be a lower bound of the
// distance, a negative one must be the depth. measure_frame calls it from several threads at once.
using SimSdfOracle = std::function<float(glm::vec3 p_rest_m)>;

struct SimFrameMetrics {
    // Relative stretch |L - L0| / L0 over guide segments with L0 >= kMinMeasuredSegment_m.
    double max_stretch = 0.0;
    double mean_stretch = 0.0;
    size_t segments = 0;
    // Free guide vertices / midpoints of segments with both ends free / follow vertices with k >= 2, inside
    // any collision mesh the group collides with (oracle distance < 0), and the deepest of each (metres).
    size_t vertices_inside = 0, midpoints_inside = 0, follow_vertices_inside = 0;
    double max_depth_vertex_m = 0.0, max_depth_midpoint_m = 0.0, max_depth_follow_m = 0.0;
    // Sum over free guide vertices of 0.5 |v|^2 / w (v over the last step, w the inverse mass): J per unit
    // vertex mass (kg).
    double kinetic_energy = 0.0;
    // Speed of free guide vertices (m/s), root mean square and largest: their displacement since the
    // reference positions (SimMotionReference) over the time between, or without one their velocity over
    // the last step (x - x_prev) / dt, which also holds the constraints' reactions that live in the previous
    // positions (DFTL, local shape): a strand held still against gravity shows one there. Over the last
    // second of a still head, frame to frame, the rest jitter.
    double rms_speed_m_s = 0.0, max_speed_m_s = 0.0;
    // Style error: distance of each free guide vertex from its groomed (rest) position carried by its
    // root's transform, i.e. measured in the root's frame (metres): mean and largest.
    double style_error_mean_m = 0.0, style_error_max_m = 0.0;
    // Where the deepest follow vertex is (world, metres): its group, follow hair and vertex index (valid
    // when max_depth_follow_m > 0).
    glm::vec3 deepest_follow_m{0.0f};
    size_t deepest_follow_group = 0, deepest_follow_hair = 0, deepest_follow_vertex = 0;
    size_t non_finite = 0;   // guide and follow coordinates that are NaN or Inf
    // Hair density (volume_density_stats of every enabled group, on each one's volume grid whether or not
    // its hair volume is on), hairs per square centimetre, worst group: the largest at a grid node, the
    // mean a length of hair sits in, and the fraction of the hair where it exceeds the group's
    // volume_density.
    bool has_density = false;
    double density_max_per_cm2 = 0.0, density_mean_per_cm2 = 0.0, density_over_target = 0.0;
};

// Hair density of group g on its volume grid (volume_cells, hair per guide from its follow count) built
// from its current positions, whether or not volume is on. Hairs per square centimetre of cross-section.
struct SimDensityStats {
    double max_per_cm2 = 0.0;    // densest grid node
    double mean_per_cm2 = 0.0;   // hair-length-weighted: the density the average length of hair sits in
    double over_target = 0.0;    // fraction of the hair length at nodes denser than volume_density
    double cell_m = 0.0;         // the grid's cell
};
SimDensityStats volume_density_stats(const SimGroupState& g);

// The same grid, node by node (the density slice): nodes^3 values in hairs per square centimetre, node
// (x, y, z) at origin + cell (x, y, z), value index (z * nodes + y) * nodes + x.
struct SimDensityGrid {
    uint32_t nodes = 0;
    glm::vec3 origin_m{0.0f};
    float cell_m = 0.0f;
    std::vector<float> per_cm2;
    double target_per_cm2 = 0.0;  // the group's volume_density
};
SimDensityGrid volume_density_grid(const SimGroupState& g);

inline constexpr double kMinMeasuredSegment_m = 1e-6;

// Guide positions at an earlier time, for speeds measured as displacement over time.
struct SimMotionReference {
    std::vector<std::vector<glm::vec4>> positions;  // per group
    double time_s = 0.0;
};
SimMotionReference capture_motion_reference(const SimWorld& world);

// `oracles`: one per world SDF (SimWorld::sdfs order); empty = no penetration measured. `reference`:
// positions of an earlier time of the same world (speeds from displacement), or null.
SimFrameMetrics measure_frame(const SimWorld& world, std::span<const SimSdfOracle> oracles,
                              const SimMotionReference* reference = nullptr);

// Hair against an accessory (SimAccessoryField), measured against its triangles, not its field: for every
// guide and follow vertex within near_m of the cloth (exact closest point over the triangles a bucket grid
// of near_m cells offers), its height over the cloth's surface toward the outside (the obstacle's side: the
// closest feature's normal, face or pseudonormal, times the field's side); a vertex whose closest point is
// on the cloth's rim lies beside the cloth, not over it, and is left out. For a soft body, the surface is
// its drawn (closed) mesh and the height is the depth inside it. Pinned root vertices (guides and follows)
// are left out (the scalp places them), and so are strands rooted on the wrong side (hair growing under a
// bun pinned to the scalp starts inside it and cannot leave it): counted in rooted_inside.
// A vertex on the wrong side lies over the surface by more than `limit_m`. The follows are as the world
// holds them (the bake computes them on the frames it measures penetration on).
struct HairUnderClothStats {
    uint64_t near = 0;            // vertices within near_m of the cloth, beside the rim excluded
    uint64_t wrong_side = 0;      // of those, over the surface by more than limit_m
    uint64_t wrong_side_guides = 0;  // the guide vertices among them
    double max_height_m = -1e9;   // the highest over the surface (negative: every one is under it)
    double max_height_guides_m = -1e9;  // the highest guide vertex
    uint64_t rooted_inside = 0;   // strands (guides and follows) rooted on the wrong side, left out
};
HairUnderClothStats measure_hair_under_cloth(const SimWorld& world, const SimAccessoryField& field, double limit_m, double near_m);

}  // namespace tressel
