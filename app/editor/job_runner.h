// Long editor work (import, regrow, export, opening a scene) on a worker thread, one job at a time. The
// worker gets a Progress to report to and to poll for Cancel; it returns a continuation that poll() runs
// on the UI thread, so only the UI thread ever touches the editor's state. The window keeps drawing and
// answering input while a job runs; the UI draws current() as a progress bar with a Cancel button.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "core/progress.h"

namespace tressel::editor {

struct Job {
    std::string title;
    std::shared_ptr<Progress> progress = std::make_shared<Progress>();
    std::future<std::function<void()>> result;  // the worker returns the UI-thread continuation
};

class JobRunner {
public:
    using Work = std::function<std::function<void()>(Progress& progress)>;

    JobRunner() = default;
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;
    ~JobRunner() { cancel_and_wait(); }

    // Starts `work` on a worker; false (and nothing started) while another job runs.
    bool start(std::string title, Work work);
    // Runs the finished job's continuation (UI thread); returns whether a job finished.
    bool poll();
    bool busy() const { return job_.has_value(); }
    const Job* current() const { return job_ ? &*job_ : nullptr; }
    void cancel() {
        if (job_) job_->progress->request_cancel();
    }
    // Asks the job to stop and waits for its worker; the continuation is dropped (shutdown).
    void cancel_and_wait();

private:
    std::optional<Job> job_;
};

}  // namespace tressel::editor
