#include "core/result.h"

namespace tressel {

const char* to_string(ErrorCode code) {
    switch (code) {
        case ErrorCode::InvalidArgument: return "invalid argument";
        case ErrorCode::NotFound: return "not found";
        case ErrorCode::Io: return "I/O error";
        case ErrorCode::Parse: return "parse error";
        case ErrorCode::Unsupported: return "unsupported";
        case ErrorCode::LimitExceeded: return "limit exceeded";
        case ErrorCode::OutOfMemory: return "out of memory";
        case ErrorCode::DeviceLost: return "device lost";
        case ErrorCode::Gpu: return "GPU error";
        case ErrorCode::Cancelled: return "cancelled";
    }
    return "error";
}

void assert_fail(const char* expr, const char* file, int line, const char* how_to_fix) {
    std::fprintf(stderr, "%s:%d: assertion failed: %s\n  %s\n", file, line, expr, how_to_fix);
    std::fflush(stderr);
    std::abort();
}

}  // namespace tressel
