#!/usr/bin/env bash
# Installs every Debian package Tressel needs to build, run and test. Idempotent: packages already
# installed are left alone and apt is not touched when nothing is missing. Run as root (or via sudo).
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git file
  # Vulkan: loader + headers, Mesa's CPU driver (lavapipe), validation layers, shader compiler
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools glslc spirv-tools
  # window and UI
  libglfw3-dev libimgui-dev
  # file formats and maths
  libassimp-dev libtinygltf-dev nlohmann-json3-dev libglm-dev libstb-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev xvfb xauth
)
# Node.js runs the Khronos glTF validator (npm package, tools/package.json) on the glTF exports. Debian's
# nodejs and npm, unless a node and npm are already on the PATH (another distribution's nodejs bundles
# npm and conflicts with Debian's npm package).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# npm tools pinned by tools/package-lock.json; reinstalled only when the lock file changed since the
# last install (its hash is kept in tools/node_modules).
tools_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tools"
if [ -f "$tools_dir/package-lock.json" ]; then
  stamp="$tools_dir/node_modules/.tressel-lock.sha256"
  want="$(sha256sum "$tools_dir/package-lock.json" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$tools_dir/node_modules/gltf-validator" ]; then
    echo "setup: npm tools up to date"
  else
    echo "setup: npm ci in tools/"
    npm ci --prefix "$tools_dir" --no-audit --no-fund
    echo "$want" > "$stamp"
  fi
fi
