// The offscreen renderer: meshes (Lambert + ambient + rim, optional wireframe), collision meshes and
// primitive colliders as translucent overlays, a ground grid, hair ribbons expanded on the GPU from
// strand buffers (Kajiya-Kay or Marschner per hair group, debug colourings), deep opacity shadow maps
// from the key light falling on hair and meshes, and the SDF slice plane. Renders into an MSAA target
// resolved to an sRGB image that the editor shows and headless callers read back.
//
// Renderer is the facade the engine uses; the drawing is done by passes behind it (render_pass.h):
// shadow maps, meshes, hair (the class RendererDesc::hair_renderer names), overlays. README.md in this
// folder describes them.
//
//   auto r = Renderer::create(device, {.width = 1280, .height = 720});
//   r->add_mesh(head_ws, MeshStyle::Opaque);
//   r->add_hair({.positions = &sim_positions, ...});        // the simulation's buffer, drawn in place
//   auto pixels = r->render_to_rgba(frame);                  // or record() into the caller's command buffer
//
// Threading and lifetime: one thread (the device's). Buffers named in a HairDesc are not owned: they must
// outlive the hair group (remove it or clear_hair() first). record() writes the frame uniforms in place,
// so the previous frame recorded by this renderer must have completed before the next record().
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "io/mesh.h"
#include "render/camera.h"
#include "render/graphics.h"
#include "render/marschner.h"
#include "scene/scene_types.h"

