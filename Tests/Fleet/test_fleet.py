"""The shared cache store against SeaweedFS: shards, replicas, faults, credentials, secrets."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import boto3
import pytest

from conftest import OUTPUTS, Machine, same_export, synthesized, wait_for, warnings
from seaweed import ACCESS_KEY, BUCKET, READ_ONLY, READER_ROLE, SECRET_KEY, WRITER_ROLE


def test_shards_on_three_machines_assemble_on_a_fourth_with_nothing_synthesized(s3, tmp_path, reference):
    # Given: three machines, each narrating one shard into its own local cache and the store
    for index in (1, 2, 3):
        shard = Machine(tmp_path / f"shard{index}", s3, "shards").book(tmp_path / f"part{index}", "--shard", f"{index}/3")
        assert "--shard" in shard.stderr or "in the cache" in shard.stderr

    # When: a fourth machine with an empty local cache writes the files
    assembler = Machine(tmp_path / "assembler", s3, "shards")
    result = assembler.book(tmp_path / "assembled")

    # Then: the files equal a one-machine export, and the engine ran not once
    same_export(reference, tmp_path / "assembled")
    assert synthesized(result) == 0, result.stderr
    counts = assembler.store_counts()
    assert counts["hits"] > 0 and counts["misses"] == 0 and counts["errors"] == 0


def _post_speech(base: str, text: str) -> bytes:
    body = json.dumps({"model": "tts-1", "input": text, "voice": "en-us", "response_format": "wav"}).encode()
    request = urllib.request.Request(base + "/v1/audio/speech", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def _metric(base: str, name: str) -> float:
    with urllib.request.urlopen(base + "/metrics", timeout=10) as response:
        text = response.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name) and not line.startswith("#"))


class Replica:
    def __init__(self, machine: Machine):
        self.machine = machine
        self.process = machine.spawn("serve", "--port", "0", "--no-web", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert "http://" in line, line + self.process.stderr.read()
        self.base = line[line.index("http://"):].split()[0].rstrip(".,")

    def stop(self) -> str:
        self.process.terminate()
        _, err = self.process.communicate(timeout=30)
        OUTPUTS.append(err)
        return err


def test_two_replicas_share_a_sentence_through_the_store(s3, tmp_path):
    # Given: two services with separate local caches and one store
    first = Replica(Machine(tmp_path / "r1", s3, "replicas"))
    second = Replica(Machine(tmp_path / "r2", s3, "replicas"))
    try:
        text = "Replicas behind one load balancer share every sentence they make."

        # When: the first makes it, and its upload lands
        made = _post_speech(first.base, text)
        wait_for(lambda: _metric(first.base, "narrate_cache_store_uploads_total") >= 1)
        served = _post_speech(second.base, text)

        # Then: the second answers the same bytes without synthesizing
        assert served == made
        assert _metric(second.base, "narrate_cache_store_hits_total") == 1
        assert _metric(second.base, "narrate_synthesis_seconds_count") == 0
        assert _metric(second.base, "narrate_cache_store_request_duration_seconds_count") >= 1
    finally:
        first.stop()
        second.stop()


def test_the_store_killed_mid_export_costs_speed_never_a_result(s3, tmp_path, reference):
    # Given: an export under way, one text at a time, its first entries made
    machine = Machine(tmp_path / "m", s3, "killed")
    out = tmp_path / "out"
    outcome = {}
    runner = threading.Thread(target=lambda: outcome.update(result=machine.book(out, "--jobs", "1", check=False)))
    runner.start()
    try:
        # (the test lists the bucket to see the first upload land; Narrate never lists it)
        listing = boto3.client("s3", endpoint_url=s3.endpoint, region_name="us-east-1", aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY)
        wait_for(lambda: listing.list_objects_v2(Bucket=BUCKET, Prefix="killed/").get("KeyCount", 0) >= 1, step=0.01)
        # When: the store dies
        s3.stop(kill=True)
        runner.join(timeout=600)
    finally:
        s3.start()
    result = outcome["result"]

    # Then: the book is whole and equal, the store's failure was said and counted, and no
    # temporary file is left
    assert result.returncode == 0, result.stderr
    same_export(reference, out)
    assert 1 <= len([line for line in warnings(result) if "cache store" in line]) <= 2, result.stderr
    counts = machine.store_counts()
    assert counts["errors"] + counts["skippedUploads"] >= 1, counts
    assert counts["uploads"] >= 1, counts  # some went up before the store died
    assert not [p for p in machine.cache.rglob("*") if ".tmp" in p.name or p.name.startswith(".")]


def test_a_store_started_late_is_filled_by_push(s3, tmp_path, reference):
    # Given: a store that is down while a book is made
    machine = Machine(tmp_path / "m", s3, "late")
    s3.stop()
    try:
        result = machine.book(tmp_path / "out")
    finally:
        s3.start()

    # Then: the book is right, one warning said so, and a push later fills the store
    same_export(reference, tmp_path / "out")
    assert len([line for line in warnings(result) if "cache store" in line]) == 1, result.stderr
    counts = machine.store_counts()
    assert counts["errors"] >= 1 and counts["skippedUploads"] >= 1
    pushed = machine.run("cache", "push")
    assert "0 failed" in pushed.stderr and " uploaded" in pushed.stderr

    assembler = Machine(tmp_path / "a", s3, "late")
    assert synthesized(assembler.book(tmp_path / "again")) == 0
    same_export(reference, tmp_path / "again")


def test_read_only_credentials_get_one_warning_and_read_only_mode_none(s3, tmp_path, reference):
    # Given: a store seeded by a writer
    Machine(tmp_path / "writer", s3, "ro").run("say", "Only the writer may upload this sentence.", "-o", str(tmp_path / "w.wav"))

    # When: a reader with read-only keys narrates new text, then the same with read-only mode
    reader = Machine(tmp_path / "reader", s3, "ro", credentials=READ_ONLY)
    refused = reader.run("say", "A reader narrates something new.", "-o", str(tmp_path / "r.wav"))
    polite = reader.run("say", "And something else new.", "-o", str(tmp_path / "r2.wav"), "--cache-store-mode", "read-only")
    shared = Machine(tmp_path / "reader2", s3, "ro", credentials=READ_ONLY).run(
        "say", "Only the writer may upload this sentence.", "-o", str(tmp_path / "r3.wav"), "--cache-store-mode", "read-only", "--verbose")

    # Then
    assert [line for line in warnings(refused) if "--cache-store-mode read-only" in line], refused.stderr
    assert not warnings(polite), polite.stderr
    assert synthesized(shared) == 0 and "cache hit" in shared.stderr, shared.stderr
    assert (tmp_path / "r3.wav").read_bytes() == (tmp_path / "w.wav").read_bytes()
    counts = reader.store_counts()
    assert counts["errors"] == 1 and counts["uploads"] == 0, counts


@pytest.mark.parametrize("damage", ["truncated", "overwritten"])
def test_a_damaged_object_is_never_served(s3, tmp_path, damage):
    # Given: an object in the store, then damaged in the bucket
    writer = Machine(tmp_path / "w", s3, f"damaged-{damage}")
    writer.book(tmp_path / "good", "--chapters", "1")
    manifest = json.loads((tmp_path / "good" / "manifest.json").read_text())
    key = manifest["files"][0]["cacheKeys"][0]
    name = f"damaged-{damage}/{key[:2]}/{key}"
    original = s3.request("GET", name)
    assert original.status == 200
    bad = original.body[: len(original.body) // 2] if damage == "truncated" else original.body[:-8] + b"\0" * 8
    assert s3.request("PUT", name, bad).status == 200

    # When: another machine narrates the same
    reader = Machine(tmp_path / "r", s3, f"damaged-{damage}")
    result = reader.book(tmp_path / "again", "--chapters", "1")

    # Then: the damaged object was not used, it was said once, and the upload put it right
    for wav in (tmp_path / "good").glob("*.wav"):
        assert (tmp_path / "again" / wav.name).read_bytes() == wav.read_bytes()
    assert len([line for line in warnings(result) if "damaged object" in line]) == 1, result.stderr
    assert reader.store_counts()["corrupt"] == 1
    assert s3.request("GET", name).body == original.body


def test_a_store_that_never_answers_costs_its_timeout_once(tmp_path, s3):
    # Given: a server that accepts connections and never answers
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    accepted = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        machine = Machine(tmp_path / "m", s3, "silent", endpoint=f"http://127.0.0.1:{listener.getsockname()[1]}")
        started = time.monotonic()
        result = machine.book(tmp_path / "out", "--chapters", "1", "--cache-store-timeout", "1", "--cache-store-drain", "1")
        elapsed = time.monotonic() - started
    finally:
        stop.set()
        thread.join()
        for connection in accepted:
            connection.close()
        listener.close()

    # Then: the book is made, the store was tried, and the wait was its timeout (plus the drain)
    assert accepted
    assert len([line for line in warnings(result) if "did not answer within 1 s" in line]) == 1, result.stderr
    assert machine.store_counts()["errors"] >= 1
    assert elapsed < 120, elapsed  # a watchdog: without a deadline on the body this hung for ever


def test_session_token_credentials_sign_every_request(s3, tmp_path):
    # Given: temporary credentials from STS, for a writer and a reader role
    writer = Machine(tmp_path / "w", s3, "sts", credentials=s3.assume_role(WRITER_ROLE))
    reader = Machine(tmp_path / "r", s3, "sts", credentials=s3.assume_role(READER_ROLE))

    # When
    writer.run("say", "Signed with a session token.", "-o", str(tmp_path / "w.wav"))
    read = reader.run("say", "Signed with a session token.", "-o", str(tmp_path / "r.wav"), "--verbose")
    refused = reader.run("say", "The reader cannot upload this.", "-o", str(tmp_path / "x.wav"))

    # Then
    assert writer.store_counts()["uploads"] == 1
    assert synthesized(read) == 0
    assert reader.store_counts()["hits"] == 1
    assert [line for line in warnings(refused) if "refuses uploads" in line]


def test_bad_settings_get_one_line_and_a_non_zero_exit(s3, tmp_path):
    machine = Machine(tmp_path / "m", s3, "x")
    result = machine.run("say", "x", "-o", str(tmp_path / "x.wav"), "--cache-store", "s3://Not_A_Bucket", check=False)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "bucket" in lines[0], result.stderr
    assert not (tmp_path / "x.wav").exists()


def test_zz_no_secret_appears_in_any_output(s3):
    # Runs last (by name): everything the other tests' narrate runs printed
    text = "\n".join(OUTPUTS)
    assert text
    for secret in (ACCESS_KEY, SECRET_KEY, READ_ONLY.access_key, READ_ONLY.secret_key):
        assert secret not in text


def test_a_web_identity_token_is_exchanged_for_keys_at_sts(s3, tmp_path):
    # Given: a token file, and an STS that takes it (AssumeRoleWithWebIdentity) and answers
    # with real temporary keys of the store (from SeaweedFS's own STS)
    import http.server
    import urllib.parse

    token = "eyJ.web-identity-token-for-the-test"
    (tmp_path / "token").write_text(token + "\n")
    asked = []

    class STS(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            form = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
            asked.append(form)
            if form.get("WebIdentityToken") != [token] or form.get("Action") != ["AssumeRoleWithWebIdentity"]:
                self.send_response(403)
                self.end_headers()
                return
            keys = s3.assume_role(WRITER_ROLE)
            body = (f"<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials>"
                    f"<AccessKeyId>{keys.access_key}</AccessKeyId><SecretAccessKey>{keys.secret_key}</SecretAccessKey>"
                    f"<SessionToken>{keys.session_token}</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration>"
                    f"</Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), STS)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        machine = Machine(tmp_path / "m", s3, "web-identity")
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
            machine.env.pop(name)
        machine.env.update(AWS_WEB_IDENTITY_TOKEN_FILE=str(tmp_path / "token"), AWS_ROLE_ARN=WRITER_ROLE,
                           AWS_ENDPOINT_URL_STS=f"http://127.0.0.1:{server.server_address[1]}")

        # When
        machine.run("say", "Keys from a web identity.", "-o", str(tmp_path / "w.wav"))

        # Then: STS was asked once with the role, and the upload went through with its keys
        assert len(asked) == 1 and asked[0]["RoleArn"] == [WRITER_ROLE]
        assert machine.store_counts()["uploads"] == 1
    finally:
        server.shutdown()


def test_https_with_the_certificate_authority_named_by_aws_ca_bundle(tmp_path):
    # Given: a store on HTTPS whose certificate a private authority signed (openssl)
    from seaweed import seaweed as start_seaweed

    ca_key, ca, key, request, cert = (tmp_path / n for n in ("ca.key", "ca.pem", "s3.key", "s3.csr", "s3.pem"))
    run = lambda *a: subprocess.run(["openssl", *map(str, a)], check=True, capture_output=True)  # noqa: E731
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca, "-days", "2", "-subj", "/CN=Narrate test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1")
    (tmp_path / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", tmp_path / "san.ext")

    with start_seaweed(tmp_path / "weed", tls=(cert, key)) as secure:
        writer = Machine(tmp_path / "w", secure, "tls", endpoint=secure.https_endpoint, extra_env={"AWS_CA_BUNDLE": str(ca)})
        reader = Machine(tmp_path / "r", secure, "tls", endpoint=secure.https_endpoint, extra_env={"AWS_CA_BUNDLE": str(ca)})
        stranger = Machine(tmp_path / "s", secure, "tls", endpoint=secure.https_endpoint)

        # When
        writer.run("say", "Over TLS, trusted by the bundle.", "-o", str(tmp_path / "w.wav"))
        read = reader.run("say", "Over TLS, trusted by the bundle.", "-o", str(tmp_path / "r.wav"), "--verbose")
        refused = stranger.run("say", "Over TLS, trusted by the bundle.", "-o", str(tmp_path / "s.wav"))

        # Then: uploads and reads over HTTPS; without the bundle the system's trust store
        # refuses the certificate, which costs one warning and nothing else
        assert writer.store_counts()["uploads"] == 1
        assert synthesized(read) == 0
        assert (tmp_path / "r.wav").read_bytes() == (tmp_path / "w.wav").read_bytes()
        assert len([line for line in warnings(refused) if "cache store" in line]) == 1, refused.stderr
        assert (tmp_path / "s.wav").read_bytes() == (tmp_path / "w.wav").read_bytes()
