// One pixel's share of the compute hair rasterizer (raster_tiles.comp, raster_tiles_direct.comp): a
// segment's set-up from its two RasterVertex records, its fragment at a pixel centre, and the pixel's
// K-buffer and tail. Include after shared/hair_raster.h.
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
//     order of the strands or of the atomics that built the lists.

#ifdef TRESSEL_RASTER_PREVIEW
// The preview variant (FrameDesc::hair_preview, while the view moves): the nearest fragment alone in depth
// order, the rest in the tail. The K-buffer's upkeep is most of a pixel's work on a CPU driver.
const uint kRasterK = 1u;
#else
const uint kRasterK = kRasterLayers;
#endif
const uint kSegAxisY = 1u, kSegRoot = 2u, kSegTip = 4u, kSegSkip = 8u;

struct RasterSegment {
    vec4 line;    // a (pixels), unit direction a -> b
    vec4 span;    // length (pixels), half height on the minor axis at a and at b, minor per major
    vec2 depth;   // NDC depth at a and at b
    uvec2 ca;     // colour and alpha at a (packHalf2x16 pairs, as RasterVertex::color.xy)
    uvec2 cb;
    uint flags;   // kSeg*
    uint id;      // the segment's first vertex: ties in depth are broken by it
};

RasterSegment raster_segment(vec4 sa, uvec4 ca, vec4 sb, uvec4 cb, uint vi) {
    RasterSegment g;
    vec2 a = sa.xy, d = sb.xy - a;
    float len = length(d);
    uint flags = 0u;
    bool y_major = abs(d.y) > abs(d.x);
    if (y_major) flags |= kSegAxisY;
    if (len < 1e-6) flags |= kSegSkip;
    vec2 dm = y_major ? d.yx : d;                // (major, minor)
    float slope = len < 1e-6 ? 0.0 : dm.y / dm.x;
    float thick = len < 1e-6 ? 1.0 : len / abs(dm.x);
    if ((ca.z & kRasterRoot) != 0u) flags |= kSegRoot;
    if ((cb.z & kRasterTip) != 0u) flags |= kSegTip;
    g.line = vec4(a, len < 1e-6 ? vec2(0.0) : d / len);
    g.span = vec4(len, sa.w * thick, sb.w * thick, slope);
    g.depth = vec2(sa.z, sb.z);
    g.ca = ca.xy;
    g.cb = cb.xy;
    g.flags = flags;
    g.id = vi;
    return g;
}

// Fixed-point scale of the tail's sums: integer sums are exact in any order, so the image is the same
// bit for bit however the atomics ordered a cell's list.
const float kTailScale = 65536.0;

// The pixel's K-buffer (nearest first once sorted) and tail. An empty slot holds depth 2 (beyond the far
// plane), so it is always the first to be replaced, and what it hands to the tail has no alpha.
float kb_depth[kRasterK];
uint kb_id[kRasterK];
vec4 kb_color[kRasterK];   // rgb, alpha
uvec3 tail_rgb;
uint tail_alpha, tail_depth;

// (depth, id) ordering of fragments: nearer first, ties by segment.
bool nearer(float da, uint ia, float db, uint ib) { return da < db || (da == db && ia < ib); }

void pixel_begin() {
    [[unroll]] for (uint q = 0u; q < kRasterK; ++q) {
        kb_depth[q] = 2.0;
        kb_id[q] = 0xffffffffu;
        kb_color[q] = vec4(0.0);
    }
    tail_rgb = uvec3(0u);
    tail_alpha = 0u;
    tail_depth = 0u;
}

// A fragment (if hit) into the K-buffer in place of the farthest held one, which goes to the tail (or the
// fragment itself, when it is the farthest). Written without branches on purpose: a CPU driver runs every branch
// for its whole SIMD group anyway, and each variable a branch writes costs it a masked store.
void pixel_insert(bool hit, vec4 frag, float depth, uint id) {
    // The farthest held fragment, tracked by value: indexing the arrays with a variable would put them in
    // memory (per invocation on a CPU driver, local memory on a GPU).
    uint far = 0u;
    float far_depth = kb_depth[0];
    uint far_id = kb_id[0];
    [[unroll]] for (uint q = 1u; q < kRasterK; ++q) {
        bool farther = nearer(far_depth, far_id, kb_depth[q], kb_id[q]);
        far = farther ? q : far;
        far_depth = farther ? kb_depth[q] : far_depth;
        far_id = farther ? kb_id[q] : far_id;
    }
    far = nearer(depth, id, far_depth, far_id) ? far : kRasterK;   // kRasterK: the new fragment is the farthest
    far = hit ? far : kRasterK;
    vec4 out_frag = vec4(frag.rgb, hit ? frag.a : 0.0);   // no fragment: the tail gains nothing
    [[unroll]] for (uint q = 0u; q < kRasterK; ++q) {
        bool take = q == far;
        out_frag = take ? kb_color[q] : out_frag;
        kb_depth[q] = take ? depth : kb_depth[q];
        kb_id[q] = take ? id : kb_id[q];
        kb_color[q] = take ? frag : kb_color[q];
    }
    float a_out = min(out_frag.a, 0.9999);
    tail_rgb += uvec3(out_frag.rgb * a_out * kTailScale + 0.5);
    tail_alpha += uint(a_out * kTailScale + 0.5);
    uint od = uint(-log(1.0 - a_out) * kTailScale + 0.5);
    tail_depth = tail_depth > 0xf0000000u ? tail_depth : tail_depth + od;
}

