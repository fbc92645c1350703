#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <random>
#include <cstdlib>

#include "sdf/sdf.h"
#include "sdf/sdf_oracle.h"
#include "sdf/sdf_passes.h"
#include "shared/float_order.h"
#include "shared/sdf_sample.h"
#include "test_meshes.h"
#include "test_paths.h"

namespace tressel {
namespace {

struct Accuracy {
    size_t compared = 0;
    size_t sign_agree = 0;
    size_t far_sign_mismatch = 0;   // |oracle| > 1 cell and the sign differs
    double max_band_err_cells = 0;  // |build - oracle| over band cells
    double max_err_cells = 0;       // over all compared cells
    size_t unwritten = 0;
    double agree_fraction() const { return compared ? double(sign_agree) / double(compared) : 0.0; }
};

// Compares a build with the exact oracle's field of the same grid (exact_signed_distance_grid) at every
// `stride`-th cell.
Accuracy compare_with_oracle(const SdfGrid& g, const std::vector<float>& oracle, size_t stride) {
    Accuracy a;
    const double h = g.grid.cell_size_m;
    for (float d : g.distance_m) a.unwritten += std::isfinite(d) ? 0 : 1;
    for (size_t c = 0; c < oracle.size(); c += stride) {
        float o = oracle[c], b = g.distance_m[c];
        ++a.compared;
        // A cell centre on the surface (fandisk's flat faces lie on grid planes: the oracle gives 1e-14
        // cells there) has no sign to agree on.
        bool same = (o < 0) == (b < 0) || std::abs(o) < 1e-4 * h || b == 0.0f;
        a.sign_agree += same ? 1 : 0;
        if (!same && std::abs(o) > h) {
            ++a.far_sign_mismatch;
            if (std::getenv("SDF_DEBUG")) std::printf("DBG cell %zu (%zu,%zu,%zu) build %g oracle %g flags %d cells\n", c, c % g.grid.dims.x, (c / g.grid.dims.x) % g.grid.dims.y, c / (g.grid.dims.x * g.grid.dims.y), b / h, o / h, int(g.flags[c]));
        }
        double err = std::abs(double(std::abs(b)) - double(std::abs(o))) / h;
        a.max_err_cells = std::max(a.max_err_cells, err);
        if (g.flags[c] & gpu_shared::kSdfFlagBand) a.max_band_err_cells = std::max(a.max_band_err_cells, err);
    }
    return a;
}

Accuracy compare_with_oracle(const SdfGrid& g, const Mesh& mesh, size_t stride) {
    return compare_with_oracle(g, exact_signed_distance_grid(mesh, g.grid, stride), stride);
}

void print(const char* what, const SdfGrid& g, const Accuracy& a) {
    std::printf("[sdf] %-22s %-11s dims %dx%dx%d tris %llu band %llu inside %llu | sign agree %.5f (%zu of %zu), "
                "far mismatches %zu, max err band %.4f cells, all %.4f cells, unwritten %zu\n",
                what, sign_method_name(g.sign_used), g.grid.dims.x, g.grid.dims.y, g.grid.dims.z,
                (unsigned long long)g.stats.triangles, (unsigned long long)g.stats.band_cells,
                (unsigned long long)g.stats.inside_cells, a.agree_fraction(), a.sign_agree, a.compared,
                a.far_sign_mismatch, a.max_band_err_cells, a.max_err_cells, a.unwritten);
}

SdfGrid build(const Mesh& mesh, int cells_x, double padding, SignMethod sign = SignMethod::Auto) {
    SdfBuildDesc d;
    d.mesh = &mesh;
    d.cells_x = cells_x;
    d.padding = padding;
    d.sign = sign;
    Diagnostics diag;
    auto r = build_sdf_cpu(d, diag);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
    if (!r.ok()) return {};
    return std::move(r.value());
}

void expect_accurate(const Accuracy& a, const char* what) {
    EXPECT_EQ(a.unwritten, 0u) << what;
    EXPECT_GE(a.agree_fraction(), 0.999) << what;
    EXPECT_EQ(a.far_sign_mismatch, 0u) << what;
    EXPECT_LE(a.max_band_err_cells, 0.01) << what;
    EXPECT_LE(a.max_err_cells, 0.5) << what;
}

// ---------------------------------------------------------------- grid sizing

TEST(SdfGridSizing, FollowsTressFxRule) {
    Diagnostics diag;
    auto g = compute_grid({0, 0, 0}, {1.0, 2.0, 0.5}, 10, 0.8, diag);
    ASSERT_TRUE(g.ok());
    EXPECT_DOUBLE_EQ(g->cell_size_m, 0.1);
    EXPECT_EQ(g->padding_cells, 8);
    EXPECT_NEAR(g->origin_m.x, -0.8, 1e-12);
    EXPECT_EQ(g->dims, glm::ivec3(10 + 16 + 1, 20 + 16 + 1, 5 + 16 + 1));
    // Cell centres cover the padded box.
    EXPECT_GE(g->cell_centre_m(g->dims.x - 1, 0, 0).x, 1.0 + 0.8 - 1e-9);
    EXPECT_TRUE(diag.items.empty());
}

TEST(SdfGridSizing, RatBoyBodyAtFiftyCells) {
    auto mesh = test::load_mesh(test::testdata("tressfx/Ratboy_body.tfxmesh"));
    ASSERT_TRUE(mesh.ok()) << mesh.error().describe();
    glm::dvec3 lo(1e30), hi(-1e30);
    for (auto& p : mesh->positions) {
        lo = glm::min(lo, glm::dvec3(p));
        hi = glm::max(hi, glm::dvec3(p));
    }
    Diagnostics diag;
    auto g = compute_grid(lo, hi, 50, 0.8, diag);
    ASSERT_TRUE(g.ok());
    // TressFX truncates to 130 x 171 x 125; this rule adds the one cell that reaches the padded bounds.
    EXPECT_NEAR(g->dims.x, 130, 1);
    EXPECT_NEAR(g->dims.y, 171, 1);
    EXPECT_NEAR(g->dims.z, 125, 1);
    EXPECT_EQ(g->padding_cells, 40);
    EXPECT_NEAR(g->cell_size_m, (hi.x - lo.x) / 50.0, 1e-12);
}

TEST(SdfGridSizing, FlatOnXUsesLargestExtentAndSaysSo) {
    Diagnostics diag;
    auto g = compute_grid({0, 0, 0}, {0.0, 2.0, 1.0}, 20, 0.5, diag);
    ASSERT_TRUE(g.ok());
    EXPECT_TRUE(g->used_largest_extent);
    EXPECT_DOUBLE_EQ(g->cell_size_m, 0.1);
    EXPECT_EQ(g->dims.x, 21);
    ASSERT_EQ(diag.count(Severity::Warning), 1u);
    EXPECT_NE(diag.items[0].message.find("flat along x"), std::string::npos);
}

TEST(SdfGridSizing, BadParametersNameTheParameter) {
    Diagnostics diag;
    for (int cells : {0, -5, 100000}) {
        auto g = compute_grid({0, 0, 0}, {1, 1, 1}, cells, 0.8, diag);
        ASSERT_FALSE(g.ok());
        EXPECT_EQ(g.error().code, ErrorCode::InvalidArgument);
        EXPECT_NE(g.error().message.find("cells_x"), std::string::npos) << g.error().message;
    }
    for (double pad : {-0.1, 100.0, std::nan("")}) {
        auto g = compute_grid({0, 0, 0}, {1, 1, 1}, 10, pad, diag);
        ASSERT_FALSE(g.ok());
        EXPECT_NE(g.error().message.find("padding"), std::string::npos) << g.error().message;
    }
    auto point = compute_grid({1, 1, 1}, {1, 1, 1}, 10, 0.8, diag);
    EXPECT_FALSE(point.ok());
}

// ---------------------------------------------------------------- build errors

TEST(SdfBuild, RejectsEmptyMeshNaNAndBadIndex) {
    Diagnostics diag;
    SdfBuildDesc d;
    EXPECT_EQ(build_sdf_cpu(d, diag).error().code, ErrorCode::InvalidArgument);  // null mesh
    Mesh empty;
    empty.name = "empty";
    d.mesh = &empty;
    auto r = build_sdf_cpu(d, diag);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("empty"), std::string::npos);

