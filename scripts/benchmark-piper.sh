#!/usr/bin/env bash
# Narrate's Piper voices against the reference `piper` (piper-tts 1.8.0 over onnxruntime, run
# with one inference thread), with the same voice (en_US-joe-medium) and text, side by side in
# one run, round by round (these machines are noisy; the median round is reported):
#   1. say, one job: `narrate say` cold (empty cache), --jobs 1, on SIZE characters of a corpus
#      book, against one piper process with one thread on the same text. Target: at least as
#      many audio seconds per wall second as piper.
#   2. say, two jobs: --jobs 2 against the ceiling, two piper processes (one thread each) on
#      the text's two halves at once. Target: at least 0.97 of the ceiling.
#   3. book: `narrate book` of the same text (--format wav --jobs 2, cold) against the ceiling.
#      Target: at least 0.97.
#   4. first audio: a warm `narrate serve` (the voice loaded) streaming 4,000 characters: time
#      to the first byte, against piper's time for the same first sentence alone (as Narrate's
#      chunker cuts it; one thread, the voice loaded and warmed as Narrate's). Target: at most 1.2x.
#   5. memory: what the engine processes hold together (the sum of their PSS, so a page they
#      share counts once) with one worker and with two (the voice loaded in both), idle (3 s after the last text: a worker gives back what its runs
#      took after 1 s), also after the first-audio texts; and the Narrate process's peak.
#      Targets: at most 40 MiB per worker beyond the first; the Narrate process under 64 MiB.
#   6. page faults per chunk: `perf stat -e page-faults` on a cold say --jobs 1 of 5,000
#      characters, with a child per text (as before issue 29) and with the zygote in place.
# Also prints the real-time factor of each (audio seconds per wall second).
#
# Usage: scripts/benchmark-piper.sh
# Environment: RUNS (rounds, default 3), SIZE (characters, default 20000), NARRATE_BIN (a built
#   narrate; default: swift build -c release). Installs ONNX Runtime (install-deps.sh) and the
#   reference into .build/venv-piper-tests (Tests/PiperVoices/requirements.txt).
exec "$(dirname "$0")/benchmark-neural.sh" piper .build/venv-piper-tests Tests/PiperVoices/requirements.txt 20000