namespace tressel::render {

// The class that draws the hair (render/hair_pass.h); the other passes stay the same whichever it is.
enum class HairRenderer {
    Ribbons,         // camera-facing ribbons through the fixed-function rasterizer (render/ribbon_pass.h)
    ComputeRaster,   // compute shaders: screen tiles, analytic coverage, order-independent blending, level
                     // of detail (render/raster_pass.h)
};

// How the compute rasterizer's tile pass reads its segments (render/raster_pass.h).
enum class RasterTileKernel {
    Auto,     // Direct on CPU drivers, Shared on GPUs
    Shared,   // raster_tiles.comp: each segment set up once per tile in shared memory (GPUs)
    Direct,   // raster_tiles_direct.comp: every pixel reads through texel buffers, no barriers (CPU drivers)
};

struct RendererDesc {
    uint32_t width = 1280, height = 720;      // target size, pixels
    uint32_t samples = 4;                     // MSAA samples: 1, 2, 4 or 8 (falls back to what the device has)
    uint32_t shadow_size = 1024;              // opacity shadow map resolution, texels
    int marschner_lut_size = 64;              // Marschner lookup texture size, texels per side
    HairRenderer hair_renderer = HairRenderer::ComputeRaster;
    RasterTileKernel raster_tile_kernel = RasterTileKernel::Auto;
};

// What the hair pass drew in the last recorded frame (the level of detail in use), for the Stats panel and
// benchmarks. The ribbon pass always draws everything.
struct HairLodStats {
    uint64_t strands_total = 0;        // visible groups' strands
    uint64_t strands_drawn = 0;        // the prefixes drawn
    uint32_t vertices_per_strand = 0;  // drawn vertices per strand (the largest over groups)
    uint32_t vertices_total = 0;       // the groups' own vertices per strand (the largest)
    double width_scale = 1.0;          // strand width factor keeping coverage (the largest)
    uint64_t segments = 0;             // segments binned
    uint64_t tile_entries = 0;         // (segment, tile) entries the last completed frame needed
    uint64_t tile_capacity = 0;        // entries the tile lists hold now
};

struct HairGroupGpu;
class HairPassBase;
class MainTarget;
class RenderPassBase;
class RenderScene;
struct SharedResources;

enum class MeshStyle {
    Opaque,            // lit, receives hair shadows
    CollisionOverlay,  // translucent cyan, drawn over everything opaque
    Collider,          // translucent orange (primitive colliders)
};

enum class HairDebug { None, Guide, Stretch, Depth, RootTip, Problems };

// A hair group drawn straight from GPU strand buffers (the simulation's output contract).
struct HairDesc {
    const gpu::Buffer* positions = nullptr;        // required: vec4 per vertex, strand-major, xyz world metres
    const gpu::Buffer* strand_info = nullptr;      // required: uvec2 per strand (seed, guide id | kHairInfo* flags)
    const gpu::Buffer* rest_lengths = nullptr;     // optional: float per vertex, rest length of segment k -> k+1 (m)
    const gpu::Buffer* collision_depth = nullptr;  // optional: float per vertex, depth in the collision margin
                                                   // in margins (gpu_shared::sim_sdf_margin_depth)
    uint32_t strand_count = 0;
    uint32_t vertices_per_strand = 0;              // >= 2
    Shading shading;
    glm::vec3 bounds_min_m{0.0f}, bounds_max_m{0.0f};  // conservative world bounds (shadow map framing)
    // The longest strand (metres): the level of detail spaces drawn vertices along it. 0 = unknown, the
    // bounds' diagonal stands in for it.
    float strand_length_m = 0.0f;
    bool visible = true;
};

// An SDF slice ready to draw: its colour image (sRGB RGBA8, top row first) and its placement.
struct SliceView {
    std::vector<uint8_t> rgba;
    int width_px = 0, height_px = 0;
    // World corners of the image: [0] bottom-left (u min, v min), [1] bottom-right, [2] top-left, [3] top-right.
    std::array<glm::vec3, 4> corners_m{};
    glm::vec3 grid_min_m{0.0f}, grid_max_m{0.0f};  // the grid's bounds box (cell faces)
    // What the image shows, for its legend and probe: the plane (axis 0/1/2 = x/y/z, its cell index and world
    // coordinate), the cell size, the |distance| at full colour, the margin contour (negative: none) and the
    // spacing of the darker contours (0: none), all metres.
    int axis = 2, index = 0, cells_along = 0;
    double plane_m = 0.0, cell_size_m = 0.0, range_m = 0.0, margin_m = -1.0, isoline_m = 0.0;
    // The field's diagnosis (sdf/sdf_check.h), when it was checked: cavities and sign jumps in the whole
    // field and in this plane (the image stripes them), and the mesh's problem edges, drawn through
    // everything as segment pairs with a colour each (open red, non-manifold yellow, inconsistently wound
    // magenta).
    bool checked = false;
    uint64_t cavity_cells = 0, cavity_regions = 0, sign_jump_cells = 0, sign_jump_regions = 0;
    uint64_t plane_cavity_cells = 0, plane_sign_jump_cells = 0;
    uint64_t open_edges = 0, non_manifold_edges = 0, inconsistent_edges = 0;
    bool inside_out = false;
    std::vector<glm::vec3> edge_lines_m;
    std::vector<glm::vec4> edge_colours;   // one per segment
    // A hair density slice (make_density_slice_view) instead of a field's: the density at full colour and
    // the target contour's, hairs per square centimetre (cell_size_m is then the volume grid's).
    bool density = false;
    double density_full_per_cm2 = 0.0, density_target_per_cm2 = 0.0;
};

struct FrameDesc {
    OrbitCamera camera;
    Lighting lighting;
    HairDebug debug = HairDebug::None;
    bool shadows = true;              // and each group's shading.shadows
    bool show_grid = true;
    bool show_collision = true;       // CollisionOverlay meshes
    bool show_colliders = true;       // Collider meshes
    bool show_slice = true;           // the slice set with set_slice(), if any
    bool wireframe = false;           // opaque meshes' edges over their shading
    glm::vec3 background{0.09f, 0.095f, 0.11f};   // linear RGB
    // Hair level of detail (compute rasterizer): strands are dropped as they shrink below a pixel, the rest
    // widened to keep coverage, and vertices dropped with distance. bias > 1 keeps more detail, < 1 less.
    double hair_lod_bias = 1.0;
    bool hair_lod = true;             // false: every strand and vertex, whatever the size on screen
    double hair_lod_fraction = 0.0;   // > 0: draw this fraction of the strands (overrides the automatic choice)
    double hair_lod_max_fraction = 1.0;  // the automatic choice draws at most this fraction (the editor's preview)
    // A cheaper compute hair pass for frames while the view moves: the nearest fragment of each pixel in
    // depth order and the rest blended as one layer (instead of the nearest kRasterLayers).
    bool hair_preview = false;
    // False when no hair group's positions changed since the last frame (the simulation did not step, no
    // regrow): the shadow maps are then kept when their light and shading are the same too.
    bool hair_moved = true;
    double shadow_layer_m = 0.0;      // opacity layer thickness; 0 = hair bounds diagonal / 40
};

class Renderer {
public:
    static Result<std::unique_ptr<Renderer>> create(gpu::Device& device, const RendererDesc& desc);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // New target size (pixels, each > 0). InvalidArgument for a zero or oversized extent.
    Status resize(uint32_t width, uint32_t height);
    uint32_t width() const;
    uint32_t height() const;
    uint32_t samples() const;

