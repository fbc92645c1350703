#!/usr/bin/env bash
# install_test.sh prefix|deb BUILD_DIR VERSION SCRATCH
#   prefix: `cmake --install BUILD_DIR --prefix SCRATCH/prefix`, then the installed binaries run from there.
#   deb:    CPack's .deb, its metadata checked against what the binaries link, then unpacked and run.
# Either way the installed tool must report its version, find its own presets (not the source tree's) and
# read the shipped default scene with the assets installed beside it.
set -euo pipefail
mode=$1 build=$2 version=$3 scratch=$4
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$scratch" && mkdir -p "$scratch"
if [ "$mode" = prefix ]; then
  root="$scratch/prefix"
  cmake --install "$build" --prefix "$root" > "$scratch/install.log" || { cat "$scratch/install.log"; fail "cmake --install"; }
else
  (cd "$scratch" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$scratch/pkg" > "$scratch/cpack.log" 2>&1) ||
    { cat "$scratch/cpack.log"; fail "cpack"; }
  deb=$(ls "$scratch"/pkg/tressel_"$version"_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || { ls -R "$scratch/pkg"; fail "no tressel_${version}_*.deb"; }
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "Depends: $depends"
  depends_names=$(tr ',|' '\n\n' <<<"$depends" | sed 's/(.*//; s/[[:space:]]//g')
  # Every library the binaries link (their NEEDED entries; what those load in turn is their packages'
  # business) must come from a package the .deb depends on: ask dpkg which package owns each, as ldd
  # resolves it.
  for bin in "$build/app/cli/tressel-cli" "$build/app/editor/tressel"; do
    needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    [ -n "$needed" ] || fail "no NEEDED entries in $bin"
    for name in $needed; do
      lib=$(ldd "$bin" | awk -v n="$name" '$1 == n && $3 ~ /^\// {print $3}')
      [ -n "$lib" ] || fail "ldd does not resolve $name for $(basename "$bin")"
      pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | head -1 | cut -d: -f1) || pkg=""
      [ -z "$pkg" ] && pkg=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1) || true
      [ -n "$pkg" ] || fail "$lib (linked by $(basename "$bin")) belongs to no Debian package"
      grep -Fxq "$pkg" <<<"$depends_names" || fail "$(basename "$bin") links $lib from $pkg, which Depends does not name"
    done
  done
  grep -q "mesa-vulkan-drivers" <<<"$(dpkg-deb -f "$deb" Recommends)" || fail "a Vulkan driver is not recommended"
  [ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "package version is not $version"
  dpkg-deb -x "$deb" "$scratch/root"
  root="$scratch/root/usr"
fi

for f in bin/tressel bin/tressel-cli share/tressel/presets/scenes/default.json share/tressel/presets/assets/infinite_head.fbx \
         share/tressel/presets/sim/curly.json share/applications/tressel.desktop \
         share/icons/hicolor/scalable/apps/tressel.svg share/doc/tressel/README.md share/doc/tressel/ASSETS.md; do
  [ -e "$root/$f" ] || fail "$f is not installed"
done
grep -q '^Exec=tressel' "$root/share/applications/tressel.desktop" || fail "desktop entry does not run tressel"

# Run from elsewhere, with nothing pointing at the source tree.
cd "$scratch"
unset TRESSEL_PRESETS
want_presets=$(readlink -f "$root/share/tressel/presets")
for bin in tressel-cli tressel; do
  out=$("$root/bin/$bin" --version)
  echo "$out"
  head -1 <<<"$out" | grep -q "^$bin $version " || fail "$bin --version does not say $version"
  got=$(sed -n 's/^presets: //p' <<<"$out")
  [ "$(readlink -f "$got")" = "$want_presets" ] || fail "$bin finds its presets at '$got', not the installed $want_presets"
done
info=$("$root/bin/tressel-cli" info "$root/share/tressel/presets/scenes/default.json")
echo "$info"
grep -q "vertices 9523, triangles 17684" <<<"$info" || fail "the installed head did not load"
grep -q "2000 guides x 16 vertices" <<<"$info" || fail "the installed default scene's hair group is not read"
echo "ok: $mode"
