#pragma once
// Where the tool is and what it is: its version, and the shipped presets (scenes, simulation and shading
// presets, the assets the shipped scenes use) whether it runs from its build tree or from an install
// prefix (`cmake --install`, the .deb).
#include <filesystem>

namespace tressel {

// "0.1.0": the project's version (CMakeLists.txt `project(... VERSION)`).
const char* version();
// `--version`: "<program> <version> (<compiler>, <build type>)", then "presets: <presets_dir()>".
void print_version(const char* program);

// The directory holding scenes/, sim/, shading/ and assets/, first found of:
//  1. $TRESSEL_PRESETS when set (an error later if it does not exist: it is never second-guessed);
//  2. <executable's directory>/../share/tressel/presets (an installed tool);
//  3. the source tree's presets/ the binary was built from (a build tree).
// Empty when none exists.
std::filesystem::path presets_dir();

}  // namespace tressel
