// The field a cloth rests on over a groom (add_cloth_hair_rest_field): a collision mesh's field with the
// groomed hair grown on that mesh made part of the obstacle, so that the hair holds the cloth up where it
// stands taller than the cloth's clearance (engine/sim/README.md, "Hair under a cloth").
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "sim/sim.h"

namespace tressel {

namespace {

constexpr float kFar = std::numeric_limits<float>::infinity();

// One line of the squared Euclidean distance transform of a sampled function (Felzenszwalb & Huttenlocher
// 2012, "Distance transforms of sampled functions": the lower envelope of the parabolas (q - p)^2 + f(p)),
// carrying the feature each output came from. f[i] = +inf where no feature is; `site`, `z` are scratch
// (n and n + 1 entries).
void edt_line(const float* f, const int32_t* feat_in, float* out, int32_t* feat_out, int n, std::vector<int>& site, std::vector<float>& z) {
    int k = -1;
    for (int q = 0; q < n; ++q) {
        if (!(f[q] < kFar)) continue;
        while (k >= 0) {
            const int p = site[size_t(k)];
            const float s = ((f[q] + float(q) * float(q)) - (f[p] + float(p) * float(p))) / (2.0f * float(q - p));
            if (s > z[size_t(k)]) {
                ++k;
                site[size_t(k)] = q;
                z[size_t(k)] = s;
                z[size_t(k) + 1] = kFar;
                break;
            }
            --k;
        }
        if (k < 0) {
            k = 0;
            site[0] = q;
            z[0] = -kFar;
            z[1] = kFar;
        }
    }
    if (k < 0) {
        for (int q = 0; q < n; ++q) out[q] = kFar, feat_out[q] = -1;
        return;
    }
    int j = 0;
    for (int q = 0; q < n; ++q) {
        while (z[size_t(j) + 1] < float(q)) ++j;
        const int p = site[size_t(j)];
        out[q] = float(q - p) * float(q - p) + f[p];
        feat_out[q] = feat_in[p];
    }
}

// The nearest marked cell of every cell (its index, -1 where none is marked): the squared distance
// transform taken along x, then y, then z.
std::vector<int32_t> nearest_marked(const glm::ivec3 dims, const std::vector<uint8_t>& marked) {
    const size_t count = size_t(dims.x) * size_t(dims.y) * size_t(dims.z);
    std::vector<float> d2(count, kFar);
    std::vector<int32_t> feat(count, -1);
    for (size_t i = 0; i < count; ++i)
        if (marked[i]) d2[i] = 0.0f, feat[i] = int32_t(i);
    const size_t longest = static_cast<size_t>(std::max(dims.x, std::max(dims.y, dims.z)));
    std::vector<float> f(longest), out(longest);
    std::vector<int32_t> fin(longest), fout(longest);
    std::vector<int> site(longest);
    std::vector<float> z(longest + 1);
    const size_t stride[3] = {1, size_t(dims.x), size_t(dims.x) * size_t(dims.y)};
    for (int axis = 0; axis < 3; ++axis) {
        const int n = dims[axis];
        const int a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;  // the other two axes
        for (int v = 0; v < dims[b]; ++v)
            for (int u = 0; u < dims[a]; ++u) {
                const size_t base = size_t(u) * stride[a] + size_t(v) * stride[b];
                for (int q = 0; q < n; ++q) f[size_t(q)] = d2[base + size_t(q) * stride[axis]], fin[size_t(q)] = feat[base + size_t(q) * stride[axis]];
                edt_line(f.data(), fin.data(), out.data(), fout.data(), n, site, z);
                for (int q = 0; q < n; ++q) d2[base + size_t(q) * stride[axis]] = out[size_t(q)], feat[base + size_t(q) * stride[axis]] = fout[size_t(q)];
            }
    }
    return feat;
}

}  // namespace

Result<uint32_t> add_cloth_hair_rest_field(SimWorld& world, size_t cloth, size_t slot, uint64_t memory_cap_bytes) {
    if (cloth >= world.cloths.size() || world.cloths[cloth].soft_body)
        return make_error(ErrorCode::InvalidArgument, "add_cloth_hair_rest_field: no cloth " + std::to_string(cloth));
    ClothState& c = world.cloths[cloth];
    if (slot >= c.sdf_indices.size() || c.sdf_indices[slot] >= world.sdfs.size() || !world.sdfs[c.sdf_indices[slot]].grid)
        return make_error(ErrorCode::InvalidArgument, "cloth '" + c.name + "': no collision field " + std::to_string(slot));
    const uint32_t source = c.sdf_indices[slot];
    const SimSdfState src = world.sdfs[source];
    const SdfGrid& body = *src.grid;
    const SdfGridDesc& desc = body.grid;
    const double cell = desc.cell_size_m;
    // The obstacle's hair part, as a distance: the capsules of radius kClothHairRestSpreadM around columns
    // that drop from each point of the groom to the surface under it, each column's top lowered so that the
    // capsule's top is the hair's particle radius over the strand. Sampled along every guide at half that
    // radius or half a cell, whichever is less (the capsules of one strand overlap into a smooth ridge), and
    // filled between strands closer than twice it. The cloth keeps its reach (thickness, the mesh's margin and hair_clearance) from the
    // field, so the hair part is offset by margin + clearance: a cloth resting on it lies its thickness
    // over the hair's particle radius over the strand.
    const double spread = kClothHairRestSpreadM;
    const double offset = src.margin_m + c.params.hair_clearance_m;
    const glm::mat4 to_rest = glm::inverse(src.transform);
    const size_t count = size_t(desc.cell_count());
    // Per cell: the copy (distance and flag), the marks and their points, the transform's distance and
    // nearest mark.
    const uint64_t bytes = uint64_t(count) * (sizeof(float) + 1 + 1 + sizeof(glm::vec3) + 2 * sizeof(float) + sizeof(int32_t));
    if (bytes > memory_cap_bytes)
        return make_error(ErrorCode::LimitExceeded, "cloth '" + c.name + "': resting it on the hair over '" + src.mesh + "' needs " +
                                                        std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB for the field's " +
                                                        std::to_string(count) + " cells, more than the " + std::to_string(memory_cap_bytes >> 20) +
                                                        " MiB allowed: lower the field's cells_x or turn rest_on_hair off");
    std::vector<uint8_t> marked(count, 0);
    std::vector<glm::vec3> point(count, glm::vec3(0.0f));
    std::vector<float> point_d2(count, kFar);
    const glm::dvec3 origin = desc.origin_m;
    auto mark = [&](glm::vec3 q) {
        const glm::dvec3 g = (glm::dvec3(q) - origin) / cell;
        const glm::ivec3 ijk(glm::floor(g + 0.5));
        if (glm::any(glm::lessThan(ijk, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(ijk, desc.dims))) return;
        const size_t i = body.index(ijk.x, ijk.y, ijk.z);
        const glm::vec3 centre(desc.cell_centre_m(ijk.x, ijk.y, ijk.z));
        const glm::vec3 e = q - centre;
        const float d2 = glm::dot(e, e);
        if (d2 < point_d2[i]) marked[i] = 1, point[i] = q, point_d2[i] = d2;
    };
    const float step = float(std::min(0.5 * spread, 0.5 * cell));
    size_t samples = 0;
    for (const SimGroupState& g : world.groups) {
        if (!g.params.enabled || g.scalp_mesh != src.mesh || g.n < 2) continue;
        const double radius = g.params.particle_radius_m;
        // Hair lower than this over the surface lies under the cloth's clearance: it does not lift the cloth.
        const float least = float(offset - radius);
        for (uint32_t s = 0; s < g.strand_count; ++s)
            for (uint32_t k = 0; k + 1 < g.n; ++k) {
                const glm::vec3 a(to_rest * glm::vec4(glm::vec3(g.positions[s * g.n + k]), 1.0f));
                const glm::vec3 b(to_rest * glm::vec4(glm::vec3(g.positions[s * g.n + k + 1]), 1.0f));
                if (!std::isfinite(a.x + a.y + a.z + b.x + b.y + b.z)) continue;
                const int pieces = std::max(1, int(std::ceil(glm::length(b - a) / step)));
                for (int j = (k == 0 ? 0 : 1); j <= pieces; ++j) {
                    const glm::vec3 p = glm::mix(a, b, float(j) / float(pieces));
                    const float height = body.sample_m(p);
                    if (!(height > least)) continue;
                    const glm::vec3 n = body.gradient(p, float(cell));
                    const float len = glm::length(n);
                    if (!(len > 1e-6f)) continue;
                    const glm::vec3 down = -n / len;
                    const glm::vec3 top = p - down * float(radius - spread);
                    // The column to a cell under the surface, in steps of half a cell.
                    const float depth = height + float(radius - spread) + float(cell);
                    const int marks = std::max(1, int(std::ceil(depth / (0.5f * float(cell)))));
                    for (int m = 0; m <= marks; ++m) mark(top + down * (depth * float(m) / float(marks)));
                    ++samples;
                }
            }
    }
    auto grid = std::make_shared<SdfGrid>(body);
    if (samples > 0) {
        const std::vector<int32_t> nearest = nearest_marked(desc.dims, marked);
        for (int k = 0; k < desc.dims.z; ++k)
            for (int j = 0; j < desc.dims.y; ++j)
                for (int i = 0; i < desc.dims.x; ++i) {
                    const size_t at = body.index(i, j, k);
                    if (nearest[at] < 0) continue;
                    const glm::vec3 x(desc.cell_centre_m(i, j, k));
                    const float hair = glm::length(x - point[size_t(nearest[at])]) - float(spread) + float(offset);
                    grid->distance_m[at] = std::min(grid->distance_m[at], hair);
                }
    }
    SimSdfState st = src;
    st.mesh = src.mesh + " with the hair under cloth '" + c.name + "'";
    st.grid = grid.get();
    st.grid_params = grid->gpu_params();
    st.rest_of = int32_t(source);
    const uint32_t index = uint32_t(world.sdfs.size());
    world.sdfs.push_back(st);
    world.owned_fields.push_back(std::move(grid));
    c.sdf_indices[slot] = index;
    return index;
}

}  // namespace tressel
