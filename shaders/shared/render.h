// The renderer's structs, shared by engine/render (C++) and shaders/render (GLSL); its descriptor sets and
// binding numbers are in shared/render_bindings.h.
// Conventions: world space is metres, Y up; every *_ws vector is world space. Light directions are the
// direction from the surface TOWARD the light (unit). Colours are linear RGB. Flags are uint 1 (on) / 0 (off).
//
// Layout: FrameUniforms is a std140 uniform block, the push constants and MeshVertex are std430. A vec3 is
// always followed by a 4-byte scalar, which both rules place in the vec3's last 4 bytes, so C++ (glm::vec3,
// 12 bytes) and GLSL agree; the offset checks below hold C++ to that.
#ifndef TRESSEL_SHARED_RENDER_H
#define TRESSEL_SHARED_RENDER_H
#include "shared/common.h"
#include "shared/render_bindings.h"

#ifdef __cplusplus
#include <cstddef>
namespace tressel::gpu_shared {
using mat4 = glm::mat4;
using vec3 = glm::vec3;
}
#define TRESSEL_RENDER_CHECK_OFFSET(T, field, bytes) \
    static_assert(offsetof(T, field) == (bytes), #T "::" #field " must sit at its GLSL offset");
#else
#define TRESSEL_RENDER_CHECK_OFFSET(T, field, bytes)
#endif

TRESSEL_SHARED_BEGIN

// Opacity shadow maps (seed 002, Kim and Neumann 2001) as deep opacity layers: layer i holds the summed
// opacity of hair in front of z0 + (i + 1) * layer along the key light, z0 being the nearest hair at that
// texel (from the depth pass). Two RGBA targets, four layers each.
TRESSEL_CONST(uint, kOpacityLayers, 8);

TRESSEL_CONST(uint, kHairModelKajiyaKay, 0);
TRESSEL_CONST(uint, kHairModelMarschner, 1);

TRESSEL_CONST(uint, kHairDebugNone, 0);
TRESSEL_CONST(uint, kHairDebugGuide, 1);          // colour hashed from the strand's guide id
TRESSEL_CONST(uint, kHairDebugStretch, 2);        // segment length / rest length: blue 0.9, white 1, red 1.1
TRESSEL_CONST(uint, kHairDebugDepth, 3);          // depth in the collision margin (sim_sdf_margin_depth): white outside, yellow -> orange within, red inside the mesh
TRESSEL_CONST(uint, kHairDebugRootTip, 4);        // the parameter along the strand: dark blue root -> yellow tip
TRESSEL_CONST(uint, kHairDebugProblems, 5);       // guides moved out of the scalp orange, degenerate magenta, the rest grey
// Flags in the high bits of a strand's guide id (HairDesc::strand_info .y); the id is the rest.
TRESSEL_CONST(uint, kHairInfoMovedOut, 0x80000000u);
TRESSEL_CONST(uint, kHairInfoDegenerate, 0x40000000u);
TRESSEL_CONST(uint, kHairInfoIdMask, 0x3fffffffu);

// Set 0, binding kRenderBindFrame: one per frame.
struct FrameUniforms {
    mat4 view_proj;         // world -> clip (Vulkan clip space, y down)
    mat4 light_view_proj;   // world -> key light clip (orthographic); z in [0, 1] over the light box
    vec3 eye_ws;            // camera position (m)
    uint shadows;           // hair shadows on: visible hair exists and the frame asks for shadows
    vec3 key_dir_ws;        // toward the key light
    float opacity_layer;    // thickness of one opacity layer in key-light depth units (z over the light box)
    vec3 key_color;         // colour x intensity
    float pad0;
    vec3 fill_dir_ws;       // toward the fill light
    float pad1;
    vec3 fill_color;        // colour x intensity
    float pad2;
    vec3 ambient;
    float pad3;
    vec2 viewport_px;       // target width, height (pixels)
    vec2 inv_viewport_px;   // 1 / width, 1 / height
};
TRESSEL_CHECK_SIZE(FrameUniforms, 240)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, light_view_proj, 64)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, eye_ws, 128)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, shadows, 140)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, key_dir_ws, 144)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, opacity_layer, 156)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, key_color, 160)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, fill_dir_ws, 176)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, fill_color, 192)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, ambient, 208)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, viewport_px, 224)
TRESSEL_RENDER_CHECK_OFFSET(FrameUniforms, inv_viewport_px, 232)

