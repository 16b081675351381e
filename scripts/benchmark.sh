#!/usr/bin/env bash
# Times `narrate say -f` cold (empty cache) and warm against `espeak-ng -w` on the same long
# text, in one run, and prints the ratios and peak memory next to the targets.
#
# Usage: scripts/benchmark.sh [TEXT_FILE]   (default: the Devil's Dictionary from the corpus)
# Environment: RUNS (default 3), WORK (scratch folder, default a new temp folder).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
text=${1:-"$root/../shared/corpus/txt/pg972-devils-dictionary-1990s-header-ascii.txt"}
runs=${RUNS:-3}
work=${WORK:-$(mktemp -d /tmp/narrate-bench.XXXXXX)}
mkdir -p "$work"
trap 'rm -rf "$work"/cache "$work"/*.wav' EXIT

bash scripts/install-deps.sh hyperfine time python3 >/dev/null
swift build -c release --static-swift-stdlib >/dev/null
narrate="$root/.build/release/narrate"
text=$(realpath "$text")
cache="$work/cache"
echo "Text: $text ($(wc -c <"$text") bytes); $runs runs each; scratch: $work"

espeak_cmd="espeak-ng -v en-us -w $work/espeak.wav -f $text"
cold_cmd="$narrate say -f $text -o $work/cold.wav --voice en-us --cache-dir $cache --quiet"
warm_cmd="$narrate say -f $text -o $work/warm.wav --voice en-us --cache-dir $cache --quiet"

# Wall time: the three side by side in one hyperfine run. The cold command empties the cache
# before each run; the warm command's warm-up run fills it.
hyperfine --runs "$runs" --warmup 0 --export-json "$work/times.json" --style basic \
  --command-name espeak-ng --prepare "sync" "$espeak_cmd" \
  --command-name cold --prepare "rm -rf $cache; sync" "$cold_cmd" \
  --command-name warm --prepare "$warm_cmd >/dev/null; sync" "$warm_cmd"

# Peak memory (maximum resident set size) of one run each.
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'; }
rm -rf "$cache"
espeak_kb=$(peak $espeak_cmd)
cold_kb=$(peak $cold_cmd)
warm_kb=$(peak $warm_cmd)

python3 - "$work/times.json" "$espeak_kb" "$cold_kb" "$warm_kb" "$work" <<'PY'
import json, os, sys
times = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
espeak, cold, warm = (times[n]["mean"] for n in ("espeak-ng", "cold", "warm"))
ek, ck, wk = (int(x) / 1024 for x in sys.argv[2:5])
work = sys.argv[5]
audio_seconds = (os.path.getsize(os.path.join(work, "espeak.wav")) - 44) / 2 / 22050
def verdict(ok): return "ok" if ok else "MISSED"
print()
print(f"audio produced: {audio_seconds / 3600:.2f} h")
print(f"{'':10} {'mean s':>8} {'± s':>6} {'peak MiB':>9}")
for name, mean, kb in (("espeak-ng", espeak, ek), ("cold", cold, ck), ("warm", warm, wk)):
    print(f"{name:10} {mean:8.2f} {times[name]['stddev'] or 0:6.2f} {kb:9.1f}")
print()
print(f"cold / espeak-ng = {cold / espeak:.3f}   (target <= 1.05: {verdict(cold / espeak <= 1.05)})")
print(f"warm / cold      = {warm / cold:.3f}   (target <= 0.10: {verdict(warm / cold <= 0.10)})")
print(f"peak memory      = {max(ck, wk):.1f} MiB (target <= 40: {verdict(max(ck, wk) <= 40)})")
PY
