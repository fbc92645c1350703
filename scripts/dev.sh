#!/usr/bin/env bash
# The two entry points of the README, on a fresh Debian 12 machine (as root, or with sudo available):
#   bash scripts/dev.sh run [scene.json] [editor options]   install, build, open the editor
#   bash scripts/dev.sh test [ctest options]                 install, build, run the whole test suite (without
#                                                            options, then again built with the sanitizers)
# Both install the Debian packages (scripts/setup.sh, idempotent) and build into build/.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
  run|test) shift ;;
  *) echo "usage: bash scripts/dev.sh run [scene.json] | test" >&2; exit 2 ;;
esac

bash scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
# Line tables only (-g1): backtraces and sanitizer reports keep file:line, and the build takes a quarter less
# time than with full debug info (configure a Debug build of your own for a debugger).
flags="-O2 -g1 -DNDEBUG"
# Unity builds (each target's sources compiled eight to a file): a full build in half the time on two cores,
# since most of a file's compile time is the headers it shares with its neighbours. Configure without it
# (-DCMAKE_UNITY_BUILD=OFF) for quick rebuilds of one file while working.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$flags" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$flags" -DTRESSEL_WERROR=ON -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8
cmake --build build -j "$jobs"

if [ "$mode" = run ]; then
  if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "no display found: running the editor under Xvfb (set DISPLAY to see the window)" >&2
    exec xvfb-run -a -s "-screen 0 1600x900x24 -noreset" ./build/app/editor/tressel "$@"
  fi
  exec ./build/app/editor/tressel "$@"
fi

# Tests: every GPU test runs with the validation layers on; window tests need an X server (Xvfb).
export TRESSEL_VALIDATION=1
status=0
xvfb-run -a -s "-screen 0 1600x900x24 -noreset" ctest --test-dir build --output-on-failure -j "$jobs" "$@" || status=$?
# The whole suite (no ctest options given) also runs built with ASan + UBSan (scripts/sanitize.sh).
if [ $# -eq 0 ]; then
  bash scripts/sanitize.sh || status=$?
fi
exit $status
