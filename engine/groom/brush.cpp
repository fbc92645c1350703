#include "groom/brush.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "groom/placement.h"
#include "groom/rng.h"
#include "groom/shape.h"
#include "scene/scene_enums.h"
#include "sdf/sdf.h"

namespace tressel {
// Named, not anonymous: BrushStroke::Impl (declared in the header) holds a StrokeRun built from these.
namespace brush_detail {

constexpr float kMinStrandLength_m = 1e-3f;   // grow / cut never leave a strand shorter than this
constexpr float kMaxStrandLength_m = 10.0f;   // nor grow one longer than this (growth.length's upper bound)

// The mirror image across x = cx (identity when off): points and directions.
struct Mirror {
    bool on = false;
    float cx = 0.0f;
    glm::vec3 point(glm::vec3 p) const { return on ? glm::vec3(2.0f * cx - p.x, p.y, p.z) : p; }
    glm::vec3 dir(glm::vec3 d) const { return on ? glm::vec3(-d.x, d.y, d.z) : d; }
};

// Screen positions of every point (through the mirror), and each strand's screen bounds.
struct ScreenCache {
    std::vector<glm::vec2> px;
    std::vector<float> z;
    std::vector<uint8_t> visible;   // in front of the camera
    std::vector<glm::vec4> bounds;  // per strand: min x, min y, max x, max y of its visible points
    void resize(size_t strands, size_t points) {
        px.resize(points);
        z.resize(points);
        visible.resize(points);
        bounds.resize(strands);
    }
};

struct Dab {
    glm::vec2 centre;
    glm::vec2 delta;  // to the next dab (comb's drag); zero for the last
};

float segment_length(const glm::vec3& a, const glm::vec3& b) { return glm::length(b - a); }

// Gives every segment of strand `p` (n points) back its length `len[k]` (segment k - 1 .. k), walking from
// the root: each point is placed along the direction from its (already placed) parent.
void restore_lengths(glm::vec3* p, const float* len, uint32_t n) {
    glm::vec3 last_dir(0.0f, 1.0f, 0.0f);
    for (uint32_t k = 1; k < n; ++k) {
        glm::vec3 d = p[k] - p[k - 1];
        const float l = glm::length(d);
        d = l > 1e-12f ? d / l : last_dir;
        last_dir = d;
        p[k] = p[k - 1] + d * len[k];
    }
}

// Places n points at equal arc length over the first `length` metres of polyline `src` (n points),
// extended along its last segment when `length` is longer than the polyline.
void resample_to_length(const glm::vec3* src, uint32_t n, float length, glm::vec3* out) {
    std::vector<float> cum(n, 0.0f);
    for (uint32_t k = 1; k < n; ++k) cum[k] = cum[k - 1] + segment_length(src[k - 1], src[k]);
    glm::vec3 tip_dir = src[n - 1] - src[n - 2];
    const float tl = glm::length(tip_dir);
    tip_dir = tl > 1e-12f ? tip_dir / tl : glm::vec3(0.0f, -1.0f, 0.0f);
    std::vector<glm::vec3> res(n);
    uint32_t seg = 1;
    for (uint32_t k = 0; k < n; ++k) {
        const float s = length * float(k) / float(n - 1);
        if (s >= cum[n - 1]) {
            res[k] = src[n - 1] + tip_dir * (s - cum[n - 1]);
            continue;
        }
        while (seg < n - 1 && cum[seg] < s) ++seg;
        const float l = cum[seg] - cum[seg - 1];
        const float u = l > 0.0f ? (s - cum[seg - 1]) / l : 0.0f;
        res[k] = src[seg - 1] + (src[seg] - src[seg - 1]) * std::clamp(u, 0.0f, 1.0f);
    }
    res[0] = src[0];
    std::copy(res.begin(), res.end(), out);
}

float strand_length(const glm::vec3* p, uint32_t n) {
    float l = 0.0f;
    for (uint32_t k = 1; k < n; ++k) l += segment_length(p[k - 1], p[k]);
    return l;
}

// Screen-space intersection of segments a0-a1 and b0-b1: the parameter along a, or -1.
float cross_param(glm::vec2 a0, glm::vec2 a1, glm::vec2 b0, glm::vec2 b1) {
    const glm::vec2 r = a1 - a0, s = b1 - b0;
    const float den = r.x * s.y - r.y * s.x;
    if (std::abs(den) < 1e-12f) return -1.0f;
    const glm::vec2 q = b0 - a0;
    const float t = (q.x * s.y - q.y * s.x) / den;
    const float u = (q.x * r.y - q.y * r.x) / den;
    return (t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f) ? t : -1.0f;
}

// Möller-Trumbore: distance along the ray to the triangle, or a negative value.
float ray_triangle(glm::vec3 o, glm::vec3 d, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3& bary) {
    const glm::vec3 e1 = b - a, e2 = c - a, p = glm::cross(d, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-14f) return -1.0f;
    const float inv = 1.0f / det;
    const glm::vec3 t = o - a;
    const float u = glm::dot(t, p) * inv;
    if (u < 0.0f || u > 1.0f) return -1.0f;
    const glm::vec3 q = glm::cross(t, e1);
    const float v = glm::dot(d, q) * inv;
    if (v < 0.0f || u + v > 1.0f) return -1.0f;
    bary = glm::vec3(1.0f - u - v, u, v);
    return glm::dot(e2, q) * inv;
}


class StrokeRun {
public:
    StrokeRun(Strands& g, const BrushTarget& t, const BrushView& v, const BrushSettings& s, uint32_t n)
        : g_(g), t_(t), v_(v), s_(s), n_(n), clip_to_object_(glm::inverse(v.object_to_clip)) {}

