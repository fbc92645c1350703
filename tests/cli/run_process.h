// Runs a command line and captures its exit code, stdout and stderr (for end-to-end tests).
#pragma once

#include <string>

namespace tressel::test {

struct ProcessResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// `command` goes through /bin/sh. Arguments must be quoted by the caller (see quote()).
ProcessResult run_process(const std::string& command);
std::string quote(const std::string& arg);

}  // namespace tressel::test
