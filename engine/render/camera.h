// The orbit camera shared by the editor viewport and headless renders: it circles `target_m` at
// `distance_m`, yaw about world +Y, pitch above the horizontal plane. World space is metres, Y up.
#pragma once

#include <glm/glm.hpp>

#include "scene/scene_types.h"

namespace tressel::render {

struct OrbitCamera {
    glm::dvec3 target_m{0.0};
    double yaw_deg = 20.0;      // 0 looks along -Z (camera on +Z); positive turns the camera toward +X
    double pitch_deg = 10.0;    // positive looks down from above; clamped to (-89, 89)
    double distance_m = 1.5;    // > 0
    double fov_deg = 40.0;      // vertical field of view, (1, 170)
    double near_m = 0.0;        // 0 = distance / 100
    double far_m = 0.0;         // 0 = distance * 10

    static OrbitCamera from_view(const View& view);
    // Keeps yaw, pitch and fov; aims at the centre of the box and backs off until a sphere around it fits
    // the vertical field of view (with `margin` x the radius).
    void frame_bounds(glm::dvec3 min_m, glm::dvec3 max_m, double margin = 1.1);

    glm::dvec3 eye_m() const;
    glm::mat4 view() const;                          // world -> camera (right-handed, looking down -Z)
    glm::mat4 projection(double aspect) const;       // camera -> Vulkan clip (y down, depth [0, 1])
    glm::mat4 view_projection(double aspect) const { return projection(aspect) * view(); }
};

}  // namespace tressel::render
