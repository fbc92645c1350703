// What the renderer draws, as the engine handed it over (Renderer::add_mesh, add_hair, set_grid,
// set_slice): meshes, hair groups, the ground grid and the SDF slice, each with its GPU buffers and its
// descriptor sets (shared/render_bindings.h). Passes read it through FrameContext::scene; they keep their
// own per-object state, if any, themselves.
//
// Threading and lifetime: the device's thread. Buffers named in a HairDesc are not owned (renderer.h).
// Replacing or clearing content retires its GPU objects through the device's deferred destruction, so a
// frame in flight keeps what it uses.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "gpu/device.h"
#include "io/mesh.h"
#include "render/marschner.h"
#include "render/renderer.h"
#include "shared/render.h"

namespace tressel::render {

struct SharedResources;

struct MeshGpu {
    gpu::Buffer vertices, indices;     // MeshVertex (world space); uint32 triangle list
    uint32_t index_count = 0;
    MeshStyle style = MeshStyle::Opaque;
    glm::vec3 color{0.7f};             // linear RGB
    gpu::DescriptorSet set;            // set kRenderSetObject
    glm::vec3 min_m{0.0f}, max_m{0.0f};  // world bounds
};

// Line segments: pairs of MeshVertex whose normal_ws holds the RGBA colour.
struct LinesGpu {
    gpu::Buffer vertices;
    uint32_t count = 0;                // vertices (2 per segment); 0: nothing to draw
    gpu::DescriptorSet set;            // set kRenderSetObject
};

struct SliceGpu {
    gpu::Buffer vertices;              // 4 MeshVertex corners, a triangle strip; normal_ws.xy: texture coordinate
    gpu::Image texture;                // sRGB RGBA8
    gpu::DescriptorSet set;            // set kRenderSetObject, with the texture
    LinesGpu bounds_box;               // the SDF grid's bounds: 12 edges
    LinesGpu mesh_edges;               // SliceView::edge_lines_m in their colours (may be empty)
    bool valid = false;
};

struct HairGroupGpu {
    HairDesc desc;
    gpu::DescriptorSet strands;        // set kRenderSetStrands: the group's strand buffers
    gpu::DescriptorSet shading;        // set kRenderSetHairShading: its Marschner lookup textures
    gpu::Image lut_m, lut_n, lut_trt;
    std::optional<MarschnerParams> lut_params;  // those the textures hold; none: placeholders bound
};

class RenderScene {
public:
    RenderScene(gpu::Device& device, const SharedResources& shared, int marschner_lut_size);

    // Renderer::add_mesh; the same index.
    Result<uint32_t> add_mesh(const Mesh& mesh_ws, MeshStyle style, glm::vec3 color);
    void clear_meshes() { meshes_.clear(); }
    gpu::Buffer* mesh_vertices(uint32_t index) { return index < meshes_.size() ? &meshes_[index].vertices : nullptr; }
    void set_mesh_bounds(uint32_t index, glm::vec3 min_m, glm::vec3 max_m) {
        if (index < meshes_.size()) meshes_[index].min_m = min_m, meshes_[index].max_m = max_m;
    }
    Status set_grid(glm::vec3 centre_m, double half_extent_m, double spacing_m);
    Result<uint32_t> add_hair(const HairDesc& desc);
    // The group `index` returned by add_hair (asserted).
    HairGroupGpu& hair_group(uint32_t index);
    void clear_hair() { hair_.clear(); }
    Status set_slice(const SliceView& slice);
    void clear_slice() { slice_ = SliceGpu(); }

    // (Re)computes the lookup textures of every visible Marschner group whose parameters changed.
    Status update_luts();
    uint64_t lut_computations() const { return lut_computations_; }

    const std::vector<MeshGpu>& meshes() const { return meshes_; }
    const std::vector<std::unique_ptr<HairGroupGpu>>& hair() const { return hair_; }
    const LinesGpu& grid() const { return grid_; }
    const SliceGpu& slice() const { return slice_; }

private:
    Status update_luts(HairGroupGpu& group);
    Result<gpu::DescriptorSet> object_set(const gpu::Buffer& vertices, const gpu::Image* texture) const;
    // A line list (MeshVertex pairs, normal_ws the colour) uploaded with its object set.
    Result<LinesGpu> upload_lines(std::span<const gpu_shared::MeshVertex> lines, const char* name) const;

    gpu::Device* device_;
    const SharedResources* shared_;
    int lut_size_;
    uint64_t lut_computations_ = 0;
    std::vector<MeshGpu> meshes_;
    std::vector<std::unique_ptr<HairGroupGpu>> hair_;
    LinesGpu grid_;
    SliceGpu slice_;
};

}  // namespace tressel::render
