#include "groom/scalp_paint.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/file_io.h"
#include "groom/byte_codec.h"
#include "groom/region.h"
#include <array>

namespace tressel {
namespace {

constexpr std::array<std::string_view, 4> kLayerNames{"mask", "density", "length", "comb"};

float neutral(PaintLayer l) { return l == PaintLayer::Mask || l == PaintLayer::Density || l == PaintLayer::Length ? 1.0f : 0.0f; }

std::vector<float>* scalar_layer(ScalpPaint& p, PaintLayer l) {
    switch (l) {
        case PaintLayer::Mask: return &p.mask;
        case PaintLayer::Density: return &p.density;
        case PaintLayer::Length: return &p.length;
        case PaintLayer::Comb: return nullptr;
    }
    return nullptr;
}

float interpolate(const std::vector<float>& layer, const Mesh& mesh, const ScalpAttachment& a, float fallback) {
    if (layer.empty() || a.triangle >= mesh.triangle_count()) return fallback;
    const uint32_t* i = &mesh.indices[3 * size_t(a.triangle)];
    return a.barycentric.x * layer[i[0]] + a.barycentric.y * layer[i[1]] + a.barycentric.z * layer[i[2]];
}

std::vector<glm::vec3> vertex_normals(const Mesh& mesh) {
    if (mesh.has_normals()) return mesh.normals;
    std::vector<glm::vec3> n(mesh.vertex_count(), glm::vec3(0.0f));
    for (size_t t = 0; t < mesh.triangle_count(); ++t) {
        const uint32_t* i = &mesh.indices[3 * t];
        const glm::vec3 fn = glm::cross(mesh.positions[i[1]] - mesh.positions[i[0]], mesh.positions[i[2]] - mesh.positions[i[0]]);
        for (int k = 0; k < 3; ++k) n[i[k]] += fn;
    }
    for (glm::vec3& v : n) v = glm::length(v) > 0.0f ? glm::normalize(v) : glm::vec3(0.0f, 1.0f, 0.0f);
    return n;
}

// Layout (docs/brushes.md), little-endian, no padding:
//   magic[8] u32 version u32 vertices u32 triangles u32 layers (bit 0 mask, 1 density, 2 length, 3 comb)
//   [f32 mask[vertices]] [f32 density[vertices]] [f32 length[vertices]] [f32 comb[4 * vertices]]
//   u64 checksum (FNV-1a 64 of every byte before it)
constexpr size_t kPaintHeaderBytes = 8 + 4 * 4;

}  // namespace

std::string_view paint_layer_name(PaintLayer l) { return kLayerNames[size_t(l)]; }

std::optional<PaintLayer> paint_layer_from_name(std::string_view name) {
    for (size_t i = 0; i < kLayerNames.size(); ++i)
        if (kLayerNames[i] == name) return PaintLayer(i);
    return std::nullopt;
}

bool ScalpPaint::has(PaintLayer l) const {
    switch (l) {
        case PaintLayer::Mask: return !mask.empty();
        case PaintLayer::Density: return !density.empty();
        case PaintLayer::Length: return !length.empty();
        case PaintLayer::Comb: return !comb.empty();
    }
    return false;
}

ScalpPaint blank_paint(const Mesh& mesh) {
    ScalpPaint p;
    p.vertex_count = uint32_t(mesh.vertex_count());
    p.triangle_count = uint32_t(mesh.triangle_count());
    return p;
}

void start_layer(ScalpPaint& p, PaintLayer l, const RegionInfo* region) {
    if (p.has(l)) return;
    if (l == PaintLayer::Comb) {
        p.comb.assign(p.vertex_count, glm::vec4(0.0f));
        return;
    }
    std::vector<float>& v = *scalar_layer(p, l);
    v.assign(p.vertex_count, neutral(l));
    if (l == PaintLayer::Mask && region && region->vertex_in.size() == p.vertex_count)
        for (size_t i = 0; i < v.size(); ++i) v[i] = region->vertex_in[i] ? 1.0f : 0.0f;
}

float paint_mask_at(const ScalpPaint& p, const Mesh& mesh, const ScalpAttachment& a) { return interpolate(p.mask, mesh, a, 1.0f); }
float paint_density_at(const ScalpPaint& p, const Mesh& mesh, const ScalpAttachment& a) { return interpolate(p.density, mesh, a, 1.0f); }
float paint_length_at(const ScalpPaint& p, const Mesh& mesh, const ScalpAttachment& a) { return interpolate(p.length, mesh, a, 1.0f); }

glm::vec4 paint_comb_at(const ScalpPaint& p, const Mesh& mesh, const ScalpAttachment& a) {
    if (p.comb.empty() || a.triangle >= mesh.triangle_count()) return glm::vec4(0.0f);
    const uint32_t* i = &mesh.indices[3 * size_t(a.triangle)];
    return a.barycentric.x * p.comb[i[0]] + a.barycentric.y * p.comb[i[1]] + a.barycentric.z * p.comb[i[2]];
}

float paint_triangle_mean(const std::vector<float>& layer, const Mesh& mesh, uint32_t t, float neutral_value) {
    if (layer.empty()) return neutral_value;
    const uint32_t* i = &mesh.indices[3 * size_t(t)];
    return (layer[i[0]] + layer[i[1]] + layer[i[2]]) / 3.0f;
}

Status check_paint_mesh(const ScalpPaint& p, const Mesh& mesh, const std::string& name) {
    if (p.vertex_count != mesh.vertex_count() || p.triangle_count != mesh.triangle_count())
        return make_error(ErrorCode::InvalidArgument, name + ": painted on a scalp mesh of " + std::to_string(p.vertex_count) + " vertices and " +
                                                          std::to_string(p.triangle_count) + " triangles; mesh \"" + mesh.name + "\" has " +
                                                          std::to_string(mesh.vertex_count()) + " and " + std::to_string(mesh.triangle_count()));
    return {};
}

Result<PaintStats> apply_paint_stroke(ScalpPaint& paint, const Mesh& mesh, const BrushView& view, const PaintSettings& s,
                                      std::span<const glm::vec2> points_px, float symmetry_plane_x) {
    auto bad = [](const std::string& m) { return make_error(ErrorCode::InvalidArgument, "paint: " + m); };
    if (!(s.radius_px >= 1.0f && s.radius_px <= 2000.0f)) return bad("radius_px must be in [1, 2000]");
    if (!(s.strength >= 0.0f && s.strength <= 1.0f)) return bad("strength must be in [0, 1]");
    if (!(s.spacing >= 0.05f && s.spacing <= 1.0f)) return bad("spacing must be in [0.05, 1]");
    if (s.layer == PaintLayer::Density && !(s.value >= 0.0f && s.value <= kPaintDensityMax)) return bad("density value must be in [0, 8]");
    if (s.layer == PaintLayer::Length && !(s.value >= kPaintLengthMin && s.value <= kPaintLengthMax)) return bad("length value must be in [0.01, 4]");
    if (s.layer == PaintLayer::Comb && !(s.value >= 0.0f && s.value <= 1.0f)) return bad("comb amount (value) must be in [0, 1]");
    if (!std::isfinite(symmetry_plane_x)) return bad("the symmetry plane is not finite");
    for (const glm::vec2& p : points_px)
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) return bad("a stroke point is not finite");
    if (!(view.viewport_px.x >= 1.0f && view.viewport_px.y >= 1.0f)) return bad("the viewport is empty");
    TRESSEL_TRY(check_paint_mesh(paint, mesh, "paint"));