    // Projects every strand (and its mirror image with symmetry on): the screen caches the dabs read.
    void begin(const Mirror& mirror) {
        mirror_ = mirror;
        for (int on = 0; on < (s_.symmetry_x ? 2 : 1); ++on) {
            m_ = on ? mirror_ : Mirror{};
            project_all();
        }
        m_ = Mirror{};
    }

    // Adds stroke points: applies every dab (and knife segment) they make due. A dab is applied once the
    // next one is known (comb drags toward it); finish() applies the last.
    void extend(std::span<const glm::vec2> points) {
        const float step = std::max(1.0f, s_.spacing * s_.radius_px);
        for (const glm::vec2& p : points) {
            if (!have_last_) {
                have_last_ = true;
                last_ = p;
                pending_ = p;
                have_pending_ = true;
                continue;
            }
            if (s_.type == BrushType::Cut) both([&] { cut_segment(last_, p); });
            const float len = glm::length(p - last_);
            float at = step - carry_;
            while (at <= len) {
                next_dab(last_ + (p - last_) * (at / len));
                at += step;
            }
            carry_ = len - (at - step);
            last_ = p;
        }
        flush_removed();
    }

    void finish() {
        if (have_last_ && have_pending_ && glm::length(last_ - pending_) > 1e-3f) next_dab(last_);
        if (have_pending_) {
            const Dab d{pending_, glm::vec2(0.0f)};
            if (s_.type != BrushType::Cut) both([&] { dab(d, stats.dabs); });
            ++stats.dabs;
            have_pending_ = false;
        }
        flush_removed();
    }

    // Segment lengths of every strand before the stroke (restore_lengths' targets).
    void capture_lengths() {
        len_.assign(g_.point_count(), 0.0f);
        for (size_t s = 0; s < g_.strand_count(); ++s) {
            const glm::vec3* p = &g_.points_os_m[g_.strand_offsets[s]];
            for (uint32_t k = 1; k < n_; ++k) len_[g_.strand_offsets[s] + k] = segment_length(p[k - 1], p[k]);
        }
        changed_.assign(g_.strand_count(), 0);
    }

    StrokeStats stats;
    std::vector<uint8_t> changed_;  // per strand (original indices, added strands appended)

private:
    // Runs `f` as the stroke, then as its mirror image when symmetry is on.
    template <class F>
    void both(F&& f) {
        m_ = Mirror{};
        f();
        if (s_.symmetry_x) {
            m_ = mirror_;
            f();
            m_ = Mirror{};
        }
    }

    void next_dab(glm::vec2 centre) {
        const Dab d{pending_, centre - pending_};
        if (s_.type != BrushType::Cut) both([&] { dab(d, stats.dabs); });
        ++stats.dabs;
        pending_ = centre;
    }

    void flush_removed() {
        if (!removed_.empty()) remove_marked();
    }

    ScreenCache& sc() { return cache_[m_.on ? 1 : 0]; }
    const ScreenCache& sc() const { return cache_[m_.on ? 1 : 0]; }
    std::vector<uint8_t>& front() { return front_cache_[m_.on ? 1 : 0]; }

    glm::vec3* pts(size_t s) { return &g_.points_os_m[g_.strand_offsets[s]]; }

    glm::vec3 root_normal(size_t s) const { return attachment_normal(*t_.scalp, g_.roots[s]); }

