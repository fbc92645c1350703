// Guide shapes grown from roots (seeds 001, 002): along the interpolated scalp normal, blended toward a
// comb direction; per-strand length variation and an optional length map; curl (a helix of
// curl_radius_m around the growth direction, advancing curl_pitch_m along it per turn) and wave (seed 001's waviness, here a planar sine); droop toward gravity (-Y) as a
// bend that keeps segment lengths; a root-to-tip width taper.
//
// Every output strand has exactly `vertices_per_strand` points and equal segments of length L / (n - 1),
// so its polyline length is L (the requested length) to float rounding: the straight/drooped centreline
// is built segment by segment, and curl/wave shapes are traced densely and re-walked with chords of
// exactly that length.
#pragma once

#include <cstdint>

#include "core/diagnostics.h"
#include "core/result.h"
#include "groom/groom.h"
#include "groom/image.h"
#include "groom/placement.h"
#include "scene/scene_types.h"

namespace tressel {

// Width of a guide point at parameter t in [0, 1] along its strand (0 root, 1 tip): the root width
// tapered linearly to tip_width_scale x at the tip. The one expression growth and restyle_widths use.
inline float taper_width(double root_width_m, double tip_width_scale, double t) {
    return float(root_width_m * (1.0 + (tip_width_scale - 1.0) * t));
}


struct ShapeInputs {
    const RootSet* roots = nullptr;     // required
    Growth growth;
    double root_width_m = 0.004;        // fibre width at the root (2 x Shading::fiber_radius_m)
    const UvImage* length_map = nullptr; // optional: red channel scales the length at the root UV
    // Optional scalp paint (groom/scalp_paint.h) on `scalp`: its length layer scales the length, its comb
    // layer replaces the procedural comb by its coverage.
    const ScalpPaint* paint = nullptr;
    const Mesh* scalp = nullptr;
    uint32_t seed = 7;
};

// Checks the shape parameters (names the failing one): length > 0, vertices_per_strand in 2..256,
// variation in [0, 1), comb in [0, 1] with a non-zero comb direction when comb > 0, curl/wave sizes >= 0
// with positive pitch / frequency when in use, droop in [0, 1], tip_width_scale >= 0.
Status validate_shape(const Growth& g);

// The direction the root at `root` with scalp normal `normal` is combed toward (unit): comb_direction (the
// unit `comb_dir`), or away from the parting plane; in the scalp's tangent plane when comb_space is surface
// or a parting is set, combed down the surface where that direction points straight out of the scalp.
glm::dvec3 root_comb_direction(const Growth& g, glm::dvec3 comb_dir, glm::dvec3 root, glm::dvec3 normal);

// Grows one strand per root into `out` (appending). Per strand i, all random draws come from the stream
// (seed, i): length variation and curl phase.
Status shape_guides(const ShapeInputs& in, Strands& out, Diagnostics& diag);

}  // namespace tressel
