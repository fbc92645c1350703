// Included by both C++ and GLSL: type aliases so that one struct declaration serves both languages.
// C++ sees glm types; GLSL sees its own. Every struct shared this way is std430 compatible and has a
// static_assert on its size on the C++ side: write `TRESSEL_CHECK_SIZE(T, bytes)` with no semicolon after
// it (GLSL rejects a stray one).
#ifndef TRESSEL_SHARED_COMMON_H
#define TRESSEL_SHARED_COMMON_H

#ifdef __cplusplus
#include <cstdint>
#include <glm/glm.hpp>
namespace tressel::gpu_shared {
using uint = uint32_t;
using vec2 = glm::vec2;
using vec4 = glm::vec4;
using uvec4 = glm::uvec4;
using ivec4 = glm::ivec4;
}  // namespace tressel::gpu_shared
#define TRESSEL_SHARED_BEGIN namespace tressel::gpu_shared {
#define TRESSEL_SHARED_END }
#define TRESSEL_CHECK_SIZE(T, bytes) static_assert(sizeof(T) == (bytes), #T " must match its std430 size in GLSL");
#define TRESSEL_CONST(type, name, value) inline constexpr type name = value
#else
#define TRESSEL_SHARED_BEGIN
#define TRESSEL_SHARED_END
#define TRESSEL_CHECK_SIZE(T, bytes)
#define TRESSEL_CONST(type, name, value) const type name = value
#endif

#endif
