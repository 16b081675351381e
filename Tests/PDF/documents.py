"""The PDFs of the suite, made by tools nobody here wrote from the corpus texts (../OfficeDocuments
/sources.py): LibreOffice prints an ODT written here (a running head with the title, a running
foot with the page number, footnotes, a section set in two columns, headings that start pages and
make the PDF's outline); Chromium prints an HTML page with its own header (date, title) and footer
(address, "page/pages") and no outline. Broken ones are made from them."""

from __future__ import annotations

import html
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import sources

ODF = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
       'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
       'xmlns:dc="http://purl.org/dc/elements/1.1/" '
       'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3"')

STYLES = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-styles {ODF}>
 <office:styles>
  <style:default-style style:family="paragraph"><style:text-properties fo:font-size="11pt" fo:language="en" fo:country="GB"/></style:default-style>
  <style:style style:name="Standard" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm" fo:text-align="justify"/></style:style>
  <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:default-outline-level="1">
   <style:paragraph-properties fo:break-before="page" fo:margin-bottom="0.4cm"/>
   <style:text-properties fo:font-size="18pt" fo:font-weight="bold"/></style:style>
  <style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:default-outline-level="2">
   <style:paragraph-properties fo:margin-top="0.4cm" fo:margin-bottom="0.2cm"/>
   <style:text-properties fo:font-size="14pt" fo:font-weight="bold"/></style:style>
  <style:style style:name="Footnote" style:family="paragraph"><style:text-properties fo:font-size="8pt"/></style:style>
  <style:style style:name="Header" style:family="paragraph"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="9pt"/></style:style>
 </office:styles>
 <office:automatic-styles>
  <style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="14.8cm" fo:page-height="21cm" fo:margin="1.5cm"/>
   <style:header-style><style:header-footer-properties fo:margin-bottom="0.4cm"/></style:header-style>
   <style:footer-style><style:header-footer-properties fo:margin-top="0.4cm"/></style:footer-style></style:page-layout>
 </office:automatic-styles>
 <office:master-styles>
  <style:master-page style:name="Standard" style:page-layout-name="pm1">
   <style:header><text:p text:style-name="Header">{{title}}</text:p></style:header>
   <style:footer><text:p text:style-name="Header">Page <text:page-number text:select-page="current">1</text:page-number></text:p></style:footer>
  </style:master-page>
 </office:master-styles>
</office:document-styles>"""


def odt(source: sources.Source, path: Path, columns_after: str | None = None) -> None:
    """`source` as an ODT; the paragraphs under the heading `columns_after` in a two-column section."""
    body = []
    in_columns = False
    for block in source.blocks:
        if block.kind in ("h1", "h2"):
            if in_columns:
                body.append("</text:section>")
                in_columns = False
            level = 1 if block.kind == "h1" else 2
            body.append(f'<text:h text:style-name="Heading_20_{level}" text:outline-level="{level}">{escape(block.text)}</text:h>')
            if block.text == columns_after:
                body.append('<text:section text:style-name="Sect1" text:name="Columns">')
                in_columns = True
        elif block.kind == "table":
            for row in block.rows:
                body.append(f'<text:p text:style-name="Standard">{escape(" ".join(row))}</text:p>')
        else:
            note = ""
            if block.note:
                note = ('<text:note text:note-class="footnote"><text:note-citation>*</text:note-citation><text:note-body>'
                        f'<text:p text:style-name="Footnote">{escape(block.note)}</text:p></text:note-body></text:note>')
            body.append(f'<text:p text:style-name="Standard">{escape(block.text)}{note}</text:p>')
    if in_columns:
        body.append("</text:section>")
    content = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {ODF}>
 <office:automatic-styles>
  <style:style style:name="Sect1" style:family="section"><style:section-properties><style:columns fo:column-count="2" fo:column-gap="0.8cm"/></style:section-properties></style:style>
 </office:automatic-styles>
 <office:body><office:text>{"".join(body)}</office:text></office:body>
</office:document-content>"""
    meta = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-meta {ODF}><office:meta><dc:title>{escape(source.title)}</dc:title>
<meta:initial-creator>{escape(source.author)}</meta:initial-creator><dc:creator>{escape(source.author)}</dc:creator>
<dc:language>{source.language}</dc:language></office:meta></office:document-meta>"""
    manifest = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
 <manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>
 <manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/>
</manifest:manifest>"""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        archive.writestr("styles.xml", STYLES.replace("{title}", escape(source.title)), zipfile.ZIP_DEFLATED)
        archive.writestr("meta.xml", meta, zipfile.ZIP_DEFLATED)
        archive.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)


def page_html(source: sources.Source, path: Path) -> None:
    """`source` as an HTML page for Chromium: every chapter on a new page, its notes left out (a
    browser prints no footnotes)."""
    parts = [f"<!doctype html><html lang='{source.language}'><head><meta charset='utf-8'><title>{html.escape(source.title)}</title>",
             "<style>body{font:12pt serif;margin:0} h1{font-size:22pt;break-before:page} h1:first-of-type{break-before:auto}"
             " h2{font-size:15pt} p{text-align:justify;hyphens:none}</style></head><body>"]
    for block in source.blocks:
        if block.kind == "h1":
            parts.append(f"<h1>{html.escape(block.text)}</h1>")
        elif block.kind == "h2":
            parts.append(f"<h2>{html.escape(block.text)}</h2>")
        elif block.kind == "table":
            parts += [f"<p>{html.escape(' '.join(row))}</p>" for row in block.rows]
        else:
            parts.append(f"<p>{html.escape(block.text)}</p>")
    parts.append("</body></html>")
    path.write_text("".join(parts), encoding="utf-8")


def image_only_pdf(path: Path, pages: int = 2) -> None:
    """A scan: pages that each draw one grey image and hold no text (a PDF written by hand)."""
    import zlib
    width, height = 200, 100
    pixels = zlib.compress(bytes([0x80]) * (width * height))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", None]
    kids = []
    for index in range(pages):
        image = len(objects) + 1
        objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 "
                       b"/Filter /FlateDecode /Length %d >>\nstream\n" % (width, height, len(pixels)) + pixels + b"\nendstream")
        drawing = b"q 400 0 0 200 100 300 cm /Im0 Do Q"
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(drawing), drawing))
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>"
                       % (image, image + 1))
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % kid for kid in kids), len(kids))
    write_pdf(path, objects)


def write_pdf(path: Path, objects: list[bytes]) -> None:
    """Objects 1… as a PDF with a correct cross-reference table; object 1 is the catalog."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    start = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, start)
    path.write_bytes(bytes(out))


def bomb_pdf(path: Path, kind: str) -> None:
    """A PDF built to hurt readers: `nesting`, arrays nested 100,000 deep in a page's resources;
    `stream`, a content stream that inflates to 2 GiB of zeros."""
    import zlib
    if kind == "nesting":
        deep = b"[" * 100_000 + b"]" * 100_000
        page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Deep " + deep + b" >> /Contents 4 0 R >>"
        content = b"BT /F1 12 Tf 72 700 Td (Deep) Tj ET"
        objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page,
                   b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)]
    else:
        compressor = zlib.compressobj(9)
        chunk = bytes(1 << 20)
        packed = b"".join(compressor.compress(chunk) for _ in range(2048)) + compressor.flush()
        page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"
        objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page,
                   b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream"]
    write_pdf(path, objects)
