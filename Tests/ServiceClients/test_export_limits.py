"""Export jobs let go of what they held: 200 exports created and deleted at once leave the
service's memory within a stated bound, with a cache store configured (each export's store tier
was kept forever before)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from narrate_service import start_server

BOOK = b"# One\n\nA short chapter, exported and cancelled again and again.\n\n# Two\n\nAnd another one.\n"
# The bound: after a warm-up, 200 cycles may grow the service's resident memory by this much
# (allocator arenas and SQLite page caches settle; what was kept per export is gone).
BOUND_MIB = 48


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_200_created_and_deleted_exports_leave_memory_within_a_bound(tmp_path, monkeypatch):
    # Given: a service with a cache store (one that never answers: nothing reaches it in time)
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
    with start_server(tmp_path / "serve", extra_args=["--cache-store", "s3://exports-bucket/p", "--cache-store-timeout", "1"]) as server:
        book = server.request("POST", "/v1/books", params={"filename": "short.md"}, data=BOOK, headers={"Content-Type": "text/markdown"}).json()

        def cycle() -> None:
            created = server.request("POST", f"/v1/books/{book['id']}/exports", json={"format": "wav"})
            assert created.status_code == 202, created.text
            job = created.json()["id"]
            # Deleted once it runs (or is over): it has opened its engine and its store tier.
            for _ in range(600):
                if server.request("GET", f"/v1/exports/{job}").json()["state"] != "queued":
                    break
                time.sleep(0.01)
            deleted = server.request("DELETE", f"/v1/exports/{job}")
            assert deleted.status_code == 204, deleted.text

        for _ in range(20):
            cycle()
        before = rss_mib(server.process.pid)

        # When
        for _ in range(200):
            cycle()
        after = rss_mib(server.process.pid)

        # Then
        print(f"resident memory: {before:.1f} MiB after 20 cycles, {after:.1f} MiB after 200 more")
        assert after - before < BOUND_MIB, (before, after)
        assert server.request("GET", "/v1/exports").json()["exports"] == []