    PaintStats st;
    if (points_px.empty()) return st;
    start_layer(paint, s.layer, nullptr);
    const std::vector<glm::vec3> normals = s.front_faces_only || s.layer == PaintLayer::Comb ? vertex_normals(mesh) : std::vector<glm::vec3>();
    std::vector<uint8_t> changed(mesh.vertex_count(), 0);
    const float target = s.layer == PaintLayer::Mask ? (s.invert ? 0.0f : 1.0f)
                         : s.invert                  ? 1.0f
                                                     : s.value;

    // One dab at screen point `px` with stroke direction `dir_px` (zero when unknown); `mirror` acts on
    // the mirror image across the plane.
    auto dab = [&](glm::vec2 px, glm::vec2 dir_px, bool mirror) {
        auto hit = pick_scalp(mesh, view, px);
        if (!hit) {
            ++st.dabs_off_scalp;
            return;
        }
        glm::vec2 hp;
        float z = 0.0f;
        if (!view.project(hit->point_m, hp, z)) return;
        const glm::vec3 at0 = view.unproject(hp, z);
        const float r = glm::length(view.unproject(hp + glm::vec2(s.radius_px, 0.0f), z) - at0);
        glm::vec3 dir_m(0.0f);
        if (glm::length(dir_px) > 0.0f) dir_m = view.unproject(hp + glm::normalize(dir_px) * s.radius_px, z) - at0;
        glm::vec3 c = hit->point_m;
        if (mirror) {
            c.x = 2.0f * symmetry_plane_x - c.x;
            dir_m.x = -dir_m.x;
        }
        if (!(r > 0.0f) || !std::isfinite(r)) return;
        for (size_t v = 0; v < mesh.vertex_count(); ++v) {
            const glm::vec3 p = mesh.positions[v];
            const float d = glm::length(p - c);
            if (!(d < r)) continue;
            if (s.front_faces_only) {
                // The vertex faces the camera (its mirror image does, for the mirrored dab).
                glm::vec3 q = p, n = normals[v];
                if (mirror) {
                    q.x = 2.0f * symmetry_plane_x - q.x;
                    n.x = -n.x;
                }
                if (glm::dot(n, view.eye_os_m - q) <= 0.0f) continue;
            }
            const float w = s.strength * brush_falloff(s.falloff, d / r);
            if (!(w > 0.0f)) continue;
            if (s.layer == PaintLayer::Comb) {
                glm::vec4& cv = paint.comb[v];
                glm::vec4 goal(0.0f);
                if (!s.invert) {
                    const glm::vec3 n = normals[v];
                    glm::vec3 t = dir_m - n * glm::dot(dir_m, n);
                    if (!(glm::length(t) > 1e-9f)) continue;
                    goal = glm::vec4(glm::normalize(t) * s.value, 1.0f);
                }
                const glm::vec4 next = cv + (goal - cv) * w;
                if (next != cv) {
                    cv = next;
                    changed[v] = 1;
                }
            } else {
                float& x = (*scalar_layer(paint, s.layer))[v];
                const float next = x + (target - x) * w;
                if (next != x) {
                    x = next;
                    changed[v] = 1;
                }
            }
        }
    };

