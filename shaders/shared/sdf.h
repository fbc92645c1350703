// Signed distance field build: structs, constants and per-item functions shared by the CPU reference
// (engine/sdf) and the GPU passes (engine/sdf/gpu). Compiled as C++ and as GLSL: the functions below are
// the single text of each formula, so the GPU port matches the CPU reference to rounding.
//
// Grid convention (TressFX, seed 000): cell (i,j,k) has its centre at origin_m + (i,j,k) * cell_size_m;
// cells are stored x fastest, then y, then z.
#ifndef TRESSEL_SHARED_SDF_H
#define TRESSEL_SHARED_SDF_H
#include "shared/common.h"

#ifdef __cplusplus
#include <cmath>
namespace tressel::gpu_shared {
using vec3 = glm::vec3;
using ivec3 = glm::ivec3;
using glm::abs;
using glm::clamp;
using glm::cross;
using glm::dot;
using glm::floor;
using glm::length;
using glm::max;
using glm::min;
using glm::sqrt;
inline float sdf_atan2(float y, float x) { return std::atan2(y, x); }
}  // namespace tressel::gpu_shared
#define SDF_FN inline
#else
#define SDF_FN
#define sdf_atan2(y, x) atan(y, x)
#endif

TRESSEL_SHARED_BEGIN

TRESSEL_CONST(uint, kSdfWorkgroupSize, 64u);
// float_to_ordered(+inf): the "unwritten" distance (TressFX's INITIAL_DISTANCE, but ordered above every
// finite distance so the atomic min always replaces it).
TRESSEL_CONST(uint, kSdfUnwrittenOrdered, 0xFF800000u);
TRESSEL_CONST(uint, kSdfNoTriangle, 0xFFFFFFFFu);
TRESSEL_CONST(int, kSdfMaxCellsPerAxis, 4096);

// Nearest feature of a triangle (Ericson, Real-Time Collision Detection 5.1.5): which pseudonormal
// (Baerentzen & Aanaes 2005) decides the sign.
TRESSEL_CONST(uint, kSdfFeatureVertex0, 0u);
TRESSEL_CONST(uint, kSdfFeatureVertex1, 1u);
TRESSEL_CONST(uint, kSdfFeatureVertex2, 2u);
TRESSEL_CONST(uint, kSdfFeatureEdge01, 3u);
TRESSEL_CONST(uint, kSdfFeatureEdge12, 4u);
TRESSEL_CONST(uint, kSdfFeatureEdge20, 5u);
TRESSEL_CONST(uint, kSdfFeatureFace, 6u);

// Per-cell flags of the finished grid (SdfGrid::flags).
TRESSEL_CONST(uint, kSdfFlagBand, 1u);      // distance exact: within band_cells of the surface
TRESSEL_CONST(uint, kSdfFlagWritten, 2u);   // written by the narrow-band scatter (before propagation)
TRESSEL_CONST(uint, kSdfFlagInside, 4u);

// Ray-parity bits of a cell (bit a: odd number of crossings along axis a before the cell centre).
TRESSEL_CONST(uint, kSdfParityAxisBits, 7u);

