// Minimal command-line parsing for tressel-cli subcommands: positionals plus `--name value` options and
// `--flag` switches. Each subcommand declares the options it accepts; anything else is an error.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/result.h"

namespace tressel::cli {

struct OptionSpec {
    std::string name;     // without the leading dashes
    bool takes_value = true;
};

class Args {
public:
    // argv after the subcommand name.
    static Result<Args> parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& spec);

    const std::vector<std::string>& positionals() const { return positionals_; }
    bool has(const std::string& name) const { return values_.count(name) > 0 || flags_.count(name) > 0; }
    std::optional<std::string> get(const std::string& name) const;
    std::string get_or(const std::string& name, const std::string& fallback) const;
    // Typed getters: an unparsable value is an Error naming the option.
    Result<long long> get_int(const std::string& name, long long fallback) const;
    Result<double> get_double(const std::string& name, double fallback) const;

private:
    std::vector<std::string> positionals_;
    std::map<std::string, std::string> values_;
    std::set<std::string> flags_;
};

}  // namespace tressel::cli
