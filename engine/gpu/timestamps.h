// GPU timestamps per named pass, results in milliseconds. Usage per frame:
//   ts.reset(cmd); ts.begin(cmd, "integrate"); ...dispatches...; ts.end(cmd); ...; submit; wait;
//   auto passes = ts.read();  // [{"integrate", 0.012}, ...]
#pragma once

#include <string>
#include <vector>

#include "gpu/device.h"

namespace tressel::gpu {

struct PassTime {
    std::string name;
    double ms = 0.0;
};

class TimestampQueries {
public:
    // max_passes: how many begin/end pairs one frame may record.
    static Result<TimestampQueries> create(Device& device, uint32_t max_passes);
    TimestampQueries() = default;
    TimestampQueries(TimestampQueries&& o) noexcept { *this = std::move(o); }
    TimestampQueries& operator=(TimestampQueries&& o) noexcept;
    ~TimestampQueries();

    bool supported() const { return pool_ != VK_NULL_HANDLE; }
    void reset(CommandBuffer& cmd);
    void begin(CommandBuffer& cmd, std::string name);
    void end(CommandBuffer& cmd);
    // Reads the passes recorded since reset(); call after the submission completed.
    Result<std::vector<PassTime>> read();

private:
    void release();  // hands the query pool to the device's deferred destruction
    Device* device_ = nullptr;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t capacity_ = 0;
    std::vector<std::string> names_;
    bool open_ = false;
    double period_ns_ = 1.0;
    uint64_t mask_ = ~0ull;
};

}  // namespace tressel::gpu