    Mesh nan = test::make_box({0.1f, 0.1f, 0.1f});
    nan.positions[3].y = std::nanf("");
    d.mesh = &nan;
    r = build_sdf_cpu(d, diag);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("vertex 3"), std::string::npos) << r.error().message;

    Mesh bad = test::make_box({0.1f, 0.1f, 0.1f});
    bad.indices[5] = 99;
    d.mesh = &bad;
    r = build_sdf_cpu(d, diag);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("99"), std::string::npos);

    Mesh box = test::make_box({0.1f, 0.1f, 0.1f});
    d.mesh = &box;
    d.cells_x = 0;
    r = build_sdf_cpu(d, diag);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cells_x"), std::string::npos);
    d.cells_x = 8;
    d.padding = -1;
    r = build_sdf_cpu(d, diag);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("padding"), std::string::npos);
}

TEST(SdfBuild, MemoryCapRefusalGivesTheSize) {
    Mesh box = test::make_box({0.1f, 0.1f, 0.1f});
    SdfBuildDesc d;
    d.mesh = &box;
    d.cells_x = 400;
    d.memory_cap_bytes = 64ull << 20;
    Diagnostics diag;
    auto r = build_sdf_cpu(d, diag);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::LimitExceeded);
    // 1041^3 cells x 25 bytes: about 26,900 MiB.
    EXPECT_NE(r.error().message.find("MiB"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("would need"), std::string::npos) << r.error().message;
    SdfGridDesc g;
    g.dims = {1041, 1041, 1041};
    EXPECT_GT(estimate_sdf_build_bytes(g, 12, 8), uint64_t(1041) * 1041 * 1041 * 20);
}

