// The renderer's structs and bindings, shared by engine/render (C++) and shaders/render (GLSL).
// Conventions: world space is metres, Y up; every *_ws vector is world space. Light directions are the
// direction from the surface TOWARD the light (unit). Colours are linear RGB.
#ifndef TRESSEL_SHARED_RENDER_H
#define TRESSEL_SHARED_RENDER_H
#include "shared/common.h"

#ifdef __cplusplus
namespace tressel::gpu_shared {
using mat4 = glm::mat4;
using vec3 = glm::vec3;
}
#endif

TRESSEL_SHARED_BEGIN

// Set 0 of every graphics pipeline: the frame uniforms and the shadow maps.
TRESSEL_CONST(uint, kRenderBindFrame, 0);         // uniform buffer: FrameUniforms
TRESSEL_CONST(uint, kRenderBindShadowDepth, 1);   // sampler2D: nearest hair depth from the key light
TRESSEL_CONST(uint, kRenderBindOpacity0, 2);      // sampler2D: opacity layers 0..3
TRESSEL_CONST(uint, kRenderBindOpacity1, 3);      // sampler2D: opacity layers 4..7
// Set 1 of the hair pipelines.
TRESSEL_CONST(uint, kHairBindPositions, 0);       // vec4 per vertex, strand-major, xyz metres (world)
TRESSEL_CONST(uint, kHairBindStrandInfo, 1);      // uvec2 per strand: x seed, y guide id
TRESSEL_CONST(uint, kHairBindRestLength, 2);      // float per vertex: rest length of segment k -> k+1 (m)
TRESSEL_CONST(uint, kHairBindDepth, 3);           // float per vertex: collision depth (m, > 0 inside)
TRESSEL_CONST(uint, kHairBindLutM, 4);            // sampler2D: Marschner M_R, M_TT, M_TRT, cos(theta_d)
TRESSEL_CONST(uint, kHairBindLutN, 5);            // sampler2D: Marschner N_TT rgb, N_R
TRESSEL_CONST(uint, kHairBindLutTrt, 6);          // sampler2D: Marschner N_TRT rgb
// Set 1 of the mesh, line and slice pipelines.
TRESSEL_CONST(uint, kMeshBindVertices, 0);        // MeshVertex per vertex (world space)
TRESSEL_CONST(uint, kSliceBindTexture, 1);        // sampler2D: the SDF slice colour image

// Opacity shadow maps (seed 002, Kim and Neumann 2001) as deep opacity layers: layer i holds the summed
// opacity of hair in front of z0 + (i + 1) * layer_m along the key light, z0 being the nearest hair
// at that texel (from the depth pass). Two RGBA targets, four layers each.
TRESSEL_CONST(uint, kOpacityLayers, 8);

TRESSEL_CONST(uint, kHairModelKajiyaKay, 0);
TRESSEL_CONST(uint, kHairModelMarschner, 1);

TRESSEL_CONST(uint, kHairDebugNone, 0);
TRESSEL_CONST(uint, kHairDebugGuide, 1);          // colour hashed from the strand's guide id
TRESSEL_CONST(uint, kHairDebugStretch, 2);        // segment length / rest length: blue 0.9, white 1, red 1.1
TRESSEL_CONST(uint, kHairDebugDepth, 3);          // collision depth: white 0 -> red at 1 fibre radius x 4

struct FrameUniforms {
    mat4 view_proj;         // world -> clip (Vulkan clip space, y down)
    mat4 light_view_proj;   // world -> key light clip (orthographic); z in [0, 1] over the light box
    vec4 eye_ws;            // xyz camera position; w unused
    vec4 key_dir;           // xyz toward the key light; w: shadows on (1) / off (0)
    vec4 key_color;         // rgb colour x intensity
    vec4 fill_dir;          // xyz toward the fill light
    vec4 fill_color;        // rgb colour x intensity
    vec4 ambient;           // rgb
    vec4 viewport;          // width px, height px, 1/width, 1/height
    vec4 shadow;            // x: layer thickness in light depth units; y: light box depth (m);
                            // z: opacity -> optical depth scale; w: hair shadow on meshes (1/0)
};
TRESSEL_CHECK_SIZE(FrameUniforms, 256)

// Push constants of the hair pipelines (128 bytes, the Vulkan guaranteed minimum).
struct HairPush {
    vec4 root_color;        // rgb linear; a: opacity
    vec4 tip_color;         // rgb linear; a: tip percentage (fraction of the strand blending root -> tip)
    vec4 kajiya;            // kd, ks1, ex1, ks2
    vec4 kajiya2;           // ex2, spec_shift, colour variation, brightness variation
    vec4 width;             // x: root half width (m); y: tip half width (m); z: shadow alpha; w: fibre spacing
    uvec4 counts;           // x: vertices per strand; y: strand count; z: model; w: debug mode
    uvec4 flags;            // x: shadows on; y: has rest lengths; z: has depth; w: 0
    vec4 marschner;         // x: LUT intensity scale; yzw unused
};
TRESSEL_CHECK_SIZE(HairPush, 128)

struct MeshVertex {
    vec4 position_ws;       // xyz metres; w 1
    vec4 normal_ws;         // xyz unit normal (lines: rgba colour); w 0
};
TRESSEL_CHECK_SIZE(MeshVertex, 32)

struct MeshPush {
    vec4 color;             // rgb linear albedo; a: opacity (< 1: translucent overlay)
    vec4 params;            // x: rim strength; y: receives hair shadows (1/0); z: unlit (1/0); w: 0
};
TRESSEL_CHECK_SIZE(MeshPush, 32)

TRESSEL_SHARED_END
#endif