// Far field, coarse to fine: jump flooding runs on a grid kSdfCoarseFactor times coarser per axis (coarse
// cell C covers fine cells K*C ... K*C + K-1; its sample point is the centre of that block), then every
// fine cell outside the band takes the best of the triangles held by the 3 x 3 x 3 coarse cells around
// its own (engine/sdf/README.md).
TRESSEL_CONST(int, kSdfCoarseFactor, 4);
TRESSEL_CONST(int, kSdfCoarseNeighbours, 27);
// Moves of the mesh walk that refines a far cell's nearest triangle (sdf_passes::fine_nearest_cell).
TRESSEL_CONST(int, kSdfWalkSteps, 8);
// Coarse jump flooding walks the mesh only in its rounds of step <= this (the last three): a walk in a
// long-range round refines a candidate that the later rounds compare again anyway, and those walks were
// half of the pass.
TRESSEL_CONST(int, kSdfJfaWalkMaxStep, 2);
// Far cells near the band also take the band triangles of the cells at {-r,0,r}^3 for r = 2 and 4
// (sdf_passes::fine_nearest_cell). Not r = 1: the walk reaches those triangles anyway (on the test meshes
// and the armadillo the ring changed the worst far-field error by under 0.01 cell), and they were a
// third of the lookups.
TRESSEL_CONST(int, kSdfNearRings, 2);
SDF_FN int sdf_near_ring_radius(int ring) { return 2 << ring; }
// Consensus of 2 x 2 x 2 cells (sdf_passes::block_consensus_cell): a far cell (sdf_consensus_applies)
// evaluates the triangle a group neighbour found only if the neighbour's distance plus their separation
// is below its own distance plus kSdfConsensusSlack cells (the triangle is at most that distance plus
// the separation away, so it may be nearer). sdf_consensus_margin_cells: kSdfConsensusSlack minus the
// separation in cells of neighbours that differ in `axes` (1-3) coordinates (exact in float: the same
// in C++ and GLSL).
TRESSEL_CONST(float, kSdfConsensusSlack, 0.5f);
SDF_FN float sdf_consensus_margin_cells(int axes) {
    return kSdfConsensusSlack - (axes == 1 ? 1.0f : (axes == 2 ? 1.41421356f : 1.73205081f));
}
// Offset of the block's fine cell l (0-63) from the block's first cell. Morton order (bits of l: x0, y0,
// z0, x1, y1, z1), so that each consensus group of 2 x 2 x 2 cells is 8 consecutive invocations (l ^ o
// is the group neighbour o, 1-7) and half a block (32 invocations) is 4 x 4 x 2 cells.
SDF_FN ivec3 sdf_block_cell_offset(uint l) {
    return ivec3(int((l & 1u) | ((l >> 2u) & 2u)), int(((l >> 1u) & 1u) | ((l >> 3u) & 2u)),
                 int(((l >> 2u) & 1u) | ((l >> 4u) & 2u)));
}

// Per collision mesh (TressFX's "collidee"): one buffer per SDF, never shared with per-hair-group data
// (TressFX's multi-object constant-buffer bug, seed 000).
struct SdfGridParams {
    vec4 origin_m;    // xyz: centre of cell (0,0,0), metres, engine space; w: cell size in metres
    ivec4 dims;       // xyz: cell counts; w: band half-width in cells used by the build
};
TRESSEL_CHECK_SIZE(SdfGridParams, 32)

// Per hair group colliding with SDFs (TressFX's "collider").
struct SdfHairCollisionParams {
    float margin_m;               // collision margin, metres
    uint vertices_per_strand;
    uint vertex_count;
    uint pad0;
};
TRESSEL_CHECK_SIZE(SdfHairCollisionParams, 16)

TRESSEL_SHARED_END

// ---- functions shared by both languages (C++: in namespace tressel::gpu_shared) ----
TRESSEL_SHARED_BEGIN

SDF_FN vec3 sdf_cell_centre_m(SdfGridParams g, ivec3 cell) {
    return vec3(g.origin_m.x, g.origin_m.y, g.origin_m.z) +
           vec3(float(cell.x), float(cell.y), float(cell.z)) * g.origin_m.w;
}

SDF_FN uint sdf_cell_index(SdfGridParams g, ivec3 cell) {
    return uint(cell.x) + uint(g.dims.x) * (uint(cell.y) + uint(g.dims.y) * uint(cell.z));
}

SDF_FN ivec3 sdf_cell_coords(SdfGridParams g, uint index) {
    uint nx = uint(g.dims.x);
    uint ny = uint(g.dims.y);
    return ivec3(int(index % nx), int((index / nx) % ny), int(index / (nx * ny)));
}

// Continuous grid coordinates: cell centres at integers.
SDF_FN vec3 sdf_grid_coords(SdfGridParams g, vec3 p_m) {
    return (p_m - vec3(g.origin_m.x, g.origin_m.y, g.origin_m.z)) / g.origin_m.w;
}

// Coarse grid of the far field: ceil(dims / kSdfCoarseFactor) cells per axis.
SDF_FN ivec3 sdf_coarse_dims(SdfGridParams g) {
    return (ivec3(g.dims.x, g.dims.y, g.dims.z) + (kSdfCoarseFactor - 1)) / kSdfCoarseFactor;
}

// Sample point of coarse cell c, metres: the centre of its block of fine cells.
SDF_FN vec3 sdf_coarse_sample_m(SdfGridParams g, ivec3 c) {
    float half_block = 0.5f * float(kSdfCoarseFactor - 1);
    return vec3(g.origin_m.x, g.origin_m.y, g.origin_m.z) +
           (vec3(float(c.x), float(c.y), float(c.z)) * float(kSdfCoarseFactor) + half_block) * g.origin_m.w;
}

