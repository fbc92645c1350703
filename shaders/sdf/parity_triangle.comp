#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Pass 6a, per triangle and axis (item = axis * triangles + triangle, all three axes in one dispatch):
// toggle the bit of the first cell past each crossing of the grid lines along `axis` through the triangle
// in that axis' bit plane (watertight edge functions, top-left rule; sdf_passes::parity_triangle).
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

float comp(vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }

void main() {
    uint item = LINEAR_INVOCATION_INDEX;
    if (item >= pc.count) return;
    int axis = int(item / pc.triangles);
    uint t = item - uint(axis) * pc.triangles;
    int ax = axis, bx = (axis + 1) % 3, cx = (axis + 2) % 3;
    vec3 v0 = sdf_grid_coords(g, tri_a(t)), v1 = sdf_grid_coords(g, tri_b(t)), v2 = sdf_grid_coords(g, tri_c(t));
    vec2 p0 = vec2(comp(v0, bx), comp(v0, cx)), p1 = vec2(comp(v1, bx), comp(v1, cx)), p2 = vec2(comp(v2, bx), comp(v2, cx));
    float area = sdf_edge_function(p0, p1, p2);
    if (area == 0.0) return;
    float orient = area > 0.0 ? 1.0 : -1.0;
    ivec3 dims = g.dims.xyz;
    int nb = bx == 0 ? dims.x : (bx == 1 ? dims.y : dims.z);
    int nc = cx == 0 ? dims.x : (cx == 1 ? dims.y : dims.z);
    int na = ax == 0 ? dims.x : (ax == 1 ? dims.y : dims.z);
    int b_lo = max(0, int(ceil(min(p0.x, min(p1.x, p2.x)))));
    int b_hi = min(nb - 1, int(floor(max(p0.x, max(p1.x, p2.x)))));
    int c_lo = max(0, int(ceil(min(p0.y, min(p1.y, p2.y)))));
    int c_hi = min(nc - 1, int(floor(max(p0.y, max(p1.y, p2.y)))));
    bool own0 = sdf_owns_edge(p0, p1, orient), own1 = sdf_owns_edge(p1, p2, orient), own2 = sdf_owns_edge(p2, p0, orient);
    for (int jc = c_lo; jc <= c_hi; ++jc)
        for (int jb = b_lo; jb <= b_hi; ++jb) {
            vec2 q = vec2(float(jb), float(jc));
            float w0 = orient * sdf_edge_function(p0, p1, q);
            float w1 = orient * sdf_edge_function(p1, p2, q);
            float w2 = orient * sdf_edge_function(p2, p0, q);
            bool inside = (w0 > 0.0 || (w0 == 0.0 && own0)) && (w1 > 0.0 || (w1 == 0.0 && own1)) &&
                          (w2 > 0.0 || (w2 == 0.0 && own2));
            if (!inside) continue;
            float sum = w0 + w1 + w2;
            if (!(sum > 0.0)) continue;
            float hit = (w1 * comp(v0, ax) + w2 * comp(v1, ax) + w0 * comp(v2, ax)) / sum;
            float first = floor(hit) + 1.0;
            if (first >= float(na)) continue;
            ivec3 cell;
            cell[ax] = max(0, int(first));
            cell[bx] = jb;
            cell[cx] = jc;
            atomicXor(parity_toggles[sdf_parity_word_index(g, ax, cell)], 1u << uint(cell[ax] % 32));
        }
}