// Push constants of the strand pipelines (ribbons and shadow maps; 128 bytes, the Vulkan guaranteed
// minimum): one hair group's shading (TressFX parameters, render/renderer.h Shading) and draw mode.
struct HairPush {
    vec3 root_color;
    float opacity;               // [0, 1]
    vec3 tip_color;
    float tip_percentage;        // fraction of the strand, at the tip, over which root blends to tip colour
    float kd;                    // Kajiya-Kay diffuse (also the Marschner multiple-scattering term)
    float ks1;                   // primary specular strength
    float ex1;                   // primary specular exponent
    float ks2;                   // secondary specular strength
    float ex2;                   // secondary specular exponent
    float spec_shift;            // tangent shift of the two lobes along the ribbon normal
    float color_variation;       // per-strand colour jitter, fraction
    float brightness_variation;  // per-strand brightness jitter, fraction
    float root_half_width_m;     // ribbon half width at the root (the fibre radius)
    float tip_half_width_m;      // ribbon half width at the tip
    float shadow_alpha;          // opacity of one strand in the opacity shadow maps, [0, 1)
    float lut_scale;             // Marschner: scale of the lookup-texture lobes
    uint vertices_per_strand;
    uint strand_count;
    uint model;                  // kHairModel*
    uint debug_mode;             // kHairDebug*
    uint shadows;                // shadowed by the opacity maps
    uint has_rest_lengths;       // kHairBindRestLength holds the group's rest lengths (else a placeholder)
    uint has_collision_depth;    // kHairBindDepth holds the group's collision depths (else a placeholder)
    uint light_pass;             // drawing into the key light's shadow maps: ribbons face the light
    uint raster_vertex_base;     // compute rasterizer: this group's first record in its vertex buffer
    uint lod_strands;            // compute rasterizer: strands drawn, a prefix of the group's
    uint lod_vertices;           // compute rasterizer: vertices drawn per strand (evenly spaced, >= 2)
    float lod_width_scale;       // compute rasterizer: width factor that keeps coverage at lod_strands
};
TRESSEL_CHECK_SIZE(HairPush, 128)
TRESSEL_RENDER_CHECK_OFFSET(HairPush, opacity, 12)
TRESSEL_RENDER_CHECK_OFFSET(HairPush, tip_color, 16)
TRESSEL_RENDER_CHECK_OFFSET(HairPush, tip_percentage, 28)
TRESSEL_RENDER_CHECK_OFFSET(HairPush, kd, 32)
TRESSEL_RENDER_CHECK_OFFSET(HairPush, root_half_width_m, 64)
TRESSEL_RENDER_CHECK_OFFSET(HairPush, vertices_per_strand, 80)
TRESSEL_RENDER_CHECK_OFFSET(HairPush, shadows, 96)
TRESSEL_RENDER_CHECK_OFFSET(HairPush, light_pass, 108)

// Set 1, binding kObjectBindVertices: the vertices of meshes, lines and the slice quad.
struct MeshVertex {
    vec4 position_ws;       // xyz metres; w 1
    vec4 normal_ws;         // meshes: xyz unit normal, w 0; lines: rgba colour; slice quad: xy texture coordinate
};
TRESSEL_CHECK_SIZE(MeshVertex, 32)

// Push constants of the mesh, overlay, line and slice pipelines: one drawn object.
struct MeshPush {
    vec3 color;             // linear albedo (unlit: the colour drawn)
    float opacity;          // < 1: translucent overlay
    float rim;              // rim light strength
    uint receives_shadows;  // shadowed by the hair's opacity maps
    uint unlit;             // drawn in its colour, unshaded (wireframes)
    uint pad0;
};
TRESSEL_CHECK_SIZE(MeshPush, 32)
TRESSEL_RENDER_CHECK_OFFSET(MeshPush, opacity, 12)
TRESSEL_RENDER_CHECK_OFFSET(MeshPush, rim, 16)

TRESSEL_SHARED_END
#endif