TEST(SdfBuild, CancelledBuildReportsCancelled) {
    Mesh box = test::make_box({0.1f, 0.1f, 0.1f});
    Progress progress;
    progress.request_cancel();
    SdfBuildDesc d;
    d.mesh = &box;
    d.cells_x = 8;
    d.progress = &progress;
    Diagnostics diag;
    auto r = build_sdf_cpu(d, diag);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::Cancelled);
}

// ---------------------------------------------------------------- passes

TEST(SdfPasses, NarrowBandIsOrderIndependent) {
    Mesh mesh = test::make_icosphere(0.2f, 2);
    sdf_passes::MeshData m = sdf_passes::prepare_mesh(mesh);
    Diagnostics diag;
    auto gd = compute_grid({-0.2, -0.2, -0.2}, {0.2, 0.2, 0.2}, 16, 0.25, diag);
    ASSERT_TRUE(gd.ok());
    auto g = gd->gpu_params(2);
    const uint32_t cells = uint32_t(gd->cell_count()), tris = uint32_t(m.triangle_count());
    std::vector<uint32_t> d1(cells), n1(cells), d2(cells), n2(cells);
    std::vector<uint32_t> p1(gpu_shared::sdf_parity_word_count(g), 0u), p2 = p1;
    for (uint32_t c = 0; c < cells; ++c) {
        sdf_passes::init_cell(c, d1, n1);
        sdf_passes::init_cell(c, d2, n2);
    }
    for (uint32_t t = 0; t < tris; ++t) sdf_passes::band_distance_triangle(t, g, m, d1);
    for (uint32_t t = tris; t-- > 0;) sdf_passes::band_distance_triangle(t, g, m, d2);
    for (uint32_t t = 0; t < tris; ++t) sdf_passes::band_nearest_triangle(t, g, m, d1, n1);
    for (uint32_t t = tris; t-- > 0;) sdf_passes::band_nearest_triangle(t, g, m, d2, n2);
    for (int axis = 0; axis < 3; ++axis) {
        for (uint32_t t = 0; t < tris; ++t) sdf_passes::parity_triangle(t, axis, g, m, p1);
        for (uint32_t t = tris; t-- > 0;) sdf_passes::parity_triangle(t, axis, g, m, p2);
    }
    EXPECT_EQ(d1, d2);
    EXPECT_EQ(n1, n2);
    EXPECT_EQ(p1, p2);
    size_t written = 0;
    for (uint32_t c = 0; c < cells; ++c) written += d1[c] != gpu_shared::kSdfUnwrittenOrdered;
    EXPECT_GT(written, cells / 10);
    EXPECT_LT(written, cells);  // the scatter alone leaves cells unwritten (TressFX corner case 3)
    // Only band distances are written.
    for (uint32_t c = 0; c < cells; ++c) {
        if (d1[c] != gpu_shared::kSdfUnwrittenOrdered) {
            EXPECT_LE(gpu_shared::ordered_to_float(d1[c]), gpu_shared::sdf_band_limit_m(g));
        }
    }
}