    bool faces_camera(size_t s) const {
        if (!s_.front_faces_only) return true;
        const glm::vec3 root = m_.point(g_.points_os_m[g_.strand_offsets[s]]);
        return glm::dot(m_.dir(root_normal(s)), v_.eye_os_m - root) > 0.0f;
    }

    void project_strand(size_t s) {
        glm::vec4 b(std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                    -std::numeric_limits<float>::max());
        const size_t o = g_.strand_offsets[s];
        for (uint32_t k = 0; k < n_; ++k) {
            glm::vec2 px;
            float z = 0.0f;
            const bool vis = v_.project(m_.point(g_.points_os_m[o + k]), px, z);
            sc().px[o + k] = px;
            sc().z[o + k] = z;
            sc().visible[o + k] = vis ? 1 : 0;
            if (vis) b = glm::vec4(glm::min(glm::vec2(b), px), glm::max(glm::vec2(b.z, b.w), px));
        }
        sc().bounds[s] = b;
    }

    void project_all() {
        sc().resize(g_.strand_count(), g_.point_count());
        front().resize(g_.strand_count());
        for (size_t s = 0; s < g_.strand_count(); ++s) {
            project_strand(s);
            front()[s] = faces_camera(s) ? 1 : 0;
        }
    }

    bool near_bounds(size_t s, glm::vec2 c, float r) const {
        const glm::vec4& b = sc().bounds[s];
        return c.x + r >= b.x && c.x - r <= b.z && c.y + r >= b.y && c.y - r <= b.w;
    }

    float weight(size_t point, glm::vec2 c) const {
        if (!sc().visible[point]) return 0.0f;
        const float d = glm::length(sc().px[point] - c);
        if (d >= s_.radius_px) return 0.0f;
        return brush_falloff(s_.falloff, d / s_.radius_px) * s_.strength;
    }

    // The object-space move that carries point `i` by `dpx` pixels on screen at its depth.
    glm::vec3 unproject(glm::vec2 px, float ndc_z) const {
        const glm::vec2 ndc = px / v_.viewport_px * 2.0f - 1.0f;
        const glm::vec4 p = clip_to_object_ * glm::vec4(ndc, ndc_z, 1.0f);
        return glm::vec3(p) / p.w;
    }

    glm::vec3 screen_move(size_t i, glm::vec2 dpx) const {
        const glm::vec3 a = unproject(sc().px[i], sc().z[i]), b = unproject(sc().px[i] + dpx, sc().z[i]);
        return m_.dir(b - a);
    }

    void finish_strand(size_t s) {
        restore_lengths(pts(s), &len_[g_.strand_offsets[s]], n_);
        stats.points_pushed_out += push_strand_out(g_, s, t_.colliders);
        changed_[s] = 1;
        reproject(s);
    }

    // The strand in every screen cache (its mirror image's too).
    void reproject(size_t s) {
        const Mirror keep = m_;
        for (int on = 0; on < (s_.symmetry_x ? 2 : 1); ++on) {
            m_ = on ? mirror_ : Mirror{};
            project_strand(s);
        }
        m_ = keep;
    }

    void resize_strand(size_t s, float new_length) {
        glm::vec3* p = pts(s);
        std::vector<glm::vec3> src(p, p + n_);
        resample_to_length(src.data(), n_, std::clamp(new_length, kMinStrandLength_m, kMaxStrandLength_m), p);
        const size_t o = g_.strand_offsets[s];
        for (uint32_t k = 1; k < n_; ++k) len_[o + k] = segment_length(p[k - 1], p[k]);
        stats.points_pushed_out += push_strand_out(g_, s, t_.colliders);
        changed_[s] = 1;
        reproject(s);
    }

