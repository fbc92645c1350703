#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Passes 5c, 5d, 4 and 8 fused. kBlocks coarse cells per workgroup, one thread per fine cell of each block:
//  - nearest triangle: the band triangle in band cells, else the best of the triangles held by the
//    3 x 3 x 3 coarse cells around the block, deduplicated once per block, sorted by distance to the
//    block centre and kept with their geometry in shared memory, so every thread runs the same short
//    candidate loop without global loads; near the band also the band triangles of the cells
//    around; then the mesh walk (sdf_passes::fine_nearest_cell); then the consensus of
//    2 x 2 x 2 cells (sdf_passes::block_consensus_cell);
//  - flags (written = band: the scatter writes only band distances);
//  - exact distance to the nearest triangle, signed by pc.mode (kSdfSign*; sdf_passes::finalize_cell).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(constant_id = 0) const uint kBlocks = kSdfFinalizeBlocks;  // coarse blocks per workgroup
layout(local_size_x_id = 1) in;  // kSdfFinalizeBlockThreads x kBlocks
#include "sdf/sdf_common.glsl"

const uint NB = uint(kSdfCoarseNeighbours);
shared uint s_cand[NB * kBlocks];
shared uint s_unique[NB * kBlocks];
shared float s_key[NB * kBlocks];
shared uint s_count[kBlocks];
// Each block's distinct coarse candidates, nearest to the block centre first, with their geometry.
shared uint s_tri[NB * kBlocks];
shared vec4 s_sphere[NB * kBlocks];
shared vec4 s_a[NB * kBlocks];
shared vec4 s_b[NB * kBlocks];
shared vec4 s_c[NB * kBlocks];

uint parity_bit(int axis, ivec3 cell) {
    return (parity[sdf_parity_word_index(g, axis, cell)] >> uint(cell[axis] % 32)) & 1u;
}

// consider() for the i-th shared candidate (same test, same arithmetic, geometry from shared memory).
void consider_shared(uint i, vec3 p, inout uint best, inout float best_d, inout uint best_feature) {
    uint cand = s_tri[i];
    if (sdf_sphere_beyond(p, s_sphere[i], best_d)) return;
    SdfClosest q = sdf_closest_on_triangle(p, s_a[i].xyz, s_b[i].xyz, s_c[i].xyz);
    vec3 off = p - q.point_m;
    float d = sqrt(dot(off, off));  // sdf_triangle_distance_m
    if (d < best_d || (d == best_d && cand < best)) {
        best = cand;
        best_d = d;
        best_feature = q.feature;
        g_best_offset = off;
    }
}

