#include "editor_context.h"

#include <cstdio>

namespace tressel::editor {

void EditorContext::add_log(Severity severity, std::string where, std::string message) {
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    LogEntry e{t, Diagnostic{severity, std::move(where), std::move(message)}};
    std::fprintf(stderr, "[%7.2f] %s\n", t, format(e.diagnostic).c_str());
    log.push_back(std::move(e));
}

void EditorContext::add_diagnostics(const Diagnostics& d) {
    for (auto& item : d.items) add_log(item.severity, item.where, item.message);
}

void EditorContext::report_error(const std::string& message) {
    add_log(Severity::Error, "", message);
    modal_error = message;
}

}  // namespace tressel::editor
