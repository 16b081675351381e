#!/usr/bin/env bash
# Checks for Swift, then installs the system packages Narrate needs that are missing
# (Debian/Ubuntu), as root or through sudo. Says what it does, step by step.
# Then installs ONNX Runtime's C library (for Piper voices) when it is missing: a distribution's
# package where one exists, else the official Linux x86-64 build from the `onnxruntime` wheel
# on PyPI (pinned, SHA-256 checked), into /usr/local/lib. NARRATE_SKIP_ONNXRUNTIME=1 skips it.
# Usage: scripts/install-deps.sh [extra-package …]
set -euo pipefail
packages=(libespeak-ng-dev espeak-ng libsqlite3-dev libmp3lame-dev zlib1g-dev libpoppler-glib-dev ffmpeg python3-pip "$@")

# ONNX Runtime, pinned: the wheel's name and SHA-256, and the library's inside it.
ORT_VERSION=1.32.0
ORT_WHEEL=onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl
ORT_WHEEL_SHA256=5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d
ORT_LIBRARY=libonnxruntime.so.1.32.0
ORT_LIBRARY_SHA256=6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f
ORT_DESTINATION=/usr/local/lib

step() { echo "==> $*" >&2; }
fail() { echo "error: $*" >&2; exit 1; }

# 1. Swift first: without it the packages are of no use, and the fix is not apt-get's.
step "Checking for a Swift 6 toolchain"
if ! command -v swift >/dev/null 2>&1; then
  fail "no 'swift' on PATH. Install Swift 6 or later for this distribution from https://www.swift.org/install/linux/
       (unpack the toolchain, put its usr/bin on PATH, check with 'swift --version'), then run this script again."
fi
version_line=$(swift --version 2>&1 | grep -m1 -o 'Swift version [0-9][0-9.]*' || true)
major=${version_line#Swift version }
major=${major%%.*}
if [ -z "$major" ]; then
  fail "'swift --version' did not say which Swift this is:
$(swift --version 2>&1 | sed 's/^/       /')"
fi
if [ "$major" -lt 6 ]; then
  fail "$version_line is too old: Narrate needs Swift 6 or later (https://www.swift.org/install/linux/)."
fi
echo "    $version_line ($(command -v swift))" >&2

# 2. Which packages are missing.
step "Checking the system packages: ${packages[*]}"
if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  fail "this script knows Debian and Ubuntu (apt-get) only. Install eSpeak NG with its headers, SQLite 3,
       LAME (libmp3lame), zlib and ffmpeg with your system's package manager, then run 'swift build'."
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

# 3. Root needs no sudo (a container often has none); anyone else needs it. `env` carries
# DEBIAN_FRONTEND through sudo, which would otherwise drop it and let debconf ask questions.
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || fail "installing needs root: run this script as root, or install sudo.
       Or install these yourself: apt-get install ${missing[*]:-}"
  as_root=(sudo)
fi
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q)

if ((${#missing[@]} == 0)); then
  echo "    all installed" >&2
else
  echo "    missing: ${missing[*]}" >&2
  step "Updating the package lists (apt-get update)"
  "${apt[@]}" update
  step "Installing ${#missing[@]} package(s): ${missing[*]} (a few minutes on a fresh system)"
  "${apt[@]}" install -y --no-install-recommends "${missing[@]}"
fi

# 4. ONNX Runtime's C library, which Piper voices need at run time (Narrate builds without it).
install_onnxruntime() {
  step "Checking for ONNX Runtime $ORT_VERSION (Piper voices)"
  if [ -n "${NARRATE_SKIP_ONNXRUNTIME:-}" ]; then
    echo "    skipped (NARRATE_SKIP_ONNXRUNTIME)" >&2
    return
  fi
  if [ -f "$ORT_DESTINATION/$ORT_LIBRARY" ] && echo "$ORT_LIBRARY_SHA256  $ORT_DESTINATION/$ORT_LIBRARY" | sha256sum -c --status; then
    echo "    installed: $ORT_DESTINATION/$ORT_LIBRARY" >&2
    return
  fi
  # A distribution that packages it: its package, through apt-get.
  local candidate
  candidate=$(apt-cache policy libonnxruntime-dev 2>/dev/null | sed -n 's/^ *Candidate: //p')
  if [ -n "$candidate" ] && [ "$candidate" != "(none)" ]; then
    step "Installing libonnxruntime-dev $candidate (apt-get)"
    "${apt[@]}" install -y --no-install-recommends libonnxruntime-dev
    return
  fi
  [ "$(uname -m)" = x86_64 ] || fail "no ONNX Runtime package for $(uname -m) here, and the pinned build is for x86-64 Linux.
       Install ONNX Runtime's C library yourself and set NARRATE_ONNXRUNTIME to libonnxruntime.so (or skip Piper voices:
       NARRATE_SKIP_ONNXRUNTIME=1)."
  local work
  work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  step "Downloading $ORT_WHEEL from PyPI (the official Linux build of ONNX Runtime's C library is inside it)"
  python3 -m pip download --disable-pip-version-check -q --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
    --python-version 3.11 --implementation cp --abi cp311 -d "$work" "onnxruntime==$ORT_VERSION" \
    || fail "could not download onnxruntime $ORT_VERSION from PyPI (is the network or a PyPI mirror reachable?)."
  echo "$ORT_WHEEL_SHA256  $work/$ORT_WHEEL" | sha256sum -c --status \
    || fail "the downloaded $ORT_WHEEL does not have the SHA-256 this script pins ($ORT_WHEEL_SHA256): not installed."
  python3 - "$work/$ORT_WHEEL" "$work/$ORT_LIBRARY" <<'PYTHON'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, open(sys.argv[2], "wb") as out:
    out.write(wheel.read("onnxruntime/capi/" + sys.argv[2].rsplit("/", 1)[1]))
PYTHON
  echo "$ORT_LIBRARY_SHA256  $work/$ORT_LIBRARY" | sha256sum -c --status \
    || fail "$ORT_LIBRARY inside the wheel does not have the pinned SHA-256: not installed."
  step "Installing $ORT_DESTINATION/$ORT_LIBRARY (and libonnxruntime.so.1, libonnxruntime.so)"
  "${as_root[@]}" install -D -m 0644 "$work/$ORT_LIBRARY" "$ORT_DESTINATION/$ORT_LIBRARY.tmp"
  "${as_root[@]}" mv -f "$ORT_DESTINATION/$ORT_LIBRARY.tmp" "$ORT_DESTINATION/$ORT_LIBRARY"
  "${as_root[@]}" ln -sf "$ORT_LIBRARY" "$ORT_DESTINATION/libonnxruntime.so.1"
  "${as_root[@]}" ln -sf "$ORT_LIBRARY" "$ORT_DESTINATION/libonnxruntime.so"
  "${as_root[@]}" ldconfig
}
install_onnxruntime
step "Done: the system packages are installed. Next: swift build (or swift test)."
