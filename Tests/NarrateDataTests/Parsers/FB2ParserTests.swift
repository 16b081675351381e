import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct FB2ParserTests {
    let sut = FB2Parser()
    typealias Fixture = OfficeFixture

    func parse(_ data: Data, path: String = "/books/fixture.fb2", includesMatter: Bool = false) throws -> Book {
        try sut.parse(data, path: path, options: ParseOptions(includesMatter: includesMatter))
    }

    func text(_ book: Book) -> String { book.pages.map(\.text).joined(separator: "\n\n") }

    static let nested = """
        <title><p>Fixture Fiction</p></title>
        <section id="one"><title><p>Part One</p><p>The Beginning</p></title><p>It began.</p>
        <section><title><p>Chapter 1</p></title><p>First words.</p></section>
        <section><title><p>Chapter 2</p></title><poem><title><p>A Song</p></title><stanza><v>Line one,</v><v>line two.</v></stanza></poem></section>
        </section>
        <section><title><p>Part Two</p></title><epigraph><p>Said someone.</p><text-author>Someone</text-author></epigraph><p>It <emphasis>ended</emphasis>.</p><empty-line/><image l:href="#pic"/></section>
        """

    @Test("sections make chapters, nested sections nest; the description's title-info gives title, authors and language")
    func sectionsAndDescription() throws {
        // When
        let book = try parse(Data(Fixture.fb2(body: Self.nested).utf8))

        // Then
        #expect(book.format == .fb2)
        #expect(book.chapters.map(\.title) == ["Part One The Beginning", "Chapter 1", "Chapter 2", "Part Two"])
        #expect(book.chapters.map(\.depth) == [0, 1, 1, 0])
        #expect(book.metadata.title == "Fixture Fiction")
        // The translator and the file's maker (document-info) are not authors.
        #expect(book.metadata.authors == ["Anna P. Writer", "Ghost"])
        #expect(book.metadata.language == "en")
        #expect(book.metadata.bookDescription == "First line. Second line.")
        #expect(book.metadata.publisher == "Small Press")
        #expect(book.metadata.date == "1911")
        #expect(text(book) == "Fixture Fiction\n\nPart One\n\nThe Beginning\n\nIt began.\n\nChapter 1\n\nFirst words.\n\nChapter 2\n\nA Song\n\nLine one,\n\nline two.\n\nPart Two\n\nSaid someone.\n\nSomeone\n\nIt ended.")
    }

    @Test("the notes body is notes: left out and counted; a note link is not read")
    func notes() throws {
        // Given
        let body = ##"<section><title><p>One</p></title><p>It was dark.<a l:href="#n1" type="note">[1]</a> The rain fell.<a l:href="#n2">2</a></p></section>"##
        let notes = #"<section id="n1"><title><p>1</p></title><p>A note about darkness.</p></section><section id="n2"><title><p>2</p></title><p>Another.</p></section>"#
        let data = Data(Fixture.fb2(body: body, notes: notes).utf8)

        // When
        let book = try parse(data)
        let everything = try parse(data, includesMatter: true)

        // Then
        #expect(text(book) == "One\n\nIt was dark. The rain fell.")
        #expect(book.skipped.map(\.kind) == [.notes])
        #expect(book.chapters.map(\.title) == ["One"])
        #expect(text(everything).hasSuffix("Notes\n\n1\n\nA note about darkness.\n\n2\n\nAnother."))
        #expect(everything.chapters.map(\.title) == ["One"])
    }

    @Test("an FB2 in windows-1251 or KOI8-R is read as its declaration says")
    func singleByteEncodings() throws {
        // Given "Глава первая" / "Жили-были." in two Cyrillic encodings
        let windows1251: [UInt8] = [0xC3, 0xEB, 0xE0, 0xE2, 0xE0, 0x20, 0xEF, 0xE5, 0xF0, 0xE2, 0xE0, 0xFF]
        let koi8: [UInt8] = [0xE7, 0xCC, 0xC1, 0xD7, 0xC1, 0x20, 0xD0, 0xC5, 0xD2, 0xD7, 0xC1, 0xD1]
        func book(_ title: [UInt8], encoding: String) -> Data {
            let parts = Fixture.fb2(body: "<section><title><p>TITLE</p></title><p>Text.</p></section>", encoding: encoding, titleInfo: "<book-title>TITLE</book-title><lang>ru</lang>")
                .components(separatedBy: "TITLE")
            var data = Data(parts[0].utf8)
            for part in parts.dropFirst() {
                data.append(contentsOf: title)
                data.append(Data(part.utf8))
            }
            return data
        }

        // When
        let first = try parse(book(windows1251, encoding: "windows-1251"))
        let second = try parse(book(koi8, encoding: "KOI8-R"))

        // Then
        #expect(first.metadata.title == "Глава первая")
        #expect(first.chapters.map(\.title) == ["Глава первая"])
        #expect(second.metadata.title == "Глава первая")
        #expect(text(second) == "Глава первая\n\nText.")
        #expect(throws: BookError.unsupportedEncoding(path: "/books/fixture.fb2", encoding: "EBCDIC-US")) {
            try parse(Data(Fixture.fb2(body: "<p>x</p>", encoding: "EBCDIC-US").utf8))
        }
    }

    @Test("an FB2 with a UTF-16 byte order mark is read")
    func utf16() throws {
        // Given
        let source = Fixture.fb2(body: "<section><title><p>Über</p></title><p>Text.</p></section>", encoding: "UTF-16")
        var data = Data([0xFF, 0xFE])
        for unit in source.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }

        // When / Then
        #expect(try parse(data).chapters.map(\.title) == ["Über"])
    }

    @Test("a zipped FB2 is read; the cover comes from the coverpage's binary")
    func zippedWithCover() throws {
        // Given a PNG signature as the cover, base64 in lines
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let info = Fixture.defaultTitleInfo + ##"<coverpage><image l:href="#cover.png"/></coverpage>"##
        let binaries = #"<binary id="other.jpg" content-type="image/jpeg">AAAA</binary><binary id="cover.png" content-type="image/png">\#(png.base64EncodedString(options: .lineLength64Characters))</binary>"#
        let fb2 = Fixture.fb2(body: "<section><title><p>One</p></title><p>Text.</p></section>", titleInfo: info, binaries: binaries)
        let zipped = try EPUBFixture.archive([("book.fb2", Data(fb2.utf8))])

        // When
        let book = try parse(zipped, path: "/books/fixture.fb2.zip")

        // Then
        #expect(book.cover == BookCover(mediaType: "image/png", data: Array(png)))
        #expect(book.metadata.title == "Fixture Fiction")
        #expect(text(book) == "One\n\nText.")
    }

    @Test("a ZIP without one FB2, or XML that is not FictionBook, says so in one line")
    func refusals() throws {
        // Given
        let two = try EPUBFixture.archive([("a.fb2", Data("<FictionBook/>".utf8)), ("b.fb2", Data("<FictionBook/>".utf8))])

        // When / Then
        #expect(throws: BookError.unreadableDocument(path: "two.fb2.zip", format: .fb2, reason: "it is a ZIP archive with 2 .fb2 files in it, where a zipped FB2 has one")) {
            try parse(two, path: "two.fb2.zip")
        }
        #expect(throws: BookError.unreadableDocument(path: "x.fb2", format: .fb2, reason: "it is not FictionBook XML (its root element is not <FictionBook>)")) {
            try parse(Data("<?xml version=\"1.0\"?><html><p>x</p></html>".utf8), path: "x.fb2")
        }
        #expect(throws: BookError.emptyFile(path: "e.fb2")) { try parse(Data(), path: "e.fb2") }
    }
}
