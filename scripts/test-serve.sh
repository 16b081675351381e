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

source scripts/python-tests.sh

# 1. System packages: ffmpeg (ffmpeg and ffprobe decode what the service sends), and Python
# with venv and ensurepip (Debian splits them into python3-venv).
need_packages ffmpeg
command -v ffprobe >/dev/null 2>&1 || fail "ffprobe is not on PATH although ffmpeg is installed."

# 2. The virtual environment, made once and reused while requirements.txt is unchanged.
venv=${NARRATE_SERVE_VENV:-.build/venv-serve-tests}
make_venv "$venv" Tests/ServiceClients/requirements.txt

# 3. The binary.
find_narrate
binary=$NARRATE_BIN
serve_help=$("$binary" serve --help 2>&1 || true)
[[ $serve_help == *--wyoming-port* ]] || fail "$binary has no 'serve' command: it is older than the service. Build it again
       (swift build, or swift build -c release for .build/release), or name another binary in NARRATE_BIN."
export NARRATE_BIN=$binary
step "Testing $binary"

# 4. The tests. No bytecode or pytest cache inside the checkout.
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/ServiceClients "$@"
