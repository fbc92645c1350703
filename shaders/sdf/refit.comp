#version 450
// Refit of a deforming collision mesh before a rebuild (shared/sdf_refit.h): mode 0, one invocation per
// welded vertex (its position) and then per triangle (vertices, face normal, bounding sphere), both read
// from the skinned positions; mode 1, after a barrier, per welded vertex and then per edge, the
// angle-weighted pseudonormals, summed in triangle order as the CPU reference (sdf_passes::refit_mesh).
#include "shared/sdf_refit.h"
#include "shared/dispatch.h"

layout(local_size_x = kSdfWorkgroupSize) in;
layout(std430, set = 0, binding = kSdfRefitBindSource) readonly buffer Source { vec4 source[]; };
layout(std430, set = 0, binding = kSdfRefitBindWeldSource) readonly buffer WeldSource { uint weld_source[]; };
layout(std430, set = 0, binding = kSdfRefitBindIndices) readonly buffer Indices { uint indices[]; };
layout(std430, set = 0, binding = kSdfRefitBindPositions) buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = kSdfRefitBindTriangles) writeonly buffer Triangles { vec4 triangles[]; };
layout(std430, set = 0, binding = kSdfRefitBindFaceNormals) buffer FaceNormals { vec4 face_normals[]; };
layout(std430, set = 0, binding = kSdfRefitBindTriSpheres) writeonly buffer TriSpheres { vec4 tri_spheres[]; };
layout(std430, set = 0, binding = kSdfRefitBindVertexTriOffsets) readonly buffer VertexTriOffsets { uint vertex_tri_offsets[]; };
layout(std430, set = 0, binding = kSdfRefitBindVertexTris) readonly buffer VertexTris { uint vertex_tris[]; };
layout(std430, set = 0, binding = kSdfRefitBindVertexNormals) writeonly buffer VertexNormals { vec4 vertex_normals[]; };
layout(std430, set = 0, binding = kSdfRefitBindEdgeTriOffsets) readonly buffer EdgeTriOffsets { uint edge_tri_offsets[]; };
layout(std430, set = 0, binding = kSdfRefitBindEdgeTris) readonly buffer EdgeTris { uint edge_tris[]; };
layout(std430, set = 0, binding = kSdfRefitBindEdgeNormals) writeonly buffer EdgeNormals { vec4 edge_normals[]; };
layout(push_constant) uniform Push { SdfRefitPush pc; };

vec3 welded(uint v) { return source[weld_source[v]].xyz; }

void main() {
    uint item = LINEAR_INVOCATION_INDEX;
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
