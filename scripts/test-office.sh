#!/usr/bin/env bash
# DOCX, ODT and FB2 end to end (Tests/OfficeDocuments): documents made by pandoc and by
# LibreOffice (Debian's pandoc and libreoffice-writer-nogui) from the corpus texts, read by the
# built `narrate` (text, toc, show, add, book with subtitles and a read-along EPUB checked by
# epubcheck, serve's upload), and damaged ones refused.
#
# Installs the missing system packages with apt-get (as root or through sudo); makes or reuses
# the virtual environment .build/venv-office-tests with the pinned packages of
# Tests/OfficeDocuments/requirements.txt; then runs pytest. The documents are made once per run.
#
# The binary: $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate.
# Usage: scripts/test-office.sh [pytest arguments …]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/python-tests.sh

need_packages pandoc libreoffice-writer-nogui epubcheck default-jre-headless
command -v soffice >/dev/null 2>&1 || fail "soffice is not on PATH although libreoffice-writer-nogui is installed."

venv=${NARRATE_OFFICE_VENV:-.build/venv-office-tests}
make_venv "$venv" Tests/OfficeDocuments/requirements.txt

find_narrate
step "Testing $NARRATE_BIN with $(pandoc --version | head -1) and $(soffice --version 2>/dev/null | head -1)"

export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/OfficeDocuments "$@"