void main() {
    uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    // The invocation's index in the workgroup, consecutive within a subgroup (the consensus shuffles).
    uint lw = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint bl = lw / kSdfFinalizeBlockThreads;  // this thread's block in the workgroup
    uint l = lw % kSdfFinalizeBlockThreads;
    uint block = group * kBlocks + bl;
    uint so = bl * NB;  // the block's slice of the shared arrays
    ivec3 cd = sdf_coarse_dims(g);
    bool block_ok = block < pc.count;  // uniform over the block's threads
    ivec3 c = ivec3(int(block % uint(cd.x)), int((block / uint(cd.x)) % uint(cd.y)), int(block / uint(cd.x * cd.y)));
    // This thread's fine cell; its band triangle and parity words are loaded before the shared set-up
    // below so that their latency overlaps it.
    const int K = kSdfCoarseFactor;
    ivec3 cell3 = c * K + sdf_block_cell_offset(l);
    bool cell_ok = block_ok && all(lessThan(cell3, g.dims.xyz));
    uint cell = cell_ok ? sdf_cell_index(g, cell3) : 0u;
    uint t = cell_ok ? band_tri[cell] : kSdfNoTriangle;
    uint bits = 0u;
    if (cell_ok && (pc.mode == kSdfSignParity || pc.mode == kSdfSignPseudonormalBandParityElsewhere))
        bits = parity_bit(0, cell3) | (parity_bit(1, cell3) << 1) | (parity_bit(2, cell3) << 2);
    if (l == 0u) s_count[bl] = 0u;
    if (l < NB) {
        ivec3 q = c + ivec3(int(l % 3u) - 1, int((l / 3u) % 3u) - 1, int(l / 9u) - 1);
        bool in_grid = block_ok && all(greaterThanEqual(q, ivec3(0))) && all(lessThan(q, cd));
        s_cand[so + l] = in_grid ? jfa_in[sdf_coarse_index(cd, q)] : kSdfNoTriangle;
    }
    barrier();
    if (l < NB) {
        uint cand = s_cand[so + l];
        bool keep = cand != kSdfNoTriangle;
        for (uint j = 0u; j < l; ++j) keep = keep && s_cand[so + j] != cand;
        if (keep) s_unique[so + atomicAdd(s_count[bl], 1u)] = cand;
    }
    barrier();
    uint n = s_count[bl];
    // Sort the candidates by their distance to the block centre: a cell then meets its nearest one
    // first, and the bounding-sphere test rejects most of the others without an exact distance. The
    // order changes no result (the best under a total order), only how much is evaluated.
    uint u = kSdfNoTriangle;
    vec4 ua, ub, uc, us;
    if (l < n) {
        u = s_unique[so + l];
        ua = tri_vertices[3u * u];
        ub = tri_vertices[3u * u + 1u];
        uc = tri_vertices[3u * u + 2u];
        us = tri_spheres[u];
        s_key[so + l] = sdf_triangle_distance_m(sdf_coarse_sample_m(g, c), ua.xyz, ub.xyz, uc.xyz);
    }
    barrier();
    if (l < n) {
        float k = s_key[so + l];
        uint rank = 0u;
        for (uint j = 0u; j < n; ++j)
            rank += (s_key[so + j] < k || (s_key[so + j] == k && s_unique[so + j] < u)) ? 1u : 0u;
        s_tri[so + rank] = u;
        s_sphere[so + rank] = us;
        s_a[so + rank] = ua;
        s_b[so + rank] = ub;
        s_c[so + rank] = uc;
    }
    barrier();
    vec3 p = sdf_cell_centre_m(g, cell3);
    bool band = t != kSdfNoTriangle;
    bool far = cell_ok && !band;
    uint feature = 0u;
    float best_d = kSdfInf;
    if (far) {
        for (uint i = 0u; i < n; ++i) consider_shared(so + i, p, t, best_d, feature);
        if (best_d <= sdf_near_limit_m(g)) {
            uint last = kSdfNoTriangle;
            for (int j = 0; j < kSdfNearRings * kSdfCoarseNeighbours; ++j) {
                int r = sdf_near_ring_radius(j / kSdfCoarseNeighbours);
                int o = j % kSdfCoarseNeighbours;
                ivec3 q = cell3 + ivec3(o % 3 - 1, (o / 3) % 3 - 1, o / 9 - 1) * r;
                if (any(lessThan(q, ivec3(0))) || any(greaterThanEqual(q, g.dims.xyz))) continue;
                uint cand = band_tri[sdf_cell_index(g, q)];
                if (cand == last) continue;  // evaluated just before: same result
                last = cand;
                consider(cand, p, t, best_d, feature);
            }
        }
        walk(p, t, best_d, feature);
    } else if (cell_ok) {
        // A band cell has only the scatter's triangle.
        SdfClosest q = sdf_closest_on_triangle(p, tri_a(t), tri_b(t), tri_c(t));
        g_best_offset = p - q.point_m;
        feature = q.feature;
        best_d = sqrt(dot(g_best_offset, g_best_offset));
    }
    // Consensus of 2 x 2 x 2 cells (sdf_passes::block_consensus_cell), within a subgroup (a group is 8
    // consecutive invocations): a far cell near the band takes the triangles the other 7 cells of its
    // group found where they may be nearer, and walks when one of them was better.
    // Subgroups without such a cell (most of the grid) skip it.
    bool near = far && sdf_consensus_applies(g, best_d);
    if (subgroupAny(near)) {
        uint own = t;
        float own_d = best_d;
        for (uint o = 1u; o < 8u; ++o) {
            uint cand = subgroupShuffleXor(own, o);
            float cand_d = subgroupShuffleXor(own_d, o);
            precise float limit = own_d + sdf_consensus_margin_cells(bitCount(o)) * g.origin_m.w;
            if (near && cand_d < limit) consider(cand, p, t, best_d, feature);
        }
        if (near && t != own) walk(p, t, best_d, feature);
    }
    if (!cell_ok) return;
    uint f = band ? (kSdfFlagWritten | kSdfFlagBand) : 0u;
    if (t == kSdfNoTriangle) {
        distance_m[cell] = kSdfInf;
        flags[cell] = f;
        return;
    }
    // The search kept its best's closest point.
    vec3 off = g_best_offset;
    float d = best_d;
    vec4 nrm;
    if (feature == kSdfFeatureFace) nrm = face_normals[t];
    else if (feature <= kSdfFeatureVertex2) nrm = vertex_pseudonormals[indices[3u * t + feature]];
    else nrm = edge_pseudonormals[tri_edges[3u * t + (feature - kSdfFeatureEdge01)]];
    bool pn_inside = dot(off, nrm.xyz) * pc.orientation < 0.0;
    bool face_inside = dot(off, face_normals[t].xyz) * pc.orientation < 0.0;
    float w = pc.mode == kSdfSignWinding ? winding[cell] : 0.0;
    bool inside = sdf_cell_inside(pc.mode, band, bits, pn_inside, w, face_inside);
    distance_m[cell] = inside ? -d : d;
    flags[cell] = f | (inside ? kSdfFlagInside : 0u);
}
