#!/usr/bin/env bash
# The listening room (`narrate serve` at /) in a real browser: Debian's chromium and
# chromium-driver, driven by Selenium from PyPI, headless (Tests/ListeningRoom); ffmpeg for the
# exports and ffprobe.
#
# Installs the missing system packages with apt-get (as root or through sudo); makes or reuses
# the virtual environment .build/venv-web-tests with the pinned packages of
# Tests/ListeningRoom/requirements.txt; then runs pytest. Each test module starts its own server.
#
# The binary: $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate.
# Usage: scripts/test-web.sh [pytest arguments …]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/python-tests.sh

need_packages chromium chromium-driver ffmpeg
command -v chromedriver >/dev/null 2>&1 || fail "chromedriver is not on PATH although chromium-driver is installed."

venv=${NARRATE_WEB_VENV:-.build/venv-web-tests}
make_venv "$venv" Tests/ListeningRoom/requirements.txt

find_narrate
step "Testing $NARRATE_BIN in $(chromium --version 2>/dev/null || echo chromium)"

export PYTHONDONTWRITEBYTECODE=1
# Selenium finds the driver given, never downloads one.
export SE_OFFLINE=true
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/ListeningRoom "$@"
