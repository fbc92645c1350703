#version 450
// Compute hair rasterizer: one workgroup per 8 x 8 pixel tile, one thread per pixel. The tile's segments
// are read depth bin by depth bin, front to back, 64 at a time into shared memory, and every pixel
// evaluates each against its centre:
//   - coverage is analytic: along the segment's major axis each pixel column (or row) is one sample, and
//     across it the fibre's extent on the minor axis (its half width / cos of its slope) overlaps the
//     pixel's [-0.5, 0.5]; summed over a column that is exactly the fibre's width, so a fibre of any
//     width, far below a pixel included, keeps its coverage without multisampling and without the
//     ripple a point-sampled or perpendicular-distance filter leaves on slanted lines. A segment owns
//     the pixels whose centres project onto [0, length) along it, so collinear joints are neither
//     doubled nor gapped whichever axis each segment calls major; a strand's root and tip ends are box
//     filtered along it.
//   - fragments behind the opaque meshes (their depth, one sample per pixel) are dropped;
//   - the nearest kRasterLayers fragments are kept in a per-pixel K-buffer and blended in depth order,
//     the rest accumulate into one tail layer (summed premultiplied colour, summed alpha and summed
//     optical depth -log(1 - alpha), in fixed point), so the image is the same bit for bit whatever the
//     order of the strands or of the atomics that built the lists;
//   - once every pixel of the tile is opaque after a depth bin, the farther bins are skipped.
// Writes premultiplied colour and coverage per pixel (half floats) for raster_composite.frag.
#include "shared/render.h"
#include "shared/hair_raster.h"
layout(push_constant, std430) uniform PushBlock { RasterPush rp; };
#include "render/raster_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

const uint K = kRasterLayers;
const uint kAxisY = 1u, kRoot = 2u, kTip = 4u, kSkip = 8u;

shared vec4 s_line[64];    // a (pixels), unit direction a -> b
shared vec4 s_span[64];    // length (pixels), half height on the minor axis at a and at b, minor per major
shared vec2 s_depth[64];   // NDC depth at a and at b
shared vec4 s_ca[64], s_cb[64];
shared uint s_flags[64];
shared uint s_vertex[64];  // the segment's first vertex: ties in depth are broken by it
shared uint s_open;

// Fixed-point scale of the tail's sums: integer sums are exact in any order, so the image is the same
// bit for bit however the atomics ordered a cell's list.
const float kTailScale = 65536.0;

// (depth, id) ordering of fragments: nearer first, ties by segment.
bool nearer(float da, uint ia, float db, uint ib) { return da < db || (da == db && ia < ib); }

void load_segment(uint slot, uint vi) {
    RasterVertex va = raster_vertices[vi], vb = raster_vertices[vi + 1u];
    vec2 a = va.screen.xy, d = vb.screen.xy - a;
    float len = length(d);
    uint flags = 0u;
    bool y_major = abs(d.y) > abs(d.x);
    if (y_major) flags |= kAxisY;
    if (len < 1e-6) flags |= kSkip;
    vec2 dm = y_major ? d.yx : d;                // (major, minor)
    float slope = len < 1e-6 ? 0.0 : dm.y / dm.x;
    float thick = len < 1e-6 ? 1.0 : len / abs(dm.x);
    if ((va.color.z & kRasterRoot) != 0u) flags |= kRoot;
    if ((vb.color.z & kRasterTip) != 0u) flags |= kTip;
    s_line[slot] = vec4(a, len < 1e-6 ? vec2(0.0) : d / len);
    s_span[slot] = vec4(len, va.screen.w * thick, vb.screen.w * thick, slope);
    s_depth[slot] = vec2(va.screen.z, vb.screen.z);
    s_ca[slot] = vec4(unpackHalf2x16(va.color.x), unpackHalf2x16(va.color.y));
    s_cb[slot] = vec4(unpackHalf2x16(vb.color.x), unpackHalf2x16(vb.color.y));
    s_flags[slot] = flags;
    s_vertex[slot] = vi;
}

