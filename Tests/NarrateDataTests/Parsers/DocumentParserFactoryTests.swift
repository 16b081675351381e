import Foundation
import NarrateData
import NarrateDomain
import Testing

@Suite struct DocumentParserFactoryTests {
    let sut = DocumentParserFactory()

    @Test("the format follows the extension")
    func byExtension() {
        #expect(sut.format(path: "a/b.txt", data: Data("x".utf8)) == .plainText)
        #expect(sut.format(path: "b.MD", data: Data("x".utf8)) == .markdown)
        #expect(sut.format(path: "b.xhtml", data: Data("x".utf8)) == .html)
        #expect(sut.parser(for: .epub).format == .epub)
        #expect(sut.parser(for: .html).format == .html)
    }

    @Test("a ZIP with an odd name is read as an EPUB; unknown files are refused")
    func sniffing() throws {
        // Given a corpus EPUB under a name without a known extension
        let file = try Corpus.file("epub/wasteland.epub")

        // When
        let book = try sut.parse(file.data, path: "/downloads/wasteland.bin")

        // Then
        #expect(book.format == .epub)
        #expect(book.metadata.title == "The Waste Land")
        #expect(sut.format(path: "page", data: Data("<!DOCTYPE html><p>x".utf8)) == .html)
        #expect(throws: BookError.unsupportedFormat(path: "data.bin")) {
            try sut.parse(Data([0, 1, 2, 3]), path: "data.bin")
        }
    }
}
