#include "gpu/timestamps.h"

#include "gpu/vk_error.h"

namespace tressel::gpu {

Result<TimestampQueries> TimestampQueries::create(Device& device, uint32_t max_passes) {
    TimestampQueries q;
    q.device_ = &device;
    q.capacity_ = max_passes;
    const DeviceInfo& info = device.info();
    if (info.timestamp_valid_bits == 0 || info.timestamp_period_ns <= 0.0) return q;  // unsupported: read() gives {}
    q.period_ns_ = info.timestamp_period_ns;
    q.mask_ = info.timestamp_valid_bits >= 64 ? ~0ull : ((1ull << info.timestamp_valid_bits) - 1);
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = max_passes * 2;
    TRESSEL_VK_TRY(vkCreateQueryPool(device.device(), &qci, nullptr, &q.pool_), "create a timestamp query pool");
    device.note_object(+1);
    return q;
}

TimestampQueries& TimestampQueries::operator=(TimestampQueries&& o) noexcept {
    if (this != &o) {
        release();
        device_ = std::exchange(o.device_, nullptr);
        pool_ = std::exchange(o.pool_, VK_NULL_HANDLE);
        capacity_ = o.capacity_;
        names_ = std::move(o.names_);
        open_ = o.open_;
        period_ns_ = o.period_ns_;
        mask_ = o.mask_;
    }
    return *this;
}

TimestampQueries::~TimestampQueries() { release(); }

void TimestampQueries::release() {
    if (device_ && pool_) {
        VkDevice d = device_->device();
        VkQueryPool p = pool_;
        device_->retire([d, p] { vkDestroyQueryPool(d, p, nullptr); });
    }
    pool_ = VK_NULL_HANDLE;
    device_ = nullptr;
    names_.clear();
}

void TimestampQueries::reset(CommandBuffer& cmd) {
    names_.clear();
    open_ = false;
    if (pool_) vkCmdResetQueryPool(cmd.handle(), pool_, 0, capacity_ * 2);
}

void TimestampQueries::begin(CommandBuffer& cmd, std::string name) {
    TRESSEL_ASSERT(!open_, "TimestampQueries::begin: the previous pass was not ended");
    TRESSEL_ASSERT(names_.size() < capacity_, "TimestampQueries::begin: more passes than max_passes");
    open_ = true;
    names_.push_back(std::move(name));
    if (pool_)
        vkCmdWriteTimestamp(cmd.handle(), VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool_,
                            static_cast<uint32_t>(names_.size() - 1) * 2);
}

void TimestampQueries::end(CommandBuffer& cmd) {
    TRESSEL_ASSERT(open_, "TimestampQueries::end: no pass is open");
    open_ = false;
    if (pool_)
        vkCmdWriteTimestamp(cmd.handle(), VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_,
                            static_cast<uint32_t>(names_.size() - 1) * 2 + 1);
}

Result<std::vector<PassTime>> TimestampQueries::read() {
    std::vector<PassTime> out;
    if (!pool_ || names_.empty()) return out;
    std::vector<uint64_t> ticks(names_.size() * 2);
    TRESSEL_VK_TRY(vkGetQueryPoolResults(device_->device(), pool_, 0, static_cast<uint32_t>(ticks.size()),
                                         ticks.size() * sizeof(uint64_t), ticks.data(), sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "read GPU timestamps");
    for (size_t i = 0; i < names_.size(); ++i) {
        uint64_t dt = (ticks[2 * i + 1] - ticks[2 * i]) & mask_;
        out.push_back({names_[i], static_cast<double>(dt) * period_ns_ * 1e-6});
    }
    return out;
}

}  // namespace tressel::gpu
