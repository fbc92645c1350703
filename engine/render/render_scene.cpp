#include "render/render_scene.h"

#include <cmath>

#include <glm/gtc/packing.hpp>

#include "render/graphics.h"
#include "render/render_resources.h"
#include "shared/render.h"

namespace tressel::render {

using gpu_shared::MeshVertex;

namespace {

Result<gpu::Image> upload_rgba_f16(gpu::Device& device, const std::vector<glm::vec4>& texels, int size,
                                   const std::string& name) {
    std::vector<uint16_t> half(texels.size() * 4);
    for (size_t i = 0; i < texels.size(); ++i)
        for (int c = 0; c < 4; ++c) half[i * 4 + c] = glm::packHalf1x16(texels[i][c]);
    return upload_texture(device, VK_FORMAT_R16G16B16A16_SFLOAT, uint32_t(size), uint32_t(size), half.data(),
                          half.size() * 2, name);
}

}  // namespace

RenderScene::RenderScene(gpu::Device& device, const SharedResources& shared, int marschner_lut_size)
    : device_(&device), shared_(&shared), lut_size_(marschner_lut_size) {}

Result<gpu::DescriptorSet> RenderScene::object_set(const gpu::Buffer& vertices, const gpu::Image* texture) const {
    auto set = shared_->object.allocate();
    if (!set) return set.error();
    set->bind_buffer(gpu_shared::kObjectBindVertices, vertices);
    set->bind_image(gpu_shared::kObjectBindTexture, texture ? *texture : shared_->placeholder_texture,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, shared_->linear_clamp.get());
    return set;
}

Result<uint32_t> RenderScene::add_mesh(const Mesh& mesh_ws, MeshStyle style, glm::vec3 color) {
    if (mesh_ws.positions.empty() || mesh_ws.indices.empty())
        return make_error(ErrorCode::InvalidArgument, "renderer: mesh '" + mesh_ws.name + "' has no triangles");
    std::vector<glm::vec3> normals = mesh_ws.normals;
    if (normals.size() != mesh_ws.positions.size()) {
        normals.assign(mesh_ws.positions.size(), glm::vec3(0.0f));
        for (size_t t = 0; t + 2 < mesh_ws.indices.size(); t += 3) {
            uint32_t a = mesh_ws.indices[t], b = mesh_ws.indices[t + 1], c = mesh_ws.indices[t + 2];
            glm::vec3 n = glm::cross(mesh_ws.positions[b] - mesh_ws.positions[a], mesh_ws.positions[c] - mesh_ws.positions[a]);
            normals[a] += n;
            normals[b] += n;
            normals[c] += n;
        }
    }
    MeshGpu m;
    std::vector<MeshVertex> verts(mesh_ws.positions.size());
    for (size_t i = 0; i < verts.size(); ++i) {
        glm::vec3 n = normals[i];
        float len = glm::length(n);
        verts[i].position_ws = glm::vec4(mesh_ws.positions[i], 1.0f);
        verts[i].normal_ws = glm::vec4(len > 0.0f ? n / len : glm::vec3(0.0f, 1.0f, 0.0f), 0.0f);
        m.min_m = i ? glm::min(m.min_m, mesh_ws.positions[i]) : mesh_ws.positions[i];
        m.max_m = i ? glm::max(m.max_m, mesh_ws.positions[i]) : mesh_ws.positions[i];
    }
    for (uint32_t idx : mesh_ws.indices)
        if (idx >= verts.size())
            return make_error(ErrorCode::InvalidArgument, "renderer: mesh '" + mesh_ws.name + "' has an index out of range");
    auto vb = device_->create_buffer_with(std::span<const MeshVertex>(verts), 0, "mesh vertices " + mesh_ws.name);
    if (!vb) return vb.error();
    auto ib = device_->create_buffer_with(std::span<const uint32_t>(mesh_ws.indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                          "mesh indices " + mesh_ws.name);
    if (!ib) return ib.error();
    m.vertices = std::move(*vb);
    m.indices = std::move(*ib);
    m.index_count = static_cast<uint32_t>(mesh_ws.indices.size());
    m.style = style;
    if (color == glm::vec3(0.0f)) {
        color = style == MeshStyle::Opaque             ? glm::vec3(0.5f, 0.42f, 0.38f)
                : style == MeshStyle::CollisionOverlay ? glm::vec3(0.2f, 0.75f, 0.9f)
                                                       : glm::vec3(1.0f, 0.55f, 0.15f);
    }
    m.color = color;
    auto set = object_set(m.vertices, nullptr);
    if (!set) return set.error();
    m.set = std::move(*set);
    meshes_.push_back(std::move(m));
    return static_cast<uint32_t>(meshes_.size() - 1);
}

Status RenderScene::set_grid(glm::vec3 centre_m, double half_extent_m, double spacing_m) {
    if (!(half_extent_m > 0.0) || !(spacing_m > 0.0) || half_extent_m / spacing_m > 1000.0)
        return make_error(ErrorCode::InvalidArgument,
                          "renderer grid: half extent and spacing must be > 0 with at most 1000 lines per side");
    std::vector<MeshVertex> lines;
    int n = static_cast<int>(std::floor(half_extent_m / spacing_m));
    float h = float(n * spacing_m);
    for (int i = -n; i <= n; ++i) {
        float o = float(i * spacing_m);
        glm::vec4 c = i == 0 ? glm::vec4(0.45f, 0.45f, 0.5f, 0.9f) : glm::vec4(0.3f, 0.3f, 0.33f, 0.6f);
        lines.push_back({glm::vec4(centre_m + glm::vec3(o, 0.0f, -h), 1.0f), c});
        lines.push_back({glm::vec4(centre_m + glm::vec3(o, 0.0f, h), 1.0f), c});
        lines.push_back({glm::vec4(centre_m + glm::vec3(-h, 0.0f, o), 1.0f), c});
        lines.push_back({glm::vec4(centre_m + glm::vec3(h, 0.0f, o), 1.0f), c});
    }
    auto grid = upload_lines(lines, "grid lines");
    if (!grid) return grid.error();
    grid_ = std::move(*grid);
    return {};
}

Result<LinesGpu> RenderScene::upload_lines(std::span<const MeshVertex> lines, const char* name) const {
    auto vb = device_->create_buffer_with(lines, 0, name);
    if (!vb) return vb.error();
    auto set = object_set(*vb, nullptr);
    if (!set) return set.error();
    LinesGpu out;
    out.vertices = std::move(*vb);
    out.count = static_cast<uint32_t>(lines.size());
    out.set = std::move(*set);
    return out;
}

Result<uint32_t> RenderScene::add_hair(const HairDesc& desc) {
    if (!desc.positions || !desc.strand_info)
        return make_error(ErrorCode::InvalidArgument, "renderer: a hair group needs a positions and a strand_info buffer");
    if (desc.vertices_per_strand < 2 || desc.strand_count == 0)
        return make_error(ErrorCode::InvalidArgument,
                          "renderer: a hair group needs at least one strand of at least 2 vertices");
    VkDeviceSize verts = VkDeviceSize(desc.strand_count) * desc.vertices_per_strand;
    if (desc.positions->size() < verts * 16)
        return make_error(ErrorCode::InvalidArgument, "renderer: positions buffer '" + desc.positions->name() +
                                                          "' is smaller than strand_count x vertices_per_strand vec4");
    if (desc.strand_info->size() < VkDeviceSize(desc.strand_count) * 8)
        return make_error(ErrorCode::InvalidArgument, "renderer: strand_info buffer is smaller than strand_count uvec2");
    if (desc.rest_lengths && desc.rest_lengths->size() < verts * 4)
        return make_error(ErrorCode::InvalidArgument, "renderer: rest_lengths buffer is smaller than one float per vertex");
    if (desc.collision_depth && desc.collision_depth->size() < verts * 4)
        return make_error(ErrorCode::InvalidArgument, "renderer: collision_depth buffer is smaller than one float per vertex");
    auto g = std::make_unique<HairGroupGpu>();
    g->desc = desc;
    auto strands = shared_->strands.allocate();
    if (!strands) return strands.error();
    g->strands = std::move(*strands);
    const gpu::Buffer& none = shared_->placeholder_buffer;
    g->strands.bind_buffer(gpu_shared::kHairBindPositions, *desc.positions);
    g->strands.bind_buffer(gpu_shared::kHairBindStrandInfo, *desc.strand_info);
    g->strands.bind_buffer(gpu_shared::kHairBindRestLength, desc.rest_lengths ? *desc.rest_lengths : none);
    g->strands.bind_buffer(gpu_shared::kHairBindDepth, desc.collision_depth ? *desc.collision_depth : none);
    auto shading = shared_->hair_shading.allocate();
    if (!shading) return shading.error();
    g->shading = std::move(*shading);
    for (uint32_t b : {gpu_shared::kHairShadingBindLutM, gpu_shared::kHairShadingBindLutN, gpu_shared::kHairShadingBindLutTrt})
        g->shading.bind_image(b, shared_->placeholder_texture, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                              shared_->linear_clamp.get());
    hair_.push_back(std::move(g));
    return static_cast<uint32_t>(hair_.size() - 1);
}

HairGroupGpu& RenderScene::hair_group(uint32_t index) {
    TRESSEL_ASSERT(index < hair_.size(), "hair group index must come from add_hair (and no clear_hair since)");
    return *hair_[index];
}

Status RenderScene::update_luts() {
    for (auto& g : hair_)
        if (g->desc.visible) TRESSEL_TRY(update_luts(*g));
    return {};
}

Status RenderScene::update_luts(HairGroupGpu& g) {
    if (g.desc.shading.model != ShadingModel::Marschner) return {};
    MarschnerParams p = MarschnerParams::from(g.desc.shading);
    if (g.lut_params && *g.lut_params == p) return {};
    MarschnerLuts luts = compute_marschner_luts(p, lut_size_);
    ++lut_computations_;
    auto m = upload_rgba_f16(*device_, luts.m, luts.size, "marschner M");
    if (!m) return m.error();
    auto n = upload_rgba_f16(*device_, luts.n, luts.size, "marschner N");
    if (!n) return n.error();
    auto t = upload_rgba_f16(*device_, luts.trt, luts.size, "marschner N_TRT");
    if (!t) return t.error();
    // A fresh set: the previous one may still be referenced by a frame in flight.
    auto set = shared_->hair_shading.allocate();
    if (!set) return set.error();
    g.lut_m = std::move(*m);
    g.lut_n = std::move(*n);
    g.lut_trt = std::move(*t);
    g.shading = std::move(*set);
    VkSampler linear = shared_->linear_clamp.get();
    g.shading.bind_image(gpu_shared::kHairShadingBindLutM, g.lut_m, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, linear);
    g.shading.bind_image(gpu_shared::kHairShadingBindLutN, g.lut_n, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, linear);
    g.shading.bind_image(gpu_shared::kHairShadingBindLutTrt, g.lut_trt, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, linear);
    g.lut_params = p;
    return {};
}

Status RenderScene::set_slice(const SliceView& slice) {
    if (slice.width_px <= 0 || slice.height_px <= 0 ||
        slice.rgba.size() != size_t(slice.width_px) * size_t(slice.height_px) * 4)
        return make_error(ErrorCode::InvalidArgument, "renderer: the slice image is empty or its size does not match");
    if (slice.edge_lines_m.size() % 2 != 0 || slice.edge_colours.size() != slice.edge_lines_m.size() / 2)
        return make_error(ErrorCode::InvalidArgument, "renderer: the slice's edge lines need two ends and one colour each");
    auto tex = upload_texture(*device_, VK_FORMAT_R8G8B8A8_SRGB, uint32_t(slice.width_px), uint32_t(slice.height_px),
                              slice.rgba.data(), slice.rgba.size(), "sdf slice");
    if (!tex) return tex.error();
    // Image row 0 is the top (v max): texture t = 0 at the top corners.
    std::vector<MeshVertex> quad = {
        {glm::vec4(slice.corners_m[0], 1.0f), glm::vec4(0.0f, 1.0f, 0.0f, 0.0f)},
        {glm::vec4(slice.corners_m[1], 1.0f), glm::vec4(1.0f, 1.0f, 0.0f, 0.0f)},
        {glm::vec4(slice.corners_m[2], 1.0f), glm::vec4(0.0f, 0.0f, 0.0f, 0.0f)},
        {glm::vec4(slice.corners_m[3], 1.0f), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f)},
    };
    auto vb = device_->create_buffer_with(std::span<const MeshVertex>(quad), 0, "sdf slice quad");
    if (!vb) return vb.error();
    SliceGpu s;
    s.texture = std::move(*tex);
    s.vertices = std::move(*vb);
    auto set = object_set(s.vertices, &s.texture);
    if (!set) return set.error();
    s.set = std::move(*set);
    // The grid's bounds box: 12 edges.
    glm::vec3 lo = slice.grid_min_m, hi = slice.grid_max_m;
    std::vector<MeshVertex> box;
    glm::vec4 c(0.95f, 0.85f, 0.3f, 0.9f);
    auto corner = [&](int i) { return glm::vec4(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z, 1.0f); };
    for (int i = 0; i < 8; ++i)
        for (int bit : {1, 2, 4})
            if (!(i & bit)) {
                box.push_back({corner(i), c});
                box.push_back({corner(i | bit), c});
            }
    auto bounds = upload_lines(box, "sdf bounds box");
    if (!bounds) return bounds.error();
    s.bounds_box = std::move(*bounds);
    if (!slice.edge_lines_m.empty()) {
        std::vector<MeshVertex> edges;
        edges.reserve(slice.edge_lines_m.size());
        for (size_t i = 0; i + 1 < slice.edge_lines_m.size(); i += 2)
            for (size_t k = i; k < i + 2; ++k)
                edges.push_back({glm::vec4(slice.edge_lines_m[k], 1.0f), slice.edge_colours[i / 2]});
        auto lines = upload_lines(edges, "mesh problem edges");
        if (!lines) return lines.error();
        s.mesh_edges = std::move(*lines);
    }
    s.valid = true;
    slice_ = std::move(s);
    return {};
}

}  // namespace tressel::render
