"""GET /metrics, read with the Prometheus client library's own text-format parser."""

from __future__ import annotations

import time

import pytest
from prometheus_client.parser import text_string_to_metric_families

from narrate_service import SHORT_TEXT, error_body


def scrape(server) -> dict[str, list]:
    response = server.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[str, list] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append(sample)
    return samples


def value(samples: dict, name: str, **labels) -> float:
    matching = [s.value for s in samples.get(name, []) if all(s.labels.get(k) == v for k, v in labels.items())]
    return sum(matching)


@pytest.fixture(scope="module")
def traffic(server) -> None:
    """Some requests of each kind, on a fresh server."""
    speech = {"model": "tts-1", "voice": "alloy", "input": SHORT_TEXT, "response_format": "wav"}
    for _ in range(2):  # a miss, then a hit
        assert server.request("POST", "/v1/audio/speech", json=speech).status_code == 200
    assert server.request("POST", "/v1/audio/speech", json={**speech, "voice": "no-such-voice"}).status_code == 400
    assert server.get("/v1/models").status_code == 200
    assert server.get("/healthz").status_code == 200
    for book in ("424242", "434343"):
        error_body(server.get(f"/v1/books/{book}"))
    assert server.get("/no/such/route").status_code == 404
    # A request is counted when its body has been sent, which may be just after the client
    # has it: wait until all 8 are.
    deadline = time.monotonic() + 5
    while value(scrape(server), "narrate_http_requests_total") < 8 and time.monotonic() < deadline:
        time.sleep(0.05)


def test_requests_by_route_and_status(server, traffic):
    samples = scrape(server)
    name = "narrate_http_requests_total"
    assert name in samples, sorted(samples)
    assert value(samples, name, route="/v1/audio/speech", method="POST", status="200") == 2
    assert value(samples, name, route="/v1/audio/speech", method="POST", status="400") == 1
    assert value(samples, name, route="/v1/models", method="GET", status="200") == 1
    assert value(samples, name, route="/healthz", status="200") == 1
    for sample in samples[name]:
        assert {"route", "method", "status"} <= set(sample.labels), sample
        # Routes are templates, never the concrete path (one series per book would not do).
        assert "424242" not in sample.labels["route"] and "/no/such/route" not in sample.labels["route"], sample
    book_routes = [s for s in samples[name] if s.labels["status"] == "404" and s.labels["route"].startswith("/v1/books")]
    assert sum(s.value for s in book_routes) == 2, samples[name]


def test_cache_hits_and_misses(server, traffic):
    samples = scrape(server)
    assert value(samples, "narrate_cache_misses_total") >= 1, sorted(samples)
    assert value(samples, "narrate_cache_hits_total") >= 1, sorted(samples)
    assert value(samples, "narrate_cache_hit_bytes_total") > 0


def test_engine_and_latency(server, traffic):
    samples = scrape(server)
    assert value(samples, "narrate_workers_running") >= 1
    assert value(samples, "narrate_queue_depth") == 0
    assert value(samples, "narrate_http_request_duration_seconds_count", route="/v1/audio/speech") == 3
    assert value(samples, "narrate_synthesis_seconds_count") >= 1
