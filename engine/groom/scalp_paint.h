// Scalp paint: maps painted on the scalp mesh with a brush that growth reads (docs/brushes.md, "Scalp
// paint"). Four layers, each one value per mesh vertex, interpolated over triangles:
//   mask     0 to 1: where hair grows (region type "paint": a point grows hair when its mask is above the
//            region's threshold; a triangle when the mean of its corners' is)
//   density  0 to 8: scale of the group's guide density (and of the follow hairs' density)
//   length   0.01 to 4: scale of the strand length (multiplies length_map where both are set)
//   comb     a direction in the scalp's tangent plane times a comb amount (xyz, mesh space) and how much
//            of it replaces the group's procedural comb (w, 0 to 1)
// A layer never painted is absent and reads as its neutral value (mask 1, density 1, length 1, comb w 0).
//
// Per vertex rather than a texture: it works on every scalp, scans without UVs included, and growth reads it
// at each root by the root's barycentric coordinates without a UV lookup. Its resolution is the mesh's
// (about 1 cm on the shipped head, finer than the guides' spacing); a coarser mesh paints coarser.
//
// Painting the mask or the density makes random placement local (place_painted): each region triangle gets
// its own random stream and a guide count from its area and painted density, so a stroke adds or removes
// guides only on the triangles whose paint it changed, and every other root stays where it was.
//
// Kept in a `.tpaint` file beside the scene (the project's own binary format, raw floats and a checksum,
// like .tguides), named by hair_groups[].scalp.paint and checked against the mesh's vertex and triangle
// counts on load.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "groom/brush.h"
#include "groom/groom.h"
#include "io/mesh.h"

namespace tressel {

struct RegionInfo;

enum class PaintLayer : uint8_t { Mask, Density, Length, Comb };
inline constexpr PaintLayer kAllPaintLayers[] = {PaintLayer::Mask, PaintLayer::Density, PaintLayer::Length, PaintLayer::Comb};
std::string_view paint_layer_name(PaintLayer l);  // "mask", "density", "length", "comb"
std::optional<PaintLayer> paint_layer_from_name(std::string_view name);

inline constexpr float kPaintDensityMax = 8.0f;
inline constexpr float kPaintLengthMin = 0.01f, kPaintLengthMax = 4.0f;

// Immutable once made, as EditedGuides: every stroke makes a new one, so undo restores it exactly.
struct ScalpPaint {
    uint32_t vertex_count = 0;     // of the mesh it was painted on
    uint32_t triangle_count = 0;
    std::vector<float> mask;       // per vertex; empty: not painted
    std::vector<float> density;
    std::vector<float> length;
    std::vector<glm::vec4> comb;

