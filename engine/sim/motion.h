// Procedural head motion (scene Motion): one rigid transform per time that moves the head mesh, the scalp
// roots and the collision meshes together. Engine space is Y up, metres.
#pragma once

#include <string>

#include <glm/glm.hpp>

#include "core/result.h"
#include "scene/scene_types.h"

namespace tressel {

// The animated meshes' rest -> world transform at time t_s (seconds):
//   yaw(t)   = turn_deg sin(2 pi f t) + shake_deg sin(2 pi f_shake t)   about +Y through the pivot
//   pitch(t) = nod_deg sin(2 pi f t)                                    about +X through the pivot
//   offset(t) = translate_m sin(2 pi f t)
//   M(t) = T(pivot + offset) R_y(yaw) R_x(pitch) T(-pivot)
// Identity at t = 0 and for MotionType::None. MotionType::Animation (skeletal) is driven through the
// per-strand root transforms of the simulation instead (set_root_transforms); here it gives identity.
glm::dmat4 motion_transform(const Motion& motion, double t_s);

// Whether `motion` moves the mesh called `mesh` (Motion::mesh empty = every mesh; "" never names a mesh,
// so world-fixed things pass an empty name and never move).
bool motion_moves_mesh(const Motion& motion, const std::string& mesh);

// InvalidArgument naming the parameter for NaN / Inf amplitudes, frequencies or pivot, or negative
// frequencies.
Status validate_motion(const Motion& motion);

}  // namespace tressel
