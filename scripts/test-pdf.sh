#!/usr/bin/env bash
# PDF end to end (Tests/PDF): PDFs printed by LibreOffice (an ODT with a running head and foot,
# footnotes, a two-column section and an outline) and by Chromium (its header and footer) from the
# corpus texts, read by the built `narrate` (text, toc, add, book with a read-along EPUB, serve's
# upload) and checked word for word against their source; a scan, an encrypted PDF (qpdf), cut,
# bit-flipped and bomb PDFs refused in one line each, nothing added, the service still answering.
#
# Installs the missing system packages with apt-get (as root or through sudo); makes or reuses
# the virtual environment .build/venv-pdf-tests with Tests/PDF/requirements.txt; runs pytest.
#
# The binary: $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate (narrate-pdf
# beside it).
# Usage: scripts/test-pdf.sh [pytest arguments …]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/python-tests.sh

need_packages libreoffice-writer-nogui chromium qpdf poppler-utils
command -v soffice >/dev/null 2>&1 || fail "soffice is not on PATH although libreoffice-writer-nogui is installed."

venv=${NARRATE_PDF_VENV:-.build/venv-pdf-tests}
make_venv "$venv" Tests/PDF/requirements.txt

find_narrate
[ -x "$(dirname "$NARRATE_BIN")/narrate-pdf" ] || fail "no narrate-pdf beside $NARRATE_BIN: build it (swift build)."
step "Testing $NARRATE_BIN with $(soffice --version 2>/dev/null | head -1), $(chromium --version 2>/dev/null | head -1) and $(qpdf --version | head -1)"

export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/PDF "$@"
