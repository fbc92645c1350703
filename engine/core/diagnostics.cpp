#include "core/diagnostics.h"

namespace tressel {

const char* to_string(Severity s) {
    switch (s) {
        case Severity::Info: return "info";
        case Severity::Warning: return "warning";
        case Severity::Error: return "error";
    }
    return "?";
}

std::string format(const Diagnostic& d) {
    std::string out = to_string(d.severity);
    out += ": ";
    if (!d.where.empty()) out += d.where + ": ";
    out += d.message;
    return out;
}

}  // namespace tressel
