#!/usr/bin/env bash
# Installs what is missing, builds Narrate, and narrates page 1 of the bundled sample into page1.wav.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --static-swift-stdlib -Xlinker -s   # stripped: about 68 MB instead of 107
.build/release/narrate pages samples/devils-dictionary-a.txt
.build/release/narrate page samples/devils-dictionary-a.txt 1 -o page1.wav
echo "Now listen to page1.wav (and run the same command again: it comes from the cache)."
