#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothTileThreads) in;

// Small step pc.substep (cloth_passes::substep) over one tile of the cloth (ClothTile, built by
// build_cloth_tiles): a workgroup brings the predictions of the tile's vertices (those it owns and the
// ring its constraints and triangles reach) into shared memory, evaluates each constraint touching an
// owned vertex once, keeping the correction of each owned slot in that vertex's entries, then every owned
// vertex adds its entries in its adjacency order (the CPU reference's order) and ends the small step as
// cloth_substep.comp does. A cloth this size is bound by how many tiles the GPU holds at once (their
// shared memory: engine/sim/README.md "Tiles") and by the latency of dependent loads, not by bytes:
// every load that does not need shared memory is issued before the first barrier, and each thread loads
// its next constraint while it solves the current one.
shared vec4 s_x[kClothTileMaxVertices];
shared vec2 s_split[kClothTileMaxVertices];
shared float s_ex[kClothTileMaxEntries];
shared float s_ey[kClothTileMaxEntries];
shared float s_ez[kClothTileMaxEntries];
shared uint s_tri[kClothTileMaxTriangles];

void put(uint entry, vec4 d) {
    if (entry == kClothTileNoEntry) return;
    s_ex[entry] = d.x;
    s_ey[entry] = d.y;
    s_ez[entry] = d.z;
}

vec3 entry_at(uint i) { return vec3(s_ex[i], s_ey[i], s_ez[i]); }

// What the hinge whose records are (h, r) asks of its four vertices.
ClothDeltas hinge_deltas(uvec4 h, uvec4 r, ClothStepParams q) {
    uint a = h.x & 0xffffu, b = h.x >> 16u, c = h.y & 0xffffu, e = h.y >> 16u;
    ClothConstraint k;
    k.v = uvec4(0u);
    k.rest = vec4(uintBitsToFloat(r.x), uintBitsToFloat(r.y), float(kClothHinge), 0.0);
    k.split_w = vec4(s_split[a].y, s_split[b].y, s_split[c].y, s_split[e].y);
    return cloth_constraint_deltas(k, s_x[a].xyz, s_x[b].xyz, s_x[c].xyz, s_x[e].xyz, q);
}

// Those corrections, each in its owned vertex's entry.
void put_hinge(uvec4 h, ClothDeltas d) {
    put(h.z & 0xffffu, d.d0);
    put(h.z >> 16u, d.d1);
    put(h.w & 0xffffu, d.d2);
    put(h.w >> 16u, d.d3);
}

