// Grooming by hand: brush strokes on guide strands, the one implementation the editor's viewport, the
// CLI's recorded strokes, scripts and tests all call (docs/brushes.md).
//
// A stroke is a polyline of screen points (pixels, y down) seen through one camera. It is cut into dabs
// `spacing` x radius apart; each dab acts on the guide points whose projection lies within `radius_px` of
// it, weighted by the falloff of their screen distance (1 at the centre, 0 at the rim) and the strength.
// Roots never move (a strand is attached to its scalp triangle): brushes that bend a strand restore every
// segment's length afterwards by walking from the root (follow-the-leader), so combing, smoothing, puffing
// and clumping keep each strand's length; grow, shrink and cut change the length and keep the point count,
// points at equal arc length along the strand. After each dab the points a brush moved are pushed out of
// the collision fields to their margin (near the root, half the arc length from it, as growth does), their
// segments turned, not stretched. Strands no dab reaches are left bit-identical.
//
// X symmetry mirrors the stroke across the plane x = symmetry_plane_x of the scalp mesh: the same dabs act
// on the mirror image of every strand (the image is projected, the move mirrored back), so a stroke on the
// left shapes the right as its mirror on a symmetric head, and on a scan that is not quite symmetric still
// acts on the strands whose image is under the brush. Add shoots the mirrored ray at the real scalp, so a
// mirrored guide's root is always on the mesh; where the mirrored ray misses it (an asymmetric edge), the
// guide is skipped and counted.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "groom/groom.h"
#include "io/mesh.h"
#include "scene/scene_types.h"

