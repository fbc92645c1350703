#include "sim/motion.h"

#include <cmath>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>

namespace tressel {
namespace {

bool finite3(const glm::dvec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

Error bad(const std::string& name, const std::string& problem) {
    return make_error(ErrorCode::InvalidArgument, "motion." + name + " " + problem);
}

}  // namespace

glm::dmat4 motion_transform(const Motion& motion, double t_s) {
    if (motion.type != MotionType::Procedural) return glm::dmat4(1.0);
    constexpr double two_pi = 2.0 * std::numbers::pi;
    const double s = std::sin(two_pi * motion.frequency_hz * t_s);
    const double yaw_deg = motion.turn_deg * s + motion.shake_deg * std::sin(two_pi * motion.shake_frequency_hz * t_s);
    const double pitch_deg = motion.nod_deg * s;
    glm::dmat4 m = glm::translate(glm::dmat4(1.0), motion.pivot_m + motion.translate_m * s);
    m = glm::rotate(m, glm::radians(yaw_deg), glm::dvec3(0.0, 1.0, 0.0));
    m = glm::rotate(m, glm::radians(pitch_deg), glm::dvec3(1.0, 0.0, 0.0));
    return glm::translate(m, -motion.pivot_m);
}

bool motion_moves_mesh(const Motion& motion, const std::string& mesh) {
    if (motion.type == MotionType::None || mesh.empty()) return false;
    return motion.mesh.empty() || motion.mesh == mesh;
}

Status validate_motion(const Motion& m) {
    if (!finite3(m.pivot_m)) return bad("pivot_m", "must be finite");
    if (!finite3(m.translate_m)) return bad("translate_m", "must be finite");
    const struct {
        const char* name;
        double v;
    } angles[] = {{"turn_deg", m.turn_deg}, {"nod_deg", m.nod_deg}, {"shake_deg", m.shake_deg}};
    for (const auto& a : angles)
        if (!std::isfinite(a.v)) return bad(a.name, "must be finite, got " + std::to_string(a.v));
    if (!std::isfinite(m.frequency_hz) || m.frequency_hz < 0.0)
        return bad("frequency_hz", "must be finite and >= 0, got " + std::to_string(m.frequency_hz));
    if (!std::isfinite(m.shake_frequency_hz) || m.shake_frequency_hz < 0.0)
        return bad("shake_frequency_hz", "must be finite and >= 0, got " + std::to_string(m.shake_frequency_hz));
    return {};
}

}  // namespace tressel
