#include "job_runner.h"

namespace tressel::editor {

bool JobRunner::start(std::string title, Work work) {
    if (job_) return false;
    Job job;
    job.title = std::move(title);
    auto progress = job.progress;
    job.result = std::async(std::launch::async, [work = std::move(work), progress]() { return work(*progress); });
    job_ = std::move(job);
    return true;
}

bool JobRunner::poll() {
    if (!job_ || job_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
    auto finish = job_->result.get();
    job_.reset();  // before the continuation, which may start the next job
    if (finish) finish();
    return true;
}

void JobRunner::cancel_and_wait() {
    if (!job_) return;
    job_->progress->request_cancel();
    if (job_->result.valid()) job_->result.wait();
    job_.reset();
}

}  // namespace tressel::editor