void main() {
    // The step's constants are read where they are used (the constraints need three of them).
    float tether_limit = step_params[pc.slot].tether_limit;
    ClothTile t = tiles[gl_WorkGroupID.x];
    uint tid = gl_LocalInvocationIndex;
    // Everything that needs only the tile: its vertices (at most 3 per thread), this thread's owned
    // vertex and its first edge and hinge.
    const uint T = kClothTileThreads;
    uvec4 tv0 = tid < t.vertex_count ? tile_vertices[t.first_vertex + tid] : uvec4(0u);
    uvec4 tv1 = tid + T < t.vertex_count ? tile_vertices[t.first_vertex + tid + T] : uvec4(0u);
    uvec4 tv2 = tid + 2u * T < t.vertex_count ? tile_vertices[t.first_vertex + tid + 2u * T] : uvec4(0u);
    bool owner = tid < t.owned_count;
    uvec4 o0 = owner ? tile_owned[2u * (t.first_owned + tid)] : uvec4(0u);
    uvec4 o1 = owner ? tile_owned[2u * (t.first_owned + tid) + 1u] : uvec4(0u);
    uvec4 e_next = tid < t.edge_count ? tile_edges[t.first_edge + tid] : uvec4(0u);
    uvec4 h_next = tid < t.hinge_count ? tile_hinges[2u * (t.first_hinge + tid)] : uvec4(0u);
    uvec4 r_next = tid < t.hinge_count ? tile_hinges[2u * (t.first_hinge + tid) + 1u] : uvec4(0u);
    // Then what those name: the predictions, and for the owned vertex its start and its tether's anchor.
    vec4 x0 = tid < t.vertex_count ? in_a[tv0.x] : vec4(0.0);
    vec4 x1 = tid + T < t.vertex_count ? in_a[tv1.x] : vec4(0.0);
    vec4 x2 = tid + 2u * T < t.vertex_count ? in_a[tv2.x] : vec4(0.0);
    uint v = tv0.x;
    uint tether = o0.w;
    bool tethered = owner && tether_limit > 0.0 && tether != kClothNone;
    vec3 anchor = tethered ? in_a[tether].xyz : vec3(0.0);
    vec4 start = owner ? in_b[v] : vec4(0.0);
    // The owned vertices' triangles (for the wind's normal), a run of records, all loads issued at once:
    // read one by one after the constraints they held the tile's end on a load from memory per triangle.
    [[unroll]] for (uint k = 0u; k < kClothTileMaxTriangles / T; ++k) {
        uint i = tid + k * T;
        if (i < t.triangle_count) s_tri[i] = tile_triangles[t.first_triangle + i];
    }
    if (tid < t.vertex_count) {
        s_x[tid] = x0;
        s_split[tid] = vec2(uintBitsToFloat(tv0.y), uintBitsToFloat(tv0.z));
    }
    if (tid + T < t.vertex_count) {
        s_x[tid + T] = x1;
        s_split[tid + T] = vec2(uintBitsToFloat(tv1.y), uintBitsToFloat(tv1.z));
    }
    if (tid + 2u * T < t.vertex_count) {
        s_x[tid + 2u * T] = x2;
        s_split[tid + 2u * T] = vec2(uintBitsToFloat(tv2.y), uintBitsToFloat(tv2.z));
    }
    barrier();
    ClothStepParams q;  // what a constraint reads of the step
    q.relaxation = step_params[pc.slot].relaxation;
    q.stretch_compliance = step_params[pc.slot].stretch_compliance;
    q.bend_compliance = step_params[pc.slot].bend_compliance;
    for (uint i = tid; i < t.edge_count; i += T) {
        uvec4 e = e_next;
        if (i + T < t.edge_count) e_next = tile_edges[t.first_edge + i + T];
        uint a = e.x & 0xffffu, b = e.x >> 16u;
        ClothConstraint k;
        k.v = uvec4(0u);
        k.rest = vec4(uintBitsToFloat(e.z), 0.0, float(kClothEdge), 0.0);
        k.split_w = vec4(s_split[a].x, s_split[b].x, 0.0, 0.0);
        ClothDeltas d = cloth_constraint_deltas(k, s_x[a].xyz, s_x[b].xyz, s_x[a].xyz, s_x[b].xyz, q);
        put(e.y & 0xffffu, d.d0);
        put(e.y >> 16u, d.d1);
    }
    for (uint i = tid; i < t.hinge_count; i += T) {
        uvec4 h = h_next, r = r_next;
        if (i + T < t.hinge_count) {
            h_next = tile_hinges[2u * (t.first_hinge + i + T)];
            r_next = tile_hinges[2u * (t.first_hinge + i + T) + 1u];
        }
        put_hinge(h, hinge_deltas(h, r, q));
    }
    barrier();
    if (!owner) return;
    ClothStepParams p = P();
    vec4 x = x0;
    if (x.w <= 0.0) {  // pinned_small_step, with the start already loaded
        bool last = pc.substep + 1u >= p.substeps;
        vec3 rest_os = vec3(uintBitsToFloat(o1.y), uintBitsToFloat(o1.z), uintBitsToFloat(o1.w));
        out_a[v] = last ? x : vec4(cloth_pin_position(p, rest_os, pc.substep + 1u), x.w);
        out_b[v] = last ? start : x;
        return;
    }
    uint edges = o0.z & 0x7ffu, hinges = (o0.z >> 11u) & 0x7ffu, tri_count = o0.z >> 22u;
    vec3 sum_e = vec3(0.0), sum_h = vec3(0.0);
    for (uint i = 0u; i < edges; ++i) sum_e += entry_at(o0.x + i);
    for (uint i = edges; i < edges + hinges; ++i) sum_h += entry_at(o0.x + i);
    vec3 y = x.xyz + sum_e / float(max(edges, 1u)) + sum_h / float(max(hinges, 1u));
    if (tethered) y = cloth_tether(y, anchor, uintBitsToFloat(o1.x), p.tether_limit);
    vec3 normal = vec3(0.0);
    if (pc.substep + 1u < p.substeps) {
        for (uint i = 0u; i < tri_count; ++i) {
            uint tr = s_tri[o0.y + i];
            normal += cloth_triangle_normal(s_x[tr & 0xffu].xyz, s_x[(tr >> 8u) & 0xffu].xyz, s_x[tr >> 16u].xyz);
        }
        normal = sim_safe_normalize(normal, vec3(0.0));
    }
    // end_small_step, with the start already loaded.
    SimPair r = contacts(p, y, start.xyz, p.thickness_m);
    y = r.a.xyz;
    vec3 yp = r.b.xyz;
    if (pc.substep + 1u >= p.substeps) {
        out_a[v] = vec4(y, x.w);
        out_b[v] = vec4(yp, x.w);
        return;
    }
    out_a[v] = vec4(cloth_predict(p, y, yp, normal), x.w);
    out_b[v] = vec4(y, x.w);
}