    void dab(const Dab& d, size_t index) {
        const float r = s_.radius_px;
        switch (s_.type) {
            case BrushType::Add:
                if (s_.invert) delete_under(d.centre);
                else add_at(d.centre, index);
                return;
            case BrushType::Delete: delete_under(d.centre); return;
            default: break;
        }
        const size_t strands = g_.strand_count();
        for (size_t s = 0; s < strands; ++s) {
            if (!front()[s] || removed(s) || !near_bounds(s, d.centre, r)) continue;
            const size_t o = g_.strand_offsets[s];
            glm::vec3* p = pts(s);
            bool moved = false;
            switch (s_.type) {
                case BrushType::Comb: {
                    // Points under the brush move with it; points tipward of them keep the move of the last
                    // point the brush held (the rest of the strand is carried, not left behind), and the
                    // length pass then turns each segment back to its length.
                    if (d.delta == glm::vec2(0.0f)) break;
                    glm::vec3 carried(0.0f);
                    for (uint32_t k = 1; k < n_; ++k) {
                        const float w = weight(o + k, d.centre);
                        if (w > 0.0f) {
                            carried = screen_move(o + k, d.delta * w);
                            moved = true;
                        }
                        p[k] += carried;
                    }
                    break;
                }
                case BrushType::Smooth: {
                    std::vector<glm::vec3> q(p, p + n_);
                    for (uint32_t k = 1; k + 1 < n_; ++k) {
                        const float w = weight(o + k, d.centre);
                        if (w <= 0.0f) continue;
                        p[k] = q[k] + (0.5f * (q[k - 1] + q[k + 1]) - q[k]) * (0.5f * w);
                        moved = true;
                    }
                    break;
                }
                case BrushType::Grow: {
                    float w = 0.0f;
                    for (uint32_t k = 0; k < n_; ++k) w = std::max(w, weight(o + k, d.centre));
                    if (w <= 0.0f) break;
                    const float factor = s_.invert ? 1.0f / (1.0f + 0.1f * w) : 1.0f + 0.1f * w;
                    resize_strand(s, strand_length(p, n_) * factor);
                    break;
                }
                case BrushType::Puff: {
                    const float w = weight(o, d.centre);  // at the root
                    if (w <= 0.0f) break;
                    const glm::vec3 nrm = root_normal(s);
                    std::vector<glm::vec3> q(p, p + n_);
                    for (uint32_t k = 1; k < n_; ++k) {
                        glm::vec3 dir = q[k] - q[k - 1];
                        const float l = glm::length(dir);
                        if (l <= 1e-12f) continue;
                        dir /= l;
                        const float t = float(k - 1) / float(n_ - 1);
                        const float a = 0.5f * w * (1.0f - t) * (1.0f - t);
                        const glm::vec3 goal = s_.invert ? dir - nrm * glm::dot(dir, nrm) : nrm;
                        glm::vec3 nd = dir + (goal - dir) * a;
                        nd = glm::length(nd) > 1e-9f ? glm::normalize(nd) : dir;
                        p[k] = p[k - 1] + nd * l;
                    }
                    moved = true;
                    break;
                }
                case BrushType::Clump: {
                    // Toward the brush centre on screen (away when inverted), more toward the tip; points
                    // tipward of the brush are carried as comb carries them.
                    glm::vec3 carried(0.0f);
                    for (uint32_t k = 1; k < n_; ++k) {
                        const float w = weight(o + k, d.centre);
                        if (w > 0.0f) {
                            const float t = float(k) / float(n_ - 1);
                            const glm::vec2 to = d.centre - sc().px[o + k];
                            carried = screen_move(o + k, to * (0.5f * w * t * (s_.invert ? -1.0f : 1.0f)));
                            moved = true;
                        }
                        p[k] += carried;
                    }
                    break;
                }
                default: break;
            }
            if (moved) finish_strand(s);
        }
    }

    void cut_segment(glm::vec2 a, glm::vec2 b) {
        {
            const glm::vec2 lo = glm::min(a, b), hi = glm::max(a, b);
            for (size_t s = 0; s < g_.strand_count(); ++s) {
                if (!front()[s]) continue;
                const glm::vec4& bb = sc().bounds[s];
                if (hi.x < bb.x || lo.x > bb.z || hi.y < bb.y || lo.y > bb.w) continue;
                const size_t o = g_.strand_offsets[s];
                glm::vec3* p = pts(s);
                float along = 0.0f;
                for (uint32_t k = 1; k < n_; ++k) {
                    const float l = segment_length(p[k - 1], p[k]);
                    if (sc().visible[o + k - 1] && sc().visible[o + k]) {
                        const float u = cross_param(sc().px[o + k - 1], sc().px[o + k], a, b);
                        if (u >= 0.0f) {
                            resize_strand(s, along + u * l);
                            break;
                        }
                    }
                    along += l;
                }
            }
        }
    }

    bool removed(size_t s) const { return !removed_.empty() && removed_[s]; }

    void delete_under(glm::vec2 c) {
        for (size_t s = 0; s < g_.strand_count(); ++s) {
            if (!front()[s] || removed(s)) continue;
            const float w = weight(g_.strand_offsets[s], c);
            if (w <= 0.0f) continue;
            // Thinning: a strand goes when its own fixed draw is under the weight, so strength 1 with a
            // constant falloff removes every strand under the brush and a second pass removes more.
            auto rng = groom_rng::item_rng(g_.seeds[s], groom_rng::kStreamBrush, 0xde1u);
            if (rng.next_float() >= w) continue;
            if (removed_.empty()) removed_.assign(g_.strand_count(), 0);
            removed_[s] = 1;
        }
    }