void main() {
    uint lid = gl_LocalInvocationIndex;
    uvec2 tile = gl_WorkGroupID.xy;
    uvec2 px = tile * kRasterTile + gl_LocalInvocationID.xy;
    bool inside = px.x < rp.width && px.y < rp.height;
    vec2 centre = vec2(px) + 0.5;
    float scene_depth = inside ? texelFetch(mesh_depth, ivec2(px), 0).r : 0.0;

    uint cell0 = (tile.y * rp.tiles_x + tile.x) * kRasterDepthBins;
    // A tile no segment touches: transparent, and no further work (most of the screen, usually).
    if (cell_offsets[cell0] == cell_offsets[cell0 + kRasterDepthBins]) {
        if (inside) hair_image[px.y * rp.width + px.x] = uvec2(0u);
        return;
    }
    float kd[K];
    uint ki[K];
    vec4 kc[K];   // rgb, alpha
    for (uint q = 0u; q < K; ++q) {
        kd[q] = 2.0;
        ki[q] = 0xffffffffu;
        kc[q] = vec4(0.0);
    }
    uint held = 0u;
    // The tail in fixed point: sum of premultiplied colour, sum of alpha, optical depth -log(1 - alpha).
    uvec3 tail_rgb = uvec3(0u);
    uint tail_alpha = 0u, tail_depth = 0u;

    for (uint bin = 0u; bin < kRasterDepthBins; ++bin) {
        uint start = min(cell_offsets[cell0 + bin], rp.list_capacity);
        uint end = min(cell_offsets[cell0 + bin + 1u], rp.list_capacity);
        // Empty bins cost no barrier (uniform over the workgroup: every thread reads the same offsets).
        if (start == end) continue;
        for (uint first = start; first < end; first += 64u) {
            if (first + lid < end) load_segment(lid, tile_list[first + lid]);
            barrier();
            uint count = min(64u, end - first);
            for (uint j = 0u; j < count; ++j) {
                uint f = s_flags[j];
                if ((f & kSkip) != 0u) continue;
                vec4 line = s_line[j];
                vec4 span = s_span[j];
                float s = dot(centre - line.xy, line.zw);   // pixels along the segment from a
                bool root = (f & kRoot) != 0u, tip = (f & kTip) != 0u;
                if (s < (root ? -0.5 : 0.0) || s >= (tip ? span.x + 0.5 : span.x)) continue;
                float tc = clamp(s / span.x, 0.0, 1.0);
                bool y_major = (f & kAxisY) != 0u;
                vec2 am = y_major ? line.yx : line.xy;      // (major, minor) of a and of the pixel centre
                vec2 cm = y_major ? centre.yx : centre.xy;
                float vc = am.y + (cm.x - am.x) * span.w;
                float hw = mix(span.y, span.z, tc);
                float cover = min(cm.y + 0.5, vc + hw) - max(cm.y - 0.5, vc - hw);
                if (cover <= 0.0) continue;
                vec2 dz = s_depth[j];
                float depth = mix(dz.x, dz.y, tc);
                if (depth > scene_depth) continue;
                float along = 1.0;
                if (root) along *= clamp(s + 0.5, 0.0, 1.0);
                if (tip) along *= clamp(span.x - s + 0.5, 0.0, 1.0);
                vec4 col = mix(s_ca[j], s_cb[j], tc);
                float alpha = min(cover, 1.0) * along * col.a;
                if (alpha < 1.0 / 4096.0) continue;
                vec4 frag = vec4(col.rgb, alpha);
                uint id = s_vertex[j];
                if (held < K) {
                    for (uint q = 0u; q < K; ++q)
                        if (q == held) {
                            kd[q] = depth;
                            ki[q] = id;
                            kc[q] = frag;
                        }
                    ++held;
                    continue;
                }
                uint far = 0u;
                for (uint q = 1u; q < K; ++q)
                    if (nearer(kd[far], ki[far], kd[q], ki[q])) far = q;
                vec4 out_frag = frag;
                for (uint q = 0u; q < K; ++q)
                    if (q == far && nearer(depth, id, kd[q], ki[q])) {
                        out_frag = kc[q];
                        kd[q] = depth;
                        ki[q] = id;
                        kc[q] = frag;
                    }
                float a_out = min(out_frag.a, 0.9999);
                tail_rgb += uvec3(out_frag.rgb * a_out * kTailScale + 0.5);
                tail_alpha += uint(a_out * kTailScale + 0.5);
                uint od = uint(-log(1.0 - a_out) * kTailScale + 0.5);
                tail_depth = tail_depth > 0xf0000000u ? tail_depth : tail_depth + od;
            }
            barrier();
        }
        // Early out: every pixel of the tile opaque (transmittance below 1/512) after this bin.
        float t_all = exp(-float(tail_depth) / kTailScale);
        for (uint q = 0u; q < K; ++q) t_all *= 1.0 - kc[q].a;
        barrier();
        if (lid == 0u) s_open = 0u;
        barrier();
        if (inside && t_all > 1.0 / 512.0) s_open = 1u;
        barrier();
        if (s_open == 0u) break;
    }

    if (!inside) return;
    // Sort the K nearest by depth (insertion into a fixed-size network) and blend them front to back,
    // then the tail behind them as one layer: its mean colour, its combined opacity.
    for (uint a = 0u; a < K; ++a)
        for (uint b = 0u; b + 1u < K - a; ++b)
            if (nearer(kd[b + 1u], ki[b + 1u], kd[b], ki[b])) {
                float td = kd[b];
                kd[b] = kd[b + 1u];
                kd[b + 1u] = td;
                uint ti = ki[b];
                ki[b] = ki[b + 1u];
                ki[b + 1u] = ti;
                vec4 tcl = kc[b];
                kc[b] = kc[b + 1u];
                kc[b + 1u] = tcl;
            }
    vec3 c = vec3(0.0);
    float trans = 1.0;
    for (uint q = 0u; q < K; ++q) {
        c += trans * kc[q].rgb * kc[q].a;
        trans *= 1.0 - kc[q].a;
    }
    if (tail_alpha > 0u) {
        float tail_t = exp(-float(tail_depth) / kTailScale);
        c += trans * (vec3(tail_rgb) / float(tail_alpha)) * (1.0 - tail_t);
        trans *= tail_t;
    }
    hair_image[px.y * rp.width + px.x] = uvec2(packHalf2x16(c.rg), packHalf2x16(vec2(c.b, 1.0 - trans)));
}
