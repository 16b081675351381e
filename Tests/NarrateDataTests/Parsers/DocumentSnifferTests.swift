import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct DocumentSnifferTests {
    let sut = DocumentParserFactory()

    @Test("DOCX, ODT and FB2 are known by their content under any name", arguments: [
        ("small.docx", DocumentFormat.docx), ("small-lo.docx", .docx), ("small.odt", .odt), ("small-lo.odt", .odt),
        ("small.fb2", .fb2), ("small.fb2.zip", .fb2),
    ])
    func byContent(name: String, format: DocumentFormat) throws {
        // Given a real file under a name that says something else, or nothing
        let data = try OfficeFiles.data(name)

        // When / Then
        for path in ["/in/\(name)", "/in/book.txt", "/in/book.epub", "/in/upload", "/in/book.md"] {
            #expect(sut.format(path: path, data: data) == format, "\(name) as \(path)")
        }
        #expect(DocumentParserFactory.contentFormat(data) == format)
        let book = try sut.parse(data, path: "/in/renamed.txt")
        #expect(book.format == format)
        #expect(book.metadata.title == "Pride and Prejudice")
    }

    @Test("a cut-off DOCX is still known by its first local headers; an unknown ZIP takes its extension's archive format, else EPUB's")
    func damagedZIPs() throws {
        // Given
        let docx = try OfficeFiles.data("small.docx")
        let cut = docx.prefix(docx.count / 2)
        let unknown = try EPUBFixture.archive([("notes.txt", Data("hello".utf8))])

        // When / Then
        #expect(sut.format(path: "x.bin", data: cut) == .docx)
        #expect(sut.format(path: "x.odt", data: unknown) == .odt)
        #expect(sut.format(path: "x.txt", data: unknown) == .epub)
        #expect(throws: BookError.unreadableDocument(path: "x.bin", format: .docx, reason: "it is not a ZIP archive, or it is cut short (it has no central directory)")) {
            try sut.parse(cut, path: "x.bin")
        }
    }

    @Test("FictionBook is its root element after a BOM, the declaration and comments; a text that mentions it is not FB2")
    func fictionBook() {
        // Given
        let fb2 = Data("\u{FEFF}<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<!-- made by hand -->\n<FictionBook xmlns=\"http://www.gribuser.ru/xml/fictionbook/2.0\">".utf8)
        let prefixed = Data("<fb:FictionBook xmlns:fb=\"http://www.gribuser.ru/xml/fictionbook/2.0\">".utf8)
        let markdown = Data("# FB2 files\n\nThey start with `<FictionBook>`.".utf8)
        let html = Data("<!DOCTYPE html><html><body><p>&lt;FictionBook&gt;</p>".utf8)

        // When / Then
        #expect(DocumentSniffer.isFictionBook(fb2))
        #expect(DocumentSniffer.isFictionBook(prefixed))
        #expect(!DocumentSniffer.isFictionBook(markdown))
        #expect(!DocumentSniffer.isFictionBook(html))
        #expect(sut.format(path: "notes.md", data: markdown) == .markdown)
        #expect(sut.format(path: "book", data: fb2) == .fb2)
    }

    @Test("the single-byte tables have a scalar for each high byte")
    func charsetTables() throws {
        for name in ["windows-1251", "KOI8-R", "koi8-u", "cp866", "ISO-8859-5", "windows-1250", "iso-8859-2", "windows-1252", "ISO-8859-15", "latin1"] {
            let table = try #require(SingleByteCharset.table(named: name), "\(name)")
            #expect(table.count == 128, "\(name)")
        }
        #expect(SingleByteCharset.table(named: "EBCDIC-US") == nil)
        #expect(String(decoding: SingleByteCharset.utf8([0xC0, 0x41], table: try #require(SingleByteCharset.table(named: "cp1251"))), as: UTF8.self) == "АA")
    }
}