TEST(SdfPasses, ParityPrefixMatchesAWalkAlongEachLine) {
    // Toggles at a few cells of a small odd-sized grid (lines spanning several words), then the running
    // xor read back per cell against a direct count of the toggles before it.
    Diagnostics diag;
    auto gd = compute_grid({0, 0, 0}, {1.0, 0.5, 0.3}, 70, 0.0, diag);
    ASSERT_TRUE(gd.ok());
    auto g = gd->gpu_params(2);
    std::vector<uint32_t> toggles(gpu_shared::sdf_parity_word_count(g), 0u), prefixed(toggles.size(), 0u);
    std::mt19937 rng(5);
    std::vector<std::pair<int, glm::ivec3>> hits;
    for (int n = 0; n < 400; ++n) {
        glm::ivec3 c(int(rng() % uint32_t(g.dims.x)), int(rng() % uint32_t(g.dims.y)), int(rng() % uint32_t(g.dims.z)));
        int axis = int(rng() % 3u);
        toggles[gpu_shared::sdf_parity_word_index(g, axis, c)] ^= 1u << (c[axis] % 32);
        hits.push_back({axis, c});
    }
    for (uint32_t line = 0; line < sdf_passes::parity_line_count(g); ++line)
        sdf_passes::parity_prefix_line(line, g, toggles, prefixed);
    for (uint32_t w : toggles) EXPECT_EQ(w, 0u) << "toggles are left cleared";
    const uint32_t cells = uint32_t(gd->cell_count());
    for (uint32_t cell = 0; cell < cells; cell += 7) {
        glm::ivec3 c = gpu_shared::sdf_cell_coords(g, cell);
        uint32_t expect = 0;
        for (auto& [axis, h] : hits) {
            bool same_line = h[(axis + 1) % 3] == c[(axis + 1) % 3] && h[(axis + 2) % 3] == c[(axis + 2) % 3];
            if (same_line && h[axis] <= c[axis]) expect ^= 1u << axis;
        }
        ASSERT_EQ(sdf_passes::parity_bits(cell, g, prefixed), expect) << "cell " << c.x << "," << c.y << "," << c.z;
    }
}

TEST(SdfPasses, PrepareMeshWeldsAndClassifies) {
    // A box with every face's vertices split (as an OBJ with per-face normals): welding restores a
    // closed manifold.
    Mesh box = test::make_box({0.1f, 0.2f, 0.3f});
    Mesh split;
    for (uint32_t i : box.indices) {
        split.positions.push_back(box.positions[i]);
        split.indices.push_back(uint32_t(split.positions.size() - 1));
    }
    auto m = sdf_passes::prepare_mesh(split);
    EXPECT_EQ(m.positions_m.size(), 8u);
    EXPECT_TRUE(m.closed_manifold());
    EXPECT_FLOAT_EQ(m.orientation, 1.0f);
    // Vertex pseudonormal of a box corner points along the diagonal.
    glm::vec3 n(m.vertex_pseudonormals[0]);
    glm::vec3 corner = glm::normalize(glm::vec3(m.positions_m[0]));
    EXPECT_GT(glm::dot(n, glm::sign(corner) / std::sqrt(3.0f)), 0.999f);

    Mesh open = box;
    open.indices.resize(30);  // drop one face
    auto mo = sdf_passes::prepare_mesh(open);
    EXPECT_FALSE(mo.closed_manifold());
    EXPECT_EQ(mo.open_edges, 4u);

    Mesh flipped = box;
    for (size_t t = 0; t < 12; ++t) std::swap(flipped.indices[3 * t + 1], flipped.indices[3 * t + 2]);
    EXPECT_FLOAT_EQ(sdf_passes::prepare_mesh(flipped).orientation, -1.0f);
}

TEST(SdfPasses, ClosestPointFeatures) {
    using namespace gpu_shared;
    glm::vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
    EXPECT_EQ(sdf_closest_on_triangle({-1, -1, 0.5f}, a, b, c).feature, kSdfFeatureVertex0);
    EXPECT_EQ(sdf_closest_on_triangle({2, -0.1f, 0}, a, b, c).feature, kSdfFeatureVertex1);
    EXPECT_EQ(sdf_closest_on_triangle({0.5f, -1, 0}, a, b, c).feature, kSdfFeatureEdge01);
    EXPECT_EQ(sdf_closest_on_triangle({1, 1, 0}, a, b, c).feature, kSdfFeatureEdge12);
    EXPECT_EQ(sdf_closest_on_triangle({-1, 0.5f, 0}, a, b, c).feature, kSdfFeatureEdge20);
    auto f = sdf_closest_on_triangle({0.2f, 0.3f, 2}, a, b, c);
    EXPECT_EQ(f.feature, kSdfFeatureFace);
    EXPECT_NEAR(glm::length(f.point_m - glm::vec3(0.2f, 0.3f, 0)), 0.0f, 1e-6f);
    // Degenerate triangle: finite distance to its segment.
    float d = sdf_triangle_distance_m({0.5f, 1, 0}, a, b, glm::vec3(0.5f, 0, 0));
    EXPECT_NEAR(d, 1.0f, 1e-6f);
    // Winding of a closed box from inside and outside.
    Mesh box = test::make_box({0.1f, 0.1f, 0.1f});
    auto m = sdf_passes::prepare_mesh(box);
    EXPECT_NEAR(sdf_passes::winding_number({0.01f, 0.02f, 0.03f}, m), 1.0f, 1e-4f);
    EXPECT_NEAR(sdf_passes::winding_number({0.5f, 0.02f, 0.03f}, m), 0.0f, 1e-4f);
}

