// The headless Vulkan device of a CLI command: device choice from --device or TRESSEL_DEVICE, validation
// from TRESSEL_VALIDATION (on in debug builds), validation errors counted so a command can fail on them.
#pragma once

#include <memory>
#include <string>

#include "gpu/device.h"

namespace tressel::cli {

struct GpuContext {
    std::unique_ptr<gpu::Device> device;

    static Result<GpuContext> create(const std::string& preference);
    int validation_errors() const { return device ? int(device->validation_error_count()) : 0; }
};

}  // namespace tressel::cli
