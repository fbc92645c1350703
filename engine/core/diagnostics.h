// Recoverable problems reported by an operation in its output (warnings that do not stop it), so the
// editor can show them in the Log panel and the CLI can print them. No global logger in the engine.
#pragma once

#include <string>
#include <vector>

namespace tressel {

enum class Severity { Info, Warning, Error };

// What one click does about a diagnostic: set the scene value at `path` (a scene path as the editor's
// `set` spells it, "hair_groups[0].follow.mode") to `value_json` (JSON text), as an undoable edit.
struct DiagnosticFix {
    std::string label;       // the button: "Grow follows around each guide"
    std::string path;
    std::string value_json;
};

struct Diagnostic {
    Severity severity = Severity::Warning;
    std::string where;    // JSON path, file:line or object name; may be empty
    std::string message;  // one sentence for the user
    std::string code = {};               // a stable name for diagnostics a caller acts on ("follows_far_from_guides")
    std::vector<DiagnosticFix> fixes = {};  // none, or what the editor offers as buttons
};

struct Diagnostics {
    std::vector<Diagnostic> items;

    void info(std::string where, std::string message) { items.push_back({Severity::Info, std::move(where), std::move(message)}); }
    void warn(std::string where, std::string message) { items.push_back({Severity::Warning, std::move(where), std::move(message)}); }
    void error(std::string where, std::string message) { items.push_back({Severity::Error, std::move(where), std::move(message)}); }
    size_t count(Severity s) const {
        size_t n = 0;
        for (const auto& d : items) n += d.severity == s ? 1 : 0;
        return n;
    }
    void append(const Diagnostics& other) { items.insert(items.end(), other.items.begin(), other.items.end()); }
};

const char* to_string(Severity s);
std::string format(const Diagnostic& d);  // "warning: <where>: <message>"

}  // namespace tressel
