// Hair volume (hair-hair interaction) in the way of Petrovic, Henne & Anderson 2005, "Volumetric methods for
// simulation and rendering of hair": at the start of every step the group's guide vertices are splatted
// into a grid that covers the hair (its bounds follow the hair step by step), each vertex carrying the
// length of hair it stands for, and its displacement over the last step. Integration then reads two
// things back at every free vertex:
//   - pressure: where the grid holds more hair per volume than the target density, the overdensity's
//     gradient pushes hair outward (an acceleration, so the same push at any step rate), which keeps hair
//     from collapsing into a flat sheet;
//   - internal friction: the vertex's velocity is pulled toward the hair's local mean velocity (the
//     grid's momentum over its density), so neighbouring strands move together instead of through each
//     other.
// The grid is a cube of n^3 nodes whose cell fits the hair's largest extent in n - 3 cells, centred on
// the hair. Sums are fixed point (int32, wrapping), so the GPU's atomic adds in any order and the CPU's
// loop give the same grid. Compiled as C++ and as GLSL.
#ifndef TRESSEL_SHARED_SIM_VOLUME_H
#define TRESSEL_SHARED_SIM_VOLUME_H
#include "shared/sim.h"
#include "shared/float_order.h"

#ifdef __cplusplus
#include <bit>
namespace tressel::gpu_shared {
using ivec3 = glm::ivec3;
using uvec3 = glm::uvec3;
}  // namespace tressel::gpu_shared
#endif

TRESSEL_SHARED_BEGIN

// Fixed point of a node's sums: hair length (metres) x this, and hair length x displacement over the last
// step (metres^2) x the other. A node holds up to 131 km of hair (2^31 / 2^14 m; the default scene's
// densest node holds a few metres) in steps of 61 um; momentum up to 2048 m^2 in steps of 1e-12 m^2.
TRESSEL_CONST(float, kSimVolumeLengthScale, 16384.0f);
TRESSEL_CONST(float, kSimVolumeMomentumScale, 1048576.0f);
TRESSEL_CONST(uint, kSimVolumeNodeInts, 4u);        // per node: hair length, momentum x, y, z
// A second grid holds per node the overdensity gradient (vec4: xyz, w unused), from the first by a pass
// over the nodes.
TRESSEL_CONST(uint, kSimVolumeBoundsUints, 8u);     // float_to_ordered min x, y, z, (unused), max x, y, z, (unused)
// Reference rate of the pressure and friction: their values are what one step at 60 Hz does.
TRESSEL_CONST(float, kSimVolumeReferenceRate_hz, 60.0f);
// Largest pressure push, in cells per step at 60 Hz (an acceleration: (60 dt)^2 of it per step): a grid is
// a coarse view of the hair, and a push much longer than a cell would act on a density that no longer
// exists. One cell per 1/60 s step is about 3 g at 9 mm cells: enough to hold a layer of hair up.
TRESSEL_CONST(float, kSimVolumeMaxPushCells, 1.0f);
// Smallest cell (metres): a groom squeezed into a point still gets a grid.
TRESSEL_CONST(float, kSimVolumeMinCell_m, 1e-4f);

// The bits of a float and back (exact in both languages).
#ifdef __cplusplus
SIM_FN uint sim_volume_bits(float f) { return std::bit_cast<uint>(f); }
SIM_FN float sim_volume_float(uint u) { return std::bit_cast<float>(u); }
#else
uint sim_volume_bits(float f) { return floatBitsToUint(f); }
float sim_volume_float(uint u) { return uintBitsToFloat(u); }
#endif

