#version 450
// Linear blend skinning of one mesh, one vertex per invocation: the formula of shared/skinning.h, the
// one the CPU reference (engine/anim skin_mesh) evaluates.
#include "shared/skinning.h"
#include "shared/dispatch.h"

layout(local_size_x = kSkinWorkgroupSize) in;
layout(std430, set = 0, binding = kSkinBindPositions) readonly buffer BindPos { vec4 bind_pos[]; };
layout(std430, set = 0, binding = kSkinBindNormals) readonly buffer BindNrm { vec4 bind_nrm[]; };
layout(std430, set = 0, binding = kSkinJoints) readonly buffer Joints { uvec4 joint_idx[]; };
layout(std430, set = 0, binding = kSkinWeights) readonly buffer Weights { vec4 weights[]; };
layout(std430, set = 0, binding = kSkinMatrices) readonly buffer Matrices { mat4 matrices[]; };
layout(std430, set = 0, binding = kSkinOutPositions) writeonly buffer OutPos { vec4 out_pos[]; };
layout(std430, set = 0, binding = kSkinOutNormals) writeonly buffer OutNrm { vec4 out_nrm[]; };
layout(std430, set = 0, binding = kSkinOutVertices) writeonly buffer OutVertices { vec4 out_vertices[]; };
layout(push_constant) uniform Push { SkinPush pc; };

mat4 joint_matrix(uint j, float w) {
    if (w == 0.0) return mat4(0.0);
    return j < pc.joints ? matrices[j] : mat4(1.0);
}

void main() {
    uint v = LINEAR_INVOCATION_INDEX;
    if (v >= pc.vertices) return;
    uvec4 j = joint_idx[v];
    vec4 w = weights[v];
    mat4 m = skin_matrix(joint_matrix(j.x, w.x), joint_matrix(j.y, w.y), joint_matrix(j.z, w.z), joint_matrix(j.w, w.w), w);
    vec4 p = vec4(skin_point(m, bind_pos[v].xyz), 1.0);
    vec4 n = pc.has_normals != 0u ? vec4(skin_normal(m, bind_nrm[v].xyz), 0.0) : vec4(0.0, 1.0, 0.0, 0.0);
    out_pos[v] = p;
    if (pc.has_normals != 0u) out_nrm[v] = n;
    if (pc.has_vertices != 0u) {  // the renderer's MeshVertex: position, then normal
        out_vertices[2u * v] = p;
        out_vertices[2u * v + 1u] = n;
    }
}