// The segment's fragment at the pixel centre, if any, into the K-buffer or the tail.
void pixel_add(RasterSegment g, vec2 centre, float scene_depth) {
    uint f = g.flags;
    float s = dot(centre - g.line.xy, g.line.zw);   // pixels along the segment from a
    bool root = (f & kSegRoot) != 0u, tip = (f & kSegTip) != 0u;
    float len = max(g.span.x, 1e-6);
    float tc = clamp(s / len, 0.0, 1.0);
    bool y_major = (f & kSegAxisY) != 0u;
    vec2 am = y_major ? g.line.yx : g.line.xy;      // (major, minor) of a and of the pixel centre
    vec2 cm = y_major ? centre.yx : centre.xy;
    float vc = am.y + (cm.x - am.x) * g.span.w;
    float hw = mix(g.span.y, g.span.z, tc);
    float cover = min(cm.y + 0.5, vc + hw) - max(cm.y - 0.5, vc - hw);
    float depth = mix(g.depth.x, g.depth.y, tc);
    float along = (root ? clamp(s + 0.5, 0.0, 1.0) : 1.0) * (tip ? clamp(g.span.x - s + 0.5, 0.0, 1.0) : 1.0);
    vec4 ca = vec4(unpackHalf2x16(g.ca.x), unpackHalf2x16(g.ca.y));
    vec4 cb = vec4(unpackHalf2x16(g.cb.x), unpackHalf2x16(g.cb.y));
    vec4 col = mix(ca, cb, tc);
    float alpha = min(cover, 1.0) * along * col.a;
    bool hit = (f & kSegSkip) == 0u && s >= (root ? -0.5 : 0.0) && s < (tip ? g.span.x + 0.5 : g.span.x) &&
               cover > 0.0 && depth <= scene_depth && alpha >= 1.0 / 4096.0;
    if (hit) pixel_insert(hit, vec4(col.rgb, alpha), depth, g.id);
}

// What still shows through the pixel's fragments so far.
float pixel_transmittance() {
    float t = exp(-float(tail_depth) / kTailScale);
    [[unroll]] for (uint q = 0u; q < kRasterK; ++q) t *= 1.0 - kb_color[q].a;
    return t;
}

// Sorts the K nearest by depth (a fixed-size network) and blends them front to back, then the tail
// behind them as one layer (its mean colour, its combined opacity): premultiplied colour and coverage
// as half floats, the record raster_composite.frag reads.
uvec2 pixel_resolve() {
    [[unroll]] for (uint a = 0u; a < kRasterK; ++a)
        [[unroll]] for (uint b = 0u; b + 1u < kRasterK - a; ++b)
            if (nearer(kb_depth[b + 1u], kb_id[b + 1u], kb_depth[b], kb_id[b])) {
                float td = kb_depth[b];
                kb_depth[b] = kb_depth[b + 1u];
                kb_depth[b + 1u] = td;
                uint ti = kb_id[b];
                kb_id[b] = kb_id[b + 1u];
                kb_id[b + 1u] = ti;
                vec4 tcl = kb_color[b];
                kb_color[b] = kb_color[b + 1u];
                kb_color[b + 1u] = tcl;
            }
    vec3 c = vec3(0.0);
    float trans = 1.0;
    [[unroll]] for (uint q = 0u; q < kRasterK; ++q) {
        c += trans * kb_color[q].rgb * kb_color[q].a;
        trans *= 1.0 - kb_color[q].a;
    }
    if (tail_alpha > 0u) {
        float tail_t = exp(-float(tail_depth) / kTailScale);
        c += trans * (vec3(tail_rgb) / float(tail_alpha)) * (1.0 - tail_t);
        trans *= tail_t;
    }
    return uvec2(packHalf2x16(c.rg), packHalf2x16(vec2(c.b, 1.0 - trans)));
}
