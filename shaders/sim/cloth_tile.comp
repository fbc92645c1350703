#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothTileThreads) in;

// Small step pc.substep (cloth_passes::substep) over one tile of the cloth (ClothTile, built by
// build_cloth_tiles): a workgroup brings the predictions of the tile's vertices (those it owns and the
// ring its edges and bending stencils reach) into shared memory, evaluates each edge touching an owned
// vertex once, keeping the correction of each owned slot in that vertex's entries, then every owned
// vertex adds its entries in its adjacency order (the CPU reference's order), sums its bending stencil
// over shared memory and ends the small step as cloth_substep.comp does. A cloth this size is bound by
// the latency of each thread's chain of dependent loads (engine/sim/README.md "Tiles"): every load that
// does not need shared memory (the tile's vertices, the owned vertex's record, start, frame, tether
// anchor and first bending groups, the thread's first edge) is issued before the first barrier, and each
// thread loads its next edge while it solves the current one.
shared vec4 s_x[kClothTileMaxVertices];
shared float s_split[kClothTileMaxVertices];
shared float s_ex[kClothTileMaxEntries];
shared float s_ey[kClothTileMaxEntries];
shared float s_ez[kClothTileMaxEntries];

void put(uint entry, vec4 d) {
    if (entry == kClothTileNoEntry) return;
    s_ex[entry] = d.x;
    s_ey[entry] = d.y;
    s_ez[entry] = d.z;
}

vec3 entry_at(uint i) { return vec3(s_ex[i], s_ey[i], s_ez[i]); }

// A group of 3 bending terms added to the stencil's sum, in order (cloth_passes::substep's).
vec3 bend_group(vec3 sum, uvec4 g, vec3 xv, uint terms) {
    sum += uintBitsToFloat(g.y) * (s_x[g.x & 0xffu].xyz - xv);
    if (terms > 1u) sum += uintBitsToFloat(g.z) * (s_x[(g.x >> 8u) & 0xffu].xyz - xv);
    if (terms > 2u) sum += uintBitsToFloat(g.w) * (s_x[(g.x >> 16u) & 0xffu].xyz - xv);
    return sum;
}

