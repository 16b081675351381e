#!/usr/bin/env bash
# `narrate say` against `espeak-ng -w`, in one run, on the same long text:
#   - cold say (empty cache, one eSpeak worker per core) against one espeak-ng process, and
#     against two espeak-ng on the text's two halves at once (what the cores give eSpeak
#     alone: the ceiling), round by round, since these machines are noisy;
#   - the same bytes with one worker as with all of them;
#   - a cold one-sentence say (latency), warm against cold, and peak memory.
# With BASELINE=path/to/an/older/narrate, that binary's cold say and one-sentence latency run
# in the same rounds, side by side.
#
# Usage: scripts/benchmark.sh [TEXT_FILE]   (default: the Devil's Dictionary from the corpus)
# Environment: RUNS (rounds, default 3), BASELINE (optional), WORK (scratch folder).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/measure.sh
root=$(pwd)
text=$(realpath "${1:-$root/../shared/corpus/txt/pg972-devils-dictionary-1990s-header-ascii.txt}")
runs=${RUNS:-3}
baseline=${BASELINE:-}
work=${WORK:-$(mktemp -d /tmp/narrate-bench.XXXXXX)}
mkdir -p "$work"
trap 'rm -rf "$work"/cache* "$work"/*.wav "$work"/half*.txt' EXIT

bash scripts/install-deps.sh hyperfine time python3 procps >/dev/null
swift build -c release --static-swift-stdlib >/dev/null
narrate="$root/.build/release/narrate"
cores=$(nproc)
echo "Text: $text ($(wc -c <"$text") bytes); $runs rounds; $cores cores${baseline:+; baseline: $baseline}"

python3 - "$text" "$work/half1.txt" "$work/half2.txt" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
cut = text.find("\n", len(text) // 2) + 1 or len(text)
open(sys.argv[2], "w", encoding="utf-8").write(text[:cut])
open(sys.argv[3], "w", encoding="utf-8").write(text[cut:])
PY

# Wall seconds of a command (after a sync, so no run pays for the previous one's writes).
seconds() {
  sync
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}
espeak_whole() { espeak-ng -v en-us -w "$work/espeak.wav" -f "$text"; }
espeak_halves() {
  espeak-ng -v en-us -w "$work/half1.wav" -f "$work/half1.txt" &
  local first=$!
  espeak-ng -v en-us -w "$work/half2.wav" -f "$work/half2.txt"
  wait "$first"
}
# say_cold BINARY NAME [OPTION…]: NAME.wav from an empty cache-NAME.
# The caches are removed at the start of each round, not just before narrate runs: on this
# machine's disk (ext4 without a journal) allocating an inode scans the inodes deleted in the
# last few seconds, so a run started a moment after removing a few hundred entry files would
# pay for that removal, which no real cold run does (measured: 3% of the run's CPU time).
say_cold() { "$1" say -f "$text" -o "$work/$2.wav" --voice en-us --cache-dir "$work/cache-$2" --quiet "${@:3}"; }

: >"$work/rounds.txt"
printf '%-6s %10s %13s %8s %9s\n' round espeak-ng "2x espeak-ng" cold baseline
for round in $(seq "$runs"); do
  rm -rf "$work/cache-cold" "$work/cache-baseline"
  single=$(seconds espeak_whole)
  halves=$(seconds espeak_halves)
  cold=$(seconds say_cold "$narrate" cold)
  old=0
  [ -n "$baseline" ] && old=$(seconds say_cold "$baseline" baseline)
  printf '%-6s %10s %13s %8s %9s\n' "$round" "$single" "$halves" "$cold" "$old"
  echo "$single $halves $cold $old" >>"$work/rounds.txt"
done

# The same bytes with one worker as with all of them (the cold runs used every core).
rm -rf "$work/cache-one"
say_cold "$narrate" one --jobs 1
if cmp -s "$work/cold.wav" "$work/one.wav"; then same=yes; else same=NO; fi

# Warm: the last cold run filled the cache.
warm=$(seconds "$narrate" say -f "$text" -o "$work/warm.wav" --voice en-us --cache-dir "$work/cache-cold" --quiet)

# One sentence, cold cache each time.
sentence="The quick brown fox jumps over the lazy dog."
latency_cmds=(--command-name cold-sentence --prepare "rm -rf $work/cache-s" "$narrate say '$sentence' -o $work/s.wav --cache-dir $work/cache-s --quiet")
[ -n "$baseline" ] && latency_cmds+=(--command-name baseline-sentence --prepare "rm -rf $work/cache-b" "$baseline say '$sentence' -o $work/b.wav --cache-dir $work/cache-b --quiet")
hyperfine -N --runs 30 --warmup 3 --style none --export-json "$work/latency.json" "${latency_cmds[@]}" >/dev/null

# Peak resident memory of the narrate process and of its engine processes, sampled every 0.1 s.
rm -rf "$work/cache-memory"
read -r parent_kb worker_kb < <(peak_memory "$narrate" say -f "$text" -o "$work/memory.wav" --voice en-us --cache-dir "$work/cache-memory" --quiet)

python3 - "$work/rounds.txt" "$work/latency.json" "$warm" "$same" "$parent_kb" "$worker_kb" "$cores" <<'PY'
import json, statistics, sys
rounds = [tuple(map(float, line.split())) for line in open(sys.argv[1])]
latency = {r["command"]: r for r in json.load(open(sys.argv[2]))["results"]}
warm, same = float(sys.argv[3]), sys.argv[4]
parent, worker = (int(x) / 1024 for x in sys.argv[5:7])
cores = int(sys.argv[7])
def verdict(ok): return "ok" if ok else "MISSED"
def median(values): return statistics.median(values)
cold = median(c for _, _, c, _ in rounds)
ratio = median(c / s for s, _, c, _ in rounds)
ceiling = median(h / s for s, h, _, _ in rounds)
share = median(h / c for _, h, c, _ in rounds)
print()
print(f"cold / espeak-ng        = {ratio:.2f}   (median round; target <= 0.60 on 2 cores: {verdict(ratio <= 0.60)})")
print(f"2x espeak-ng / espeak-ng = {ceiling:.2f}   (two espeak-ng on the halves: the {cores}-core ceiling)")
print(f"cold reaches              {share * 100:.0f}% of that ceiling")
if any(b for *_, b in rounds):
    print(f"baseline cold / espeak-ng = {median(b / s for s, _, _, b in rounds):.2f}")
print(f"same bytes with --jobs 1  : {same}")
print(f"warm / cold             = {warm / cold:.3f}   (warm {warm:.2f} s; target <= 0.10: {verdict(warm / cold <= 0.10)})")
sentence = latency["cold-sentence"]["mean"] * 1000
line = f"one-sentence say (cold) = {sentence:.1f} ms ± {latency['cold-sentence']['stddev'] * 1000:.1f}"
if "baseline-sentence" in latency:
    before = latency["baseline-sentence"]["mean"] * 1000
    line += f"   (baseline {before:.1f} ms: {sentence - before:+.1f} ms; target within +30 ms: {verdict(sentence - before <= 30)})"
print(line)
print(f"peak memory             = narrate {parent:.1f} MiB (target <= 40: {verdict(parent <= 40)}), each eSpeak process at most {worker:.1f} MiB")
PY
