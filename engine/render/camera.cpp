#include "render/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace tressel::render {

OrbitCamera OrbitCamera::from_view(const View& view) {
    OrbitCamera c;
    c.target_m = view.target_m;
    c.yaw_deg = view.yaw_deg;
    c.pitch_deg = view.pitch_deg;
    c.distance_m = view.distance_m;
    c.fov_deg = view.fov_deg;
    return c;
}

void OrbitCamera::frame_bounds(glm::dvec3 min_m, glm::dvec3 max_m, double margin) {
    target_m = 0.5 * (min_m + max_m);
    double radius = 0.5 * glm::length(max_m - min_m);
    double half_fov = glm::radians(std::clamp(fov_deg, 1.0, 170.0)) * 0.5;
    distance_m = std::max(1e-3, margin * radius / std::sin(half_fov));
}

glm::dvec3 OrbitCamera::eye_m() const {
    double yaw = glm::radians(yaw_deg);
    double pitch = glm::radians(std::clamp(pitch_deg, -89.0, 89.0));
    glm::dvec3 dir{std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw)};
    return target_m + dir * std::max(distance_m, 1e-6);
}

glm::mat4 OrbitCamera::view() const {
    return glm::mat4(glm::lookAt(eye_m(), target_m, glm::dvec3(0.0, 1.0, 0.0)));
}

glm::mat4 OrbitCamera::projection(double aspect) const {
    double d = std::max(distance_m, 1e-6);
    double n = near_m > 0.0 ? near_m : d / 100.0;
    double f = far_m > 0.0 ? far_m : d * 10.0;
    double fov = glm::radians(std::clamp(fov_deg, 1.0, 170.0));
    // Right-handed, depth [0, 1]; Vulkan's clip y points down, so flip y.
    glm::dmat4 p = glm::perspectiveRH_ZO(fov, std::max(aspect, 1e-6), n, f);
    p[1][1] *= -1.0;
    return glm::mat4(p);
}

}  // namespace tressel::render