void main() {
    // The step's constants are read where they are used (the edges need three of them).
    float tether_limit = step_params[pc.slot].tether_limit;
    ClothTile t = tiles[gl_WorkGroupID.x];
    uint tid = gl_LocalInvocationIndex;
    // Everything that needs only the tile: its vertices (at most 3 per thread), this thread's owned
    // vertex and its first edge.
    const uint T = kClothTileThreads;
    uvec4 tv0 = tid < t.vertex_count ? tile_vertices[t.first_vertex + tid] : uvec4(0u);
    uvec4 tv1 = tid + T < t.vertex_count ? tile_vertices[t.first_vertex + tid + T] : uvec4(0u);
    uvec4 tv2 = tid + 2u * T < t.vertex_count ? tile_vertices[t.first_vertex + tid + 2u * T] : uvec4(0u);
    bool owner = tid < t.owned_count;
    uvec4 o0 = owner ? tile_owned[2u * (t.first_owned + tid)] : uvec4(0u);
    uvec4 o1 = owner ? tile_owned[2u * (t.first_owned + tid) + 1u] : uvec4(0u);
    uvec4 e_next = tid < t.edge_count ? tile_edges[t.first_edge + tid] : uvec4(0u);
    // Then what those name: the predictions, and for the owned vertex its start, its frame for the step,
    // its tether's anchor and its first bending groups.
    vec4 x0 = tid < t.vertex_count ? in_a[tv0.x] : vec4(0.0);
    vec4 x1 = tid + T < t.vertex_count ? in_a[tv1.x] : vec4(0.0);
    vec4 x2 = tid + 2u * T < t.vertex_count ? in_a[tv2.x] : vec4(0.0);
    uint v = tv0.x;
    uint tether = o0.w;
    bool tethered = owner && tether_limit > 0.0 && tether != kClothNone;
    vec3 anchor = tethered ? in_a[tether].xyz : vec3(0.0);
    vec4 start = owner ? in_b[v] : vec4(0.0);
    vec4 normal_now = owner ? frames[2u * v] : vec4(0.0);
    vec4 target = owner ? frames[2u * v + 1u] : vec4(0.0);
    uint terms = o0.z >> 11u;
    uvec4 b0 = terms > 0u ? tile_bend[o0.y] : uvec4(0u);
    uvec4 b1 = terms > 3u ? tile_bend[o0.y + 1u] : uvec4(0u);
    uvec4 b2 = terms > 6u ? tile_bend[o0.y + 2u] : uvec4(0u);
    uvec4 b3 = terms > 9u ? tile_bend[o0.y + 3u] : uvec4(0u);
    if (tid < t.vertex_count) {
        s_x[tid] = x0;
        s_split[tid] = uintBitsToFloat(tv0.y);
    }
    if (tid + T < t.vertex_count) {
        s_x[tid + T] = x1;
        s_split[tid + T] = uintBitsToFloat(tv1.y);
    }
    if (tid + 2u * T < t.vertex_count) {
        s_x[tid + 2u * T] = x2;
        s_split[tid + 2u * T] = uintBitsToFloat(tv2.y);
    }
    barrier();
    ClothStepParams q;  // what an edge reads of the step
    q.relaxation = step_params[pc.slot].relaxation;
    q.stretch_compliance = step_params[pc.slot].stretch_compliance;
    for (uint i = tid; i < t.edge_count; i += T) {
        uvec4 e = e_next;
        if (i + T < t.edge_count) e_next = tile_edges[t.first_edge + i + T];
        uint a = e.x & 0xffffu, b = e.x >> 16u;
        ClothConstraint k;
        k.v = uvec4(0u);
        k.rest = vec4(uintBitsToFloat(e.z), 1.0, float(kClothEdge), 0.0);
        k.split_w = vec4(s_split[a], s_split[b], 0.0, 0.0);
        SimPair d = cloth_edge_deltas(k, s_x[a].xyz, s_x[b].xyz, q);
        put(e.y & 0xffffu, d.a);
        put(e.y >> 16u, d.b);
    }
    barrier();
    if (!owner) return;
    ClothStepParams p = P();
    vec4 x = x0;
    if (x.w <= 0.0) {  // pinned_small_step, with the start already loaded
        bool last = pc.substep + 1u >= p.substeps;
        vec3 rest_os = vec3(uintBitsToFloat(o1.y), uintBitsToFloat(o1.z), uintBitsToFloat(o1.w));
        out_a[v] = last ? x : vec4(pin_place(p, v, rest_os, pc.substep + 1u), x.w);
        out_b[v] = last ? start : x;
        return;
    }
    uint edges = o0.z & 0x7ffu;
    vec3 sum_e = vec3(0.0);
    for (uint i = 0u; i < edges; ++i) sum_e += entry_at(o0.x + i);
    vec3 stencil = vec3(0.0);
    if (terms > 0u) stencil = bend_group(stencil, b0, x.xyz, terms);
    if (terms > 3u) stencil = bend_group(stencil, b1, x.xyz, terms - 3u);
    if (terms > 6u) stencil = bend_group(stencil, b2, x.xyz, terms - 6u);
    if (terms > 9u) stencil = bend_group(stencil, b3, x.xyz, terms - 9u);
    for (uint k = kClothTileBendGroupsAhead; 3u * k < terms; ++k) stencil = bend_group(stencil, tile_bend[o0.y + k], x.xyz, terms - 3u * k);
    vec3 y = x.xyz + sum_e / float(max(edges, 1u)) + cloth_bend_delta(stencil, target, x.w, p);
    if (tethered) y = cloth_tether(y, anchor, uintBitsToFloat(o1.x), p.tether_limit);
    vec3 normal = pc.substep + 1u >= p.substeps ? vec3(0.0) : normal_now.xyz;
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