    bool has(PaintLayer l) const;
    bool changes_roots() const { return !mask.empty() || !density.empty(); }
    bool empty() const { return mask.empty() && density.empty() && length.empty() && comb.empty(); }
};

// An unpainted set for `mesh`.
ScalpPaint blank_paint(const Mesh& mesh);
// Starts layer `l` at its neutral value; the mask from `region` (1 on its vertices, 0 elsewhere) so that
// the first stroke changes only what it paints. A layer already painted is left alone.
void start_layer(ScalpPaint& paint, PaintLayer l, const RegionInfo* region);

// The layers at a point of the scalp (barycentric interpolation of the corners), neutral where absent.
float paint_mask_at(const ScalpPaint& p, const Mesh& mesh, const ScalpAttachment& a);
float paint_density_at(const ScalpPaint& p, const Mesh& mesh, const ScalpAttachment& a);
float paint_length_at(const ScalpPaint& p, const Mesh& mesh, const ScalpAttachment& a);
glm::vec4 paint_comb_at(const ScalpPaint& p, const Mesh& mesh, const ScalpAttachment& a);
// Mean of a triangle's corners (the region and placement test per triangle).
float paint_triangle_mean(const std::vector<float>& layer, const Mesh& mesh, uint32_t t, float neutral);

struct PaintSettings {
    PaintLayer layer = PaintLayer::Mask;
    float radius_px = 40.0f;            // screen pixels, 1 to 2000
    float strength = 0.5f;              // 0 to 1: how far one dab moves a vertex toward the target
    BrushFalloff falloff = BrushFalloff::Smooth;
    bool front_faces_only = true;       // only vertices facing the camera
    bool invert = false;                // mask: erase; density, length: back toward 1; comb: remove the painted comb
    bool symmetry_x = false;            // also paint the mirror image across x = symmetry_plane_x
    float spacing = 0.25f;              // dab spacing as a fraction of the radius, 0.05 to 1
    // The value painted: density 0 to 8 (default 2), length 0.01 to 4 (default 0.5), comb the comb amount
    // 0 to 1 (default 1, the direction is the stroke's); unused by the mask (1, or 0 inverted).
    float value = 2.0f;
};

struct PaintStats {
    size_t dabs = 0;
    size_t dabs_off_scalp = 0;          // dab points (or their mirror images) over no scalp
    size_t vertices_changed = 0;
};

// Paints one stroke (screen points, pixels, y down, seen through `view`) into `paint` on `mesh`: each dab
// is the scalp point under it; the radius is radius_px at that point's depth; vertices within it (3D
// distance) move toward the target by strength x falloff. The comb takes the stroke's direction between
// dabs laid into each vertex's tangent plane (the first dab, with no direction yet, paints nothing).
// Refuses (InvalidArgument naming the setting) out-of-range settings, a non-finite point, a paint made for
// another mesh; nothing is changed by a refused call.
Result<PaintStats> apply_paint_stroke(ScalpPaint& paint, const Mesh& mesh, const BrushView& view, const PaintSettings& settings,
                                      std::span<const glm::vec2> points_px, float symmetry_plane_x);

// A curved parting drawn along the scalp (`curve_m`: at least two points on `mesh`, in order): the comb
// layer painted over the whole scalp, each vertex combed away from the curve, perpendicular to it in the
// surface's tangent plane (the side by the curve's direction and the vertex normal), with comb amount
// `amount` (0 to 1) and full coverage. Beyond its ends the curve goes on along its end directions, so
// every vertex has a side (a straight line gives the plane parting's combing). Refuses (InvalidArgument)
// a curve under a millimetre long, non-finite points or an amount outside [0, 1].
Status paint_part_curve(ScalpPaint& paint, const Mesh& mesh, std::span<const glm::vec3> curve_m, float amount);

// Whether a screen polyline is straight enough to be a plane parting: every point within 3% of the chord's
// length (and 4 pixels) of the chord.
bool polyline_is_straight(std::span<const glm::vec2> points_px);

// Which vertices two paints differ at (the same mesh): 1 where any layer differs.
std::vector<uint8_t> paint_difference(const ScalpPaint& a, const ScalpPaint& b);

inline constexpr char kPaintFileMagic[8] = {'T', 'R', 'S', 'L', 'P', 'N', 'T', '\0'};
inline constexpr uint32_t kPaintFileVersion = 1;

std::vector<uint8_t> encode_paint(const ScalpPaint& p);
// Parse for a truncated or corrupt file (wrong magic, sizes, checksum, values out of range or not
// finite), Unsupported for a newer version; `name` names the file in every message.
Result<ScalpPaint> decode_paint(const std::vector<uint8_t>& bytes, const std::string& name);
// decode_paint, then InvalidArgument when it was painted on a mesh of other vertex or triangle counts.
Result<ScalpPaint> load_paint_file(const std::filesystem::path& path, const Mesh* mesh = nullptr);
Status save_paint_file(const std::filesystem::path& path, const ScalpPaint& p);
Status check_paint_mesh(const ScalpPaint& p, const Mesh& mesh, const std::string& name);
bool bit_identical(const ScalpPaint& a, const ScalpPaint& b);

}  // namespace tressel
