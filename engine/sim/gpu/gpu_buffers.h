// Buffer helpers the simulation's GPU solvers share (sim_gpu.cpp, cloth_gpu.cpp).
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "gpu/device.h"

namespace tressel::sim_buffers {

// A device-local storage buffer holding `data` (which must not be empty).
template <class T>
Result<gpu::Buffer> device_buffer(gpu::Device& device, const std::vector<T>& data, const std::string& name) {
    return device.create_buffer_with(std::span<const T>(data), 0, name);
}

// The same, with one zeroed element standing in for empty data (a stub to bind).
template <class T>
Result<gpu::Buffer> device_buffer_or_stub(gpu::Device& device, std::vector<T> data, const std::string& name) {
    if (data.empty()) data.resize(1);
    return device.create_buffer_with(std::span<const T>(data), 0, name);
}

// A host-visible storage buffer of at least 16 bytes (parameters the host writes each step).
inline Result<gpu::Buffer> host_buffer(gpu::Device& device, VkDeviceSize bytes, const std::string& name) {
    return device.create_buffer({std::max<VkDeviceSize>(bytes, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryIntent::Constants, name});
}

}  // namespace tressel::sim_buffers
