#include "groom/clearance.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "groom/placement.h"

namespace tressel {

namespace {

// Signed distance of p from the mesh at its closest point (vertex normals interpolated there, else the
// face normal: keep_strands_outside's inside test); false when no triangle lies within radius_m.
bool signed_distance_within(const Mesh& mesh, const TriangleBvh& bvh, glm::vec3 p, float radius_m, float& out) {
    ClosestPoint c;
    if (!bvh.closest_within(p, radius_m, c)) return false;
    const glm::vec3 n = attachment_normal(mesh, ScalpAttachment{c.triangle, c.barycentric});
    out = glm::dot(p - c.point, n) >= 0.0f ? c.distance_m : -c.distance_m;
    return true;
}

}  // namespace

std::vector<uint8_t> strands_rooted_inside(const Mesh& obstacle, const TriangleBvh& bvh, float clearance_m, const Strands& strands,
                                           size_t* rooted_inside) {
    std::vector<uint8_t> leave(strands.strand_count(), 0u);
    if (rooted_inside) *rooted_inside = 0;
    if (bvh.empty() || obstacle.positions.empty()) return leave;
    glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
    for (glm::vec3 q : obstacle.positions) lo = glm::min(lo, q), hi = glm::max(hi, q);
    const float reach = glm::length(hi - lo) + std::max(clearance_m, 0.0f);  // finds the surface from anywhere inside
    for (size_t s = 0; s < strands.strand_count(); ++s) {
        const glm::vec3 root = strands.points_os_m[strands.strand_offsets[s]];
        float d = 0.0f;
        if (glm::any(glm::lessThan(root, lo - clearance_m)) || glm::any(glm::greaterThan(root, hi + clearance_m))) continue;
        if (signed_distance_within(obstacle, bvh, root, reach, d) && d < clearance_m) {
            leave[s] = 1u;
            if (rooted_inside) ++*rooted_inside;
        }
    }
    return leave;
}

size_t mark_strands_inside(const Mesh& obstacle, const TriangleBvh& bvh, std::span<const uint8_t> leave, uint32_t flag, Strands& strands) {
    if (bvh.empty()) return 0;
    if (strands.flags.size() != strands.strand_count()) strands.flags.resize(strands.strand_count(), 0u);
    glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
    for (glm::vec3 q : obstacle.positions) lo = glm::min(lo, q), hi = glm::max(hi, q);
    const float reach = glm::length(hi - lo);
    size_t marked = 0;
    for (size_t s = 0; s < strands.strand_count(); ++s) {
        if (s < leave.size() && leave[s]) continue;
        for (uint32_t i = strands.strand_offsets[s] + 1; i < strands.strand_offsets[s + 1]; ++i) {
            const glm::vec3 p = strands.points_os_m[i];
            float d = 0.0f;
            if (glm::any(glm::lessThan(p, lo)) || glm::any(glm::greaterThan(p, hi))) continue;
            if (signed_distance_within(obstacle, bvh, p, reach, d) && d < 0.0f) {
                strands.flags[s] |= flag;
                ++marked;
                break;
            }
        }
    }
    return marked;
}

ClearanceStats keep_strands_outside(const Mesh& scalp, const TriangleBvh& bvh, float clearance_m, Strands& strands,
                                    std::span<const uint8_t> leave) {
    ClearanceStats st;
    if (bvh.empty() || !(clearance_m >= 0.0f)) return st;
    if (strands.flags.size() != strands.strand_count()) strands.flags.resize(strands.strand_count(), 0u);
    for (size_t s = 0; s < strands.strand_count(); ++s) {
        if (!strands.flags.empty() && (strands.flags[s] & kStrandDegenerate)) continue;
        if (s < leave.size() && leave[s]) continue;
        const uint32_t begin = strands.strand_offsets[s], end = strands.strand_offsets[s + 1];
        bool moved_any = false;
        float arc = 0.0f;
        // offset: how far the corrected parent is from where it was grown; children follow it, so the
        // strand's shape beyond a correction is carried rather than bent at one joint.
        glm::vec3 offset(0.0f);
        // A ball known to hold no surface (a searched point and its distance, or the search radius when
        // nothing was found): later points inside it, clearance included, need no search.
        glm::vec3 ball_centre(0.0f);
        float ball_radius = -1.0f;
        for (uint32_t i = begin + 1; i < end; ++i) {
            glm::vec3& parent = strands.points_os_m[i - 1];
            const glm::vec3 grown = strands.points_os_m[i];
            const float len = glm::length(grown - (parent - offset));
            arc += len;
            const float want = std::min(clearance_m, 0.5f * arc);
            glm::vec3 p = grown + offset;
            if (ball_radius - glm::length(p - ball_centre) >= want) {
                strands.points_os_m[i] = p;
                continue;
            }
            // The parent is outside, so a point inside lies within one segment of the surface: a search
            // radius of len + want finds its closest triangle whenever it needs a correction. (A larger
            // radius would skip more points through the ball but costs more per search on dense meshes.)
            const float radius = want + len;
            for (int pass = 0; pass < 8; ++pass) {
                ClosestPoint c;
                if (!bvh.closest_within(p, radius, c)) {
                    ball_centre = p;
                    ball_radius = radius;
                    break;
                }
                // Vertex normals interpolated at the closest point (smooth across edges, so a point near an edge
                // or vertex gets a sensible side), else the face normal.
                const glm::vec3 n = attachment_normal(scalp, ScalpAttachment{c.triangle, c.barycentric});
                const float signed_d = glm::dot(p - c.point, n) >= 0.0f ? c.distance_m : -c.distance_m;
                ball_radius = -1.0f;
                if (signed_d >= want * 0.999f) {
                    ball_centre = p;
                    ball_radius = c.distance_m;
                    break;
                }
                // Turn the segment about the parent, at its grown length, just enough to reach the clearance
                // above the closest point's tangent plane: dot(u, n) = t, keeping the tangential heading.
                const glm::vec3 seg = p - parent;
                const float sl = glm::length(seg);
                glm::vec3 q = c.point + n * want;
                if (sl > 0.0f && len > 0.0f) {
                    const glm::vec3 u0 = seg / sl;
                    const float h = glm::dot(parent - c.point, n);
                    const float t = std::clamp((want - h) / len, -1.0f, 1.0f);
                    glm::vec3 tangent = u0 - n * glm::dot(u0, n);
                    const float tl = glm::length(tangent);
                    const float along = std::sqrt(std::max(1.0f - t * t, 0.0f));
                    q = parent + len * (tl > 1e-6f ? n * t + tangent * (along / tl) : n);
                }
                p = q;
            }
            if (p != grown + offset) {
                moved_any = true;
                ++st.points_moved;
                st.max_move_m = std::max(st.max_move_m, glm::length(p - (grown + offset)));
            }
            offset = p - grown;
            strands.points_os_m[i] = p;
        }
        st.strands_moved += moved_any ? 1 : 0;
        if (moved_any) strands.flags[s] |= kStrandMovedOut;
    }
    return st;
}

}  // namespace tressel