    // Dabs every spacing x radius pixels along the polyline, each with its segment's direction.
    const float step = s.spacing * s.radius_px;
    auto both = [&](glm::vec2 px, glm::vec2 dir) {
        ++st.dabs;
        if (s.layer != PaintLayer::Comb || glm::length(dir) > 0.0f) {
            dab(px, dir, false);
            if (s.symmetry_x) dab(px, dir, true);
        }
    };
    both(points_px[0], points_px.size() > 1 ? points_px[1] - points_px[0] : glm::vec2(0.0f));
    float carried = 0.0f;
    for (size_t k = 1; k < points_px.size(); ++k) {
        const glm::vec2 a = points_px[k - 1], b = points_px[k];
        const float len = glm::length(b - a);
        if (!(len > 0.0f)) continue;
        float at = step - carried;
        for (; at <= len; at += step) both(a + (b - a) * (at / len), b - a);
        carried = len - (at - step);
    }
    st.vertices_changed = size_t(std::count(changed.begin(), changed.end(), uint8_t(1)));
    return st;
}

Status paint_part_curve(ScalpPaint& paint, const Mesh& mesh, std::span<const glm::vec3> curve_m, float amount) {
    auto bad = [](const std::string& m) { return make_error(ErrorCode::InvalidArgument, "part: " + m); };
    if (!(amount >= 0.0f && amount <= 1.0f)) return bad("the comb amount must be in [0, 1]");
    TRESSEL_TRY(check_paint_mesh(paint, mesh, "part"));
    // The curve without repeated points.
    std::vector<glm::vec3> c;
    float length = 0.0f;
    for (const glm::vec3& p : curve_m) {
        if (!(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))) return bad("a point of the curve is not finite");
        if (!c.empty() && glm::length(p - c.back()) < 1e-5f) continue;
        if (!c.empty()) length += glm::length(p - c.back());
        c.push_back(p);
    }
    if (c.size() < 2 || length < 1e-3f) return bad("the line is too short (under a millimetre)");
    start_layer(paint, PaintLayer::Comb, nullptr);
    const std::vector<glm::vec3> normals = vertex_normals(mesh);
    const size_t last = c.size() - 2;
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const glm::vec3 p = mesh.positions[v];
        // Nearest point over the segments, the first and last extended into rays.
        float best = std::numeric_limits<float>::max();
        glm::vec3 q(0.0f), t(1.0f, 0.0f, 0.0f);
        for (size_t s = 0; s + 1 < c.size(); ++s) {
            const glm::vec3 a = c[s], e = c[s + 1] - c[s];
            float u = glm::dot(p - a, e) / glm::dot(e, e);
            if (s > 0) u = std::max(u, 0.0f);
            if (s < last) u = std::min(u, 1.0f);
            const glm::vec3 x = a + e * u;
            const float d = glm::length(p - x);
            if (d < best) {
                best = d;
                q = x;
                t = glm::normalize(e);
            }
        }
        const glm::vec3 n = normals[v];
        glm::vec3 away = glm::cross(t, n);
        if (!(glm::length(away) > 1e-6f)) continue;  // the curve runs along the normal here: no side
        away = glm::normalize(away);
        if (glm::dot(p - q, away) < 0.0f) away = -away;
        paint.comb[v] = glm::vec4(away * amount, 1.0f);
    }
    return {};
}