    void add_at(glm::vec2 c, size_t index) {
        if (index % std::max<size_t>(1, size_t(std::lround(1.0f / std::max(s_.strength, 0.05f)))) != 0) return;
        auto rng = groom_rng::item_rng(s_.seed, groom_rng::kStreamBrush, (uint64_t(m_.on) << 32) | index);
        const float ang = rng.next_float() * 6.2831853f, rad = 0.5f * s_.radius_px * std::sqrt(rng.next_float());
        const glm::vec2 at = c + rad * glm::vec2(std::cos(ang), std::sin(ang));
        // The ray under the cursor, through the mirror: what the mirrored view shows at `at` is the mirror
        // image of the real scalp point the mirrored ray meets.
        const glm::vec3 a = m_.point(unproject(at, 0.0f)), b = m_.point(unproject(at, 1.0f));
        const glm::vec3 dir = glm::normalize(b - a);
        const Mesh& mesh = *t_.scalp;
        float best = std::numeric_limits<float>::max();
        ScalpAttachment hit;
        bool found = false;
        for (size_t t = 0; t < mesh.triangle_count(); ++t) {
            glm::vec3 bary;
            const float d = ray_triangle(a, dir, mesh.positions[mesh.indices[3 * t]], mesh.positions[mesh.indices[3 * t + 1]],
                                         mesh.positions[mesh.indices[3 * t + 2]], bary);
            if (d > 0.0f && d < best) {
                best = d;
                hit = {uint32_t(t), bary};
                found = true;
            }
        }
        // The nearest hit of the whole mesh must be a region triangle facing the camera.
        if (!found) {
            if (m_.on) ++stats.mirrored_adds_skipped;
            return;
        }
        if (!t_.allowed_triangles.empty() && (hit.triangle >= t_.allowed_triangles.size() || !t_.allowed_triangles[hit.triangle])) return;
        if (glm::dot(attachment_normal(mesh, hit), dir) >= 0.0f) return;
        RootSet roots;
        append_root(mesh, hit, roots);
        ShapeInputs in;
        in.roots = &roots;
        in.growth = *t_.growth;
        in.growth.vertices_per_strand = int(n_);
        in.seed = uint32_t(rng.next_u32());
        Strands fresh;
        Diagnostics diag;
        in.root_width_m = t_.root_width_m > 0.0f ? t_.root_width_m : (g_.widths_m.empty() ? 0.004f : g_.widths_m[0]);
        if (!shape_guides(in, fresh, diag).ok() || fresh.point_count() != n_) return;
        const size_t s = g_.strand_count();
        g_.points_os_m.insert(g_.points_os_m.end(), fresh.points_os_m.begin(), fresh.points_os_m.end());
        g_.strand_offsets.push_back(uint32_t(g_.points_os_m.size()));
        if (!g_.widths_m.empty()) {
            if (fresh.widths_m.size() == n_) g_.widths_m.insert(g_.widths_m.end(), fresh.widths_m.begin(), fresh.widths_m.end());
            else g_.widths_m.insert(g_.widths_m.end(), n_, in.root_width_m);
        }
        if (!g_.colors.empty()) {
            const glm::vec4 col = s > 0 ? g_.colors[g_.strand_offsets[s - 1]] : glm::vec4(1.0f);
            g_.colors.insert(g_.colors.end(), n_, col);
        }
        g_.roots.push_back(hit);
        g_.seeds.push_back(in.seed);
        g_.flags.push_back(0u);
        len_.resize(g_.point_count(), 0.0f);
        for (uint32_t k = 1; k < n_; ++k) len_[g_.strand_offsets[s] + k] = segment_length(g_.points_os_m[g_.strand_offsets[s] + k - 1], g_.points_os_m[g_.strand_offsets[s] + k]);
        stats.points_pushed_out += push_strand_out(g_, s, t_.colliders);
        changed_.push_back(1);
        if (!removed_.empty()) removed_.push_back(0);
        const Mirror keep = m_;
        for (int on = 0; on < (s_.symmetry_x ? 2 : 1); ++on) {
            m_ = on ? mirror_ : Mirror{};
            front().push_back(0);  // a new strand is not brushed again by the same stroke
            sc().resize(g_.strand_count(), g_.point_count());
            project_strand(s);
        }
        m_ = keep;
        ++stats.strands_added;
    }

