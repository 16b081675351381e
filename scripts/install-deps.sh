#!/usr/bin/env bash
# Checks for Swift, then installs the system packages Narrate needs that are missing
# (Debian/Ubuntu), as root or through sudo. Says what it does, step by step.
# Usage: scripts/install-deps.sh [extra-package …]
set -euo pipefail
packages=(libespeak-ng-dev espeak-ng libsqlite3-dev libmp3lame-dev zlib1g-dev ffmpeg "$@")

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
if ((${#missing[@]} == 0)); then
  echo "    all installed" >&2
  exit 0
fi
echo "    missing: ${missing[*]}" >&2

# 3. Root needs no sudo (a container often has none); anyone else needs it. `env` carries
# DEBIAN_FRONTEND through sudo, which would otherwise drop it and let debconf ask questions.
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || fail "installing needs root: run this script as root, or install sudo.
       Or install these yourself: apt-get install ${missing[*]}"
  as_root=(sudo)
fi
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q)

step "Updating the package lists (apt-get update)"
"${apt[@]}" update
step "Installing ${#missing[@]} package(s): ${missing[*]} (a few minutes on a fresh system)"
"${apt[@]}" install -y --no-install-recommends "${missing[@]}"
step "Done: the system packages are installed. Next: swift build (or swift test)."
