#include "render/render_pass.h"

namespace tressel::render {

TimestampSpan::TimestampSpan(gpu::TimestampQueries* queries, gpu::CommandBuffer& cmd, const char* name)
    : queries_(queries), cmd_(cmd) {
    if (queries_) queries_->begin(cmd_, name);
}

TimestampSpan::~TimestampSpan() {
    if (queries_) queries_->end(cmd_);
}

Status RenderPassBase::record_offscreen(FrameContext&) { return {}; }

Status RenderPassBase::record_main(FrameContext&) { return {}; }

}  // namespace tressel::render
