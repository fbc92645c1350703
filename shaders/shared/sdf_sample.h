// Sampling a finished SDF grid: trilinear distance and its gradient by central or forward differences.
// One text for C++ and GLSL. The field is read through SDF_FETCH(index):
//   C++:  the functions take `const float* sdf_field` as their first argument (SDF_FIELD_PARAM).
//   GLSL: define SDF_FETCH(i) (e.g. `sdf_distance[i]`) before including this file; no field argument.
// Positions are clamped to the grid's cell-centre box, so a point outside the grid reads the border
// value (the field is then a lower bound of the true distance; callers test "inside the grid" first
// when that matters).
#ifndef TRESSEL_SHARED_SDF_SAMPLE_H
#define TRESSEL_SHARED_SDF_SAMPLE_H
#include "shared/sdf.h"

#ifdef __cplusplus
#define SDF_FIELD_PARAM const float *sdf_field,
#define SDF_FIELD_ARG sdf_field,
#define SDF_FETCH(i) sdf_field[i]
#else
#define SDF_FIELD_PARAM
#define SDF_FIELD_ARG
#ifndef SDF_FETCH
#error "define SDF_FETCH(index) before including shared/sdf_sample.h"
#endif
#endif

TRESSEL_SHARED_BEGIN

// Trilinear blend of the 8 corner values c<x><y><z> with weights f in [0,1]^3.
SDF_FN float sdf_trilinear(float c000, float c100, float c010, float c110, float c001, float c101, float c011,
                           float c111, vec3 f) {
    float x00 = c000 + (c100 - c000) * f.x;
    float x10 = c010 + (c110 - c010) * f.x;
    float x01 = c001 + (c101 - c001) * f.x;
    float x11 = c011 + (c111 - c011) * f.x;
    float y0 = x00 + (x10 - x00) * f.y;
    float y1 = x01 + (x11 - x01) * f.y;
    return y0 + (y1 - y0) * f.z;
}

// Trilinear distance in metres at p_m (engine space), clamped at the grid border.
SDF_FN float sdf_sample_distance_m(SDF_FIELD_PARAM SdfGridParams g, vec3 p_m) {
    vec3 u = sdf_grid_coords(g, p_m);
    vec3 hi = vec3(float(g.dims.x - 1), float(g.dims.y - 1), float(g.dims.z - 1));
    u = clamp(u, vec3(0.0f), hi);
    ivec3 i0 = ivec3(int(floor(u.x)), int(floor(u.y)), int(floor(u.z)));
    i0 = max(min(i0, ivec3(g.dims.x - 2, g.dims.y - 2, g.dims.z - 2)), ivec3(0));
    ivec3 i1 = min(i0 + ivec3(1), ivec3(g.dims.x - 1, g.dims.y - 1, g.dims.z - 1));
    vec3 f = clamp(u - vec3(float(i0.x), float(i0.y), float(i0.z)), vec3(0.0f), vec3(1.0f));
    uint sx = uint(g.dims.x);
    uint sxy = uint(g.dims.x) * uint(g.dims.y);
    uint x0 = uint(i0.x), x1 = uint(i1.x);
    uint y0 = uint(i0.y) * sx, y1 = uint(i1.y) * sx;
    uint z0 = uint(i0.z) * sxy, z1 = uint(i1.z) * sxy;
    return sdf_trilinear(SDF_FETCH(x0 + y0 + z0), SDF_FETCH(x1 + y0 + z0), SDF_FETCH(x0 + y1 + z0),
                         SDF_FETCH(x1 + y1 + z0), SDF_FETCH(x0 + y0 + z1), SDF_FETCH(x1 + y0 + z1),
                         SDF_FETCH(x0 + y1 + z1), SDF_FETCH(x1 + y1 + z1), f);
}

// Gradient (metres per metre, not normalised) by central differences with step h_m.
SDF_FN vec3 sdf_gradient_central(SDF_FIELD_PARAM SdfGridParams g, vec3 p_m, float h_m) {
    vec3 dx = vec3(h_m, 0.0f, 0.0f);
    vec3 dy = vec3(0.0f, h_m, 0.0f);
    vec3 dz = vec3(0.0f, 0.0f, h_m);
    float gx = sdf_sample_distance_m(SDF_FIELD_ARG g, p_m + dx) - sdf_sample_distance_m(SDF_FIELD_ARG g, p_m - dx);
    float gy = sdf_sample_distance_m(SDF_FIELD_ARG g, p_m + dy) - sdf_sample_distance_m(SDF_FIELD_ARG g, p_m - dy);
    float gz = sdf_sample_distance_m(SDF_FIELD_ARG g, p_m + dz) - sdf_sample_distance_m(SDF_FIELD_ARG g, p_m - dz);
    return vec3(gx, gy, gz) / (2.0f * h_m);
}

// Gradient by forward differences with step h_m (TressFX's CollideHairVerticesWithSdf_forward, seed 000):
// 4 samples instead of 6.
SDF_FN vec3 sdf_gradient_forward(SDF_FIELD_PARAM SdfGridParams g, vec3 p_m, float h_m) {
    float d0 = sdf_sample_distance_m(SDF_FIELD_ARG g, p_m);
    float gx = sdf_sample_distance_m(SDF_FIELD_ARG g, p_m + vec3(h_m, 0.0f, 0.0f)) - d0;
    float gy = sdf_sample_distance_m(SDF_FIELD_ARG g, p_m + vec3(0.0f, h_m, 0.0f)) - d0;
    float gz = sdf_sample_distance_m(SDF_FIELD_ARG g, p_m + vec3(0.0f, 0.0f, h_m)) - d0;
    return vec3(gx, gy, gz) / h_m;
}

TRESSEL_SHARED_END

#endif