bool polyline_is_straight(std::span<const glm::vec2> pts) {
    if (pts.size() < 3) return true;
    const glm::vec2 a = pts.front(), b = pts.back();
    const float chord = glm::length(b - a);
    if (!(chord > 0.0f)) return false;
    const glm::vec2 dir = (b - a) / chord;
    float worst = 0.0f;
    for (const glm::vec2& p : pts) {
        const glm::vec2 r = p - a;
        worst = std::max(worst, std::abs(r.x * dir.y - r.y * dir.x));
    }
    return worst <= std::max(4.0f, 0.03f * chord);
}

std::vector<uint8_t> paint_difference(const ScalpPaint& a, const ScalpPaint& b) {
    const size_t n = std::max(a.vertex_count, b.vertex_count);
    std::vector<uint8_t> d(n, 0);
    auto scalar = [&](const std::vector<float>& x, const std::vector<float>& y, float neutral_value) {
        for (size_t v = 0; v < n; ++v) {
            const float xv = v < x.size() ? x[v] : neutral_value, yv = v < y.size() ? y[v] : neutral_value;
            if (std::memcmp(&xv, &yv, 4) != 0) d[v] = 1;
        }
    };
    scalar(a.mask, b.mask, 1.0f);
    scalar(a.density, b.density, 1.0f);
    scalar(a.length, b.length, 1.0f);
    for (size_t v = 0; v < n; ++v) {
        const glm::vec4 x = v < a.comb.size() ? a.comb[v] : glm::vec4(0.0f), y = v < b.comb.size() ? b.comb[v] : glm::vec4(0.0f);
        if (std::memcmp(&x, &y, 16) != 0) d[v] = 1;
    }
    return d;
}

std::vector<uint8_t> encode_paint(const ScalpPaint& p) {
    std::vector<uint8_t> out;
    bytes::Writer w{out};
    out.resize(8);
    std::memcpy(out.data(), kPaintFileMagic, 8);
    w.put(kPaintFileVersion);
    w.put(p.vertex_count);
    w.put(p.triangle_count);
    uint32_t layers = 0;
    for (PaintLayer l : kAllPaintLayers)
        if (p.has(l)) layers |= 1u << uint32_t(l);
    w.put(layers);
    w.floats(p.mask.data(), p.mask.size());
    w.floats(p.density.data(), p.density.size());
    w.floats(p.length.data(), p.length.size());
    if (!p.comb.empty()) w.floats(&p.comb.data()->x, 4 * p.comb.size());
    w.seal();
    return out;
}

