#include "cli_args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace tressel::cli {

Result<Args> Args::parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& spec) {
    Args a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& s = argv[i];
        if (s.size() > 2 && s.rfind("--", 0) == 0) {
            std::string name = s.substr(2), value;
            bool inline_value = false;
            if (auto eq = name.find('='); eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                inline_value = true;
            }
            const OptionSpec* o = nullptr;
            for (auto& opt : spec)
                if (opt.name == name) o = &opt;
            if (!o) return make_error(ErrorCode::InvalidArgument, "unknown option --" + name);
            if (!o->takes_value) {
                if (inline_value) return make_error(ErrorCode::InvalidArgument, "--" + name + " takes no value");
                a.flags_.insert(name);
                continue;
            }
            if (!inline_value) {
                if (i + 1 >= argv.size()) return make_error(ErrorCode::InvalidArgument, "--" + name + " needs a value");
                value = argv[++i];
            }
            a.values_[name] = value;
        } else {
            a.positionals_.push_back(s);
        }
    }
    return a;
}

std::optional<std::string> Args::get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::string Args::get_or(const std::string& name, const std::string& fallback) const {
    auto v = get(name);
    return v ? *v : fallback;
}

Result<long long> Args::get_int(const std::string& name, long long fallback) const {
    auto v = get(name);
    if (!v) return fallback;
    errno = 0;
    char* end = nullptr;
    long long x = std::strtoll(v->c_str(), &end, 10);
    if (errno || end == v->c_str() || *end != '\0')
        return make_error(ErrorCode::InvalidArgument, "--" + name + " expects a whole number, got '" + *v + "'");
    return x;
}

Result<double> Args::get_double(const std::string& name, double fallback) const {
    auto v = get(name);
    if (!v) return fallback;
    errno = 0;
    char* end = nullptr;
    double x = std::strtod(v->c_str(), &end);
    if (errno || end == v->c_str() || *end != '\0' || !std::isfinite(x))
        return make_error(ErrorCode::InvalidArgument, "--" + name + " expects a finite number, got '" + *v + "'");
    return x;
}

}  // namespace tressel::cli