    void remove_marked() {
        Strands out;
        out.strand_offsets = {0};
        std::vector<float> len;
        std::vector<uint8_t> changed;
        for (size_t s = 0; s < g_.strand_count(); ++s) {
            if (removed_[s]) {
                ++stats.strands_removed;
                continue;
            }
            const size_t o = g_.strand_offsets[s];
            out.points_os_m.insert(out.points_os_m.end(), g_.points_os_m.begin() + o, g_.points_os_m.begin() + o + n_);
            if (!g_.widths_m.empty()) out.widths_m.insert(out.widths_m.end(), g_.widths_m.begin() + o, g_.widths_m.begin() + o + n_);
            if (!g_.colors.empty()) out.colors.insert(out.colors.end(), g_.colors.begin() + o, g_.colors.begin() + o + n_);
            out.strand_offsets.push_back(uint32_t(out.points_os_m.size()));
            out.roots.push_back(g_.roots[s]);
            out.seeds.push_back(g_.seeds[s]);
            out.flags.push_back(g_.flags[s]);
            len.insert(len.end(), len_.begin() + o, len_.begin() + o + n_);
            changed.push_back(changed_[s]);
        }
        // The screen caches the same way: a removal costs a copy, not a projection of every guide.
        for (int on = 0; on < 2; ++on) {
            ScreenCache& c = cache_[on];
            if (c.bounds.size() != g_.strand_count()) continue;
            ScreenCache kept;
            std::vector<uint8_t> kept_front;
            for (size_t st = 0; st < g_.strand_count(); ++st) {
                if (removed_[st]) continue;
                const size_t o = g_.strand_offsets[st];
                kept.px.insert(kept.px.end(), c.px.begin() + o, c.px.begin() + o + n_);
                kept.z.insert(kept.z.end(), c.z.begin() + o, c.z.begin() + o + n_);
                kept.visible.insert(kept.visible.end(), c.visible.begin() + o, c.visible.begin() + o + n_);
                kept.bounds.push_back(c.bounds[st]);
                kept_front.push_back(front_cache_[on][st]);
            }
            c = std::move(kept);
            front_cache_[on] = std::move(kept_front);
        }
        g_ = std::move(out);
        len_ = std::move(len);
        changed_ = std::move(changed);
        removed_.clear();
    }

