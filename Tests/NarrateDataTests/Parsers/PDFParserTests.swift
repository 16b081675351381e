import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

/// The parser over the built `narrate-pdf` (beside the test program) and the small real PDFs of
/// Fixtures/pdf, printed by LibreOffice.
@Suite struct PDFParserTests {
    let sut = PDFParser()

    func text(_ book: Book) -> String { book.pages.map(\.text).joined(separator: "\n\n") }

    @Test("LibreOffice's PDF: one page per printed page, chapters from the outline, the running head and page numbers not read, the footnote a note")
    func printedBook() throws {
        // Given
        let data = try PDFFiles.data("small.pdf")

        // When
        let book = try sut.parse(data, path: "/books/small.pdf", options: ParseOptions())

        // Then
        #expect(book.format == .pdf)
        #expect(book.metadata.title == "A Small Book")
        #expect(book.metadata.authors == ["Jane Austen"])
        #expect(book.chapters.map(\.title) == ["The First Chapter", "The Second Chapter"])
        #expect(book.chapters.map(\.firstPage) == [1, 2])
        #expect(book.pages.map(\.label) == ["1", "2"])
        let all = text(book)
        #expect(all.hasPrefix("The First Chapter\n\nIt is a truth universally acknowledged"))
        #expect(all.contains("daughters.\n\nMy dear Mr. Bennet"))
        #expect(!all.contains("A Small Book"))
        #expect(!all.contains("Page 1") && !all.contains("Page 2"))
        #expect(!all.contains("quokka"))
        #expect(book.skipped.map(\.kind) == [.notes])
    }

    @Test("with everything read, the footnotes come last, in a chapter of their own")
    func notesWithMatter() throws {
        let book = try sut.parse(try PDFFiles.data("small.pdf"), path: "small.pdf", options: ParseOptions(includesMatter: true))
        #expect(book.chapters.last?.title == "Notes")
        #expect(text(book).hasSuffix("1. A note about a quokka."))
    }

    @Test("a scan has no text layer: the error says so")
    func scan() throws {
        let data = try PDFFiles.data("scan.pdf")
        #expect(throws: BookError.noTextLayer(path: "scan.pdf", imagePages: 1, pageCount: 1)) {
            try sut.parse(data, path: "scan.pdf", options: ParseOptions())
        }
    }

    @Test("an encrypted PDF needs its password; a wrong one is told apart; the right one reads it")
    func encrypted() throws {
        // Given
        let data = try PDFFiles.data("encrypted.pdf")

        // Then
        #expect(throws: BookError.passwordRequired(path: "e.pdf", given: false)) { try sut.parse(data, path: "e.pdf", options: ParseOptions()) }
        #expect(throws: BookError.passwordRequired(path: "e.pdf", given: true)) {
            try PDFParser(password: "wrong").parse(data, path: "e.pdf", options: ParseOptions())
        }
        let book = try PDFParser(password: "reader-pass").parse(data, path: "e.pdf", options: ParseOptions())
        #expect(book.chapters.count == 2)
    }

    @Test("a file that is not a PDF, and one cut short, are one BookError each")
    func damaged() throws {
        // Given
        let data = try PDFFiles.data("small.pdf")

        // Then
        #expect(throws: BookError.self) { try sut.parse(Data("%PDF-1.7\n garbage".utf8), path: "g.pdf", options: ParseOptions()) }
        #expect(throws: BookError.unreadableDocument(path: "t.pdf", format: .pdf, reason: "it does not start with %PDF-, so it is not a PDF")) {
            try sut.parse(Data("plain words".utf8), path: "t.pdf", options: ParseOptions())
        }
        #expect(throws: BookError.self) { try sut.parse(data.prefix(900), path: "cut.pdf", options: ParseOptions()) }
    }

    @Test("a reader past its deadline is stopped and reported")
    func deadline() throws {
        let slow = PDFParser(executable: "/bin/sleep", limits: PDFReaderLimits(deadline: .milliseconds(300)))
        // `sleep` takes the reader's flags as bad arguments and exits at once; a real stall is sleep's own.
        #expect(throws: BookError.self) { try slow.parse(try PDFFiles.data("small.pdf"), path: "s.pdf", options: ParseOptions()) }
    }

    @Test("the content shows a PDF, whatever the file is called")
    func sniffed() throws {
        #expect(DocumentParserFactory().format(path: "notes.txt", data: try PDFFiles.data("small.pdf")) == .pdf)
    }
}