// The grid of a group this step: xyz its first node's position (world, metres), w its cell (metres), from
// the bounds of every vertex at the step's start; n >= 5 nodes per axis. The cell is the largest extent
// over n - 4 cells rounded up to 3 significant bits (steps of at most 12.5%), and the first node sits on a
// lattice of the largest power of two not above the cell, a cell or two before the lowest vertex: a grid
// refitted to the hair every step would move with every tip and shift every pressure with it (the default
// scene's resting hair kept moving at up to 5.6 cm/s); snapped, it moves only when the hair has moved
// by a lattice step. Exact in both languages (bit operations and multiplications by powers of two).
SIM_FN vec4 sim_volume_frame(vec3 lo, vec3 hi, uint n) {
    vec3 ext = hi - lo;
    float raw = max(max(max(ext.x, ext.y), ext.z) / float(n - 4u), kSimVolumeMinCell_m);
    uint mask = (1u << 20u) - 1u;  // the 20 low bits of the 23-bit mantissa
    float h = sim_volume_float((sim_volume_bits(raw) + mask) & ~mask);
    float lattice = sim_volume_float(sim_volume_bits(h) & 0xff800000u);  // h's power of two
    float inv = sim_volume_float(0x7f000000u - (sim_volume_bits(lattice) & 0x7f800000u));  // 1 / lattice, exactly
    vec3 origin = floor(lo * inv) * lattice - vec3(h);
    return vec4(origin.x, origin.y, origin.z, h);
}

// Grid coordinates of x: .xyz the cell (clamped so its far corner is a node), .w unused; and the
// fraction within it (clamped to [0, 1]) in the second value.
SIM_FN int sim_volume_index(float g, int hi) {
    // Clamped as a float first: a coordinate beyond an int's range (or NaN) must not reach the conversion.
    float c = g == g ? clamp(floor(g), 0.0f, float(hi)) : 0.0f;
    return int(c);
}
SIM_FN ivec4 sim_volume_cell(vec3 x, vec4 frame, uint n) {
    vec3 g = (x - vec3(frame.x, frame.y, frame.z)) / frame.w;
    int hi = int(n) - 2;
    return ivec4(sim_volume_index(g.x, hi), sim_volume_index(g.y, hi), sim_volume_index(g.z, hi), 0);
}
SIM_FN vec3 sim_volume_fraction(vec3 x, vec4 frame, ivec4 cell) {
    vec3 g = (x - vec3(frame.x, frame.y, frame.z)) / frame.w;
    return clamp(g - vec3(float(cell.x), float(cell.y), float(cell.z)), vec3(0.0f), vec3(1.0f));
}
// First int of the node at cell + corner (corner c: bit 0 x, bit 1 y, bit 2 z).
SIM_FN uint sim_volume_node(ivec4 cell, uint c, uint n) {
    uint x = uint(cell.x) + (c & 1u);
    uint y = uint(cell.y) + ((c >> 1u) & 1u);
    uint z = uint(cell.z) + ((c >> 2u) & 1u);
    return ((z * n + y) * n + x) * kSimVolumeNodeInts;
}
// Trilinear weight of corner c at fraction f.
SIM_FN float sim_volume_weight(vec3 f, uint c) {
    float wx = (c & 1u) != 0u ? f.x : 1.0f - f.x;
    float wy = (c & 2u) != 0u ? f.y : 1.0f - f.y;
    float wz = (c & 4u) != 0u ? f.z : 1.0f - f.z;
    return wx * wy * wz;
}
// A value in fixed point (round half up), clamped to what an int holds; NaN gives 0 (a group whose
// positions turn non-finite is reset after its step; until then its sums stay defined).
SIM_FN int sim_volume_fixed(float v, float scale) {
    float f = v * scale;
    f = f == f ? clamp(f, -2.0e9f, 2.0e9f) : 0.0f;
    return int(floor(f + 0.5f));
}

// Hair length a guide vertex stands for (metres; hair_per_guide applied by the caller's density target):
// half of each segment it ends.
SIM_FN float sim_volume_vertex_length(float rest_before, float rest_after) { return 0.5f * (rest_before + rest_after); }

// Overdensity of a node holding `length_fixed` of hair: max(density / target - 1, 0), density = length
// per cell volume (metres of guide hair per cubic metre).
SIM_FN float sim_volume_overdensity(int length_fixed, float cell_m, float target_per_m2) {
    float density = float(length_fixed) / kSimVolumeLengthScale / (cell_m * cell_m * cell_m);
    return max(density / max(target_per_m2, 1e-6f) - 1.0f, 0.0f);
}

