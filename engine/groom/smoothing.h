// Smoothing of rendered strands (seed 002: Nalu turns each control hair into a Bezier curve and
// tessellates it, 7 -> 36 vertices). Both modes interpolate the input points: output point k * factor is
// input point k; a strand of n points becomes (n - 1) * factor + 1 points.
//   bezier       cubic Bezier per segment; handles along the neighbour-difference tangent, each one third
//                of the segment's own length (no overshoot on uneven spacing)
//   catmull_rom  centripetal Catmull-Rom (alpha = 0.5: no cusps or self-intersections within a segment)
// End tangents use a neighbour extrapolated quadratically from the last three points. Widths and colours are interpolated linearly.
#pragma once

#include "core/result.h"
#include "groom/groom.h"
#include "scene/scene_types.h"

namespace tressel {

// InvalidArgument naming smoothing.factor when it is outside 1..16.
Result<Strands> smooth_strands(const Strands& in, const Smoothing& smoothing);

}  // namespace tressel