SDF_FN uint sdf_coarse_index(ivec3 coarse_dims, ivec3 c) {
    return uint(c.x) + uint(coarse_dims.x) * (uint(c.y) + uint(coarse_dims.y) * uint(c.z));
}

// Largest distance (metres) a band cell may have: band_cells cells. The scatter writes a cell only when the
// triangle is at most this far, so "written" and "band" are the same cells.
SDF_FN float sdf_band_limit_m(SdfGridParams g) { return float(g.dims.w) * g.origin_m.w; }

// A band-only build's value beyond the band (SdfBuildDesc::band_only): the band's width, a lower bound of
// the distance there, signed.
SDF_FN float sdf_beyond_band_m(SdfGridParams g, bool inside) {
    float d = sdf_band_limit_m(g);
    return inside ? -d : d;
}

// Far cells up to this distance (metres; band_cells + 2 cells) also take the band triangles of the fine
// cells around them as candidates (sdf_passes::fine_nearest_cell).
SDF_FN float sdf_near_limit_m(SdfGridParams g) { return float(g.dims.w + 4) * g.origin_m.w; }

// Consensus of 2 x 2 x 2 cells: only far cells between band_cells + 2 and band_cells + 4 cells
// (sdf_near_limit_m) from their triangle take part. Nearer, the rings of band lookups overlap enough (on
// the test meshes the consensus there changed no worst cell by more than 0.003 cell); farther, no ring
// is looked up.
SDF_FN bool sdf_consensus_applies(SdfGridParams g, float d_m) {
    return d_m <= sdf_near_limit_m(g) && d_m > float(g.dims.w + 2) * g.origin_m.w;
}

// Ray-parity bit planes: for each axis a, one line of bits per grid line along a (line index over the
// other two axes, (a+1)%3 fastest), ceil(dims[a] / 32) words per line, planes x, y, z one after another.
// The crossing pass toggles bit i of a line for a crossing just before cell centre i; the prefix pass
// turns each line into its running xor, so bit i then says "odd number of crossings before centre i".
SDF_FN uint sdf_parity_line_words(int n) { return uint(n + 31) / 32u; }

SDF_FN uint sdf_parity_lines(SdfGridParams g, int axis) {
    ivec3 d = ivec3(g.dims.x, g.dims.y, g.dims.z);
    return uint(d[(axis + 1) % 3]) * uint(d[(axis + 2) % 3]);
}

SDF_FN uint sdf_parity_plane_base(SdfGridParams g, int axis) {
    uint base = 0u;
    for (int a = 0; a < axis; ++a) base += sdf_parity_lines(g, a) * sdf_parity_line_words(g.dims[a]);
    return base;
}

SDF_FN uint sdf_parity_word_count(SdfGridParams g) { return sdf_parity_plane_base(g, 3); }

// Word holding the bit of `cell` in the plane of `axis`; the bit is cell[axis] % 32.
SDF_FN uint sdf_parity_word_index(SdfGridParams g, int axis, ivec3 cell) {
    ivec3 d = ivec3(g.dims.x, g.dims.y, g.dims.z);
    int b = (axis + 1) % 3;
    int c = (axis + 2) % 3;
    uint line = uint(cell[b]) + uint(d[b]) * uint(cell[c]);
    return sdf_parity_plane_base(g, axis) + line * sdf_parity_line_words(d[axis]) + uint(cell[axis]) / 32u;
}

// Inclusive running xor of the bits of w (bit i = xor of bits 0..i), continued from `carry` (the running
// xor of every bit before this word).
SDF_FN uint sdf_prefix_xor_bits(uint w, bool carry) {
    w ^= w << 1;
    w ^= w << 2;
    w ^= w << 4;
    w ^= w << 8;
    w ^= w << 16;
    return carry ? ~w : w;
}

struct SdfClosest {
    vec3 point_m;   // closest point on the triangle
    uint feature;   // kSdfFeature*
};

