// A hair group's strand buffers (set kRenderSetStrands) and the base colour of a strand vertex, shared by
// the ribbon vertex shader (hair.vert) and the compute rasterizer's vertex pass (raster_vertices.comp).
// Expects `pc` (HairPush) declared before it is included.

layout(set = kRenderSetStrands, binding = kHairBindPositions, std430) readonly buffer Positions { vec4 positions[]; };
layout(set = kRenderSetStrands, binding = kHairBindStrandInfo, std430) readonly buffer Info { uvec2 strand_info[]; };
layout(set = kRenderSetStrands, binding = kHairBindRestLength, std430) readonly buffer Rest { float rest_length[]; };
layout(set = kRenderSetStrands, binding = kHairBindDepth, std430) readonly buffer Depth { float collision_depth[]; };

uint hash(uint x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}
float hash01(uint x) { return float(hash(x) >> 8) / 16777216.0; }

// The unlit colour of vertex k of `strand` (s = k / (n - 1) along it): root-to-tip colour with the
// strand's colour and brightness variation, or the frame's debug colouring.
vec3 strand_base_color(uint strand, uint k, float s) {
    uint n = pc.vertices_per_strand;
    uint base = strand * n;
    uvec2 info = strand_info[strand];
    vec3 color;
    uint debug = pc.debug_mode;
    if (debug == kHairDebugGuide) {
        uint id = info.y & kHairInfoIdMask;
        color = vec3(hash01(id * 3u + 1u), hash01(id * 3u + 2u), hash01(id * 3u + 3u));
        color = color * color * 0.9 + 0.02;  // saturated in linear space
    } else if (debug == kHairDebugStretch) {
        uint seg = min(k, n - 2u);
        float len = length(positions[base + seg + 1u].xyz - positions[base + seg].xyz);
        float rest = pc.has_rest_lengths == 1u ? rest_length[base + seg] : len;
        float stretch = rest > 0.0 ? len / rest : 1.0;
        float x = clamp((stretch - 1.0) / 0.1, -1.0, 1.0);
        color = x < 0.0 ? mix(vec3(1.0), vec3(0.1, 0.3, 1.0), -x) : mix(vec3(1.0), vec3(1.0, 0.1, 0.05), x);
    } else if (debug == kHairDebugDepth) {
        // In margins: <= 0 outside the margin (white; grey without depths), (0, 1] within it (yellow to
        // orange), > 1 inside the mesh (red, darkest at 2: one margin deep).
        float d = pc.has_collision_depth == 1u ? collision_depth[base + k] : -1.0;
        if (pc.has_collision_depth != 1u) color = vec3(0.45);
        else if (d <= 0.0) color = vec3(0.9);
        else if (d <= 1.0) color = mix(vec3(1.0, 0.9, 0.15), vec3(1.0, 0.45, 0.0), d);
        else color = mix(vec3(1.0, 0.05, 0.05), vec3(0.45, 0.0, 0.0), clamp(d - 1.0, 0.0, 1.0));
    } else if (debug == kHairDebugProblems) {
        color = (info.y & kHairInfoDegenerate) != 0u ? vec3(1.0, 0.1, 0.9)
              : (info.y & kHairInfoMovedOut) != 0u   ? vec3(1.0, 0.45, 0.05)
                                                     : vec3(0.35);
    } else if (debug == kHairDebugRootTip) {
        color = mix(vec3(0.02, 0.05, 0.35), vec3(1.0, 0.85, 0.1), s);
    } else {
        float tip_pct = max(pc.tip_percentage, 1e-4);
        float blend = clamp((s - (1.0 - tip_pct)) / tip_pct, 0.0, 1.0);
        color = mix(pc.root_color, pc.tip_color, blend);
        uint seed = info.x;
        float brightness = 1.0 + pc.brightness_variation * (hash01(seed) * 2.0 - 1.0);
        vec3 jitter = vec3(hash01(seed ^ 0x9e3779b9u), hash01(seed ^ 0x85ebca6bu), hash01(seed ^ 0xc2b2ae35u));
        color *= brightness * (1.0 + pc.color_variation * (jitter * 2.0 - 1.0));
        color = max(color, vec3(0.0));
    }
    return color;
}
