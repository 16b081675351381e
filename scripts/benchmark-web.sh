#!/usr/bin/env bash
# The listening room (`narrate serve` at /) measured in headless Chromium (Debian's chromium and
# chromium-driver, Selenium from the web tests' virtual environment), side by side with the
# speech API in one run, round by round (the median round is reported):
#   1. the library view with 200 books (Markdown books cut from the corpus's Gutenberg texts):
#      first contentful paint, and the moment the book list is shown and usable
#      (performance.mark "narrate:library"). Target: both <= 300 ms.
#   2. pressing play on a page not yet made: the click to the audio element's first "playing"
#      event, against the speech API's time to its first byte for the same page's text and voice
#      (POST /v1/audio/speech, mp3, streamed) on a service with a cache of its own. Target <= 1.2x.
#   3. continuous play: the gap between a page's "ended" event and the next page's "playing"
#      event, the next page made while this one plays. Target <= 150 ms.
#   4. the page's JavaScript and CSS, in bytes.
# The script does not fail on a missed target: it says MISSED.
#
# Usage: scripts/benchmark-web.sh
# Environment: RUNS (rounds, default 3), NARRATE_BIN (a built narrate; default: swift build -c
#   release), VOICE (default alloy).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/python-tests.sh

need_packages chromium chromium-driver ffmpeg
venv=${NARRATE_WEB_VENV:-.build/venv-web-tests}
make_venv "$venv" Tests/ListeningRoom/requirements.txt
if [[ -z "${NARRATE_BIN:-}" ]]; then
    step "Building narrate (release)"
    swift build -c release --static-swift-stdlib -Xlinker -s >/dev/null
    export NARRATE_BIN=.build/release/narrate
fi
find_narrate
step "Measuring $NARRATE_BIN in $(chromium --version 2>/dev/null || echo chromium)"
export SE_OFFLINE=true PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" scripts/benchmark_web.py
