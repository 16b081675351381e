#!/usr/bin/env bash
# Checks that narrate-worker's C sources stand in floors (issue 43): each file calls only into
# files below it. It compiles every Sources/narrate-worker/*.c to an object file in a temporary
# folder (with the include paths the package uses: Sources/CNarrateSystem/include and the
# system's espeak-ng headers), reads each object's defined and undefined symbols with `nm`, and
# draws the file-level call graph: A -> B when A uses a symbol that B defines. It fails, naming
# the files, when
#   (a) the graph has a cycle (two files that call each other, directly or through others), or
#   (b) a .c or .h file in Sources/narrate-worker is over 400 lines.
# When it passes it prints the floors: the files in layers, the bottom first, each file calling
# only into floors below its own.
#
# Usage: scripts/check-worker-floors.sh   (from anywhere; needs cc or clang, nm, pkg-config optional)
set -euo pipefail
cd "$(dirname "$0")/.."
sources=Sources/narrate-worker
max_lines=400

compiler=$(command -v cc || command -v clang || true)
if [ -z "$compiler" ]; then
  echo "check-worker-floors: no C compiler (cc or clang)" >&2
  exit 2
fi
espeak_flags=$(pkg-config --cflags espeak-ng 2>/dev/null || true)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

failed=0

# (b) No file over the limit.
for file in "$sources"/*.c "$sources"/*.h; do
  lines=$(wc -l < "$file")
  if [ "$lines" -gt "$max_lines" ]; then
    echo "check-worker-floors: $file has $lines lines (at most $max_lines)" >&2
    failed=1
  fi
done

# Every file's object, and its defined and undefined symbols.
for file in "$sources"/*.c; do
  name=$(basename "$file" .c)
  # shellcheck disable=SC2086
  "$compiler" -std=gnu11 -c -o "$scratch/$name.o" -I Sources/CNarrateSystem/include -I "$sources" $espeak_flags "$file"
  nm --defined-only "$scratch/$name.o" | awk -v file="$name" '$2 ~ /^[TDBRCVWGS]$/ {print $3, file}' >> "$scratch/defined"
  nm --undefined-only "$scratch/$name.o" | awk -v file="$name" '{print file, $NF}' >> "$scratch/used"
done

# The edges: file -> file that defines what it uses (a symbol defined twice is an error).
duplicates=$(awk '{print $1}' "$scratch/defined" | sort | uniq -d)
if [ -n "$duplicates" ]; then
  echo "check-worker-floors: symbols defined in more than one file: $duplicates" >&2
  exit 1
fi
awk 'NR == FNR {owner[$1] = $2; next} ($2 in owner) && owner[$2] != $1 {print $1, owner[$2]}' \
  "$scratch/defined" "$scratch/used" | sort -u > "$scratch/edges"

# (a) No cycle: peel the floors off from the bottom (files that call no file left); what cannot
# be peeled is on a cycle or calls into one.
python3 - "$scratch/edges" "$scratch"/*.o <<'PY' || failed=1
import os, sys
edges_path, objects = sys.argv[1], sys.argv[2:]
files = sorted(os.path.basename(o)[:-2] for o in objects)
calls = {f: set() for f in files}
for line in open(edges_path):
    a, b = line.split()
    calls[a].add(b)
floors, placed = [], set()
while len(placed) < len(files):
    floor = sorted(f for f in files if f not in placed and calls[f] <= placed)
    if not floor:
        break
    floors.append(floor)
    placed.update(floor)
left = [f for f in files if f not in placed]
if left:
    # Name the cycles: strongly connected components of more than one file.
    index, low, stack, on, counter, cycles = {}, {}, [], set(), [0], []
    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in sorted(calls[v]):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop(); on.discard(w); component.append(w)
                if w == v: break
            if len(component) > 1: cycles.append(sorted(component))
    sys.setrecursionlimit(10000)
    for f in files:
        if f not in index: visit(f)
    for component in cycles:
        inner = sorted(f"{a}.c -> {b}.c" for a in component for b in sorted(calls[a]) if b in component)
        print("check-worker-floors: these files call each other in a circle: " + ", ".join(f + ".c" for f in component), file=sys.stderr)
        for edge in inner:
            print("    " + edge, file=sys.stderr)
    sys.exit(1)
print("narrate-worker floors (bottom first; a file calls only into floors below it):")
for number, floor in enumerate(floors):
    described = []
    for f in floor:
        below = sorted(calls[f])
        described.append(f"{f}.c" + (f" (-> {', '.join(below)})" if below else ""))
    print(f"  {number}: " + "; ".join(described))
PY

if [ "$failed" -ne 0 ]; then
  echo "check-worker-floors: FAILED" >&2
  exit 1
fi
echo "check-worker-floors: no cycle, no file over $max_lines lines"
