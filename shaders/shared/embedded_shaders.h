// C++ only: look up the SPIR-V of a shader compiled into the binary by its path under shaders/.
#pragma once
#ifdef __cplusplus
#include <cstdint>
#include <span>
#include <string_view>

namespace tressel {
// Empty span when no shader of that name was built.
std::span<const uint32_t> embedded_spirv(std::string_view name);
}  // namespace tressel
#endif
