#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
// Pass 5b, per coarse cell and step: best triangle of the 27 coarse cells at {-step, 0, step}^3 (smaller
// exact distance to the coarse sample point, then smaller id), read from jfa_in, written to jfa_out
// (Rong & Tan 2006), improved by the mesh walk in the short-range rounds (sdf_passes::coarse_jfa_cell).
//
// A round is a chain of dependent loads and exact distances per cell on a grid of few cells: latency,
// not throughput. So kSdfJfaLanes invocations of one subgroup share a cell: each takes every
// kSdfJfaLanes-th of the 27 candidates and, in each walk step, of the triangles around the vertex, and
// the lanes then agree on the min of (ordered distance, id) by xor shuffles. The best of a set under
// that total order does not depend on who evaluates which member, so the result is the reference's.
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x_id = 0) in;  // kSdfJfaWorkgroupSize unless specialized
layout(constant_id = 1) const uint kLanes = kSdfJfaLanes;  // invocations per coarse cell
#include "sdf/sdf_common.glsl"

// Every lane of the cell ends with the cell's best (distance, id) and its closest feature.
void lanes_best(inout uint best, inout float best_d, inout uint best_f) {
    for (uint m = 1u; m < kLanes; m <<= 1) {
        uint o_t = subgroupShuffleXor(best, m);
        float o_d = subgroupShuffleXor(best_d, m);
        uint o_f = subgroupShuffleXor(best_f, m);
        uint a = float_to_ordered(o_d), b = float_to_ordered(best_d);
        if (a < b || (a == b && o_t < best)) {
            best = o_t;
            best_d = o_d;
            best_f = o_f;
        }
    }
}

void main() {
    // Lanes of one cell are consecutive invocations of one subgroup (the subgroup size is a multiple of
    // kLanes: checked when the pipelines are created).
    uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint inv = group * gl_WorkGroupSize.x + gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint item = inv / kLanes;
    uint lane = inv % kLanes;
    if (item >= pc.count) return;  // uniform over the cell's lanes
    ivec3 cd = sdf_coarse_dims(g);
    ivec3 c = ivec3(int(item % uint(cd.x)), int((item / uint(cd.x)) % uint(cd.y)), int(item / uint(cd.x * cd.y)));
    vec3 p = sdf_coarse_sample_m(g, c);
    uint best = kSdfNoTriangle;
    float best_d = kSdfInf;
    uint best_f = 0u;
    // Every lane first takes the cell's own triangle (one broadcast load), so that the bounding-sphere
    // test rejects most of the other candidates on every lane without an exact distance.
    consider(jfa_in[item], p, best, best_d, best_f);
    for (uint n = lane; n < uint(kSdfCoarseNeighbours); n += kLanes) {
        if (n == uint(kSdfCoarseNeighbours / 2)) continue;  // (0,0,0): the cell itself, taken above
        ivec3 q = c + ivec3(int(n % 3u) - 1, int((n / 3u) % 3u) - 1, int(n / 9u) - 1) * pc.step;
        if (any(lessThan(q, ivec3(0))) || any(greaterThanEqual(q, cd))) continue;
        consider(jfa_in[sdf_coarse_index(cd, q)], p, best, best_d, best_f);
    }
    lanes_best(best, best_d, best_f);
    // The walk (sdf_passes walk()), in the rounds of step <= kSdfJfaWalkMaxStep: each step is the min
    // over the triangles around the best one's closest vertex, or the triangle across its closest edge;
    // stop inside a face or when nothing is better.
    int walk_steps = pc.step <= kSdfJfaWalkMaxStep ? kSdfWalkSteps : 0;  // uniform over the dispatch
    for (int s = 0; s < walk_steps && best != kSdfNoTriangle; ++s) {
        uint from = best;
        uint feature = best_f;
        if (feature == kSdfFeatureFace) break;
        if (feature <= kSdfFeatureVertex2) {
            uint v = indices[3u * from + feature];
            uint end = vertex_tri_offsets[v + 1u];
            for (uint i = vertex_tri_offsets[v] + lane; i < end; i += kLanes)
                consider(vertex_tris[i], p, best, best_d, best_f);
        } else if (lane == 0u) {
            consider(tri_neighbours[3u * from + (feature - kSdfFeatureEdge01)], p, best, best_d, best_f);
        }
        lanes_best(best, best_d, best_f);
        if (best == from) break;
    }
    if (lane == 0u) jfa_out[item] = best;
}
