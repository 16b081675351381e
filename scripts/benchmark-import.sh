#!/usr/bin/env bash
# Times importing a book into the library (parse + save), cold each run.
# A PDF (given, or `PDF=1`: Pride and Prejudice from the corpus, printed by LibreOffice on A5
# with a running head and foot, over 300 pages, made once under .build/bench-pdf/) is timed in the same hyperfine run against
# `pdftotext -layout` on the same file (target: within 1.5x its time), and the import's peak
# memory, narrate-pdf included, is measured with /usr/bin/time -v.
# Usage: scripts/benchmark-import.sh [BOOK]   (default: the corpus moby-dick.epub); RUNS (default 5);
#        NARRATE_BIN: a narrate already built (else a release build is made).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=${RUNS:-5}
work=$(mktemp -d /tmp/narrate-bench-import.XXXXXX)
trap 'rm -rf "$work"' EXIT

bash scripts/install-deps.sh hyperfine time python3 poppler-utils >/dev/null
if [ -z "${NARRATE_BIN:-}" ]; then
  swift build -c release --static-swift-stdlib >/dev/null
  NARRATE_BIN="$root/.build/release/narrate"
fi
narrate=$NARRATE_BIN

if [ -z "${1:-}" ] && [ "${PDF:-0}" = 1 ]; then
  made=$root/.build/bench-pdf
  book=$made/pride-and-prejudice.pdf
  if [ ! -f "$book" ]; then
    mkdir -p "$made"
    # The whole novel as the PDF suite writes an ODT (Tests/PDF/documents.py): A5, a running
    # head and a page number at each foot, a heading starting each chapter.
    python3 - "$root" "$made/book.odt" <<'PY'
import re, sys
from pathlib import Path
root = Path(sys.argv[1])
sys.path[:0] = [str(root / "Tests/PDF"), str(root / "Tests/OfficeDocuments")]
import documents, sources
text = (sources.CORPUS / "pg1342-pride-and-prejudice-cp1252.txt").read_bytes().decode("cp1252").replace("\r", "")
text = text[text.index("It is a truth universally acknowledged"):text.index("*** END OF")]
blocks = [sources.Block("h1", "Chapter I")]
for paragraph in sources.paragraphs(text):
    if re.fullmatch(r"CHAPTER [IVXLC]+\.?", paragraph):
        blocks.append(sources.Block("h1", paragraph.title().rstrip(".")))
    else:
        blocks.append(sources.Block("p", paragraph))
documents.odt(sources.Source("Pride and Prejudice", "Jane Austen", "en-GB", blocks), Path(sys.argv[2]))
PY
    soffice --headless --norestore "-env:UserInstallation=file://$made/profile" --convert-to pdf --outdir "$made" "$made/book.odt" >/dev/null 2>&1
    mv "$made/book.pdf" "$book"
  fi
else
  book=$(realpath "${1:-$root/../shared/corpus/epub/moby-dick.epub}")
fi

echo "Book: $book ($(wc -c <"$book") bytes); $runs runs"
commands=(--command-name import "$narrate add $book --library $work/library.sqlite")
is_pdf=0
head -c 5 "$book" | grep -q '^%PDF-' && is_pdf=1
if [ "$is_pdf" = 1 ]; then
  echo "Pages: $(pdfinfo "$book" | awk '/^Pages:/ {print $2}')"
  commands+=(--command-name "pdftotext -layout" "pdftotext -layout $book $work/out.txt")
fi
hyperfine --runs "$runs" --style basic --export-json "$work/times.json" \
  --prepare "rm -f $work/library.sqlite*" "${commands[@]}"
peak=""
if [ "$is_pdf" = 1 ]; then
  rm -f "$work"/library.sqlite*
  # GNU time's maximum resident set size covers the children narrate waited for (narrate-pdf).
  peak=$(/usr/bin/time -v "$narrate" add "$book" --library "$work/library.sqlite" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}')
fi
python3 - "$work/times.json" "$is_pdf" "$peak" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
r = results["import"]
if sys.argv[2] == "1":
    baseline = results["pdftotext -layout"]
    ratio = r["mean"] / baseline["mean"]
    print(f"\nimport: mean {r['mean']:.3f} s (min {r['min']:.3f}, max {r['max']:.3f}); pdftotext -layout: mean {baseline['mean']:.3f} s")
    print(f"ratio {ratio:.2f}x   (target within 1.5x: {'ok' if ratio <= 1.5 else 'MISSED'}); peak memory {int(sys.argv[3]) / 1024:.0f} MiB")
else:
    print(f"\nimport: mean {r['mean']:.3f} s (min {r['min']:.3f}, max {r['max']:.3f})   (target < 1 s: {'ok' if r['mean'] < 1 else 'MISSED'})")
PY
