#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "sdf/sdf.h"
#include "sdf/sdf_passes.h"
#include "shared/sdf_sample.h"

namespace tressel {

namespace sp = sdf_passes;

const char* sign_method_name(SignMethod m) {
    switch (m) {
        case SignMethod::Auto: return "auto";
        case SignMethod::Parity: return "parity";
        case SignMethod::Winding: return "winding";
        case SignMethod::FaceNormal: return "face_normal";
    }
    return "?";
}

gpu_shared::SdfGridParams SdfGridDesc::gpu_params(int band_cells) const {
    gpu_shared::SdfGridParams p{};
    p.origin_m = glm::vec4(glm::vec3(origin_m), float(cell_size_m));
    p.dims = glm::ivec4(dims, band_cells);
    return p;
}

float SdfGrid::sample_m(glm::vec3 p_m) const { return gpu_shared::sdf_sample_distance_m(distance_m.data(), gpu_params(), p_m); }

glm::vec3 SdfGrid::gradient(glm::vec3 p_m, float h_m) const {
    return gpu_shared::sdf_gradient_central(distance_m.data(), gpu_params(), p_m, h_m);
}

static std::string mib(uint64_t bytes) {
    std::ostringstream s;
    s.precision(1);
    s << std::fixed << double(bytes) / double(1ull << 20) << " MiB";
    return s.str();
}

Result<SdfGridDesc> compute_grid(glm::dvec3 bmin, glm::dvec3 bmax, int cells_x, double padding, Diagnostics& diag) {
    if (cells_x < 1 || cells_x > kSdfMaxCellsX)
        return make_error(ErrorCode::InvalidArgument, "cells_x is " + std::to_string(cells_x) + "; it must be between 1 and " +
                                                          std::to_string(kSdfMaxCellsX) + ".");
    if (!std::isfinite(padding) || padding < 0.0 || padding > kSdfMaxPadding) {
        std::ostringstream s;
        s << "padding is " << padding << "; it must be between 0 and " << kSdfMaxPadding << " (a fraction of cells_x added on every side).";
        return make_error(ErrorCode::InvalidArgument, s.str());
    }
    for (int a = 0; a < 3; ++a)
        if (!std::isfinite(bmin[a]) || !std::isfinite(bmax[a]) || bmax[a] < bmin[a])
            return make_error(ErrorCode::InvalidArgument, "the mesh bounds are not finite or are inverted.");
    glm::dvec3 ext = bmax - bmin;
    double largest = std::max(ext.x, std::max(ext.y, ext.z));
    if (!(largest > 0.0))
        return make_error(ErrorCode::InvalidArgument, "the mesh has zero size on every axis: no grid can be sized from it.");
    SdfGridDesc g;
    double width = ext.x;
    if (!(ext.x >= 1e-3 * largest)) {
        width = largest;
        g.used_largest_extent = true;
        std::ostringstream s;
        s << "the mesh is flat along x (x extent " << ext.x << " m, largest extent " << largest
          << " m); cells_x counts cells across the largest extent instead.";
        diag.warn("cells_x", s.str());
    }
    g.cell_size_m = width / double(cells_x);
    g.padding_cells = int(padding * double(cells_x));
    g.origin_m = bmin - double(g.padding_cells) * g.cell_size_m;
    for (int a = 0; a < 3; ++a) {
        double n = std::floor(ext[a] / g.cell_size_m + 1e-6) + 1.0 + 2.0 * g.padding_cells;
        if (n > double(4 * kSdfMaxCellsX))
            return make_error(ErrorCode::InvalidArgument,
                              "the grid would have " + std::to_string(int64_t(n)) + " cells along " + "xyz"[a] +
                                  "; lower cells_x or padding.");
        g.dims[a] = int(n);
    }
    return g;
}

uint64_t estimate_sdf_build_bytes(const SdfGridDesc& grid, size_t triangles, size_t vertices) {
    // Per cell: ordered distance, band nearest, far nearest, winding, distance out (4 bytes each), the
    // parity bit planes and the coarse grid (under 4 bytes together), flags (1); the GPU build needs less
    // (8-byte band key, band triangle, distance, flags). Per triangle: indices, edge ids, face normal, pseudonormal of ~1.5 edges, edge
    // map entry. Per vertex: position, pseudonormal, weld map entry, remap.
    uint64_t per_cell = 6 * 4 + 1;
    uint64_t per_tri = 12 + 12 + 16 + 24 + 64;
    uint64_t per_vertex = 16 + 16 + 48 + 4;
    return grid.cell_count() * per_cell + uint64_t(triangles) * per_tri + uint64_t(vertices) * per_vertex;
}

namespace {

Status check_cancel(Progress* progress, float fraction, const char* stage) {
    if (!progress) return {};
    if (progress->cancelled()) return make_error(ErrorCode::Cancelled, "the SDF build was cancelled.");
    progress->set(fraction, stage);
    return {};
}

}  // namespace

Result<SdfBuildPlan> plan_sdf_build(const SdfBuildDesc& desc, Diagnostics& diag) {
    const Mesh* mesh = desc.mesh;
    if (!mesh) return make_error(ErrorCode::InvalidArgument, "mesh is null: the SDF build needs a collision mesh.");
    const std::string name = mesh->name.empty() ? std::string("collision mesh") : "mesh '" + mesh->name + "'";
    if (mesh->positions.empty() || mesh->triangle_count() == 0)
        return make_error(ErrorCode::InvalidArgument, name + " is empty (no triangles): nothing to build an SDF from.");
    if (mesh->indices.size() % 3 != 0)
        return make_error(ErrorCode::InvalidArgument, name + " has an index count that is not a multiple of 3.");
    if (desc.band_cells < 1 || desc.band_cells > 8)
        return make_error(ErrorCode::InvalidArgument,
                          "band_cells is " + std::to_string(desc.band_cells) + "; it must be between 1 and 8.");
    glm::dvec3 bmin(std::numeric_limits<double>::infinity()), bmax(-std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < mesh->positions.size(); ++i) {
        glm::vec3 p = mesh->positions[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            return make_error(ErrorCode::InvalidArgument,
                              name + " has a non-finite position (NaN or Inf) at vertex " + std::to_string(i) + ".");
    }
    for (size_t i = 0; i < mesh->indices.size(); ++i) {
        uint32_t v = mesh->indices[i];
        if (v >= mesh->positions.size())
            return make_error(ErrorCode::InvalidArgument, name + " has index " + std::to_string(v) + " at position " +
                                                              std::to_string(i) + ", past its " +
                                                              std::to_string(mesh->positions.size()) + " vertices.");
        bmin = glm::min(bmin, glm::dvec3(mesh->positions[v]));
        bmax = glm::max(bmax, glm::dvec3(mesh->positions[v]));
    }
    Result<SdfGridDesc> grid_r = desc.fixed_grid ? Result<SdfGridDesc>(*desc.fixed_grid)
                                                 : compute_grid(bmin, bmax, desc.cells_x, desc.padding, diag);
    if (!grid_r.ok()) return grid_r.error();
    if (desc.fixed_grid && (glm::any(glm::lessThan(grid_r->dims, glm::ivec3(1))) || !(grid_r->cell_size_m > 0.0) ||
                            !std::isfinite(grid_r->cell_size_m) || !std::isfinite(grid_r->origin_m.x) || !std::isfinite(grid_r->origin_m.y) ||
                            !std::isfinite(grid_r->origin_m.z)))
        return make_error(ErrorCode::InvalidArgument, "the fixed grid for " + name + " has no cells or a cell of no size");
    const SdfGridDesc gd = *grid_r;
    const uint64_t need = estimate_sdf_build_bytes(gd, mesh->triangle_count(), mesh->positions.size());
    if (need > desc.memory_cap_bytes || gd.cell_count() >= (1ull << 31))
        return make_error(ErrorCode::LimitExceeded,
                          "the SDF of " + name + " would need " + mib(need) + " (" + std::to_string(gd.dims.x) + " x " +
                              std::to_string(gd.dims.y) + " x " + std::to_string(gd.dims.z) + " cells), above the cap of " +
                              mib(desc.memory_cap_bytes) + "; lower cells_x or padding, or raise the memory cap.");

    TRESSEL_TRY(check_cancel(desc.progress, 0.0f, "preparing mesh"));
    sp::MeshData m = sp::prepare_mesh(*mesh);
    if (m.dropped_triangles)
        diag.warn(mesh->name, std::to_string(m.dropped_triangles) +
                                  " triangles with repeated vertices were ignored by the SDF build.");
    if (m.triangle_count() == 0)
        return make_error(ErrorCode::InvalidArgument, name + " has only degenerate triangles: nothing to build an SDF from.");

    if (desc.shell) {
        if (desc.shell_side != 1.0f && desc.shell_side != -1.0f)
            return make_error(ErrorCode::InvalidArgument, "shell_side must be +1 or -1 for " + name + ".");
        SdfBuildPlan plan;
        plan.grid = gd;
        plan.band_cells = desc.band_cells;
        plan.sign_used = SignMethod::FaceNormal;  // the side comes from the nearest feature's normal
        plan.requested_sign = desc.sign;
        plan.cell_sign = sp::CellSign::Shell;
        m.orientation = desc.shell_side;
        plan.mesh = std::move(m);
        plan.mesh_name = mesh->name;
        plan.memory_bytes = need;
        plan.winding_budget = desc.winding_budget;
        plan.band_only = true;
        return plan;
    }
    SignMethod method = desc.sign;
    if (method == SignMethod::Auto) method = m.closed_manifold() ? SignMethod::Parity : SignMethod::Winding;
    sp::CellSign cell_sign = sp::CellSign::Parity;
    switch (method) {
        case SignMethod::Auto:
        case SignMethod::Parity:
            cell_sign = desc.sign == SignMethod::Auto ? sp::CellSign::PseudonormalBandParityElsewhere : sp::CellSign::Parity;
            break;
        case SignMethod::Winding: cell_sign = sp::CellSign::Winding; break;
        case SignMethod::FaceNormal: cell_sign = sp::CellSign::FaceNormal; break;
    }
    if (desc.sign == SignMethod::Auto && method == SignMethod::Winding)
        diag.info(mesh->name, "the mesh is not closed and manifold (" + std::to_string(m.open_edges) + " open, " +
                                  std::to_string(m.non_manifold_edges) + " non-manifold, " +
                                  std::to_string(m.inconsistent_edges) +
                                  " inconsistently oriented edges): the SDF sign uses winding numbers.");

    SdfBuildPlan plan;
    plan.grid = gd;
    plan.band_cells = desc.band_cells;
    plan.sign_used = method;
    plan.requested_sign = desc.sign;
    plan.cell_sign = cell_sign;
    plan.mesh = std::move(m);
    plan.mesh_name = mesh->name;
    plan.memory_bytes = need;
    plan.winding_budget = desc.winding_budget;
    plan.band_only = desc.band_only && (cell_sign == sp::CellSign::Parity || cell_sign == sp::CellSign::PseudonormalBandParityElsewhere);
    return plan;
}


// A band-only build's passes over a planned (or refitted) mesh: init, band distance and nearest triangle,
// flags, ray parity unless a shell, finalize of the band cells, the band's width beyond it.
static void run_band_only(const SdfBuildPlan& plan, SdfGrid& out) {
    const sp::MeshData& m = plan.mesh;
    const gpu_shared::SdfGridParams g = plan.grid.gpu_params(plan.band_cells);
    const uint32_t cells = uint32_t(plan.grid.cell_count());
    const uint32_t tris = uint32_t(m.triangle_count());
    const bool shell = plan.cell_sign == sp::CellSign::Shell;
    out.grid = plan.grid;
    out.band_cells = plan.band_cells;
    out.sign_used = plan.sign_used;
    std::vector<uint32_t> dist_ordered(cells), nearest(cells);
    std::vector<uint32_t> parity_toggles(shell ? 0u : gpu_shared::sdf_parity_word_count(g), 0u), parity(parity_toggles.size(), 0u);
    out.flags.assign(cells, 0);
    out.distance_m.assign(cells, 0.0f);
    for (uint32_t c = 0; c < cells; ++c) sp::init_cell(c, dist_ordered, nearest);
    for (uint32_t t = 0; t < tris; ++t) sp::band_distance_triangle(t, g, m, dist_ordered);
    for (uint32_t t = 0; t < tris; ++t) sp::band_nearest_triangle(t, g, m, dist_ordered, nearest);
    for (uint32_t c = 0; c < cells; ++c) {
        sp::band_flags_cell(c, g, dist_ordered, out.flags);
        if (!(out.flags[c] & gpu_shared::kSdfFlagBand)) nearest[c] = gpu_shared::kSdfNoTriangle;
    }
    if (!shell) {
        for (int axis = 0; axis < 3; ++axis)
            for (uint32_t t = 0; t < tris; ++t) sp::parity_triangle(t, axis, g, m, parity_toggles);
        const uint32_t lines = sp::parity_line_count(g);
        for (uint32_t line = 0; line < lines; ++line) sp::parity_prefix_line(line, g, parity_toggles, parity);
    }
    sp::FinalizeInputs fin;
    fin.grid = &g;
    fin.mesh = &m;
    fin.sign = plan.cell_sign;
    fin.nearest = nearest;
    fin.parity = parity;
    for (uint32_t c = 0; c < cells; ++c) {
        if (out.flags[c] & gpu_shared::kSdfFlagBand) {
            sp::finalize_cell(c, fin, out.distance_m, out.flags);
        } else {  // beyond the band: its width, signed by the parity vote (shared/sdf.h); a shell's is free
            const bool inside = !shell && gpu_shared::sdf_parity_inside(sp::parity_bits(c, g, parity));
            out.distance_m[c] = gpu_shared::sdf_beyond_band_m(g, inside);
            out.flags[c] = uint8_t(inside ? gpu_shared::kSdfFlagInside : 0u);
        }
    }
}

Status rebuild_band_field_cpu(SdfBuildPlan& plan, std::span<const glm::vec4> source, SdfGrid& out) {
    if (!plan.band_only) return make_error(ErrorCode::InvalidArgument, "rebuild_band_field_cpu: the field of '" + plan.mesh_name + "' is not band-only");
    size_t need = 0;
    for (uint32_t s : plan.mesh.weld_source) need = std::max<size_t>(need, size_t(s) + 1);
    if (source.size() < need)
        return make_error(ErrorCode::InvalidArgument, "rebuild_band_field_cpu: " + std::to_string(source.size()) + " positions for the field of '" +
                                                          plan.mesh_name + "', which needs " + std::to_string(need));
    sp::refit_mesh(plan.mesh, source);
    run_band_only(plan, out);
    fill_sdf_stats(plan, WindingPlan{}, out);
    return {};
}

Result<SdfGrid> build_sdf_cpu(const SdfBuildDesc& desc, Diagnostics& diag) {
    auto plan_r = plan_sdf_build(desc, diag);
    if (!plan_r.ok()) return plan_r.error();
    const SdfBuildPlan& plan = *plan_r;
    if (plan.band_only) {
        TRESSEL_TRY(check_cancel(desc.progress, 0.05f, "narrow band"));
        SdfGrid out;
        run_band_only(plan, out);
        fill_sdf_stats(plan, WindingPlan{}, out);
        if (out.stats.unwritten_cells)
            diag.error(plan.mesh_name, std::to_string(out.stats.unwritten_cells) + " SDF cells were left without a distance.");
        if (desc.progress) desc.progress->set(1.0f, "done");
        return out;
    }
    const SdfGridDesc& gd = plan.grid;
    const sp::MeshData& m = plan.mesh;
    const sp::CellSign cell_sign = plan.cell_sign;
    const gpu_shared::SdfGridParams g = gd.gpu_params(desc.band_cells);
    const uint32_t cells = uint32_t(gd.cell_count());
    const uint32_t tris = uint32_t(m.triangle_count());

    SdfGrid out;
    out.grid = gd;
    out.band_cells = desc.band_cells;
    out.sign_used = plan.sign_used;
    std::vector<uint32_t> dist_ordered(cells), nearest(cells), nearest_final(cells);
    std::vector<uint32_t> parity_toggles(gpu_shared::sdf_parity_word_count(g), 0u), parity(parity_toggles.size(), 0u);
    out.flags.assign(cells, 0);
    out.distance_m.assign(cells, 0.0f);

    // 1. init
    for (uint32_t c = 0; c < cells; ++c) sp::init_cell(c, dist_ordered, nearest);
    // 2-3. narrow band
    TRESSEL_TRY(check_cancel(desc.progress, 0.05f, "narrow band"));
    for (uint32_t t = 0; t < tris; ++t) sp::band_distance_triangle(t, g, m, dist_ordered);
    for (uint32_t t = 0; t < tris; ++t) sp::band_nearest_triangle(t, g, m, dist_ordered, nearest);
    // 4. band flags
    for (uint32_t c = 0; c < cells; ++c) sp::band_flags_cell(c, g, dist_ordered, out.flags);
    // 5. far field, coarse to fine: seed the coarse grid from the band, jump-flood it, then every fine
    // cell outside the band takes the best triangle of the coarse cells around it
    const uint32_t coarse_cells = sp::coarse_cell_count(g);
    std::vector<uint32_t> coarse_nearest(coarse_cells), coarse_next(coarse_cells);
    for (uint32_t c = 0; c < coarse_cells; ++c) sp::coarse_seed_cell(c, g, m, dist_ordered, nearest, coarse_nearest);
    std::vector<int> steps = sp::jfa_steps(sp::coarse_dims(g));
    for (size_t s = 0; s < steps.size(); ++s) {
        TRESSEL_TRY(check_cancel(desc.progress, 0.15f + 0.35f * float(s) / float(steps.size()), "propagating distances"));
        for (uint32_t c = 0; c < coarse_cells; ++c) sp::coarse_jfa_cell(c, steps[s], g, m, coarse_nearest, coarse_next);
        coarse_nearest.swap(coarse_next);
    }
    TRESSEL_TRY(check_cancel(desc.progress, 0.5f, "propagating distances"));
    std::vector<uint32_t> nearest_first(cells);
    std::vector<float> first_d(cells, std::numeric_limits<float>::infinity());
    for (uint32_t c = 0; c < cells; ++c) {
        nearest_first[c] = sp::fine_nearest_cell(c, g, m, dist_ordered, nearest, coarse_nearest);
        if (nearest_first[c] != gpu_shared::kSdfNoTriangle)
            first_d[c] = sp::triangle_distance_m(m, nearest_first[c], gpu_shared::sdf_cell_centre_m(g, gpu_shared::sdf_cell_coords(g, c)));
    }
    for (uint32_t c = 0; c < cells; ++c)
        nearest_final[c] = sp::block_consensus_cell(c, g, m, dist_ordered, nearest_first, first_d);
    // 6. ray parity along x, y, z
    if (cell_sign == sp::CellSign::Parity || cell_sign == sp::CellSign::PseudonormalBandParityElsewhere) {
        TRESSEL_TRY(check_cancel(desc.progress, 0.7f, "ray parity"));
        for (int axis = 0; axis < 3; ++axis)
            for (uint32_t t = 0; t < tris; ++t) sp::parity_triangle(t, axis, g, m, parity_toggles);
        const uint32_t lines = sp::parity_line_count(g);
        for (uint32_t line = 0; line < lines; ++line) sp::parity_prefix_line(line, g, parity_toggles, parity);
    }
    // 7. winding numbers: exact in band cells, trilinear from a coarse sub-grid elsewhere, within budget
    std::vector<float> winding;
    WindingPlan winding_plan;
    if (cell_sign == sp::CellSign::Winding) {
        TRESSEL_TRY(check_cancel(desc.progress, 0.75f, "winding numbers"));
        winding.assign(cells, 0.0f);
        uint64_t band = 0;
        for (uint32_t c = 0; c < cells; ++c) band += (out.flags[c] & gpu_shared::kSdfFlagBand) ? 1 : 0;
        winding_plan = plan_winding(plan, band, diag);
        sp::CoarseWinding coarse;
        coarse.stride = winding_plan.stride;
        const bool exact_band = winding_plan.exact_band;
        const int st = coarse.stride;
        coarse.dims = winding_plan.coarse_dims;
        coarse.values.resize(size_t(coarse.dims.x) * coarse.dims.y * coarse.dims.z);
        auto winding_at = [&](glm::vec3 p) { return winding_plan.fast ? sp::fast_winding_number(p, m) : sp::winding_number(p, m); };
        uint64_t evals = 0;
        for (int k = 0; k < coarse.dims.z; ++k) {
            TRESSEL_TRY(check_cancel(desc.progress, 0.75f + 0.2f * float(k) / float(coarse.dims.z), "winding numbers"));
            for (int j = 0; j < coarse.dims.y; ++j)
                for (int i = 0; i < coarse.dims.x; ++i) {
                    glm::vec3 p = gpu_shared::sdf_cell_centre_m(g, glm::ivec3(i, j, k) * st);
                    coarse.values[size_t(i) + size_t(coarse.dims.x) * (size_t(j) + size_t(coarse.dims.y) * k)] = winding_at(p);
                    ++evals;
                }
        }
        for (uint32_t c = 0; c < cells; ++c) {
            glm::ivec3 cell = gpu_shared::sdf_cell_coords(g, c);
            if (st == 1) {
                winding[c] = coarse.values[c];
            } else if (exact_band && (out.flags[c] & gpu_shared::kSdfFlagBand)) {
                winding[c] = winding_at(gpu_shared::sdf_cell_centre_m(g, cell));
                ++evals;
            } else {
                winding[c] = coarse.at_cell(cell);
            }
        }
        winding_plan.evaluations = evals;
    }
    // 8. finalize
    TRESSEL_TRY(check_cancel(desc.progress, 0.95f, "finalizing"));
    sp::FinalizeInputs fin;
    fin.grid = &g;
    fin.mesh = &m;
    fin.sign = cell_sign;
    fin.nearest = nearest_final;
    fin.parity = parity;
    fin.winding = winding;
    for (uint32_t c = 0; c < cells; ++c) sp::finalize_cell(c, fin, out.distance_m, out.flags);
    fill_sdf_stats(plan, winding_plan, out);
    if (out.stats.unwritten_cells)
        diag.error(plan.mesh_name, std::to_string(out.stats.unwritten_cells) + " SDF cells were left without a distance.");
    if (desc.progress) desc.progress->set(1.0f, "done");
    return out;
}

WindingPlan plan_winding(const SdfBuildPlan& plan, uint64_t band, Diagnostics& diag) {
    const SdfGridDesc& gd = plan.grid;
    const uint64_t cells = gd.cell_count();
    const uint64_t budget = std::max<uint64_t>(plan.winding_budget, 1);
    WindingPlan w;
    // The exact sum over every triangle while it fits the budget at every cell; beyond, the fast winding
    // numbers' hierarchy (about kSdfFastWindingCost visits a point whatever the triangle count).
    uint64_t tris = plan.mesh.triangle_count();
    if (cells * tris > budget && tris > kSdfFastWindingCost && !plan.mesh.fwn_nodes.empty()) {
        w.fast = true;
        tris = kSdfFastWindingCost;
    }
    auto coarse_count = [&](int st) {
        glm::ivec3 cd = (gd.dims - 1 + st - 1) / st + 1;
        return uint64_t(cd.x) * uint64_t(cd.y) * uint64_t(cd.z);
    };
    if (cells * tris <= budget) {
        w.stride = 1;
    } else {
        int s = 2;
        while (s < 64 && (band + coarse_count(s)) * tris > budget) ++s;
        w.stride = s;
        if ((band + coarse_count(s)) * tris > budget) {
            w.exact_band = false;
            s = 2;
            while (s < 256 && coarse_count(s) * tris > budget) ++s;
            w.stride = s;
            diag.warn(plan.mesh_name, "winding numbers over " + std::to_string(plan.mesh.triangle_count()) +
                                          " triangles exceed the budget even in the narrow band: the sign comes "
                                          "from a coarse grid every " + std::to_string(s) + " cells.");
        } else {
            diag.info(plan.mesh_name, std::string(w.fast ? "fast winding numbers" : "winding numbers") + " evaluated in the narrow band and every " +
                                          std::to_string(s) + " cells elsewhere (budget " + std::to_string(budget) +
                                          " evaluations).");
        }
    }
    w.coarse_dims = (gd.dims - 1 + w.stride - 1) / w.stride + 1;
    return w;
}

void fill_sdf_stats(const SdfBuildPlan& plan, const WindingPlan& winding, SdfGrid& out) {
    const sp::MeshData& m = plan.mesh;
    SdfBuildStats& st = out.stats;
    st = SdfBuildStats{};
    st.cells = plan.grid.cell_count();
    st.triangles = m.triangle_count();
    st.dropped_triangles = m.dropped_triangles;
    st.welded_vertices = m.positions_m.size();
    st.open_edges = m.open_edges;
    st.non_manifold_edges = m.non_manifold_edges;
    st.closed_manifold = m.closed_manifold();
    st.pseudonormal_band = plan.cell_sign == sp::CellSign::PseudonormalBandParityElsewhere;
    st.memory_bytes = plan.memory_bytes;
    st.winding_stride = winding.stride;
    st.winding_fast = winding.fast;
    st.winding_evaluations = winding.evaluations;
    for (size_t c = 0; c < out.flags.size(); ++c) {
        st.band_cells += (out.flags[c] & gpu_shared::kSdfFlagBand) ? 1 : 0;
        st.written_cells += (out.flags[c] & gpu_shared::kSdfFlagWritten) ? 1 : 0;
        st.inside_cells += (out.flags[c] & gpu_shared::kSdfFlagInside) ? 1 : 0;
        st.unwritten_cells += std::isfinite(out.distance_m[c]) ? 0 : 1;
    }
}

}  // namespace tressel
