#include "groom/shape.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "groom/det_math.h"
#include "groom/rng.h"
#include "groom/scalp_paint.h"

namespace tressel {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

glm::dvec3 any_perpendicular(const glm::dvec3& d) {
    const glm::dvec3 ref = std::abs(d.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 0, 1);
    return glm::normalize(glm::cross(d, ref));
}

// Rodrigues rotation of v about unit axis k by angle a.
glm::dvec3 rotate(const glm::dvec3& v, const glm::dvec3& k, double a) {
    double s, c;
    det::sincos(a, &s, &c);
    return v * c + glm::cross(k, v) * s + k * glm::dot(k, v) * (1.0 - c);
}

struct StrandFrame {
    glm::dvec3 d, e1, e2;     // growth direction and the perpendicular axes curl/wave are measured in
    glm::dvec3 bend_axis;     // droop rotates about this axis
    double bend_total = 0.0;  // droop angle reached at the tip (radians)
};

}  // namespace

Status validate_shape(const Growth& g) {
    auto bad = [](const std::string& m) { return Status(make_error(ErrorCode::InvalidArgument, m)); };
    if (!(g.length_m > 0.0) || !std::isfinite(g.length_m))
        return bad("growth.length_m " + std::to_string(g.length_m) + " must be a positive length in metres");
    if (g.vertices_per_strand < 2 || g.vertices_per_strand > 256)
        return bad("growth.vertices_per_strand " + std::to_string(g.vertices_per_strand) + " must be in 2..256");
    if (!(g.length_variation >= 0.0 && g.length_variation < 1.0))
        return bad("growth.length_variation " + std::to_string(g.length_variation) + " must be in [0, 1)");
    if (!(g.comb >= 0.0 && g.comb <= 1.0)) return bad("growth.comb " + std::to_string(g.comb) + " must be in [0, 1]");
    if (g.comb > 0.0 && !(glm::length(g.comb_direction) > 1e-12))
        return bad("growth.comb_direction must be non-zero when growth.comb > 0");
    if (!(g.curl_radius_m >= 0.0)) return bad("growth.curl_radius_m must be >= 0");
    if (g.curl_radius_m > 0.0 && !(g.curl_pitch_m > 0.0))
        return bad("growth.curl_pitch_m " + std::to_string(g.curl_pitch_m) + " must be > 0 when curl_radius_m > 0");
    if (!(g.wave_amplitude_m >= 0.0)) return bad("growth.wave_amplitude_m must be >= 0");
    if (g.wave_amplitude_m > 0.0 && !(g.wave_frequency > 0.0))
        return bad("growth.wave_frequency " + std::to_string(g.wave_frequency) + " must be > 0 when wave_amplitude_m > 0");
    if (!(g.droop >= 0.0 && g.droop <= 1.0)) return bad("growth.droop " + std::to_string(g.droop) + " must be in [0, 1]");
    if (!(g.tip_width_scale >= 0.0)) return bad("growth.tip_width_scale must be >= 0");
    return {};
}

glm::dvec3 root_comb_direction(const Growth& g, glm::dvec3 comb_dir, glm::dvec3 root, glm::dvec3 normal) {
    glm::dvec3 c = comb_dir;
    const bool part = g.part == PartMode::Plane && glm::length(g.part_normal) > 1e-12;
    if (part) {
        const glm::dvec3 pn = glm::normalize(g.part_normal);
        c = glm::dot(root - g.part_point_m, pn) >= 0.0 ? pn : -pn;
    }
    if (g.comb_space != CombSpace::Surface && !part) return c;
    // Into the tangent plane. Where the comb points (nearly) straight out of or into the scalp, the hair is
    // combed down the surface instead (gravity laid into the tangent plane), blended in smoothly.
    glm::dvec3 t = c - normal * glm::dot(normal, c);
    const glm::dvec3 down = glm::dvec3(0.0, -1.0, 0.0) - normal * -normal.y;
    const double lt = glm::length(t);
    if (lt < 0.5) t += down * (0.5 - lt) * 2.0;
    if (glm::length(t) < 1e-9) t = any_perpendicular(normal);
    return glm::normalize(t);
}

