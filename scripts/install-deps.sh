#!/usr/bin/env bash
# Installs the system packages Narrate needs that are missing (Debian/Ubuntu), as root or via sudo.
# Usage: scripts/install-deps.sh [extra-package …]
set -euo pipefail
packages=(libespeak-ng-dev espeak-ng libsqlite3-dev libmp3lame-dev zlib1g-dev ffmpeg "$@")
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "error: no Swift toolchain on PATH. Install Swift 6 from swift.org, then run this again." >&2
  exit 1
fi