    // Meshes in world space (metres). Returns the mesh's index.
    Result<uint32_t> add_mesh(const Mesh& mesh_ws, MeshStyle style, glm::vec3 color = glm::vec3(0.0f));
    void clear_meshes();
    // The vertex buffer of mesh `index` (MeshVertex per vertex), for a pass that moves it on the device (a
    // skinned body); nullptr when there is no such mesh. Its world bounds are set_mesh_bounds'.
    gpu::Buffer* mesh_vertices(uint32_t index);
    void set_mesh_bounds(uint32_t index, glm::vec3 min_m, glm::vec3 max_m);
    // The ground grid at height y_m, covering [-half_extent_m, half_extent_m] around centre (x, z).
    Status set_grid(glm::vec3 centre_m, double half_extent_m, double spacing_m);

    Result<uint32_t> add_hair(const HairDesc& desc);
    // Changes a group's shading (e.g. its model); Marschner lookup textures are recomputed on the next
    // record() when their parameters changed.
    void set_hair_shading(uint32_t index, const Shading& shading);
    void set_hair_visible(uint32_t index, bool visible);
    // New conservative world bounds of a group (e.g. grown once the hair moves): frames the shadow maps.
    void set_hair_bounds(uint32_t index, glm::vec3 min_m, glm::vec3 max_m);
    size_t hair_count() const;
    void clear_hair();
    // Number of times Marschner lookup textures were computed (tests check recomputation).
    uint64_t lut_computations() const;
    // The level of detail the hair pass used in the last record().
    HairLodStats hair_lod() const;

    Status set_slice(const SliceView& slice);
    void clear_slice();

    // Records the frame: the shadow maps, then the main target (meshes, hair, overlays); the resolved image
    // ends in SHADER_READ_ONLY_OPTIMAL. `timestamps` (optional, >= 7 passes), in this order: shadow_depth,
    // shadow_opacity (shadow pass), [hair_bin, hair_raster (compute rasterizer)], meshes (mesh pass), hair
    // (hair pass), overlays (overlay pass).
    Status record(gpu::CommandBuffer& cmd, const FrameDesc& frame, gpu::TimestampQueries* timestamps = nullptr);
    // record() plus a copy into a readback buffer, submitted and waited for: sRGB RGBA8, top row first.
    Result<std::vector<uint8_t>> render_to_rgba(const FrameDesc& frame);

    const gpu::Image& color_image() const;

private:
    Renderer();
    Status init(gpu::Device& device, const RendererDesc& desc);
    Status update_frame_uniforms(const FrameDesc& frame);

    gpu::Device* device_ = nullptr;
    RendererDesc desc_;
    std::unique_ptr<SharedResources> shared_;
    std::unique_ptr<RenderScene> scene_;
    std::unique_ptr<MainTarget> target_;
    gpu::Buffer frame_ubo_;
    gpu::DescriptorSet frame_set_;
    std::vector<std::unique_ptr<RenderPassBase>> passes_;   // in recording order
    HairPassBase* hair_pass_ = nullptr;                      // one of passes_
};

// Framing helpers for headless renders.
struct SceneBounds {
    glm::vec3 min_m{std::numeric_limits<float>::max()}, max_m{-std::numeric_limits<float>::max()};
    void add(glm::vec3 p) {
        min_m = glm::min(min_m, p);
        max_m = glm::max(max_m, p);
    }
    bool empty() const { return min_m.x > max_m.x; }
};

// A UV sphere or a capsule (world metres) as a triangle mesh with normals, for drawing colliders.
Mesh make_collider_mesh(const Collider& collider, int segments = 24);

// Light direction TOWARD the light from a scene Light (which stores the direction light travels).
glm::vec3 toward_light(const Light& light);

}  // namespace tressel::render