    Strands& g_;
    const BrushTarget& t_;
    const BrushView& v_;
    const BrushSettings& s_;
    const uint32_t n_;
    const glm::mat4 clip_to_object_;
    Mirror m_, mirror_;
    ScreenCache cache_[2];
    std::vector<uint8_t> front_cache_[2];
    std::vector<uint8_t> removed_;
    bool have_last_ = false, have_pending_ = false;
    glm::vec2 last_{0.0f}, pending_{0.0f};
    float carry_ = 0.0f;
    std::vector<float> len_;
};


bool finite(glm::vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

}  // namespace brush_detail

using namespace brush_detail;

// The names, in enumerator order, through the scene's string <-> enum helpers (scene/scene_enums.h).
template <> struct EnumNames<BrushType> {
    static constexpr std::array<std::string_view, 8> names{"comb", "smooth", "grow", "cut", "puff", "clump", "add", "delete"};
};
template <> struct EnumNames<BrushFalloff> { static constexpr std::array<std::string_view, 4> names{"smooth", "linear", "constant", "sharp"}; };

std::string_view brush_type_name(BrushType t) { return enum_to_string(t); }
std::optional<BrushType> brush_type_from_name(std::string_view name) { return enum_from_string<BrushType>(name); }
std::string_view brush_falloff_name(BrushFalloff f) { return enum_to_string(f); }
std::optional<BrushFalloff> brush_falloff_from_name(std::string_view name) { return enum_from_string<BrushFalloff>(name); }

float brush_falloff(BrushFalloff f, float t) {
    if (!(t < 1.0f)) return 0.0f;
    t = std::max(t, 0.0f);
    switch (f) {
        case BrushFalloff::Smooth: return 1.0f - t * t * (3.0f - 2.0f * t);
        case BrushFalloff::Linear: return 1.0f - t;
        case BrushFalloff::Constant: return 1.0f;
        case BrushFalloff::Sharp: return (1.0f - t) * (1.0f - t);
    }
    return 0.0f;
}

bool BrushView::project(glm::vec3 p, glm::vec2& px, float& ndc_z) const {
    const glm::vec4 c = object_to_clip * glm::vec4(p, 1.0f);
    if (c.w <= 1e-9f) return false;
    const glm::vec3 ndc = glm::vec3(c) / c.w;
    px = (glm::vec2(ndc) * 0.5f + 0.5f) * viewport_px;
    ndc_z = ndc.z;
    return true;
}

glm::vec3 BrushView::unproject(glm::vec2 px, float ndc_z) const {
    const glm::vec2 ndc = px / viewport_px * 2.0f - 1.0f;
    const glm::vec4 p = glm::inverse(object_to_clip) * glm::vec4(ndc, ndc_z, 1.0f);
    return glm::vec3(p) / p.w;
}

BrushView BrushView::look_at(glm::vec3 eye, glm::vec3 target, glm::vec3 up, float fov_y_deg, glm::vec2 viewport_px) {
    BrushView v;
    glm::mat4 proj = glm::perspectiveRH_ZO(glm::radians(fov_y_deg), viewport_px.x / viewport_px.y, 0.01f, 100.0f);
    proj[1][1] *= -1.0f;  // Vulkan: y down
    v.object_to_clip = proj * glm::lookAtRH(eye, target, up);
    v.viewport_px = viewport_px;
    v.eye_os_m = eye;
    return v;
}

std::optional<ScalpHit> pick_scalp(const Mesh& mesh, const BrushView& view, glm::vec2 px) {
    const glm::vec3 a = view.unproject(px, 0.0f), b = view.unproject(px, 1.0f);
    if (!(glm::length(b - a) > 0.0f)) return std::nullopt;
    const glm::vec3 dir = glm::normalize(b - a);
    float best = std::numeric_limits<float>::max();
    std::optional<ScalpHit> hit;
    for (size_t t = 0; t < mesh.triangle_count(); ++t) {
        glm::vec3 bary;
        const float d = ray_triangle(a, dir, mesh.positions[mesh.indices[3 * t]], mesh.positions[mesh.indices[3 * t + 1]],
                                     mesh.positions[mesh.indices[3 * t + 2]], bary);
        if (d > 0.0f && d < best) {
            best = d;
            hit = ScalpHit{{uint32_t(t), bary}, a + dir * d, glm::vec3(0.0f)};
        }
    }
    if (hit) {
        hit->point_m = attachment_point(mesh, hit->at);
        hit->normal = attachment_normal(mesh, hit->at);
    }
    return hit;
}

std::optional<std::pair<glm::dvec3, glm::dvec3>> part_plane(const ScalpHit& a, const ScalpHit& b) {
    const glm::dvec3 line = glm::dvec3(b.point_m) - glm::dvec3(a.point_m);
    if (glm::length(line) < 1e-3) return std::nullopt;
    glm::dvec3 n = glm::dvec3(a.normal) + glm::dvec3(b.normal);
    if (glm::length(n) < 1e-9) n = glm::dvec3(a.normal);
    const glm::dvec3 side = glm::cross(line, n);
    if (glm::length(side) < 1e-12) return std::nullopt;
    return std::make_pair(glm::dvec3(a.point_m), glm::normalize(side));
}

size_t push_strand_out(Strands& g, size_t s, std::span<const BrushCollider> colliders) {
    if (colliders.empty()) return 0;
    glm::vec3* p = &g.points_os_m[g.strand_offsets[s]];
    const uint32_t n = g.points_in(s);
    size_t moved = 0;
    float along = 0.0f;
    for (uint32_t k = 1; k < n; ++k) {
        const float len = segment_length(p[k - 1], p[k]);
        along += len;
        bool changed = false;
        // Two rounds: a push out of one field may put the point into another, and turning the segment back
        // to its length moves it a little.
        for (int round = 0; round < 3; ++round) {
            bool any = false;
            for (const BrushCollider& c : colliders) {
                if (!c.grid || c.grid->distance_m.empty()) continue;
                const float want = std::min(c.margin_m, 0.5f * along);
                const glm::vec3 q = glm::vec3(c.grid_from_object * glm::vec4(p[k], 1.0f));
                const float d = c.grid->sample_m(q);
                if (!(d < want - 1e-6f)) continue;  // at the margin already (to rounding)
                glm::vec3 grad = c.grid->gradient(q, 0.5f * float(c.grid->grid.cell_size_m));
                // The gradient back into object space (the transform is rigid, perhaps uniformly scaled).
                grad = glm::transpose(glm::mat3(c.grid_from_object)) * grad;
                const float gl = glm::length(grad);
                if (gl < 1e-6f) continue;
                const float scale = glm::length(glm::vec3(c.grid_from_object[0]));
                p[k] += grad / gl * ((want - d) / std::max(scale, 1e-12f));
                any = true;
            }
            if (!any) break;
            glm::vec3 dir = p[k] - p[k - 1];
            const float l = glm::length(dir);
            if (l > 1e-12f) p[k] = p[k - 1] + dir / l * len;
            changed = true;
        }
        moved += changed ? 1 : 0;
    }
    return moved;
}

namespace {

Status validate_stroke(const Strands& guides, const BrushTarget& target, const BrushView& view, const BrushSettings& s, uint32_t& n) {
    auto bad = [](const std::string& m) { return make_error(ErrorCode::InvalidArgument, "brush: " + m); };
    if (!(s.radius_px >= 1.0f && s.radius_px <= 2000.0f)) return bad("radius_px must be in [1, 2000] pixels");
    if (!(s.strength >= 0.0f && s.strength <= 1.0f)) return bad("strength must be in [0, 1]");
    if (!(s.spacing >= 0.05f && s.spacing <= 1.0f)) return bad("spacing must be in [0.05, 1] x the radius");
    if (!target.scalp) return bad("no scalp mesh");
    if (!(view.viewport_px.x >= 1.0f && view.viewport_px.y >= 1.0f)) return bad("the view's viewport must be at least 1 x 1 pixels");
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(view.object_to_clip[c][r])) return bad("the view's matrix is not finite");
    if (std::abs(glm::determinant(view.object_to_clip)) < 1e-30f) return bad("the view's matrix is singular");
    if (s.type == BrushType::Add && !s.invert && !target.growth) return bad("add needs the group's growth parameters");
    if (!guides.consistent()) return bad("the guides are inconsistent");
    n = guides.uniform_point_count();
    if (guides.strand_count() == 0) n = target.growth ? uint32_t(target.growth->vertices_per_strand) : 0u;
    if (n < 2 && !(guides.strand_count() == 0 && s.type == BrushType::Add))
        return bad("every guide must have the same point count (2 or more) to be brushed");
    if (n < 2) return bad("add on an empty group needs growth.vertices_per_strand of 2 or more");
    if (s.type == BrushType::Add && !s.invert && target.growth && target.growth->vertices_per_strand < 2)
        return bad("growth.vertices_per_strand must be 2 or more");
    return {};
}

Status validate_points(std::span<const glm::vec2> points_px) {
    for (const glm::vec2& p : points_px)
        if (!finite(p)) return make_error(ErrorCode::InvalidArgument, "brush: stroke point is not finite");
    return {};
}

}  // namespace

struct BrushStroke::Impl {
    BrushTarget target;
    BrushView view;
    BrushSettings settings;
    std::unique_ptr<brush_detail::StrokeRun> run;
};

BrushStroke::BrushStroke() : impl_(std::make_unique<Impl>()) {}
BrushStroke::~BrushStroke() = default;

Result<std::unique_ptr<BrushStroke>> BrushStroke::begin(Strands& guides, const BrushTarget& target, const BrushView& view,
                                                        const BrushSettings& settings) {
    uint32_t n = 0;
    TRESSEL_TRY(validate_stroke(guides, target, view, settings, n));
    std::unique_ptr<BrushStroke> b(new BrushStroke());
    Impl& i = *b->impl_;
    i.target = target;
    i.view = view;
    i.settings = settings;
    i.run = std::make_unique<brush_detail::StrokeRun>(guides, i.target, i.view, i.settings, n);
    i.run->capture_lengths();
    i.run->begin(Mirror{true, target.symmetry_plane_x});
    return b;
}

Status BrushStroke::extend(std::span<const glm::vec2> points_px) {
    TRESSEL_TRY(validate_points(points_px));
    impl_->run->extend(points_px);
    return {};
}

StrokeStats BrushStroke::finish() {
    brush_detail::StrokeRun& run = *impl_->run;
    run.finish();
    StrokeStats st = run.stats;
    st.strands_changed = 0;
    for (size_t i = 0; i < run.changed_.size(); ++i) st.strands_changed += run.changed_[i] ? 1 : 0;
    st.strands_changed -= std::min(st.strands_changed, st.strands_added);
    return st;
}

Result<StrokeStats> apply_stroke(Strands& guides, const BrushTarget& target, const BrushView& view, const BrushSettings& s,
                                 std::span<const glm::vec2> points_px) {
    if (points_px.empty()) return make_error(ErrorCode::InvalidArgument, "brush: a stroke needs at least one point");
    TRESSEL_TRY(validate_points(points_px));
    auto stroke = BrushStroke::begin(guides, target, view, s);
    if (!stroke) return stroke.error();
    TRESSEL_TRY((*stroke)->extend(points_px));
    return (*stroke)->finish();
}

}  // namespace tressel