SDF_FN vec3 sdf_closest_on_segment(vec3 p, vec3 a, vec3 b) {
    vec3 ab = b - a;
    float len2 = dot(ab, ab);
    float t = len2 > 0.0 ? clamp(dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
    return a + ab * t;
}

// Closest point on triangle abc to p by Voronoi regions (Ericson 5.1.5), with the region reported. A
// degenerate (zero-area) triangle that falls through to the face region takes the best of its edges.
SDF_FN SdfClosest sdf_closest_on_triangle(vec3 p, vec3 a, vec3 b, vec3 c) {
    SdfClosest r;
    vec3 ab = b - a;
    vec3 ac = c - a;
    vec3 ap = p - a;
    float d1 = dot(ab, ap);
    float d2 = dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) {
        r.point_m = a;
        r.feature = kSdfFeatureVertex0;
        return r;
    }
    vec3 bp = p - b;
    float d3 = dot(ab, bp);
    float d4 = dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) {
        r.point_m = b;
        r.feature = kSdfFeatureVertex1;
        return r;
    }
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        float v = d1 / (d1 - d3);
        r.point_m = a + ab * v;
        r.feature = kSdfFeatureEdge01;
        return r;
    }
    vec3 cp = p - c;
    float d5 = dot(ab, cp);
    float d6 = dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) {
        r.point_m = c;
        r.feature = kSdfFeatureVertex2;
        return r;
    }
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        float w = d2 / (d2 - d6);
        r.point_m = a + ac * w;
        r.feature = kSdfFeatureEdge20;
        return r;
    }
    float va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        r.point_m = b + (c - b) * w;
        r.feature = kSdfFeatureEdge12;
        return r;
    }
    float sum = va + vb + vc;
    if (sum > 0.0) {
        float v = vb / sum;
        float w = vc / sum;
        r.point_m = a + ab * v + ac * w;
        r.feature = kSdfFeatureFace;
        return r;
    }
    vec3 q01 = sdf_closest_on_segment(p, a, b);
    vec3 q12 = sdf_closest_on_segment(p, b, c);
    vec3 q20 = sdf_closest_on_segment(p, c, a);
    float e01 = dot(p - q01, p - q01);
    float e12 = dot(p - q12, p - q12);
    float e20 = dot(p - q20, p - q20);
    r.point_m = q01;
    r.feature = kSdfFeatureEdge01;
    if (e12 < e01 && e12 <= e20) {
        r.point_m = q12;
        r.feature = kSdfFeatureEdge12;
    } else if (e20 < e01) {
        r.point_m = q20;
        r.feature = kSdfFeatureEdge20;
    }
    return r;
}

// Bounding sphere of triangle abc: xyz centroid, w the largest vertex distance from it, widened by 1e-4
// so that the lower bound below stays a bound after rounding.
SDF_FN vec4 sdf_triangle_sphere(vec3 a, vec3 b, vec3 c) {
    vec3 m = (a + b + c) / 3.0f;
    float r = max(length(a - m), max(length(b - m), length(c - m)));
    return vec4(m.x, m.y, m.z, r * 1.0001f);
}

// True when no point of the triangle in `sphere` can be within best_d_m of p (its distance exceeds the
// sphere's lower bound |p - centre| - radius, taken with a 1e-4 relative margin): the far-field searches
// skip its exact distance. Never true for a triangle at or below best_d_m, so skipping changes no result.
SDF_FN bool sdf_sphere_beyond(vec3 p, vec4 sphere, float best_d_m) {
    vec3 o = p - vec3(sphere.x, sphere.y, sphere.z);
    return (length(o) - sphere.w) * 0.9999f > best_d_m;
}

// Unsigned distance in metres from p to triangle abc (the value every pass compares bit for bit).
SDF_FN float sdf_triangle_distance_m(vec3 p, vec3 a, vec3 b, vec3 c) {
    SdfClosest q = sdf_closest_on_triangle(p, a, b, c);
    vec3 d = p - q.point_m;
    return sqrt(dot(d, d));
}

// Signed solid angle of triangle abc seen from p, divided by 4 pi (Van Oosterom & Strackee 1983); the
// generalized winding number is the sum over triangles (Jacobson, Kavan & Sorkine-Hornung 2013).
SDF_FN float sdf_triangle_winding(vec3 p, vec3 a, vec3 b, vec3 c) {
    vec3 x = a - p;
    vec3 y = b - p;
    vec3 z = c - p;
    float lx = sqrt(dot(x, x));
    float ly = sqrt(dot(y, y));
    float lz = sqrt(dot(z, z));
    float num = dot(x, cross(y, z));
    float den = lx * ly * lz + dot(x, y) * lz + dot(y, z) * lx + dot(z, x) * ly;
    if (num == 0.0 && den == 0.0) return 0.0;
    return 2.0f * sdf_atan2(num, den) * 0.0795774715459f;  // 1 / (4 pi)
}

