"""PDFs Narrate cannot read: a scan, an encrypted PDF without (or with a wrong) password, cut and
bit-flipped files, a PDF bomb. Each gets one clear line, a non-zero exit, nothing is added; the
right password reads the encrypted one."""

from __future__ import annotations

from pathlib import Path

import pytest

import documents
import sources
from conftest import Narrate


def refused(library: Narrate, path: Path, *extra: str) -> str:
    result = library.run("add", str(path), *extra)
    assert result.returncode != 0, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert library.json("list") == []
    return lines[0]


def test_a_scan_gets_the_ocr_line(made, tmp_path):
    line = refused(Narrate(tmp_path), made["scan.pdf"].path)
    assert "no text layer" in line or "without a text layer" in line, line
    assert "ocrmypdf" in line


def test_an_encrypted_pdf_without_its_password_names_the_option(made, tmp_path):
    line = refused(Narrate(tmp_path), made["encrypted.pdf"].path)
    assert "encrypted" in line and "--password" in line, line


def test_a_wrong_password_is_told_apart(made, tmp_path):
    line = refused(Narrate(tmp_path), made["encrypted.pdf"].path, "--password", "not-it")
    assert "wrong" in line and "--password" in line, line


def test_the_right_password_reads_it_and_is_not_kept(made, tmp_path):
    library = Narrate(tmp_path)
    text = library.ok("text", str(made["encrypted.pdf"].path), "--password", "reader-pass")
    assert "truth universally acknowledged" in text
    library.ok("add", str(made["encrypted.pdf"].path), "--password", "reader-pass")
    assert b"reader-pass" not in (tmp_path / "library.sqlite").read_bytes()


def cut(data: bytes) -> bytes:
    return data[: len(data) // 3]


def flipped(data: bytes) -> bytes:
    damaged = bytearray(data)
    for offset in range(len(data) // 4, len(data) * 3 // 4, 97):
        damaged[offset] ^= 0x55
    return bytes(damaged)


@pytest.mark.parametrize("damage", [cut, flipped], ids=["cut", "flipped"])
def test_a_damaged_pdf_gets_one_clear_line(made, tmp_path, damage):
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(damage(made["libreoffice.pdf"].path.read_bytes()))
    library = Narrate(tmp_path / "home")
    result = library.run("add", str(damaged))
    if result.returncode == 0:
        # Poppler mends some damage: then what it read is in the library, told as a PDF.
        assert [book["format"] for book in library.json("list")] == ["pdf"]
        return
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "PDF" in lines[0] or "no text" in lines[0], lines[0]
    assert library.json("list") == []


@pytest.mark.parametrize("kind", ["nesting", "stream"])
def test_a_pdf_bomb_gets_one_clear_line(tmp_path, kind):
    bomb = tmp_path / f"bomb-{kind}.pdf"
    documents.bomb_pdf(bomb, kind)
    library = Narrate(tmp_path / "home")
    result = library.run("add", str(bomb), timeout=400)
    lines = result.stderr.strip().splitlines()
    if result.returncode == 0:
        # Poppler bounds the nesting itself, and a page of zeros draws nothing to read.
        pytest.fail(f"a bomb was added: {result.stdout}")
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("narrate: error: '"), lines[0]
    assert library.json("list") == []

