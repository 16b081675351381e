import Foundation
import NarrateData
import NarrateDomain
import Testing

@Suite struct PlainTextParserTests {
    let sut = PlainTextParser()

    @Test("a Gutenberg text in Windows-1252: title and author from the header, no licence, one chapter")
    func prideAndPrejudice() throws {
        // Given
        let file = try Corpus.file("txt/pg1342-pride-and-prejudice-cp1252.txt")

        // When
        let book = try sut.parse(file.data, path: file.path, options: ParseOptions())

        // Then
        #expect(book.format == .plainText)
        #expect(book.metadata.title == "Pride and Prejudice")
        #expect(book.metadata.authors == ["Jane Austen"])
        #expect(book.chapters == [Chapter(title: "Pride and Prejudice", depth: 0, firstPage: 1)])
        #expect(book.pages.count > 300)
        let text = book.pages.map(\.text).joined(separator: "\n\n")
        #expect(!text.contains("PROJECT GUTENBERG"))
        #expect(text.contains("It is a truth universally acknowledged"))
        #expect(text.contains("Jane’s"))
        #expect(book.pages.allSatisfy { $0.chapterIndex == 0 })
    }

    @Test("without a Gutenberg header the file name is the title")
    func fileNameTitle() throws {
        let book = try sut.parse(Data("Hello world.\n\nSecond paragraph.".utf8), path: "/tmp/my-note.txt", options: ParseOptions())
        #expect(book.metadata.title == "my-note")
        #expect(book.pages.map(\.text) == ["Hello world.\n\nSecond paragraph."])
    }

    @Test("an empty or blank text file is an error")
    func empty() {
        #expect(throws: BookError.emptyFile(path: "e.txt")) { try sut.parse(Data(), path: "e.txt", options: ParseOptions()) }
        #expect(throws: BookError.noText(path: "b.txt")) { try sut.parse(Data(" \n\n ".utf8), path: "b.txt", options: ParseOptions()) }
    }
}
