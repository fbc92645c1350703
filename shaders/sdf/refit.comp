#version 450
// Refit of a deforming collision mesh before a rebuild (shared/sdf_refit.h): mode 0, one invocation per
// welded vertex (its position) and then per triangle (vertices, face normal, bounding sphere), both read
// from the skinned positions; mode 1, after a barrier, per welded vertex and then per edge, the
// angle-weighted pseudonormals, summed in triangle order as the CPU reference (sdf_passes::refit_mesh);
// mode 2, when the field's sign walks the fast winding hierarchy, its nodes one level a dispatch.
#include "shared/sdf_refit.h"
#include "shared/dispatch.h"

layout(local_size_x = kSdfWorkgroupSize) in;
layout(std430, set = 0, binding = kSdfRefitBindSource) readonly buffer Source { vec4 source[]; };
layout(std430, set = 0, binding = kSdfRefitBindWeldSource) readonly buffer WeldSource { uint weld_source[]; };
layout(std430, set = 0, binding = kSdfRefitBindIndices) readonly buffer Indices { uint indices[]; };
layout(std430, set = 0, binding = kSdfRefitBindPositions) buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = kSdfRefitBindTriangles) buffer Triangles { vec4 triangles[]; };
layout(std430, set = 0, binding = kSdfRefitBindFaceNormals) buffer FaceNormals { vec4 face_normals[]; };
layout(std430, set = 0, binding = kSdfRefitBindTriSpheres) writeonly buffer TriSpheres { vec4 tri_spheres[]; };
layout(std430, set = 0, binding = kSdfRefitBindVertexTriOffsets) readonly buffer VertexTriOffsets { uint vertex_tri_offsets[]; };
layout(std430, set = 0, binding = kSdfRefitBindVertexTris) readonly buffer VertexTris { uint vertex_tris[]; };
layout(std430, set = 0, binding = kSdfRefitBindVertexNormals) writeonly buffer VertexNormals { vec4 vertex_normals[]; };
layout(std430, set = 0, binding = kSdfRefitBindEdgeTriOffsets) readonly buffer EdgeTriOffsets { uint edge_tri_offsets[]; };
layout(std430, set = 0, binding = kSdfRefitBindEdgeTris) readonly buffer EdgeTris { uint edge_tris[]; };
layout(std430, set = 0, binding = kSdfRefitBindEdgeNormals) writeonly buffer EdgeNormals { vec4 edge_normals[]; };
layout(std430, set = 0, binding = kSdfRefitBindFwnNodes) buffer FwnNodes { SdfFwnNode fwn_nodes[]; };
layout(std430, set = 0, binding = kSdfRefitBindFwnTris) readonly buffer FwnTris { uint fwn_tris[]; };
layout(std430, set = 0, binding = kSdfRefitBindFwnOrder) readonly buffer FwnOrder { uint fwn_order[]; };
layout(push_constant) uniform Push { SdfRefitPush pc; };

// Mode 2: one node of the fast winding hierarchy (sdf_passes::refit_fwn_nodes): a leaf from its
// triangles (written by mode 0), an inner node from its children (refitted by the previous dispatch).
void refit_fwn_node(uint node) {
    uvec4 range = fwn_nodes[node].range;
    if (range.y > 0u) {
        SdfFwnSums sums = SdfFwnSums(vec3(0.0), vec3(0.0), vec3(0.0), 0.0);
        for (uint k = 0u; k < range.y; ++k) {
            uint t = fwn_tris[range.x + k];
            sums = sdf_fwn_add_triangle(sums, triangles[3u * t].xyz, triangles[3u * t + 1u].xyz, triangles[3u * t + 2u].xyz);
        }
        vec3 centre = sdf_fwn_leaf_centre(sums, range.y);
        float radius = 0.0;
        for (uint k = 0u; k < range.y; ++k) {
            uint t = fwn_tris[range.x + k];
            radius = sdf_fwn_reach(radius, centre, triangles[3u * t].xyz, triangles[3u * t + 1u].xyz, triangles[3u * t + 2u].xyz);
        }
        fwn_nodes[node].centre_radius = vec4(centre, radius);
        fwn_nodes[node].area_vector = vec4(sums.area_vector, sums.area);
        return;
    }
    SdfFwnNode l = fwn_nodes[node + 1u];
    SdfFwnNode r = fwn_nodes[l.range.z];
    fwn_nodes[node].centre_radius = sdf_fwn_combine(l.centre_radius, l.area_vector.w, r.centre_radius, r.area_vector.w);
    fwn_nodes[node].area_vector = l.area_vector + r.area_vector;
}

vec3 welded(uint v) { return source[weld_source[v]].xyz; }

void main() {
    uint item = LINEAR_INVOCATION_INDEX;
    if (pc.mode == 2u) {
        if (item < pc.count) refit_fwn_node(fwn_order[pc.first + item]);
        return;
    }
    if (pc.mode == 0u) {
        if (item < pc.vertices) {
            positions[item] = vec4(welded(item), 0.0);
            return;
        }
        uint t = item - pc.vertices;
        if (t >= pc.triangles) return;
        vec3 a = welded(indices[3u * t]);
        vec3 b = welded(indices[3u * t + 1u]);
        vec3 c = welded(indices[3u * t + 2u]);
        triangles[3u * t] = vec4(a, 0.0);
        triangles[3u * t + 1u] = vec4(b, 0.0);
        triangles[3u * t + 2u] = vec4(c, 0.0);
        face_normals[t] = vec4(sdf_face_normal(a, b, c), 0.0);
        tri_spheres[t] = sdf_triangle_sphere(a, b, c);
        return;
    }
    if (item < pc.vertices) {
        uint v = item;
        vec3 sum = vec3(0.0);
        for (uint i = vertex_tri_offsets[v]; i < vertex_tri_offsets[v + 1u]; ++i) {
            uint t = vertex_tris[i];
            uint k = 0u;
            while (k < 2u && indices[3u * t + k] != v) ++k;
            vec3 a = positions[indices[3u * t + k]].xyz;
            vec3 b = positions[indices[3u * t + (k + 1u) % 3u]].xyz;
            vec3 c = positions[indices[3u * t + (k + 2u) % 3u]].xyz;
            sum += sdf_corner_angle(a, b, c) * face_normals[t].xyz;
        }
        vertex_normals[v] = vec4(sdf_unit_or_zero(sum), 0.0);
        return;
    }
    uint e = item - pc.vertices;
    if (e >= pc.edges) return;
    vec3 sum = vec3(0.0);
    for (uint i = edge_tri_offsets[e]; i < edge_tri_offsets[e + 1u]; ++i) sum += face_normals[edge_tris[i]].xyz;
    edge_normals[e] = vec4(sdf_unit_or_zero(sum), 0.0);
}
