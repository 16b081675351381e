#!/usr/bin/env bash
# The README's test command: installs what is missing, builds the release binaries the quick start
# builds (some compile errors show only there: Swift's member-import checks differ between debug
# and release), then runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
echo "==> Building the release binaries (as scripts/quickstart.sh does)"
swift build -c release --static-swift-stdlib -Xlinker -s
echo "==> Running the tests"
swift test
