"""deploy/kubernetes, parsed (no cluster): the shapes a user relies on, and every command run
here as its pod would run it, against the SeaweedFS of these tests."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import yaml

from conftest import CORPUS, OUTPUTS, ROOT, Machine, synthesized

DEPLOY = ROOT / "deploy" / "kubernetes"
SMALL_BOOK = CORPUS / "epub" / "wasteland.epub"


def documents(name: str) -> list[dict]:
    return [doc for doc in yaml.safe_load_all((DEPLOY / name).read_text()) if doc]


def one(name: str, kind: str, metadata_name: str) -> dict:
    found = [doc for doc in documents(name) if doc["kind"] == kind and doc["metadata"]["name"] == metadata_name]
    assert len(found) == 1, f"{kind}/{metadata_name} in {name}"
    return found[0]


def container(workload: dict) -> dict:
    return workload["spec"]["template"]["spec"]["containers"][0]


def env_of(workload: dict) -> dict:
    spec = container(workload)
    values = {item["name"]: item["value"] for item in spec.get("env", [])}
    for source in spec.get("envFrom", []):
        if "configMapRef" in source:
            values.update(one("cache-store.yaml", "ConfigMap", source["configMapRef"]["name"])["data"])
    return values


def test_every_file_parses_and_names_its_kinds():
    kinds = {(doc["kind"], doc["metadata"]["name"]) for name in ("cache-store.yaml", "book-shards.yaml", "serve.yaml") for doc in documents(name)}
    assert kinds >= {("ConfigMap", "narrate-cache-store"), ("Secret", "narrate-cache-store"), ("Job", "narrate-book-shards"),
                     ("Job", "narrate-book-assemble"), ("Deployment", "narrate-serve"), ("Service", "narrate")}


def test_the_shards_are_an_indexed_job_whose_count_matches_its_command():
    job = one("book-shards.yaml", "Job", "narrate-book-shards")
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    script = " ".join(container(job)["args"])
    assert f'--shard "$((JOB_COMPLETION_INDEX + 1))/{spec["completions"]}"' in script
    assert spec["parallelism"] == spec["completions"]


def test_every_pod_has_a_local_tier_on_an_empty_dir_and_the_store_from_config_and_secret():
    for name, kind, workload_name in [("book-shards.yaml", "Job", "narrate-book-shards"), ("book-shards.yaml", "Job", "narrate-book-assemble"),
                                      ("serve.yaml", "Deployment", "narrate-serve")]:
        workload = one(name, kind, workload_name)
        env = env_of(workload)
        assert env["NARRATE_CACHE_STORE"].startswith("s3://")
        mounts = {m["name"]: m["mountPath"] for m in container(workload)["volumeMounts"]}
        volumes = {v["name"]: v for v in workload["spec"]["template"]["spec"]["volumes"]}
        cache_volume = next(n for n, path in mounts.items() if path == env["NARRATE_CACHE_DIR"])
        assert "emptyDir" in volumes[cache_volume]
        assert {"secretRef": {"name": "narrate-cache-store"}} in container(workload)["envFrom"]
        # Credentials come from the Secret only: none in a command line (ps) or a plain env value.
        text = yaml.safe_dump(container(workload))
        assert "AWS_SECRET_ACCESS_KEY" not in text and "REPLACE-WITH" not in text


def test_the_service_has_replicas_and_is_ready_on_healthz():
    deployment = one("serve.yaml", "Deployment", "narrate-serve")
    assert deployment["spec"]["replicas"] >= 2
    probe = container(deployment)["readinessProbe"]["httpGet"]
    assert probe["path"] == "/healthz"
    service = one("serve.yaml", "Service", "narrate")
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]


def _command(workload: dict) -> list[str]:
    spec = container(workload)
    return spec["command"] + spec.get("args", [])


def _run_as_pod(argv: list[str], machine: Machine, extra_env: dict) -> subprocess.CompletedProcess:
    """The pod's command here: the book and output volumes mapped to local folders, `narrate`
    to the binary under test, the store to this session's SeaweedFS."""
    books, audiobooks = machine.root / "books", machine.root / "audiobooks"
    books.mkdir(exist_ok=True)
    audiobooks.mkdir(exist_ok=True)
    (books / "book.epub").write_bytes(SMALL_BOOK.read_bytes())

    def mapped(text: str) -> str:
        return text.replace("/books/", f"{books}/").replace("/audiobooks/", f"{audiobooks}/").replace("exec narrate ", f"exec {shlex.quote(os.environ['NARRATE_BIN'])} ")

    argv = [mapped(part) for part in argv]
    if argv[0] == "narrate":
        argv[0] = os.environ["NARRATE_BIN"]
    env = dict(machine.env, **extra_env)
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    OUTPUTS.extend([result.stdout, result.stderr])
    assert result.returncode == 0, f"{argv}: {result.stderr}"
    return result


def test_the_jobs_commands_run_as_written_and_assemble_without_synthesis(s3, tmp_path):
    shards = one("book-shards.yaml", "Job", "narrate-book-shards")
    count = shards["spec"]["completions"]
    for index in range(count):
        _run_as_pod(_command(shards), Machine(tmp_path / f"pod{index}", s3, "deploy"), {"JOB_COMPLETION_INDEX": str(index)})

    assembler = Machine(tmp_path / "assembler", s3, "deploy")
    argv = _command(one("book-shards.yaml", "Job", "narrate-book-assemble")) + ["--verbose"]
    argv.remove("--quiet")
    result = _run_as_pod(argv, assembler, {})
    assert synthesized(result) == 0, result.stderr
    assert assembler.store_counts()["hits"] > 0
    assert list((assembler.root / "audiobooks" / "book").glob("*.m4b"))


def test_the_serve_command_parses(s3, tmp_path):
    argv = _command(one("serve.yaml", "Deployment", "narrate-serve"))
    help_text = subprocess.run([os.environ["NARRATE_BIN"], "serve", "--help"], capture_output=True, text=True).stdout
    for flag in [part for part in argv if part.startswith("--")]:
        assert flag in help_text, flag
