#version 450
// A band-only build's last pass (SdfBuildDesc::band_only), one invocation per cell: read the cell's band key
// and clear it for the next build (as the coarse seed does in a full build; band_tri is not needed); a band cell
// gets the exact distance to its scatter triangle signed as finalize signs it; any other cell the band's
// width signed by the parity vote (sdf_beyond_band_m). No far-field search. A shell (kSdfSignShell) gets
// sdf_shell_distance_m in the band and the band's width (free) beyond it.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared/sdf_gpu.h"
#include "shared/sdf.h"
layout(local_size_x = kSdfWorkgroupSize) in;
#include "sdf/sdf_common.glsl"

uint parity_bit(int axis, ivec3 cell) {
    return (parity[sdf_parity_word_index(g, axis, cell)] >> uint(cell[axis] % 32)) & 1u;
}

// sdf_passes::feature_on_rim: an open edge, or a vertex one of whose edges is open.
bool feature_on_rim(uint t, uint feature) {
    if (feature == kSdfFeatureFace) return false;
    if (feature >= kSdfFeatureEdge01) return tri_neighbours[3u * t + (feature - kSdfFeatureEdge01)] == kSdfNoTriangle;
    uint v = indices[3u * t + feature];
    uint end = vertex_tri_offsets[v + 1u];
    for (uint i = vertex_tri_offsets[v]; i < end; ++i) {
        uint u = vertex_tris[i];
        for (uint k = 0u; k < 3u; ++k)
            if (indices[3u * u + k] == v &&
                (tri_neighbours[3u * u + k] == kSdfNoTriangle || tri_neighbours[3u * u + (k + 2u) % 3u] == kSdfNoTriangle))
                return true;
    }
    return false;
}

void main() {
    uint cell = LINEAR_INVOCATION_INDEX;
    if (cell >= pc.count) return;
    ivec3 cell3 = sdf_cell_coords(g, cell);
    uint64_t key = band_key[cell];
    uint t = kSdfNoTriangle;
    if (key != kSdfUnwrittenKey) {
        t = uint(key & 0xFFFFFFFFul);
        band_key[cell] = kSdfUnwrittenKey;
    }
    const bool shell = pc.mode == kSdfSignShell;  // a shell has no parity planes
    uint bits = shell ? 0u : parity_bit(0, cell3) | (parity_bit(1, cell3) << 1) | (parity_bit(2, cell3) << 2);
    if (t == kSdfNoTriangle) {
        bool inside = !shell && sdf_parity_inside(bits);
        distance_m[cell] = sdf_beyond_band_m(g, inside);
        flags[cell] = inside ? kSdfFlagInside : 0u;
        return;
    }
    vec3 p = sdf_cell_centre_m(g, cell3);
    SdfClosest q = sdf_closest_on_triangle(p, tri_a(t), tri_b(t), tri_c(t));
    vec3 off = p - q.point_m;
    float d = sqrt(dot(off, off));
    vec4 nrm;
    if (q.feature == kSdfFeatureFace) nrm = face_normals[t];
    else if (q.feature <= kSdfFeatureVertex2) nrm = vertex_pseudonormals[indices[3u * t + q.feature]];
    else nrm = edge_pseudonormals[tri_edges[3u * t + (q.feature - kSdfFeatureEdge01)]];
    if (shell) {
        float v = sdf_shell_distance_m(off, nrm.xyz * pc.orientation, feature_on_rim(t, q.feature), sdf_band_limit_m(g));
        distance_m[cell] = v;
        flags[cell] = kSdfFlagWritten | kSdfFlagBand | (v < 0.0 ? kSdfFlagInside : 0u);
        return;
    }
    bool pn_inside = dot(off, nrm.xyz) * pc.orientation < 0.0;
    bool face_inside = dot(off, face_normals[t].xyz) * pc.orientation < 0.0;
    bool inside = sdf_cell_inside(pc.mode, true, bits, pn_inside, 0.0, face_inside);
    distance_m[cell] = inside ? -d : d;
    flags[cell] = kSdfFlagWritten | kSdfFlagBand | (inside ? kSdfFlagInside : 0u);
}
