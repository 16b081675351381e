import Foundation
import NarrateData
import NarrateDomain
import Testing

@Suite struct MarkdownParserTests {
    let sut = MarkdownParser()

    @Test("headings become chapters; inline markup, images, code and front matter are dropped")
    func markdown() throws {
        // Given
        let markdown = """
            ---
            title: ignored front matter
            ---
            # The Book

            Intro with *emphasis*, __strong__, `code` and a [link](http://x.org "t").
            ![a picture](pic.png)

            ## First chapter
            A paragraph
            on two lines.

            - item one
            - item two

            ```swift
            let code = "not read"
            ```

            > A quote.

            Second Chapter
            --------------

            snake_case stays, <b>tags</b> go.

            ### Deeper ###
            Text.
            """

        // When
        let book = try sut.parse(Data(markdown.utf8), path: "/x/book.md", options: ParseOptions())

        // Then
        #expect(book.format == .markdown)
        #expect(book.metadata.title == "The Book")
        #expect(book.chapters == [
            Chapter(title: "The Book", depth: 0, firstPage: 1),
            Chapter(title: "First chapter", depth: 1, firstPage: 2),
            Chapter(title: "Second Chapter", depth: 1, firstPage: 3),
            Chapter(title: "Deeper", depth: 2, firstPage: 4),
        ])
        #expect(book.pages.map(\.text) == [
            "The Book\n\nIntro with emphasis, strong, code and a link.",
            "First chapter\n\nA paragraph on two lines.\n\nitem one\n\nitem two\n\nA quote.",
            "Second Chapter\n\nsnake_case stays, tags go.",
            "Deeper\n\nText.",
        ])
    }

    @Test("depth is relative to the top heading level used; no H1 means the file name is the title")
    func relativeDepth() throws {
        let book = try sut.parse(Data("## One\ntext\n### Sub\nmore\n## Two\nend".utf8), path: "notes/my-notes.markdown", options: ParseOptions())
        #expect(book.metadata.title == "my-notes")
        #expect(book.chapters.map(\.depth) == [0, 1, 0])
    }

    @Test("a Markdown file with no text is an error")
    func noText() {
        #expect(throws: BookError.noText(path: "e.md")) {
            try sut.parse(Data("![img](a.png)\n\n---\n".utf8), path: "e.md", options: ParseOptions())
        }
    }
}