Result<ScalpPaint> decode_paint(const std::vector<uint8_t>& b, const std::string& name) {
    auto parse = [&](const std::string& what) { return make_error(ErrorCode::Parse, name + ": " + what); };
    if (b.size() < kPaintHeaderBytes + 8 || std::memcmp(b.data(), kPaintFileMagic, 8) != 0) return parse("not a Tressel scalp paint file (no TRSLPNT header)");
    bytes::Reader r{b, 8};
    uint32_t version = 0, layers = 0;
    ScalpPaint p;
    r.take(&version, 4);
    r.take(&p.vertex_count, 4);
    r.take(&p.triangle_count, 4);
    r.take(&layers, 4);
    if (version > kPaintFileVersion)
        return make_error(ErrorCode::Unsupported, name + ": scalp paint file version " + std::to_string(version) + " is newer than this Tressel reads (" +
                                                      std::to_string(kPaintFileVersion) + ")");
    if (layers & ~0xFu) return parse("unknown layer bits " + std::to_string(layers));
    uint64_t floats_per_vertex = 0;
    for (PaintLayer l : kAllPaintLayers)
        if (layers & (1u << uint32_t(l))) floats_per_vertex += l == PaintLayer::Comb ? 4 : 1;
    const uint64_t expected = kPaintHeaderBytes + 4ull * floats_per_vertex * p.vertex_count + 8;
    if (expected != b.size())
        return parse("truncated or corrupt: the header promises " + std::to_string(p.vertex_count) + " vertices (" + std::to_string(expected) +
                     " bytes), the file has " + std::to_string(b.size()) + " bytes");
    if (!bytes::sealed(b)) return parse("checksum mismatch: the file was changed or damaged after it was written");
    auto read_scalar = [&](PaintLayer l, std::vector<float>& v, float lo, float hi) -> Status {
        if (!(layers & (1u << uint32_t(l)))) return {};
        v.resize(p.vertex_count);
        r.take(v.data(), 4 * v.size());
        for (size_t i = 0; i < v.size(); ++i)
            if (!(v[i] >= lo && v[i] <= hi))
                return parse(std::string(paint_layer_name(l)) + " of vertex " + std::to_string(i) + " is outside [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + "] or not finite");
        return {};
    };
    TRESSEL_TRY(read_scalar(PaintLayer::Mask, p.mask, 0.0f, 1.0f));
    TRESSEL_TRY(read_scalar(PaintLayer::Density, p.density, 0.0f, kPaintDensityMax));
    TRESSEL_TRY(read_scalar(PaintLayer::Length, p.length, kPaintLengthMin, kPaintLengthMax));
    if (layers & (1u << uint32_t(PaintLayer::Comb))) {
        p.comb.resize(p.vertex_count);
        r.take(p.comb.data(), 16 * p.comb.size());
        for (size_t i = 0; i < p.comb.size(); ++i) {
            const glm::vec4 c = p.comb[i];
            if (!(std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.z) && glm::length(glm::vec3(c)) <= 1.001f && c.w >= 0.0f && c.w <= 1.0f))
                return parse("comb of vertex " + std::to_string(i) + " is longer than 1, has a coverage outside [0, 1] or is not finite");
        }
    }
    return p;
}

Result<ScalpPaint> load_paint_file(const std::filesystem::path& path, const Mesh* mesh) {
    auto b = read_file_bytes(path);
    if (!b) return b.error();
    auto p = decode_paint(*b, path.string());
    if (!p) return p.error();
    if (mesh) TRESSEL_TRY(check_paint_mesh(*p, *mesh, path.string()));
    return p;
}

Status save_paint_file(const std::filesystem::path& path, const ScalpPaint& p) {
    const std::vector<uint8_t> b = encode_paint(p);
    return write_file_atomic(path, std::span<const uint8_t>(b));
}

bool bit_identical(const ScalpPaint& a, const ScalpPaint& b) { return encode_paint(a) == encode_paint(b); }

}  // namespace tressel
