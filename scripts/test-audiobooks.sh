#!/usr/bin/env bash
# The audiobooks `narrate book` writes, read by tools nobody here wrote: ffprobe, mediainfo,
# AtomicParsley, mp3val and epubcheck (Debian packages), mutagen, tinytag and m3u8 (PyPI):
# Tests/AudiobookTools. M4B brand, media kind, channels and chapters; MP3 cover type and ID3
# chapters; validity, tags and durations against manifest.json; playlist.m3u8; Audiobookshelf's
# metadata.json and cover.
#
# Installs the missing system packages with apt-get (as root or through sudo); makes or reuses
# the virtual environment .build/venv-audiobook-tests with the pinned packages of
# Tests/AudiobookTools/requirements.txt; then runs pytest. The corpus is read from ../shared/corpus.
# The binary: $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate.
# Usage: scripts/test-audiobooks.sh [pytest arguments …]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/python-tests.sh

need_packages ffmpeg mediainfo atomicparsley mp3val epubcheck default-jre-headless
venv=${NARRATE_AUDIOBOOK_VENV:-.build/venv-audiobook-tests}
make_venv "$venv" Tests/AudiobookTools/requirements.txt
find_narrate
step "Testing $NARRATE_BIN"
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/AudiobookTools "$@"