Status shape_guides(const ShapeInputs& in, Strands& out, Diagnostics& diag) {
    TRESSEL_ASSERT(in.roots != nullptr, "ShapeInputs::roots must point at the placed roots");
    TRESSEL_TRY(validate_shape(in.growth));
    const Growth& g = in.growth;
    const RootSet& roots = *in.roots;
    const uint32_t n = uint32_t(g.vertices_per_strand);
    const bool shaped = g.curl_radius_m > 0.0 || g.wave_amplitude_m > 0.0;
    const glm::dvec3 comb_dir = g.comb > 0.0 ? glm::normalize(g.comb_direction) : glm::dvec3(0.0);
    const glm::dvec3 gravity(0.0, -1.0, 0.0);
    // Dense samples per metre of centreline for curl / wave: 48 per turn or wave.
    const double features_per_m = std::max(g.curl_radius_m > 0.0 ? 1.0 / g.curl_pitch_m : 0.0,
                                           g.wave_amplitude_m > 0.0 ? g.wave_frequency : 0.0);
    size_t clamped_lengths = 0;

    out.points_os_m.reserve(out.points_os_m.size() + roots.size() * n);
    out.widths_m.reserve(out.widths_m.size() + roots.size() * n);
    std::vector<glm::dvec3> pts(n);
    for (size_t i = 0; i < roots.size(); ++i) {
        auto rng = groom_rng::item_rng(in.seed, groom_rng::kStreamShape, i);
        const uint32_t strand_seed = rng.next_u32();
        const double u_len = rng.next_double();
        const double curl_phase = rng.next_double() * kTwoPi;

        double length = g.length_m * (1.0 + g.length_variation * (2.0 * u_len - 1.0));
        if (in.length_map) {
            double scale = in.length_map->sample(roots.uvs[i], 0);
            if (scale < 0.01) {
                scale = 0.01;
                ++clamped_lengths;
            }
            length *= scale;
        }
        const bool painted = in.paint && in.scalp;
        if (painted && !in.paint->length.empty()) length *= double(paint_length_at(*in.paint, *in.scalp, roots.roots[i]));
        const double h = length / double(n - 1);

        StrandFrame f;
        const glm::dvec3 normal = glm::normalize(glm::dvec3(roots.normals[i]));
        const glm::dvec3 root_comb = root_comb_direction(g, comb_dir, glm::dvec3(roots.points_m[i]), normal);
        glm::dvec3 comb_to = root_comb;
        double comb = g.comb;
        if (painted && !in.paint->comb.empty()) {
            // The painted comb (direction x amount, and its coverage w) replaces the procedural one by w.
            const glm::vec4 c = paint_comb_at(*in.paint, *in.scalp, roots.roots[i]);
            const double w = std::clamp(double(c.w), 0.0, 1.0);
            if (w > 1e-6) {
                glm::dvec3 v = glm::dvec3(c) / w;
                v -= normal * glm::dot(v, normal);
                const double amount = std::min(glm::length(v), 1.0);
                if (amount > 1e-9) {
                    const glm::dvec3 mixed = root_comb * (1.0 - w) + glm::normalize(v) * w;
                    comb_to = glm::length(mixed) > 1e-9 ? glm::normalize(mixed) : glm::normalize(v);
                }
                comb = g.comb * (1.0 - w) + amount * w;
            }
        }
        glm::dvec3 dir = normal * (1.0 - comb) + comb_to * comb;
        f.d = glm::length(dir) > 1e-9 ? glm::normalize(dir) : normal;
        glm::dvec3 side = glm::length(g.wave_axis) > 1e-12 ? glm::dvec3(g.wave_axis)
                                                            : glm::cross(f.d, comb > 0.0 ? comb_to : glm::dvec3(0, -1, 0));
        side -= f.d * glm::dot(side, f.d);
        f.e1 = glm::length(side) > 1e-9 ? glm::normalize(side) : any_perpendicular(f.d);
        f.e2 = glm::cross(f.d, f.e1);
        const glm::dvec3 axis = glm::cross(f.d, gravity);
        f.bend_axis = glm::length(axis) > 1e-9 ? glm::normalize(axis) : any_perpendicular(f.d);
        f.bend_total = g.droop * det::acos(glm::dot(f.d, gravity));
        // Bend angle after centreline length s: fastest near the root, as a cantilever bends.
        auto bend = [&](double s) {
            const double t = std::min(s / length, 1.0);
            return f.bend_total * (1.0 - (1.0 - t) * (1.0 - t));
        };

        const glm::dvec3 root(roots.points_m[i]);
        pts[0] = root;
        if (!shaped) {
            for (uint32_t k = 1; k < n; ++k) {
                const glm::dvec3 t = f.bend_total > 0.0 ? rotate(f.d, f.bend_axis, bend((k - 0.5) * h)) : f.d;
                pts[k] = pts[k - 1] + t * h;
            }
        } else {
            // Trace the curve C(s) = B(s) + R(s) (curl(s) + wave(s)) over centreline length s, where B is
            // the drooped centreline and R the droop rotation, then walk it with chords of length h.
            const double ds = std::min(h / 4.0, 1.0 / (48.0 * features_per_m));
            glm::dvec3 centre = root;
            double s = 0.0;
            auto offset = [&](double at) {
                glm::dvec3 o(0.0);
                if (g.curl_radius_m > 0.0) {
                    const double th = kTwoPi * at / g.curl_pitch_m + curl_phase;
                    o += g.curl_radius_m * ((det::cos(th) - det::cos(curl_phase)) * f.e1 + (det::sin(th) - det::sin(curl_phase)) * f.e2);
                }
                if (g.wave_amplitude_m > 0.0) o += g.wave_amplitude_m * det::sin(kTwoPi * g.wave_frequency * at) * f.e1;
                return f.bend_total > 0.0 ? rotate(o, f.bend_axis, bend(at)) : o;
            };
            glm::dvec3 a = root;  // start of the current dense segment (or the last output point on it)
            uint32_t k = 1;
            const size_t max_steps = size_t(4) << 20;
            for (size_t step = 0; step < max_steps && k < n; ++step) {
                const double mid = s + 0.5 * ds;
                centre += (f.bend_total > 0.0 ? rotate(f.d, f.bend_axis, bend(mid)) : f.d) * ds;
                s += ds;
                const glm::dvec3 b = centre + offset(s);
                // Output points where the chord from the previous output point reaches length h.
                while (k < n) {
                    const glm::dvec3 e = a - pts[k - 1], dv = b - a;
                    if (glm::dot(b - pts[k - 1], b - pts[k - 1]) < h * h) break;
                    const double dd = glm::dot(dv, dv), de = glm::dot(dv, e), ee = glm::dot(e, e);
                    const double t = (-de + std::sqrt(std::max(0.0, de * de - dd * (ee - h * h)))) / dd;
                    const glm::dvec3 q = a + dv * std::clamp(t, 0.0, 1.0);
                    // Exact chord length despite rounding in t.
                    pts[k] = pts[k - 1] + glm::normalize(q - pts[k - 1]) * h;
                    a = pts[k];
                    ++k;
                }
                a = b;
            }
            if (k < n)
                return make_error(ErrorCode::InvalidArgument,
                                  "growth: the curl / wave shape is too dense to trace (curl_pitch_m or wave_frequency)");
        }
        for (uint32_t k = 0; k < n; ++k) {
            out.points_os_m.push_back(glm::vec3(pts[k]));
            const double t = double(k) / double(n - 1);
            out.widths_m.push_back(taper_width(in.root_width_m, g.tip_width_scale, t));
        }
        out.strand_offsets.push_back(uint32_t(out.points_os_m.size()));
        out.roots.push_back(roots.roots[i]);
        out.seeds.push_back(strand_seed);
        out.flags.push_back(0u);
    }
    if (clamped_lengths > 0)
        diag.info("growth.length_map", std::to_string(clamped_lengths) +
                                           " strands fall on black in the length map; kept at 1% of the length");
    return {};
}

}  // namespace tressel