// Fast winding numbers (Barill, Dickson, Schmidt, Levin & Jacobson 2018), order 1: a bounding volume
// hierarchy over the triangles, each node keeping the area-weighted centre of its triangles, the radius
// of a ball around that centre holding them, and their summed area vector (half the cross product of
// each triangle's edges). Seen from a point farther than kSdfFwnBeta radii, a node's triangles count as one
// dipole; nearer, its children (or, at a leaf, its triangles exactly). Nodes are stored depth first; a
// node's first child is the next node and `range.z` is the node after its subtree, so the walk needs no
// stack. The CPU reference and the GPU walk the same nodes in the same order.
struct SdfFwnNode {
    vec4 centre_radius;  // xyz: area-weighted centre of the node's triangles, metres; w: radius, metres
    vec4 area_vector;    // xyz: sum of the triangles' area vectors (square metres); w: sum of their areas
    uvec4 range;         // x: first entry of the node's triangles in the tree's triangle order; y: count
                         // (leaves only; 0 for an inner node); z: the node after this subtree; w: unused
};
TRESSEL_CHECK_SIZE(SdfFwnNode, 48)

// A node's geometry, bottom up (sdf_passes::refit_fwn_nodes, sdf/refit.comp): a leaf from its triangles,
// an inner node from its two children (the left one is the next node, the right one the left's skip), so
// that a deforming mesh's hierarchy is refitted one tree level a dispatch. A leaf's centre is the
// area-weighted mean of its triangles' centroids (their plain mean if they have no area), its radius the
// farthest vertex; an inner node's centre the area-weighted mean of its children's, its radius the
// farthest child ball (a bound: the ball holds every triangle below).
struct SdfFwnSums {
    vec3 area_vector;
    vec3 weighted;  // sum of area x centroid
    vec3 plain;     // sum of centroids
    float area;
};

SDF_FN SdfFwnSums sdf_fwn_add_triangle(SdfFwnSums s, vec3 a, vec3 b, vec3 c) {
    vec3 av = 0.5f * cross(b - a, c - a);
    float ar = length(av);
    vec3 mean = (a + b + c) / 3.0f;
    s.area_vector += av;
    s.weighted += ar * mean;
    s.plain += mean;
    s.area += ar;
    return s;
}

SDF_FN vec3 sdf_fwn_leaf_centre(SdfFwnSums s, uint count) {
    return s.area > 0.0f ? s.weighted / s.area : s.plain / float(count);
}

// The radius so far, grown to hold the triangle abc.
SDF_FN float sdf_fwn_reach(float radius, vec3 centre, vec3 a, vec3 b, vec3 c) {
    return max(radius, max(length(a - centre), max(length(b - centre), length(c - centre))));
}

// An inner node's centre and radius from its children's.
SDF_FN vec4 sdf_fwn_combine(vec4 left_cr, float left_area, vec4 right_cr, float right_area) {
    vec3 lc = vec3(left_cr.x, left_cr.y, left_cr.z);
    vec3 rc = vec3(right_cr.x, right_cr.y, right_cr.z);
    float area = left_area + right_area;
    vec3 c = area > 0.0f ? (lc * left_area + rc * right_area) / area : 0.5f * (lc + rc);
    float radius = max(length(lc - c) + left_cr.w, length(rc - c) + right_cr.w);
    return vec4(c.x, c.y, c.z, radius);
}
// A leaf holds at most this many triangles; a point must be this many radii from a node's centre to see
// its triangles as one dipole (Barill et al. use 2 with a second-order term; the first order alone needs
// more distance for the same error: at 3 the largest error on the test meshes, the open 69K-triangle bunny
// included, is 0.019, with 220 to 410 nodes and triangles visited a point; engine/sdf/README.md).
TRESSEL_CONST(uint, kSdfFwnLeafSize, 8u);
TRESSEL_CONST(float, kSdfFwnBeta, 3.0f);

// True when point p is far enough from the node to use its dipole.
SDF_FN bool sdf_fwn_far(vec3 p, vec4 centre_radius) {
    vec3 r = vec3(centre_radius.x, centre_radius.y, centre_radius.z) - p;
    float lim = kSdfFwnBeta * centre_radius.w;
    return dot(r, r) > lim * lim;
}

// The node's triangles seen from p as one dipole: area vector . (centre - p) / (4 pi |centre - p|^3).
SDF_FN float sdf_fwn_dipole(vec3 p, vec4 centre_radius, vec4 area_vector) {
    vec3 r = vec3(centre_radius.x, centre_radius.y, centre_radius.z) - p;
    float d2 = dot(r, r);
    float d = sqrt(d2);
    return dot(vec3(area_vector.x, area_vector.y, area_vector.z), r) / (d2 * d) * 0.0795774715459f;  // 1 / (4 pi)
}

