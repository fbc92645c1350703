#include "render/hair_data.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "groom/follow.h"

namespace tressel::render {

namespace {
void finish(RenderStrands& s) {
    uint32_t n = s.vertices_per_strand;
    s.rest_lengths_m.assign(s.positions_m.size(), 0.0f);
    s.bounds_min_m = glm::vec3(std::numeric_limits<float>::max());
    s.bounds_max_m = glm::vec3(-std::numeric_limits<float>::max());
    for (size_t st = 0; st < s.strand_info.size(); ++st) {
        size_t base = st * n;
        for (uint32_t k = 0; k + 1 < n; ++k)
            s.rest_lengths_m[base + k] = glm::length(glm::vec3(s.positions_m[base + k + 1] - s.positions_m[base + k]));
        s.rest_lengths_m[base + n - 1] = s.rest_lengths_m[base + n - 2];
    }
    for (auto& p : s.positions_m) {
        s.bounds_min_m = glm::min(s.bounds_min_m, glm::vec3(p));
        s.bounds_max_m = glm::max(s.bounds_max_m, glm::vec3(p));
    }
}
}  // namespace

Result<RenderStrands> strands_from_groom(const GroomResult& groom, uint32_t n, bool include_guides,
                                         bool include_follows) {
    if (!is_gpu_vertex_count(n))
        return make_error(ErrorCode::InvalidArgument,
                          "render strands: vertices per strand must be 4, 8, 16, 32 or 64, got " + std::to_string(n));
    if (groom.guides.strand_count() == 0)
        return make_error(ErrorCode::InvalidArgument, "render strands: the groom has no guide strands");
    auto resampled = resample_strands(groom.guides, n);
    if (!resampled) return resampled.error();
    const Strands& g = *resampled;
    RenderStrands out;
    out.vertices_per_strand = n;
    if (include_guides) {
        for (size_t i = 0; i < g.strand_count(); ++i) {
            for (glm::vec3 p : g.strand(i)) out.positions_m.push_back(glm::vec4(p, 1.0f));
            out.strand_info.push_back({i < g.seeds.size() ? g.seeds[i] : uint32_t(i), uint32_t(i)});
        }
    }
    if (include_follows && groom.follows.size() > 0) {
        Strands f = evaluate_follows(groom.follows, g, groom.guide_frames);
        for (size_t i = 0; i < f.strand_count(); ++i) {
            for (glm::vec3 p : f.strand(i)) out.positions_m.push_back(glm::vec4(p, 1.0f));
            uint32_t seed = i < groom.follows.seeds.size() ? groom.follows.seeds[i] : uint32_t(i);
            out.strand_info.push_back({seed, groom.follows.descriptors[i].guides.x});
        }
    }
    if (out.strand_info.empty())
        return make_error(ErrorCode::InvalidArgument, "render strands: neither guides nor follow hairs were included");
    finish(out);
    return out;
}

RenderStrands synthetic_strands(uint32_t count, uint32_t n, glm::vec3 centre_m, float radius_m, float length_m) {
    RenderStrands out;
    n = std::max(n, 2u);
    out.vertices_per_strand = n;
    out.positions_m.reserve(size_t(count) * n);
    const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
    for (uint32_t i = 0; i < count; ++i) {
        double y = 1.0 - (i + 0.5) / count;  // upper hemisphere
        double r = std::sqrt(std::max(0.0, 1.0 - y * y));
        double a = golden * i;
        glm::vec3 nrm(float(r * std::cos(a)), float(y), float(r * std::sin(a)));
        glm::vec3 p = centre_m + nrm * radius_m;
        glm::vec3 dir = nrm;
        float step = length_m / float(n - 1);
        for (uint32_t k = 0; k < n; ++k) {
            out.positions_m.push_back(glm::vec4(p, 1.0f));
            dir = glm::normalize(dir + glm::vec3(0.0f, -0.35f, 0.0f));
            p += dir * step;
        }
        out.strand_info.push_back({i * 2654435761u, i / 8});
    }
    finish(out);
    return out;
}

HairDesc HairBuffers::desc(const Shading& shading) const {
    HairDesc d;
    d.positions = &positions;
    d.strand_info = &strand_info;
    d.rest_lengths = &rest_lengths;
    d.strand_count = strand_count;
    d.vertices_per_strand = vertices_per_strand;
    d.shading = shading;
    d.bounds_min_m = bounds_min_m;
    d.bounds_max_m = bounds_max_m;
    return d;
}

Result<HairBuffers> upload_strands(gpu::Device& device, const RenderStrands& s, const std::string& name) {
    HairBuffers b;
    auto p = device.create_buffer_with(std::span<const glm::vec4>(s.positions_m), 0, name + " positions");
    if (!p) return p.error();
    auto i = device.create_buffer_with(std::span<const glm::uvec2>(s.strand_info), 0, name + " strand info");
    if (!i) return i.error();
    auto r = device.create_buffer_with(std::span<const float>(s.rest_lengths_m), 0, name + " rest lengths");
    if (!r) return r.error();
    b.positions = std::move(*p);
    b.strand_info = std::move(*i);
    b.rest_lengths = std::move(*r);
    b.strand_count = s.strand_count();
    b.vertices_per_strand = s.vertices_per_strand;
    b.bounds_min_m = s.bounds_min_m;
    b.bounds_max_m = s.bounds_max_m;
    return b;
}

namespace {

// A slice's image placed in the world: the plane `plane_m` across axis `a` (0/1/2 = x/y/z) over the box
// [lo, hi], with the image axes of sdf_slice.h (X -> (u, v) = (z, y); Y -> (x, z); Z -> (x, y)); corners
// as SliceView::corners_m orders them.
void place_slice(SliceView& v, int a, glm::dvec3 lo, glm::dvec3 hi, double plane_m) {
    const int ua = a == 0 ? 2 : 0;
    const int va = a == 1 ? 2 : 1;
    auto point = [&](bool u_hi, bool v_hi) {
        glm::dvec3 p(0.0);
        p[a] = plane_m;
        p[ua] = u_hi ? hi[ua] : lo[ua];
        p[va] = v_hi ? hi[va] : lo[va];
        return glm::vec3(p);
    };
    v.corners_m = {point(false, false), point(true, false), point(false, true), point(true, true)};
    v.grid_min_m = glm::vec3(lo);
    v.grid_max_m = glm::vec3(hi);
    v.axis = a;
    v.plane_m = plane_m;
}

}  // namespace

glm::vec3 density_colour(double value, double full) {
    // Black, purple, red-orange, pale yellow: brightness rises with density, so a print in grey reads too.
    static const glm::vec3 stops[] = {{0.0f, 0.0f, 0.0f}, {0.35f, 0.05f, 0.45f}, {0.85f, 0.25f, 0.2f}, {1.0f, 0.95f, 0.6f}};
    const double t = full > 0.0 ? std::clamp(value / full, 0.0, 1.0) * 3.0 : 0.0;
    const int i = std::min(int(t), 2);
    return glm::mix(stops[i], stops[i + 1], float(t - double(i)));
}

SliceView make_density_slice_view(uint32_t nodes, glm::vec3 origin_m, float cell_m, std::span<const float> per_cm2,
                                  double target_per_cm2, SliceAxis axis, double position, int px_per_cell) {
    SliceView v;
    const size_t n = nodes;
    if (n < 2 || per_cm2.size() != n * n * n || !(cell_m > 0.0f)) return v;
    const int a = axis == SliceAxis::X ? 0 : axis == SliceAxis::Y ? 1 : 2;
    // Image axes as the field's slice (sdf_slice.h): X -> (u, v) = (z, y); Y -> (x, z); Z -> (x, y).
    const int ua = axis == SliceAxis::X ? 2 : 0;
    const int va = axis == SliceAxis::Y ? 2 : 1;
    const int plane = int(std::lround(std::clamp(position, 0.0, 1.0) * double(n - 1)));
    auto at = [&](int u, int w) {
        glm::ivec3 c(0);
        c[a] = plane;
        c[ua] = std::clamp(u, 0, int(n) - 1);
        c[va] = std::clamp(w, 0, int(n) - 1);
        return double(per_cm2[(size_t(c.z) * n + size_t(c.y)) * n + size_t(c.x)]);
    };
    double densest = 0.0;
    for (int w = 0; w < int(n); ++w)
        for (int u = 0; u < int(n); ++u) densest = std::max(densest, at(u, w));
    const double full = std::max(2.0 * target_per_cm2, densest);
    const int px = std::clamp(px_per_cell, 1, 32);
    const int size = int(n - 1) * px + 1;
    std::vector<double> value(size_t(size) * size_t(size));
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const double fu = double(x) / px, fw = double(size - 1 - y) / px;  // top row first: v max
            const int u0 = std::min(int(fu), int(n) - 2), w0 = std::min(int(fw), int(n) - 2);
            const double tu = fu - u0, tw = fw - w0;
            value[size_t(y) * size_t(size) + size_t(x)] = (1 - tu) * (1 - tw) * at(u0, w0) + tu * (1 - tw) * at(u0 + 1, w0) +
                                                          (1 - tu) * tw * at(u0, w0 + 1) + tu * tw * at(u0 + 1, w0 + 1);
        }
    v.rgba.resize(value.size() * 4);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const double d = value[size_t(y) * size_t(size) + size_t(x)];
            glm::vec3 col = density_colour(d, full);
            // The target contour: a pixel whose right or lower neighbour lies on the other side of it.
            if (target_per_cm2 > 0.0) {
                const bool above = d > target_per_cm2;
                const bool edge = (x + 1 < size && (value[size_t(y) * size_t(size) + size_t(x + 1)] > target_per_cm2) != above) ||
                                  (y + 1 < size && (value[size_t(y + 1) * size_t(size) + size_t(x)] > target_per_cm2) != above);
                if (edge) col = glm::vec3(1.0f);
            }
            uint8_t* o = &v.rgba[(size_t(y) * size_t(size) + size_t(x)) * 4];
            for (int k = 0; k < 3; ++k) o[k] = uint8_t(std::lround(std::clamp(col[k], 0.0f, 1.0f) * 255.0f));
            // Air shows the scene through it; the hair's density turns opaque by a tenth of full colour.
            o[3] = uint8_t(std::lround(70.0 + 185.0 * std::clamp(full > 0.0 ? 10.0 * d / full : 0.0, 0.0, 1.0)));
        }
    v.width_px = v.height_px = size;
    place_slice(v, a, glm::dvec3(origin_m), glm::dvec3(origin_m + glm::vec3(cell_m * float(n - 1))),
                double(origin_m[a] + cell_m * float(plane)));
    v.index = plane;
    v.cells_along = int(n);
    v.cell_size_m = cell_m;
    v.density = true;
    v.density_full_per_cm2 = full;
    v.density_target_per_cm2 = target_per_cm2;
    return v;
}

