#include "groom/region.h"

#include <cmath>

#include "groom/det_math.h"
#include "groom/image.h"
#include "groom/scalp_paint.h"

namespace tressel {

double triangle_area_m2(const Mesh& mesh, uint32_t t) {
    const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]), b(mesh.positions[mesh.indices[3 * t + 1]]),
        c(mesh.positions[mesh.indices[3 * t + 2]]);
    return 0.5 * glm::length(glm::cross(b - a, c - a));
}

Result<RegionInfo> evaluate_region(const Mesh& mesh, const ScalpRegion& region, const std::filesystem::path& base_dir, const ScalpPaint* paint) {
    const size_t nv = mesh.vertex_count(), nt = mesh.triangle_count();
    RegionInfo info;
    info.vertex_in.assign(nv, 0);
    std::vector<uint8_t> tri_in(nt, 0);

    if (region.type == RegionType::Whole) {
        info.vertex_in.assign(nv, 1);
        tri_in.assign(nt, 1);
    } else if (region.type == RegionType::Cap) {
        if (!(glm::length(region.axis) > 1e-12))
            return make_error(ErrorCode::InvalidArgument, "scalp.region.axis must be a non-zero direction for a cap region");
        if (!(region.angle_deg > 0.0 && region.angle_deg <= 180.0))
            return make_error(ErrorCode::InvalidArgument, "scalp.region.angle_deg " + std::to_string(region.angle_deg) +
                                                              " is outside (0, 180]");
        glm::dvec3 lo(1e300), hi(-1e300);
        for (const auto& p : mesh.positions) {
            lo = glm::min(lo, glm::dvec3(p));
            hi = glm::max(hi, glm::dvec3(p));
        }
        const glm::dvec3 centre = (lo + hi) * 0.5, axis = glm::normalize(region.axis);
        const double cos_max = det::cos(region.angle_deg * (det::kPi / 180.0));
        auto inside = [&](const glm::dvec3& p) {
            const glm::dvec3 d = p - centre;
            const double len = glm::length(d);
            return len > 0.0 && glm::dot(d, axis) >= cos_max * len;
        };
        for (size_t v = 0; v < nv; ++v) info.vertex_in[v] = inside(glm::dvec3(mesh.positions[v]));
        for (size_t t = 0; t < nt; ++t) {
            const glm::dvec3 c = (glm::dvec3(mesh.positions[mesh.indices[3 * t]]) + glm::dvec3(mesh.positions[mesh.indices[3 * t + 1]]) +
                                  glm::dvec3(mesh.positions[mesh.indices[3 * t + 2]])) / 3.0;
            tri_in[t] = inside(c);
        }
    } else if (region.type == RegionType::Paint) {
        if (!paint || paint->mask.empty())
            return make_error(ErrorCode::InvalidArgument, "scalp.region: a paint region reads the painted mask, but mesh \"" + mesh.name +
                                                              "\" has no mask painted (scalp.paint)");
        TRESSEL_TRY(check_paint_mesh(*paint, mesh, "scalp.paint"));
        const float thr = float(region.threshold);
        for (size_t v = 0; v < nv; ++v) info.vertex_in[v] = paint->mask[v] > thr;
        for (size_t t = 0; t < nt; ++t) tri_in[t] = paint_triangle_mean(paint->mask, mesh, uint32_t(t), 1.0f) > thr;
    } else {
        if (region.channel < 0 || region.channel > 3)
            return make_error(ErrorCode::InvalidArgument, "scalp.region.channel " + std::to_string(region.channel) +
                                                              " must be 0 (r), 1 (g), 2 (b) or 3 (a)");
        const int ch = region.channel;
        const float thr = float(region.threshold);
        if (region.type == RegionType::VertexColor) {
            if (!mesh.has_colors())
                return make_error(ErrorCode::InvalidArgument, "scalp.region: a vertex_color region needs vertex colours, but mesh \"" +
                                                                  mesh.name + "\" has none");
            for (size_t v = 0; v < nv; ++v) info.vertex_in[v] = mesh.colors[v][ch] > thr;
            for (size_t t = 0; t < nt; ++t) {
                const float m = (mesh.colors[mesh.indices[3 * t]][ch] + mesh.colors[mesh.indices[3 * t + 1]][ch] +
                                 mesh.colors[mesh.indices[3 * t + 2]][ch]) / 3.0f;
                tri_in[t] = m > thr;
            }
        } else {
            if (!mesh.has_uvs())
                return make_error(ErrorCode::InvalidArgument, "scalp.region: a uv_mask region needs texture coordinates, but mesh \"" +
                                                                  mesh.name + "\" has no UVs");
            if (region.mask_path.empty())
                return make_error(ErrorCode::InvalidArgument, "scalp.region.mask_path is empty for a uv_mask region");
            std::filesystem::path p(region.mask_path);
            if (p.is_relative() && !base_dir.empty()) p = base_dir / p;
            auto img = load_uv_image(p);
            if (!img.ok()) return make_error(img.error().code, "scalp.region.mask_path: " + img.error().message);
            for (size_t v = 0; v < nv; ++v) info.vertex_in[v] = img->sample(mesh.uvs[v], ch) > thr;
            for (size_t t = 0; t < nt; ++t) {
                const glm::vec2 uv = (mesh.uvs[mesh.indices[3 * t]] + mesh.uvs[mesh.indices[3 * t + 1]] +
                                      mesh.uvs[mesh.indices[3 * t + 2]]) / 3.0f;
                tri_in[t] = img->sample(uv, ch) > thr;
            }
        }
    }
    for (size_t t = 0; t < nt; ++t)
        if (tri_in[t]) {
            info.triangles.push_back(uint32_t(t));
            info.area_m2 += triangle_area_m2(mesh, uint32_t(t));
        }
    info.weighted_area_m2 = info.area_m2;
    if (paint && !paint->density.empty()) {
        TRESSEL_TRY(check_paint_mesh(*paint, mesh, "scalp.paint"));
        info.triangle_density.reserve(info.triangles.size());
        info.weighted_area_m2 = 0.0;
        for (uint32_t t : info.triangles) {
            const float d = paint_triangle_mean(paint->density, mesh, t, 1.0f);
            info.triangle_density.push_back(d);
            info.weighted_area_m2 += triangle_area_m2(mesh, t) * double(d);
        }
    }
    return info;
}

}  // namespace tressel