// Ray-parity pass helpers (2D, in the plane across the ray axis). Edge function of directed edge u->v at
// q (positive on its left), evaluated from the lexicographically smaller endpoint so the two triangles
// sharing an edge get exactly opposite values: a ray through a shared edge is counted once.
SDF_FN float sdf_edge_function(vec2 u, vec2 v, vec2 q) {
    bool swap_ends = v.x < u.x || (v.x == u.x && v.y < u.y);
    vec2 s = swap_ends ? v : u;
    vec2 e = swap_ends ? u : v;
    float f = (e.x - s.x) * (q.y - s.y) - (e.y - s.y) * (q.x - s.x);
    return swap_ends ? -f : f;
}

// Top-left rule: a point exactly on an edge belongs to the triangle whose inward normal points +x (or,
// for an edge parallel to x, +y); the neighbour across the edge has the opposite normal.
SDF_FN bool sdf_owns_edge(vec2 u, vec2 v, float orientation) {
    vec2 n = orientation * vec2(-(v.y - u.y), v.x - u.x);
    return n.x > 0.0f || (n.x == 0.0f && n.y > 0.0f);
}

// Finalize sign modes (sdf_passes::CellSign has the same values).
TRESSEL_CONST(uint, kSdfSignPseudonormal, 0u);
TRESSEL_CONST(uint, kSdfSignParity, 1u);
TRESSEL_CONST(uint, kSdfSignPseudonormalBandParityElsewhere, 2u);
TRESSEL_CONST(uint, kSdfSignWinding, 3u);
TRESSEL_CONST(uint, kSdfSignFaceNormal, 4u);
// Not a sign but a field of its own: a one-sided thick shell over an open sheet (a cloth accessory that
// hair lies under; sdf_shell_distance_m). Band-only, no parity.
TRESSEL_CONST(uint, kSdfSignShell, 5u);

// The shell field of a sheet at a cell whose nearest point on the sheet is `off` away (cell - closest
// point), `n` the unit normal there (face normal or pseudonormal of the nearest feature), times the side:
// +n points into the obstacle. The obstacle is the slab from the sheet to depth_m on the +n side, over
// the sheet's footprint: on the -n side the value is the distance to the sheet (positive, free space),
// within the slab negative (deepest, -depth_m / 2, half way up), beyond it positive again. `rim`: the
// nearest feature is an open edge or a vertex on one, so the cell lies beside the sheet, not over it:
// the slab is cut there by the distance past the rim (off's part along the sheet), so a strand that hangs
// past the sheet's edge is free, and the value is continuous across the rim's plane.
SDF_FN float sdf_shell_distance_m(vec3 off, vec3 n, bool rim, float depth_m) {
    float h = dot(off, n);
    if (!rim) {
        float s = h >= 0.0f ? length(off) : -length(off);
        return max(-s, s - depth_m);
    }
    vec3 lateral = off - h * n;
    return max(max(-h, h - depth_m), length(lateral));
}

// Majority vote of the three ray-parity bits.
SDF_FN bool sdf_parity_inside(uint bits) {
    int n = int(bits & 1u) + int((bits >> 1) & 1u) + int((bits >> 2) & 1u);
    return n >= 2;
}

// The inside/outside decision of a cell, given every candidate test. For the auto mode on a closed mesh
// (kSdfSignPseudonormalBandParityElsewhere) the parity vote decides unless the three rays disagree in a
// band cell, where the pseudonormal of the nearest feature decides (engine/sdf/README.md).
SDF_FN bool sdf_cell_inside(uint mode, bool band, uint parity_bits, bool pseudonormal_inside, float winding,
                            bool face_normal_inside) {
    uint bits = parity_bits & kSdfParityAxisBits;
    if (mode == kSdfSignPseudonormal) return pseudonormal_inside;
    if (mode == kSdfSignParity) return sdf_parity_inside(bits);
    if (mode == kSdfSignPseudonormalBandParityElsewhere) {
        bool unanimous = bits == 0u || bits == kSdfParityAxisBits;
        return (band && !unanimous) ? pseudonormal_inside : sdf_parity_inside(bits);
    }
    if (mode == kSdfSignWinding) return winding > 0.5f;
    return face_normal_inside;
}

TRESSEL_SHARED_END

#endif