// ---------------------------------------------------------------- analytic shapes

TEST(SdfBuild, SphereMatchesAnalyticAndOracle) {
    const float R = 0.25f;
    Mesh mesh = test::make_icosphere(R, 3);
    SdfGrid g = build(mesh, 24, 0.25);
    ASSERT_FALSE(g.distance_m.empty());
    EXPECT_TRUE(g.stats.closed_manifold);
    EXPECT_TRUE(g.stats.pseudonormal_band);
    Accuracy a = compare_with_oracle(g, mesh, 1);
    print("icosphere", g, a);
    expect_accurate(a, "icosphere");
    // Against the analytic sphere: the mesh lies between the inscribed radius and R.
    double r_in = R;
    for (size_t t = 0; t < mesh.triangle_count(); ++t) {
        glm::vec3 p0 = mesh.positions[mesh.indices[3 * t]], p1 = mesh.positions[mesh.indices[3 * t + 1]],
                  p2 = mesh.positions[mesh.indices[3 * t + 2]];
        r_in = std::min(r_in, double(glm::length((p0 + p1 + p2) / 3.0f)));
    }
    const double tess = R - r_in;
    const double h = g.grid.cell_size_m;
    double worst = 0;
    for (int k = 0; k < g.grid.dims.z; ++k)
        for (int j = 0; j < g.grid.dims.y; ++j)
            for (int i = 0; i < g.grid.dims.x; ++i) {
                double analytic = glm::length(g.grid.cell_centre_m(i, j, k)) - R;
                worst = std::max(worst, std::abs(g.at(i, j, k) - analytic));
            }
    EXPECT_LE(worst, tess + 0.01 * h) << "tessellation error " << tess;
    EXPECT_LT(g.at(g.grid.dims.x / 2, g.grid.dims.y / 2, g.grid.dims.z / 2), -0.8 * R);
}

TEST(SdfBuild, BoxIsExactEverywhere) {
    glm::vec3 h(0.3f, 0.2f, 0.1f);
    Mesh mesh = test::make_box(h);
    SdfGrid g = build(mesh, 20, 0.3);
    ASSERT_FALSE(g.distance_m.empty());
    double worst = 0;
    for (int k = 0; k < g.grid.dims.z; ++k)
        for (int j = 0; j < g.grid.dims.y; ++j)
            for (int i = 0; i < g.grid.dims.x; ++i) {
                glm::dvec3 p = g.grid.cell_centre_m(i, j, k);
                glm::dvec3 q = glm::abs(p) - glm::dvec3(h);
                double box_sdf = glm::length(glm::max(q, 0.0)) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0);
                worst = std::max(worst, std::abs(g.at(i, j, k) - box_sdf));
            }
    // Exact nearest triangle everywhere (the box has few triangles), so only float rounding remains.
    EXPECT_LE(worst, 1e-3 * g.grid.cell_size_m);
}

TEST(SdfBuild, TorusMatchesAnalyticAndOracle) {
    const float R = 0.3f, r = 0.1f;
    Mesh mesh = test::make_torus(R, r, 48, 24);
    SdfGrid g = build(mesh, 24, 0.25);
    ASSERT_FALSE(g.distance_m.empty());
    Accuracy a = compare_with_oracle(g, mesh, 1);
    print("torus (analytic)", g, a);
    expect_accurate(a, "torus");
    // Analytic torus distance within the tessellation error (sagitta of the two polygon resolutions).
    const double tess = (R + r) * (1 - std::cos(3.14159265 / 48)) + r * (1 - std::cos(3.14159265 / 24));
    double worst = 0;
    for (int k = 0; k < g.grid.dims.z; ++k)
        for (int j = 0; j < g.grid.dims.y; ++j)
            for (int i = 0; i < g.grid.dims.x; ++i) {
                glm::dvec3 p = g.grid.cell_centre_m(i, j, k);
                double qx = std::sqrt(p.x * p.x + p.y * p.y) - R;
                double analytic = std::sqrt(qx * qx + p.z * p.z) - r;
                worst = std::max(worst, std::abs(g.at(i, j, k) - analytic));
            }
    EXPECT_LE(worst, tess + 0.01 * g.grid.cell_size_m);
    // The hole of the torus is outside, the tube inside.
    EXPECT_GT(g.sample_m({0, 0, 0}), 0.15f);
    EXPECT_LT(g.sample_m({R, 0, 0}), -0.08f);
}

// ---------------------------------------------------------------- sampling