// The pressure push of one step of dt seconds (metres): -stiffness x cell^2 x grad(overdensity), where
// the gradient in grid units is `grad_cells` (the node gradients interpolated at the vertex) and
// stiffness_step is the pressure at 60 Hz scaled by (60 dt)^2 (an acceleration); at most
// kSimVolumeMaxPushCells cells x (60 dt)^2.
SIM_FN vec3 sim_volume_push(vec3 grad_cells, float stiffness_step, float cell_m, float dt) {
    vec3 push = grad_cells * (-stiffness_step * cell_m);
    float len = length(push);
    float r = kSimVolumeReferenceRate_hz * dt;
    float cap = kSimVolumeMaxPushCells * cell_m * r * r;
    return len > cap ? push * (cap / len) : push;
}

// Per-step values from the 60 Hz ones: pressure is an acceleration ((60 dt)^2), friction a fraction of
// the velocity difference removed per 1/60 s (1 - (1 - f)^(60 dt)).
SIM_FN float sim_volume_pressure_step(float pressure, float dt) {
    float r = kSimVolumeReferenceRate_hz * dt;
    return pressure * r * r;
}
SIM_FN float sim_volume_friction_step(float friction, float dt) {
    return friction >= 1.0f ? 1.0f : 1.0f - exp(log(1.0f - friction) * (kSimVolumeReferenceRate_hz * dt));
}

// What integration reads back at a vertex, summed corner by corner (sim_volume_add): the hair length and
// momentum interpolated there (fixed point, as floats) and the overdensity's gradient in grid units.
struct SimVolumeSample {
    float length_fixed;
    vec3 momentum_fixed;
    vec3 grad_cells;
};
SIM_FN SimVolumeSample sim_volume_sample_zero() {
    SimVolumeSample s;
    s.length_fixed = 0.0f;
    s.momentum_fixed = vec3(0.0f);
    s.grad_cells = vec3(0.0f);
    return s;
}
// Adds corner c of the vertex's cell (fraction f), whose node holds `node` (length, momentum x, y, z) and
// the overdensity gradient `node_grad` (sim_volume_node_gradient).
SIM_FN SimVolumeSample sim_volume_add(SimVolumeSample s, ivec4 node, vec3 node_grad, vec3 f, uint c) {
    float w = sim_volume_weight(f, c);
    s.length_fixed += w * float(node.x);
    s.momentum_fixed += w * vec3(float(node.y), float(node.z), float(node.w));
    s.grad_cells += w * node_grad;
    return s;
}

// The overdensity gradient at a node (grid units), from the overdensities of its neighbours before (lo)
// and after (hi) it along x, y and z, `span` cells apart (2 inside the grid, 1 at its border, where the
// node itself stands in for the missing neighbour). Interpolated trilinearly between nodes, the gradient
// is continuous across cell faces, where the trilinear interpolant's own derivative jumps: hair resting
// where pressure balances gravity chattered across a face at 16 mm/s RMS on the default scene.
SIM_FN vec3 sim_volume_node_gradient(vec3 lo, vec3 hi, vec3 span) { return (hi - lo) / span; }
// Whether the sample holds hair (at least one fixed-point unit), and the hair's mean displacement there.
SIM_FN bool sim_volume_has_hair(SimVolumeSample s) { return s.length_fixed >= 1.0f; }
SIM_FN vec3 sim_volume_mean_disp(SimVolumeSample s) {
    return s.momentum_fixed * (kSimVolumeLengthScale / kSimVolumeMomentumScale) / max(s.length_fixed, 1.0f);
}

// Integration with volume: the displacement over the last step pulled toward the hair's mean displacement
// there (`mean_disp`, valid when `has_mean`) by friction_step. Returns the previous position to integrate
// from (x - the new displacement).
SIM_FN vec3 sim_volume_smoothed_prev(vec3 x, vec3 x_prev, vec3 mean_disp, bool has_mean, float friction_step) {
    if (!has_mean) return x_prev;
    vec3 d = x - x_prev;
    return x - (d + (mean_disp - d) * friction_step);
}

TRESSEL_SHARED_END
#endif
