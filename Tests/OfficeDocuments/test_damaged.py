"""Damaged and hostile DOCX, ODT and FB2 files: cut short, bit-flipped, a ZIP bomb whose headers
lie. Each gets one clear line, a non-zero exit, and nothing is added to the library."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import pytest

from conftest import Narrate


def cut(path: Path, folder: Path) -> Path:
    data = path.read_bytes()
    damaged = folder / f"cut-{path.name}"
    damaged.write_bytes(data[: len(data) // 2])
    return damaged


def flipped(path: Path, folder: Path) -> Path:
    """Bits flipped in the middle of the part that holds the text (its deflated data)."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        name = next(n for n in archive.namelist() if n in ("word/document.xml", "content.xml") or n.endswith(".fb2"))
        info = archive.getinfo(name)
    # The entry's data starts after its local header, name and extra field.
    start = info.header_offset + 30 + struct.unpack_from("<H", data, info.header_offset + 26)[0] + struct.unpack_from("<H", data, info.header_offset + 28)[0]
    for offset in range(info.compress_size // 3, info.compress_size // 3 + 8):
        data[start + offset] ^= 0x55
    damaged = folder / f"flipped-{path.name}"
    damaged.write_bytes(bytes(data))
    return damaged


def bomb(path: Path, folder: Path) -> Path:
    """The DOCX with 80 MiB of spaces in its document part (past the 64 MiB entry limit), its
    headers claiming 1 KiB: the real size is what counts."""
    damaged = folder / "bomb.docx"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(damaged, "w", zipfile.ZIP_DEFLATED) as target:
        for name in source.namelist():
            content = source.read(name)
            if name == "word/document.xml":
                content = content.replace(b"<w:body>", b"<w:body>" + b" " * (80 << 20), 1)
            target.writestr(name, content)
    data = bytearray(damaged.read_bytes())
    with zipfile.ZipFile(damaged) as archive:
        info = archive.getinfo("word/document.xml")
    # The local header's uncompressed size, then the central directory record's.
    struct.pack_into("<I", data, info.header_offset + 22, 1024)
    index = 0
    while (index := data.find(b"PK\x01\x02", index)) >= 0:
        length = struct.unpack_from("<H", data, index + 28)[0]
        if data[index + 46:index + 46 + length] == b"word/document.xml":
            struct.pack_into("<I", data, index + 24, 1024)
        index += 4
    damaged.write_bytes(bytes(data))
    return damaged


CASES = [
    ("cut", "pandoc.docx", cut, "cannot be read as DOCX"),
    ("cut", "libreoffice.odt", cut, "cannot be read as ODT"),
    ("cut", "pandoc.fb2", cut, "cannot be read as FB2"),
    ("flipped", "libreoffice.docx", flipped, "is damaged: the entry 'word/document.xml' cannot be read"),
    ("flipped", "pandoc.odt", flipped, "is damaged: the entry 'content.xml' cannot be read"),
    ("flipped", "pandoc.fb2.zip", flipped, "is damaged: the entry 'pride-and-prejudice.fb2' cannot be read"),
    ("bomb", "pandoc.docx", bomb, "unpacks to more than 64 MiB (a possible ZIP bomb)"),
]


@pytest.mark.parametrize(("damage", "name", "make", "says"), CASES, ids=[f"{case[0]}-{case[1]}" for case in CASES])
def test_a_damaged_file_gets_one_clear_line_and_nothing_is_added(made, tmp_path, damage, name, make, says):
    damaged = make(made[name].path, tmp_path)
    library = Narrate(tmp_path / "home")
    result = library.run("add", str(damaged))
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert says in lines[0], lines[0]
    assert library.json("list") == []