TEST(SdfSample, TrilinearReproducesALinearField) {
    SdfGrid g;
    Diagnostics diag;
    g.grid = *compute_grid({-1, -1, -1}, {1, 1, 1}, 7, 0.0, diag);
    g.band_cells = 2;
    g.distance_m.resize(g.grid.cell_count());
    const glm::dvec3 a(0.3, -0.7, 0.2);
    const double b = 0.05;
    for (int k = 0; k < g.grid.dims.z; ++k)
        for (int j = 0; j < g.grid.dims.y; ++j)
            for (int i = 0; i < g.grid.dims.x; ++i)
                g.distance_m[g.index(i, j, k)] = float(glm::dot(a, g.grid.cell_centre_m(i, j, k)) + b);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-0.99f, 0.99f);
    for (int n = 0; n < 500; ++n) {
        glm::vec3 p(u(rng), u(rng), u(rng));
        EXPECT_NEAR(g.sample_m(p), glm::dot(glm::vec3(a), p) + float(b), 2e-6f);
        glm::vec3 grad = g.gradient(p * 0.9f, 0.05f);
        EXPECT_NEAR(glm::length(grad - glm::vec3(a)), 0.0f, 1e-4f);
        glm::vec3 fwd = gpu_shared::sdf_gradient_forward(g.distance_m.data(), g.gpu_params(), p * 0.9f, 0.05f);
        EXPECT_NEAR(glm::length(fwd - glm::vec3(a)), 0.0f, 1e-4f);
    }
    // Outside the grid the border value is read (clamped).
    EXPECT_FLOAT_EQ(g.sample_m({5, 0, 0}), g.sample_m({1, 0, 0}));
}

TEST(SdfSample, SphereGradientPointsRadially) {
    Mesh mesh = test::make_icosphere(0.25f, 3);
    SdfGrid g = build(mesh, 24, 0.5);
    ASSERT_FALSE(g.distance_m.empty());
    std::mt19937 rng(11);
    std::normal_distribution<float> n(0.0f, 1.0f);
    std::uniform_real_distribution<float> rad(0.12f, 0.45f);
    const float h = float(g.grid.cell_size_m) * 0.5f;
    double worst_deg = 0;
    for (int i = 0; i < 300; ++i) {
        glm::vec3 dir = glm::normalize(glm::vec3(n(rng), n(rng), n(rng)));
        glm::vec3 p = dir * rad(rng);
        glm::vec3 grad = g.gradient(p, h);
        double c = glm::dot(glm::normalize(grad), dir);
        worst_deg = std::max(worst_deg, std::acos(std::clamp(c, -1.0, 1.0)) * 57.2957795);
        EXPECT_NEAR(glm::length(grad), 1.0f, 0.15f);
    }
    EXPECT_LT(worst_deg, 8.0);
}

// ---------------------------------------------------------------- test-data meshes

std::string case_name(std::string file) {
    file = file.substr(0, file.find('.'));
    file.erase(std::remove_if(file.begin(), file.end(), [](char ch) { return !std::isalnum((unsigned char)ch); }), file.end());
    return file;
}

struct DataCase {
    const char* file;
    int cells_x;
    double padding;
    size_t oracle_stride;
};

class SdfClosedMeshes : public ::testing::TestWithParam<DataCase> {};

TEST_P(SdfClosedMeshes, SignAndDistanceMatchTheOracle) {
    const DataCase c = GetParam();
    auto mesh = test::load_mesh(test::testdata(std::string("meshes/") + c.file));
    ASSERT_TRUE(mesh.ok()) << mesh.error().describe();
    SdfGrid g = build(*mesh, c.cells_x, c.padding);
    ASSERT_FALSE(g.distance_m.empty());
    EXPECT_TRUE(g.stats.closed_manifold) << c.file;
    const std::vector<float> oracle = exact_signed_distance_grid(*mesh, g.grid, c.oracle_stride);
    Accuracy a = compare_with_oracle(g, oracle, c.oracle_stride);
    print(c.file, g, a);
    expect_accurate(a, c.file);
    // The same figures for TressFX's sign (nearest face normal), for comparison only.
    SdfGrid f = build(*mesh, c.cells_x, c.padding, SignMethod::FaceNormal);
    print(c.file, f, compare_with_oracle(f, oracle, c.oracle_stride));
}

INSTANTIATE_TEST_SUITE_P(Meshes, SdfClosedMeshes,
                         ::testing::Values(DataCase{"coarser_bunny.obj", 32, 0.25, 1}, DataCase{"spot.obj", 20, 0.2, 1},
                                           DataCase{"torus.obj", 32, 0.25, 1}, DataCase{"bob.obj", 32, 0.25, 1},
                                           DataCase{"fandisk.obj", 24, 0.2, 1}),
                         [](const auto& param_info) { return case_name(param_info.param.file); });

