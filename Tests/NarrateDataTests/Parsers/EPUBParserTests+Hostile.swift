import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

extension EPUBParserTests {
    // MARK: - Hostile archives built in memory

    @Test("an entry named ../evil is refused")
    func pathTraversal() throws {
        // Given
        let data = try EPUBFixture.archive(EPUBFixture.minimalEntries + [("../evil", Data("x".utf8))])

        // When / Then
        #expect(throws: BookError.unsafeEntryPath(path: "evil.epub", entry: "../evil")) {
            try sut.parse(data, path: "evil.epub", options: ParseOptions())
        }
    }

    @Test("an absolute entry name is refused")
    func absolutePath() throws {
        let data = try EPUBFixture.archive(EPUBFixture.minimalEntries + [("/etc/passwd", Data("x".utf8))])
        #expect(throws: BookError.unsafeEntryPath(path: "abs.epub", entry: "/etc/passwd")) {
            try sut.parse(data, path: "abs.epub", options: ParseOptions())
        }
    }

    @Test("a reference leaving the container (a ../ spine item) is refused")
    func hrefTraversal() throws {
        // Given a package document whose only spine item climbs above the root
        let opf = EPUBFixture.opf(manifest: #"<item id="c1" href="../../outside.xhtml" media-type="application/xhtml+xml"/>"#, spine: #"<itemref idref="c1"/>"#)
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf))

        // When / Then
        #expect(throws: BookError.unsafeEntryPath(path: "x.epub", entry: "../../outside.xhtml")) {
            try sut.parse(data, path: "x.epub", options: ParseOptions())
        }
    }

    @Test("duplicate entry names are refused")
    func duplicates() throws {
        let data = try EPUBFixture.archive(EPUBFixture.minimalEntries + [("OEBPS/c1.xhtml", Data("<html/>".utf8))])
        #expect(throws: BookError.duplicateEntry(path: "dup.epub", entry: "OEBPS/c1.xhtml")) {
            try sut.parse(data, path: "dup.epub", options: ParseOptions())
        }
    }

    @Test("an entry larger than the limit is refused (declared size)")
    func zipBombDeclared() throws {
        // Given a 2 MiB entry of zeros (a few KiB compressed) and a 1 MiB entry limit
        let bomb = Data(count: 2 * 1_048_576)
        let data = try EPUBFixture.archive(EPUBFixture.minimalEntries + [("OEBPS/bomb.xhtml", bomb)])
        let parser = EPUBParser(limits: ArchiveLimits(maxEntrySize: 1_048_576, maxTotalSize: 8 * 1_048_576))

        // When / Then
        #expect(throws: BookError.entryTooLarge(path: "bomb.epub", entry: "OEBPS/bomb.xhtml", limit: 1_048_576)) {
            try parser.parse(data, path: "bomb.epub", options: ParseOptions())
        }
    }

    @Test("an entry whose header lies about its size is stopped while it is read")
    func zipBombLyingHeader() throws {
        // Given a chapter that inflates to 2 MiB but whose headers claim 100 bytes
        var chapter = Data(EPUBFixture.chapterXHTML.utf8)
        chapter.append(Data(repeating: 0x20, count: 2 * 1_048_576))
        var data = try EPUBFixture.archive(EPUBFixture.entries(chapter: chapter))
        EPUBFixture.patchUncompressedSize(in: &data, entry: "OEBPS/c1.xhtml", to: 100)
        let parser = EPUBParser(limits: ArchiveLimits(maxEntrySize: 1_048_576, maxTotalSize: 8 * 1_048_576))

        // When / Then
        #expect(throws: BookError.entryTooLarge(path: "liar.epub", entry: "OEBPS/c1.xhtml", limit: 1_048_576)) {
            try parser.parse(data, path: "liar.epub", options: ParseOptions())
        }
    }

    @Test("entries larger in total than the book limit are refused")
    func zipBombTotal() throws {
        let entries = EPUBFixture.minimalEntries + (1...4).map { ("OEBPS/pad\($0).bin", Data(count: 600_000)) }
        let data = try EPUBFixture.archive(entries)
        let parser = EPUBParser(limits: ArchiveLimits(maxEntrySize: 1_048_576, maxTotalSize: 2 * 1_048_576))
        #expect(throws: BookError.archiveTooLarge(path: "big.epub", limit: 2 * 1_048_576)) {
            try parser.parse(data, path: "big.epub", options: ParseOptions())
        }
    }

    @Test("a directory entry whose local header offset lies past the file's end is refused, not a crash")
    func localHeaderPastTheEnd() throws {
        var data = try EPUBFixture.archive(EPUBFixture.minimalEntries)
        EPUBFixture.patchDirectoryField(in: &data, entry: "OEBPS/c1.xhtml", offset: 42, to: 0x7FFF_FFF0)

        #expect(throws: BookError.damagedEntry(path: "far.epub", entry: "OEBPS/c1.xhtml", reason: "its header lies outside the file")) {
            try sut.parse(data, path: "far.epub", options: ParseOptions())
        }
    }

    @Test("a directory entry whose compressed size runs past the file's end is refused")
    func dataPastTheEnd() throws {
        var data = try EPUBFixture.archive(EPUBFixture.minimalEntries)
        EPUBFixture.patchDirectoryField(in: &data, entry: "OEBPS/c1.xhtml", offset: 20, to: 0x7FFF_0000)

        #expect(throws: BookError.damagedEntry(path: "long.epub", entry: "OEBPS/c1.xhtml", reason: "its data lies outside the file")) {
            try sut.parse(data, path: "long.epub", options: ParseOptions())
        }
    }

    @Test("random byte flips anywhere give a book or a BookError, never a crash")
    func byteFlips() throws {
        let original = [UInt8](try EPUBFixture.archive(EPUBFixture.minimalEntries))
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? sut.parse(Data(bytes), path: "flipped.epub", options: ParseOptions())
        }
    }

    @Test("every single corrupted byte of a deflated chapter gives a book or a BookError at once, never a hang")
    func corruptDeflateStreams() throws {
        // Given: the archive, and where the chapter's compressed data lies
        let original = try EPUBFixture.archive(EPUBFixture.minimalEntries)
        let chapter = try #require(try ZIPLayout.entries(original, path: "x.epub").first { $0.name == "OEBPS/c1.xhtml" })
        try #require(chapter.method == 8)
        let started = ContinuousClock.now

        // When: each byte of it replaced, in turn, by its complement and by zero
        for offset in chapter.dataStart..<(chapter.dataStart + chapter.compressedSize) {
            for replacement in [~original[offset], 0] {
                var bytes = original
                bytes[offset] = replacement
                _ = try? sut.parse(bytes, path: "corrupt.epub", options: ParseOptions())
            }
        }

        // Then: all of them finished (a loop would never get here; CI's watchdog reports a hang)
        #expect(started <= ContinuousClock.now)
    }

    @Test("50,000 nested elements in the package document or container are refused with the reason, not a stack overflow")
    func deepNesting() throws {
        let deep = String(repeating: "<a>", count: 50_000) + String(repeating: "</a>", count: 50_000)
        let opf = EPUBFixture.opf().replacingOccurrences(of: "</metadata>", with: deep + "</metadata>")
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf))

        let error = #expect(throws: BookError.self) { try sut.parse(data, path: "deep.epub", options: ParseOptions()) }

        #expect(error?.description.contains("nested more than 256 deep") == true, "\(String(describing: error))")
        let container = #"<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0">"# + deep + "</container>"
        var entries = EPUBFixture.minimalEntries
        if let index = entries.firstIndex(where: { $0.0 == "META-INF/container.xml" }) { entries[index].1 = Data(container.utf8) }
        #expect(throws: BookError.self) { try sut.parse(try EPUBFixture.archive(entries), path: "deep2.epub", options: ParseOptions()) }
    }

    @Test("a chapter declaring an encoding libxml2 cannot be trusted with (EBCDIC) is read leniently, not a crash")
    func ebcdicDeclaration() throws {
        let chapter = #"<?xml version="1.0" encoding="EBCDIC-US"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Plain words here.</p></body></html>"#
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: Data(chapter.utf8)))

        let book = try sut.parse(data, path: "ebcdic.epub", options: ParseOptions())

        #expect(book.pages.first?.text.contains("Plain words here.") == true)
    }

    @Test("an entity expansion bomb is not expanded: the chapter is read at once")
    func entityBomb() throws {
        let big = String(repeating: "x", count: 1_000_000)
        let references = String(repeating: "&big;", count: 100_000)
        let chapter = #"<?xml version="1.0"?><!DOCTYPE html [<!ENTITY big ""# + big + #"">]><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Start. "# + references + " End.</p></body></html>"
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: Data(chapter.utf8)))
        let started = ContinuousClock.now

        let book = try? sut.parse(data, path: "bomb.epub", options: ParseOptions())

        // The entity was not expanded: the text stays small (an expansion would be 100 GB).
        #expect(started <= ContinuousClock.now)
        #expect(book.map { $0.pages.map(\.text).joined().count < 10_000_000 } ?? true)
    }

    @Test("an unresolved external entity does not swallow the text after it")
    func externalEntity() throws {
        let chapter = #"<?xml version="1.0"?><!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><html xmlns="http://www.w3.org/1999/xhtml"><body><p>SECRET[&xxe;] and the words after it.</p></body></html>"#
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: Data(chapter.utf8)))

        let book = try sut.parse(data, path: "xxe.epub", options: ParseOptions())

        let text = book.pages.map(\.text).joined(separator: " ")
        #expect(text.contains("and the words after it."))
        #expect(!text.contains("root:"))
    }

    @Test("a package document declaring an encoding other than UTF-8/16 is refused, with the reason")
    func packageEncoding() throws {
        let opf = EPUBFixture.opf().replacingOccurrences(of: #"<?xml version="1.0" encoding="UTF-8"?>"#, with: #"<?xml version="1.0" encoding="EBCDIC-US"?>"#)
        try #require(opf.contains("EBCDIC-US"))
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf))

        let error = #expect(throws: BookError.self) { try sut.parse(data, path: "opf.epub", options: ParseOptions()) }

        #expect(error?.description.contains("EBCDIC-US") == true, "\(String(describing: error))")
    }

    @Test("an XML error says what is wrong and where, in words, never a bare libxml2 number")
    func xmlErrorsInWords() {
        for (code, _) in XMLTreeError.descriptions {
            let reason = XMLTreeError(NSError(domain: "NSXMLParserErrorDomain", code: code), line: 3, column: 7).reason
            #expect(!reason.contains("error \(code)"), "\(code): \(reason)")
            #expect(reason.hasSuffix(", line 3, column 7"))
        }
        #expect(XMLTreeError(NSError(domain: "NSXMLParserErrorDomain", code: 89), line: 1).reason == "an entity refers to itself (an entity loop), line 1")
    }
}
