// GLSL only: buffers of the cloth passes (bindings in shared/cloth.h), included first: each shader's
// local_size layout follows it (it names kClothWorkgroupSize). SDF_FETCH reads the SDF whose first float
// is g_sdf_offset.
#include "shared/dispatch.h"
#include "shared/sdf.h"
uint g_sdf_offset = 0u;
layout(std430, binding = 13) readonly buffer SdfFieldsBuf { float sdf_fields[]; };
#define SDF_FETCH(i) sdf_fields[g_sdf_offset + (i)]
#include "shared/cloth.h"

layout(push_constant) uniform PushBuf { ClothPush pc; };
layout(std430, binding = kClothBindParams) readonly buffer ParamsBuf { ClothStepParams step_params[]; };
layout(std430, binding = kClothBindVertices) readonly buffer VerticesBuf { ClothVertex vertices[]; };
layout(std430, binding = kClothBindConstraints) readonly buffer ConstraintsBuf { ClothConstraint constraints[]; };
layout(std430, binding = kClothBindAdjacency) readonly buffer AdjacencyBuf { uint adjacency[]; };
layout(std430, binding = kClothBindTriangles) readonly buffer TrianglesBuf { uvec4 triangles[]; };
layout(std430, binding = kClothBindVertexTriangles) readonly buffer VertexTrianglesBuf { uint vertex_triangles[]; };
layout(std430, binding = kClothBindInA) readonly buffer InABuf { vec4 in_a[]; };
layout(std430, binding = kClothBindInB) readonly buffer InBBuf { vec4 in_b[]; };
layout(std430, binding = kClothBindOutA) writeonly buffer OutABuf { vec4 out_a[]; };
layout(std430, binding = kClothBindOutB) writeonly buffer OutBBuf { vec4 out_b[]; };
layout(std430, binding = kClothBindColliders) readonly buffer CollidersBuf { SimCollider colliders[]; };
layout(std430, binding = kClothBindSdfFrames) readonly buffer SdfFramesBuf { SimSdfFrame sdf_frames[]; };
layout(std430, binding = kClothBindSdfGrids) readonly buffer SdfGridsBuf { SdfGridParams sdf_grids[]; };
layout(std430, binding = kClothBindSdfOffsets) readonly buffer SdfOffsetsBuf { uint sdf_offsets[]; };

ClothStepParams P() { return step_params[pc.slot]; }

// cloth_passes::vertex_normal over in_a.
vec3 vertex_normal(uint v) {
    ClothVertex cv = vertices[v];
    vec3 n = vec3(0.0);
    for (uint i = 0u; i < cv.tri_count; ++i) {
        uvec4 t = triangles[vertex_triangles[cv.tri_first + i]];
        n += cloth_triangle_normal(in_a[t.x].xyz, in_a[t.y].xyz, in_a[t.z].xyz);
    }
    return sim_safe_normalize(n, vec3(0.0));
}