struct OpenCase {
    const char* file;
    int cells_x;
};

class SdfOpenMeshes : public ::testing::TestWithParam<OpenCase> {};

TEST_P(SdfOpenMeshes, BuildWithPlausibleInside) {
    const OpenCase c = GetParam();
    auto mesh = test::load_mesh(test::testdata(std::string("meshes/") + c.file));
    ASSERT_TRUE(mesh.ok()) << mesh.error().describe();
    SdfBuildDesc d;
    d.mesh = &*mesh;
    d.cells_x = c.cells_x;
    d.padding = 0.25;
    d.winding_budget = 150'000'000;  // keeps the test short: large meshes get the coarse sub-grid
    Diagnostics diag;
    auto r = build_sdf_cpu(d, diag);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const SdfGrid& g = *r;
    EXPECT_EQ(g.sign_used, SignMethod::Winding) << c.file;
    EXPECT_EQ(g.stats.unwritten_cells, 0u);
    EXPECT_GT(g.stats.inside_cells, 0u);
    // A point the independent oracle calls clearly inside (winding > 0.9) must be negative: search the
    // cells nearest the bounding-box centre.
    glm::dvec3 lo(1e30), hi(-1e30);
    for (auto& p : mesh->positions) {
        lo = glm::min(lo, glm::dvec3(p));
        hi = glm::max(hi, glm::dvec3(p));
    }
    glm::dvec3 centre = 0.5 * (lo + hi);
    int checked = 0;
    for (int dz = -2; dz <= 2 && checked < 3; ++dz)
        for (int dy = -3; dy <= 3 && checked < 3; ++dy) {
            glm::vec3 p = glm::vec3(centre + glm::dvec3(0, dy, dz) * (hi - lo) * 0.08);
            if (exact_winding_number(*mesh, p) < 0.9) continue;
            EXPECT_LT(g.sample_m(p), 0.0f) << c.file << " at " << p.x << "," << p.y << "," << p.z;
            ++checked;
        }
    EXPECT_GT(checked, 0) << "no clearly inside point found near the centre of " << c.file;
    // Far outside is positive.
    EXPECT_GT(g.at(0, 0, 0), 0.0f);
    std::printf("[sdf] %-22s winding stride %d, %llu evaluations, inside cells %llu of %llu\n", c.file,
                g.stats.winding_stride, (unsigned long long)g.stats.winding_evaluations,
                (unsigned long long)g.stats.inside_cells, (unsigned long long)g.stats.cells);
}

INSTANTIATE_TEST_SUITE_P(Meshes, SdfOpenMeshes,
                         ::testing::Values(OpenCase{"stanford-bunny.obj", 16}, OpenCase{"teapot.obj", 16},
                                           OpenCase{"suzanne.obj", 24}),
                         [](const auto& param_info) { return case_name(param_info.param.file); });

// Fast winding numbers against the exact sum (the double-precision oracle) at the cell centres of a grid
// around open and closed meshes: the error stays far below the 0.5 that decides a sign, and the hierarchy
// visits a small share of the triangles.
TEST(SdfFastWinding, MatchesTheExactSumAndVisitsFewTriangles) {
    for (const char* file : {"stanford-bunny.obj", "teapot.obj", "suzanne.obj", "coarser_bunny.obj", "bob.obj"}) {
        auto mesh = test::load_mesh(test::testdata(std::string("meshes/") + file));
        ASSERT_TRUE(mesh.ok()) << mesh.error().describe();
        const sdf_passes::MeshData m = sdf_passes::prepare_mesh(*mesh);
        ASSERT_FALSE(m.fwn_nodes.empty());
        glm::vec3 lo(1e30f), hi(-1e30f);
        for (const auto& p : mesh->positions) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
        const glm::vec3 pad = 0.2f * (hi - lo);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        double worst = 0.0;
        int wrong_sign = 0, samples = 0;
        uint64_t visits = 0;
        for (int i = 0; i < 400; ++i) {
            const glm::vec3 p = lo - pad + glm::vec3(u(rng), u(rng), u(rng)) * (hi - lo + 2.0f * pad);
            const double exact = exact_winding_number(*mesh, glm::dvec3(p)) * double(m.orientation);
            const double fast = sdf_passes::fast_winding_number(p, m, &visits);
            worst = std::max(worst, std::abs(fast - exact));
            if (std::abs(std::abs(exact) - 0.5) > 0.05) {
                ++samples;
                wrong_sign += (std::abs(fast) > 0.5) != (std::abs(exact) > 0.5);
            }
        }
        const double per_point = double(visits) / 400.0;
        std::printf("[sdf] fast winding %-20s %zu triangles: worst error %.4f, %d of %d signs differ, %.0f nodes + triangles a point\n", file,
                    m.triangle_count(), worst, wrong_sign, samples, per_point);
        EXPECT_LT(worst, 0.05) << file;
        EXPECT_EQ(wrong_sign, 0) << file;
        if (m.triangle_count() > 10000) {
            EXPECT_LT(per_point, 0.1 * double(m.triangle_count())) << file;
        }
    }
}

