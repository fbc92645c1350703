// Progress and cancellation for long operations (import, SDF rebuild, regrow, bake). The operation runs
// on a worker thread and writes; the UI thread reads. All members are thread-safe.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

namespace tressel {

class Progress {
public:
    // fraction in [0, 1]; stage is a short label such as "reading mesh".
    void set(float fraction, const char* stage = nullptr) {
        fraction_.store(fraction, std::memory_order_relaxed);
        if (stage) {
            std::lock_guard<std::mutex> lock(mutex_);
            stage_ = stage;
        }
    }
    void set(float fraction, const std::string& stage) { set(fraction, stage.c_str()); }
    float fraction() const { return fraction_.load(std::memory_order_relaxed); }
    std::string stage() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return stage_;
    }
    void request_cancel() { cancel_.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return cancel_.load(std::memory_order_relaxed); }

private:
    std::atomic<float> fraction_{0.0f};
    std::atomic<bool> cancel_{false};
    mutable std::mutex mutex_;
    std::string stage_;
};

}  // namespace tressel