SliceView make_slice_view(const SdfGrid& grid, SliceAxis axis, double position, const SliceStyle& style,
                          const SdfFieldCheck* check, const MeshEdgeProblems* edges) {
    SdfSlice slice = make_slice(grid, axis, position, check);
    SliceView v;
    v.rgba = slice_to_rgba(slice, style, &v.width_px, &v.height_px);
    double c = grid.grid.cell_size_m;
    const int a = axis == SliceAxis::X ? 0 : axis == SliceAxis::Y ? 1 : 2;
    place_slice(v, a, grid.grid.origin_m - 0.5 * c, grid.grid.origin_m + (glm::dvec3(grid.grid.dims) - 0.5) * c,
                grid.grid.origin_m[a] + slice.index * c);
    v.index = slice.index;
    v.cells_along = grid.grid.dims[a];
    v.cell_size_m = c;
    v.range_m = slice_range_m(slice, style);
    v.margin_m = style.margin_m;
    v.isoline_m = style.isoline_cells > 0 ? style.isoline_cells * c : 0.0;
    if (check) {
        v.checked = true;
        v.cavity_cells = check->cavity_cells;
        v.cavity_regions = check->cavity_regions;
        v.sign_jump_cells = check->sign_jump_cells;
        v.sign_jump_regions = check->sign_jump_regions;
        for (uint8_t m : slice.marks) {
            v.plane_cavity_cells += m == kSdfCellCavity ? 1 : 0;
            v.plane_sign_jump_cells += m == kSdfCellSignJump ? 1 : 0;
        }
    }
    if (edges) {
        v.open_edges = edges->open;
        v.non_manifold_edges = edges->non_manifold;
        v.inconsistent_edges = edges->inconsistent;
        v.inside_out = edges->inside_out;
        auto add = [&](const std::vector<glm::vec3>& lines, glm::vec4 colour) {
            v.edge_lines_m.insert(v.edge_lines_m.end(), lines.begin(), lines.end());
            v.edge_colours.insert(v.edge_colours.end(), lines.size() / 2, colour);
        };
        add(edges->open_m, glm::vec4(1.0f, 0.15f, 0.1f, 1.0f));
        add(edges->non_manifold_m, glm::vec4(1.0f, 0.9f, 0.1f, 1.0f));
        add(edges->inconsistent_m, glm::vec4(1.0f, 0.2f, 1.0f, 1.0f));
    }
    return v;
}

}  // namespace tressel::render