// The open 69K-triangle bunny scan at cells_x 64 (166 x 165 x 152 cells), default budget: every cell within 6 cells of the
// surface has the sign of the exact winding number (the double-precision oracle, on a sample of those
// cells; cells where the oracle is within 0.05 of 0.5 - at the scan's holes - have no sign to compare).
// With the exact sum capped by the budget the sign came from a coarse grid: 13% of these cells were
// wrong.
TEST(SdfFastWinding, OpenScanHasTheRightSignNearItsSurface) {
    auto mesh = test::load_mesh(test::testdata("meshes/stanford-bunny.obj"));
    ASSERT_TRUE(mesh.ok()) << mesh.error().describe();
    for (int cells_x : {64}) {
        SdfBuildDesc d;
        d.mesh = &*mesh;
        d.cells_x = cells_x;
        Diagnostics diag;
        auto r = build_sdf_cpu(d, diag);
        ASSERT_TRUE(r.ok()) << r.error().describe();
        const SdfGrid& g = *r;
        ASSERT_EQ(g.sign_used, SignMethod::Winding);
        EXPECT_TRUE(g.stats.winding_fast);
        std::vector<size_t> near;
        const double limit = 6.0 * g.grid.cell_size_m;
        for (size_t c = 0; c < g.distance_m.size(); ++c)
            if (std::abs(g.distance_m[c]) <= limit) near.push_back(c);
        std::mt19937 rng(11);
        std::shuffle(near.begin(), near.end(), rng);
        near.resize(std::min<size_t>(near.size(), 600));
        int compared = 0, wrong = 0;
        for (size_t c : near) {
            const int i = int(c % size_t(g.grid.dims.x));
            const int j = int((c / size_t(g.grid.dims.x)) % size_t(g.grid.dims.y));
            const int k = int(c / (size_t(g.grid.dims.x) * size_t(g.grid.dims.y)));
            const double w = std::abs(exact_winding_number(*mesh, g.grid.cell_centre_m(i, j, k)));
            if (std::abs(w - 0.5) < 0.05 || g.distance_m[c] == 0.0f) continue;
            ++compared;
            wrong += (w > 0.5) != (g.distance_m[c] < 0.0f);
        }
        std::printf("[sdf] open bunny at %d cells: winding stride %d (%s), %d of %d sampled cells within 6 cells of the surface "
                    "have the wrong sign\n",
                    cells_x, g.stats.winding_stride, g.stats.winding_fast ? "fast" : "exact sum", wrong, compared);
        EXPECT_GT(compared, 400);
        EXPECT_EQ(wrong, 0) << cells_x << " cells";
    }
}

TEST(SdfBuild, FlatAlligatorGivesAThinValidField) {
    auto mesh = test::load_mesh(test::testdata("meshes/alligator.obj"));
    ASSERT_TRUE(mesh.ok()) << mesh.error().describe();
    // As stored (flat on z) and turned so that it is flat on x.
    Mesh turned = *mesh;
    for (auto& p : turned.positions) p = glm::vec3(p.z, p.y, p.x);
    for (const Mesh* m : {&*mesh, &turned}) {
        SdfBuildDesc d;
        d.mesh = m;
        d.cells_x = 24;
        d.padding = 0.1;
        Diagnostics diag;
        auto r = build_sdf_cpu(d, diag);
        ASSERT_TRUE(r.ok()) << r.error().describe();
        EXPECT_EQ(r->stats.unwritten_cells, 0u);
        EXPECT_GT(r->grid.cell_size_m, 0.0);
        for (float v : r->distance_m) ASSERT_TRUE(std::isfinite(v));
        if (m == &turned) {
            EXPECT_TRUE(r->grid.used_largest_extent);
            EXPECT_GE(diag.count(Severity::Warning), 1u);
        }
        // A flat sheet encloses nothing: no cell clearly inside.
        float lowest = 0.0f;
        for (float v : r->distance_m) lowest = std::min(lowest, v);
        EXPECT_GT(lowest, -0.5f * float(r->grid.cell_size_m));
    }
}

}  // namespace
}  // namespace tressel
