// GLSL only: buffers of the cloth passes (bindings in shared/cloth.h), included first: each shader's
// local_size layout follows it (it names kClothWorkgroupSize). SDF_FETCH reads the SDF whose first float
// is g_sdf_offset.
#extension GL_EXT_control_flow_attributes : require
#include "shared/dispatch.h"
#include "shared/sdf.h"
uint g_sdf_offset = 0u;
layout(std430, binding = 13) readonly buffer SdfFieldsBuf { float sdf_fields[]; };
#define SDF_FETCH(i) sdf_fields[g_sdf_offset + (i)]
#include "shared/cloth.h"
#include "shared/shape_match.h"

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
layout(std430, binding = kClothBindClusterRest) readonly buffer ClusterRestBuf { vec4 cluster_rest[]; };
layout(std430, binding = kClothBindClusters) buffer ClustersBuf { vec4 clusters[]; };
layout(std430, binding = kClothBindRenderVertices) readonly buffer RenderVerticesBuf { SoftRenderVertex render_vertices[]; };
layout(std430, binding = kClothBindTiles) readonly buffer TilesBuf { ClothTile tiles[]; };
layout(std430, binding = kClothBindTileVertices) readonly buffer TileVerticesBuf { uvec4 tile_vertices[]; };
layout(std430, binding = kClothBindTileEdges) readonly buffer TileEdgesBuf { uvec4 tile_edges[]; };
layout(std430, binding = kClothBindTileBend) readonly buffer TileBendBuf { uvec4 tile_bend[]; };
layout(std430, binding = kClothBindTileOwned) readonly buffer TileOwnedBuf { uvec4 tile_owned[]; };
layout(std430, binding = kClothBindBendRest) readonly buffer BendRestBuf { vec4 bend_rest[]; };
layout(std430, binding = kClothBindBendTerms) readonly buffer BendTermsBuf { uvec2 bend_terms[]; };
// Written by the predict pass, read by the small steps.
layout(std430, binding = kClothBindFrames) buffer FramesBuf { vec4 frames[]; };
layout(std430, binding = kClothBindPinPlaces) readonly buffer PinPlacesBuf { vec4 pin_places[]; };

// Where pinned vertex v is at the end of small step s: cloth_pin_position, or its own places where the
// cloth's pins are on a skin (p.pin_places).
vec3 pin_place(ClothStepParams p, uint v, vec3 rest_os, uint s) {
    if (p.pin_places == 0u) return cloth_pin_position(p, rest_os, s);
    uint i = 2u * (pc.slot * p.vertex_count + v);
    return cloth_pin_between(pin_places[i], pin_places[i + 1u], s, p.substeps);
}

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

// cloth_passes::contacts: y pushed out of the colliders and SDFs, each contact's friction and
// depenetration against the small step's start yp; thickness_m: the particle's collision radius. (y, yp)
// after them in .a / .b.
SimPair contacts(ClothStepParams p, vec3 y, vec3 yp, float thickness_m) {
    // Kept as loops: unrolled, their samples' loads in flight cost cloth_tile.comp 14 registers a thread.
    [[dont_unroll]]
    for (uint i = 0u; i < p.collider_count; ++i) {
        SimCollider c = colliders[pc.slot * pc.max_colliders + i];
        vec4 d = cloth_primitive_distance(y, c, thickness_m);
        if (d.w >= kClothContactTolerance_m) continue;
        if (d.w < 0.0) y -= d.xyz * d.w;
        vec3 carried = cloth_primitive_carry(yp, y, c);
        float f = 1.0 - pow(1.0 - clamp(c.p1_m.w, 0.0, 1.0), p.collider_friction_exponent);
        SimPair r = cloth_contact_finish(y, yp, carried, d.xyz, f);
        y = r.a.xyz;
        yp = r.b.xyz;
    }
    [[dont_unroll]]
    for (uint i = 0u; i < p.sdf_count; ++i) {
        SimSdfFrame f = sdf_frames[pc.slot * pc.max_sdfs + i];
        g_sdf_offset = sdf_offsets[i];
        float reach = thickness_m + f.params.x;
        vec4 d = cloth_sdf_contact(sdf_grids[i], f, y, reach + kClothContactTolerance_m);
        if (d.w >= reach + kClothContactTolerance_m) continue;
        if (d.w < reach) y += d.xyz * (reach - d.w);
        vec3 carried = sim_transform_point(f.step_motion, yp);
        SimPair r = cloth_contact_finish(y, yp, carried, d.xyz, p.friction);
        y = r.a.xyz;
        yp = r.b.xyz;
    }
    SimPair out_pair;
    out_pair.a = vec4(y, 0.0);
    out_pair.b = vec4(yp, 0.0);
    return out_pair;
}

// cloth_passes::pinned_small_step: a pinned particle (x from in_a) to its pin's place at the end of
// small step pc.substep; false for a free one.
bool pinned_small_step(uint v, ClothStepParams p, vec4 x, vec3 rest_os) {
    if (x.w > 0.0) return false;
    bool last = pc.substep + 1u >= p.substeps;
    out_a[v] = last ? x : vec4(pin_place(p, v, rest_os, pc.substep + 1u), x.w);
    out_b[v] = last ? in_b[v] : x;
    return true;
}

// cloth_passes::end_small_step: a free particle's contacts at y (from the small step's start in_b), then
// the next small step's prediction (normal: the surface's, for the wind) and this one's end, or after the
// last small step the state.
void end_small_step(uint v, ClothStepParams p, float w, vec3 y, float thickness_m, vec3 normal) {
    SimPair r = contacts(p, y, in_b[v].xyz, thickness_m);
    y = r.a.xyz;
    vec3 yp = r.b.xyz;
    if (pc.substep + 1u >= p.substeps) {
        out_a[v] = vec4(y, w);
        out_b[v] = vec4(yp, w);
        return;
    }
    out_a[v] = vec4(cloth_predict(p, y, yp, normal), w);
    out_b[v] = vec4(y, w);
}
