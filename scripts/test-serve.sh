#!/usr/bin/env bash
# End-to-end tests of `narrate serve` with real third-party clients (OpenAI's `openai` SDK,
# Home Assistant's `wyoming`, `schemathesis`, the Prometheus parser): Tests/ServiceClients.
#
# Installs the missing system packages (ffmpeg for ffprobe, python3-venv when Python has no
# venv) with apt-get, as root or through sudo; makes or reuses the virtual environment
# .build/venv-serve-tests with the pinned packages of Tests/ServiceClients/requirements.txt;
# then runs pytest. Each test module starts its own server on ephemeral ports.
#
# The binary: $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate (build it
# first: swift build). A binary outside the checkout needs NARRATE_VOICES_DIR=voices.
# Usage: scripts/test-serve.sh [pytest arguments …]     e.g. scripts/test-serve.sh -k wyoming
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { echo "==> $*" >&2; }
fail() { echo "error: $*" >&2; exit 1; }

requirements=Tests/ServiceClients/requirements.txt
venv=${NARRATE_SERVE_VENV:-.build/venv-serve-tests}

# 1. System packages: ffmpeg (ffmpeg and ffprobe decode what the service sends), and Python
# with venv and ensurepip (Debian splits them into python3-venv).
packages=(ffmpeg)
if ! command -v python3 >/dev/null 2>&1; then
  packages+=(python3 python3-venv)
elif ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  packages+=(python3-venv)
fi
step "Checking the system packages: ${packages[*]}"
missing=()
for package in "${packages[@]}"; do
  if command -v dpkg-query >/dev/null 2>&1; then
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  else
    missing+=("$package")
  fi
done
# A python3 that is not Debian's (pyenv, a toolchain's) counts as having venv once it imports it.
if ((${#missing[@]} > 0)); then
  command -v apt-get >/dev/null 2>&1 || fail "missing ${missing[*]}, and this script installs with apt-get only (Debian, Ubuntu): install them yourself."
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "installing ${missing[*]} needs root: run this script as root, or install sudo, or apt-get install ${missing[*]} yourself."
    as_root=(sudo)
  fi
  apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q)
  step "Installing ${missing[*]} (apt-get)"
  "${apt[@]}" update
  "${apt[@]}" install -y --no-install-recommends "${missing[@]}"
else
  echo "    all installed" >&2
fi
command -v ffprobe >/dev/null 2>&1 || fail "ffprobe is not on PATH although ffmpeg is installed."
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || fail "$(command -v python3) cannot make a virtual environment (no venv/ensurepip)."

# 2. The virtual environment, made once and reused while requirements.txt is unchanged.
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
stamp="$venv/.requirements.sha256"
if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
  step "The virtual environment $venv is broken (its Python is gone): making it anew"
  rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
  step "Making the virtual environment $venv ($(python3 --version 2>&1))"
  python3 -m venv "$venv"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  step "Installing the test clients from $requirements into $venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$requirements"
  echo "$wanted" > "$stamp"
else
  echo "    reusing $venv" >&2
fi

# 3. The binary.
if [ -n "${NARRATE_BIN:-}" ]; then
  binary=$NARRATE_BIN
elif [ -x .build/release/narrate ]; then
  binary=.build/release/narrate
elif [ -x .build/debug/narrate ]; then
  binary=.build/debug/narrate
else
  fail "no narrate binary: build one (swift build, or swift build -c release), or name it in NARRATE_BIN."
fi
[ -x "$binary" ] || fail "NARRATE_BIN=$binary is not an executable file."
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
serve_help=$("$binary" serve --help 2>&1 || true)
[[ $serve_help == *--wyoming-port* ]] || fail "$binary has no 'serve' command: it is older than the service. Build it again
       (swift build, or swift build -c release for .build/release), or name another binary in NARRATE_BIN."
export NARRATE_BIN=$binary
step "Testing $binary"

# 4. The tests. No bytecode or pytest cache inside the checkout.
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/ServiceClients "$@"