namespace tressel {

struct SdfGrid;

enum class BrushType : uint8_t { Comb, Smooth, Grow, Cut, Puff, Clump, Add, Delete };
enum class BrushFalloff : uint8_t { Smooth, Linear, Constant, Sharp };

inline constexpr BrushType kAllBrushTypes[] = {BrushType::Comb, BrushType::Smooth, BrushType::Grow,  BrushType::Cut,
                                               BrushType::Puff, BrushType::Clump,  BrushType::Add,   BrushType::Delete};

std::string_view brush_type_name(BrushType t);  // "comb", "smooth", "grow", "cut", "puff", "clump", "add", "delete"
std::optional<BrushType> brush_type_from_name(std::string_view name);
std::string_view brush_falloff_name(BrushFalloff f);  // "smooth", "linear", "constant", "sharp"
std::optional<BrushFalloff> brush_falloff_from_name(std::string_view name);

struct BrushSettings {
    BrushType type = BrushType::Comb;
    float radius_px = 40.0f;            // screen pixels, 1 to 2000
    float strength = 0.5f;              // 0 to 1: how much of the full effect one stroke applies
    BrushFalloff falloff = BrushFalloff::Smooth;
    bool front_faces_only = true;       // only strands whose root faces the camera
    bool invert = false;                // grow shrinks, puff flattens, clump spreads, add deletes
    bool symmetry_x = false;            // also apply the mirror image across x = symmetry_plane_x
    float spacing = 0.25f;              // dab spacing as a fraction of the radius, 0.05 to 1
    uint32_t seed = 1;                  // add: jitter of the new roots and their shape's variation
};

// The falloff weight at a normalized screen distance t = distance / radius (1 at 0, 0 at 1 and beyond).
float brush_falloff(BrushFalloff f, float t);

// The camera the stroke was drawn through, in the scalp mesh's (object) space.
struct BrushView {
    glm::mat4 object_to_clip{1.0f};     // projection x view x model (Vulkan clip space: y down, z in [0, 1])
    glm::vec2 viewport_px{1.0f, 1.0f};  // width and height in pixels
    glm::vec3 eye_os_m{0.0f};           // the camera position, object space (front-facing test)
    // Screen position (pixels, y down) and depth (NDC z) of an object-space point; false behind the camera.
    bool project(glm::vec3 p_os, glm::vec2& px, float& ndc_z) const;
    glm::vec3 unproject(glm::vec2 px, float ndc_z) const;
    // A camera looking at `target` from `eye` (object space), vertical field of view in degrees.
    static BrushView look_at(glm::vec3 eye, glm::vec3 target, glm::vec3 up, float fov_y_deg, glm::vec2 viewport_px);
};

// A collision field the brushes keep guide points out of: a signed distance grid, the transform from the
// scalp mesh's space into the grid's, and the margin (metres) points are kept from its surface.
struct BrushCollider {
    const SdfGrid* grid = nullptr;
    glm::mat4 grid_from_object{1.0f};
    float margin_m = 0.0f;
};

struct BrushTarget {
    const Mesh* scalp = nullptr;            // required: the mesh the roots are attached to
    std::vector<BrushCollider> colliders;   // may be empty (no collision)
    const Growth* growth = nullptr;         // add: the group's shaping (null: add is refused)
    float root_width_m = 0.0f;              // add: width at the root (0: the nearest strand's)
    float symmetry_plane_x = 0.0f;          // object-space x of the mirror plane
    // Add: only triangles marked 1 take new roots (the group's region); empty = every triangle.
    std::vector<uint8_t> allowed_triangles;
};

struct StrokeStats {
    size_t dabs = 0;
    size_t strands_changed = 0;        // existing strands any dab moved, cut or resized
    size_t strands_added = 0;
    size_t strands_removed = 0;
    size_t mirrored_adds_skipped = 0;  // symmetry: mirrored rays that miss the scalp
    size_t points_pushed_out = 0;      // collision corrections
};

// A stroke drawn over time, as the viewport draws it: begin() when the button goes down (it projects every
// guide once, the stroke's fixed cost), extend() with the points the mouse reached each frame (only the
// dabs they make due run), finish() when the button comes up. The guides are changed in place as the
// dabs run and must not be changed otherwise until finish(). begin() refuses (InvalidArgument naming the
// setting) a radius, strength or spacing out of range, a non-finite or singular camera, an add without
// growth parameters, and guides of differing point counts; extend() a non-finite point. Nothing is
// changed by a refused call.
class BrushStroke {
public:
    static Result<std::unique_ptr<BrushStroke>> begin(Strands& guides, const BrushTarget& target, const BrushView& view,
                                                      const BrushSettings& settings);
    ~BrushStroke();
    BrushStroke(const BrushStroke&) = delete;
    BrushStroke& operator=(const BrushStroke&) = delete;
    Status extend(std::span<const glm::vec2> points_px);
    StrokeStats finish();  // applies the last dab; the whole stroke's figures

private:
    BrushStroke();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A whole stroke at once: begin, extend with every point, finish (the CLI's recorded strokes, tests).
Result<StrokeStats> apply_stroke(Strands& guides, const BrushTarget& target, const BrushView& view, const BrushSettings& settings,
                                 std::span<const glm::vec2> points_px);

// The scalp point under a screen point: the nearest hit of the camera ray through `px` on any triangle of
// `mesh` (its attachment, point and interpolated normal), or nothing when the ray misses the mesh.
struct ScalpHit {
    ScalpAttachment at;
    glm::vec3 point_m{0.0f};
    glm::vec3 normal{0.0f, 1.0f, 0.0f};
};
std::optional<ScalpHit> pick_scalp(const Mesh& mesh, const BrushView& view, glm::vec2 px);

// A parting drawn on the scalp from `a` to `b`: the plane through a that holds the line a-b and the mean
// surface normal there (growth.part_point and part_normal), or nothing for a line under a millimetre.
std::optional<std::pair<glm::dvec3, glm::dvec3>> part_plane(const ScalpHit& a, const ScalpHit& b);

// Pushes every point of strand `s` (but the root) out of the colliders to their margin (near the root:
// half the arc length), each segment turned from its corrected parent and given back its length. Returns
// the number of points moved.
size_t push_strand_out(Strands& guides, size_t s, std::span<const BrushCollider> colliders);

}  // namespace tressel
