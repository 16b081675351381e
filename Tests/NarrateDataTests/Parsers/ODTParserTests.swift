import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct ODTParserTests {
    let sut = ODTParser()
    typealias Fixture = OfficeFixture

    func parse(_ body: String, automaticStyles: String = "", meta: String? = Fixture.meta(), includesMatter: Bool = false) throws -> Book {
        try sut.parse(try Fixture.odt(body, automaticStyles: automaticStyles, meta: meta), path: "/books/fixture.odt", options: ParseOptions(includesMatter: includesMatter))
    }

    func text(_ book: Book) -> String { book.pages.map(\.text).joined(separator: "\n\n") }

    @Test("text:h headings make chapters by outline level; meta.xml gives title, the initial creator as author, the styles the language")
    func headingsAndMetadata() throws {
        // Given
        let body = #"<text:p text:style-name="Standard">Before.</text:p><text:h text:style-name="Heading_20_1" text:outline-level="1"><text:bookmark-start text:name="one"/>One<text:bookmark-end text:name="one"/></text:h><text:p>Text one.</text:p><text:h text:outline-level="2">One A</text:h><text:p>Text two.</text:p><text:h text:style-name="Heading_20_1">Two</text:h><text:p>Text three.</text:p>"#

        // When
        let book = try parse(body)

        // Then
        #expect(book.format == .odt)
        #expect(book.chapters.map(\.title) == ["One", "One A", "Two"])
        #expect(book.chapters.map(\.depth) == [0, 1, 0])
        #expect(book.metadata.title == "Fixture Text")
        #expect(book.metadata.authors == ["Claire Creator"])
        #expect(book.metadata.language == "fr-CA")
        #expect(text(book) == "Before.\n\nOne\n\nText one.\n\nOne A\n\nText two.\n\nTwo\n\nText three.")
    }

    @Test("a paragraph whose style inherits from a heading style is a heading, through an automatic style too")
    func inheritedHeadings() throws {
        // Given "P1", automatic, made from "Chapter", which inherits from Heading 1
        let styles = #"<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Chapter"/>"#
        let body = #"<text:p text:style-name="P1">The Inherited</text:p><text:p>Words.</text:p><text:p text:style-name="Chapter">Direct Style</text:p><text:p>More.</text:p>"#

        // When
        let book = try parse(body, automaticStyles: styles)

        // Then
        #expect(book.chapters.map(\.title) == ["The Inherited", "Direct Style"])
    }

    @Test("a footnote is not read where it stands; it is a note: left out and counted, read last with everything")
    func notes() throws {
        // Given
        let body = #"<text:h text:outline-level="1">One</text:h><text:p>It was dark.<text:note text:id="ftn0" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p text:style-name="Footnote">A note about darkness.</text:p></text:note-body></text:note> The rain fell.</text:p>"#

        // When
        let book = try parse(body)
        let everything = try parse(body, includesMatter: true)

        // Then
        #expect(text(book) == "One\n\nIt was dark. The rain fell.")
        #expect(book.skipped == [SkippedMatter(kind: .notes, title: "Notes", words: 4)])
        #expect(text(everything) == "One\n\nIt was dark. The rain fell.\n\nA note about darkness.")
    }

    @Test("hidden text is not read: a span in a hidden style, a hidden section, a hidden-text field, the rest of a hidden paragraph")
    func hiddenText() throws {
        // Given
        let styles = #"<style:style style:name="T1" style:family="text" style:parent-style-name="Secret"/><style:style style:name="T2" style:family="text"><style:text-properties text:display="none"/></style:style>"#
        let body = #"<text:p>Shown <text:span text:style-name="T1">secret </text:span><text:span text:style-name="T2">hidden </text:span><text:hidden-text text:condition="x" text:string-value="cond " text:is-hidden="true">cond </text:hidden-text>end.</text:p><text:section text:name="S" text:display="none"><text:p>A hidden section.</text:p></text:section><text:p>Last.<text:hidden-paragraph text:condition="x" text:is-hidden="true"/> Gone.</text:p>"#

        // When / Then
        #expect(text(try parse(body, automaticStyles: styles)) == "Shown end.\n\nLast.")
    }

    @Test("tracked changes: the deleted text kept in text:tracked-changes is not read; annotations neither")
    func trackedChanges() throws {
        // Given
        let body = #"<text:tracked-changes><text:changed-region text:id="c1"><text:deletion><office:change-info><dc:creator>E</dc:creator></office:change-info><text:p>old words</text:p></text:deletion></text:changed-region></text:tracked-changes><text:p>The <text:change text:change-id="c1"/>new text.<office:annotation><dc:creator>E</dc:creator><text:p>A comment.</text:p></office:annotation></text:p>"#

        // When / Then
        #expect(text(try parse(body)) == "The new text.")
    }

    @Test("a table of contents is a contents list, left out, its templates never read; tables, lists and text boxes are read in order")
    func contentsTablesAndFrames() throws {
        // Given
        let contents = ##"<text:table-of-content text:name="TOC1"><text:table-of-content-source text:outline-level="3"><text:index-title-template>Template Title</text:index-title-template></text:table-of-content-source><text:index-body><text:index-title text:name="T"><text:p>Contents</text:p></text:index-title><text:p><text:a xlink:href="#one">One 1</text:a></text:p></text:index-body></text:table-of-content>"##
        let body = contents + #"<text:h text:outline-level="1">One</text:h><table:table><table:table-row><table:table-cell><text:p>Name</text:p></table:table-cell><table:covered-table-cell/><table:table-cell><text:p>Age</text:p></table:table-cell></table:table-row></table:table><text:list><text:list-item><text:p><text:number>1.</text:number>First item</text:p></text:list-item></text:list><text:p>Anchor <draw:frame><svg:title>A picture title</svg:title><draw:text-box><text:p>Boxed words.</text:p></draw:text-box></draw:frame> after.</text:p><text:p>a<text:s text:c="3"/>b<text:tab/>c<text:line-break/>d</text:p>"#

        // When
        let book = try parse(body)

        // Then
        #expect(text(book) == "One\n\nName\n\nAge\n\nFirst item\n\nAnchor\n\nBoxed words.\n\nafter.\n\na b c\n\nd")
        #expect(book.skipped == [SkippedMatter(kind: .contents, title: "Contents", words: 3)])
    }

    @Test("the title falls back to the Title paragraph; another OpenDocument kind is refused in one line")
    func fallbacksAndRefusals() throws {
        // Given
        let body = #"<text:p text:style-name="Title">A Titled Thing</text:p><text:p>Body.</text:p>"#

        // When
        let book = try parse(body, meta: nil)

        // Then
        #expect(book.metadata.title == "A Titled Thing")
        #expect(book.metadata.authors.isEmpty)
        #expect(throws: BookError.unreadableDocument(path: "sheet.odt", format: .odt, reason: "its mimetype entry says 'application/vnd.oasis.opendocument.spreadsheet', not OpenDocument text")) {
            try sut.parse(try Fixture.odt(body, mimetype: "application/vnd.oasis.opendocument.spreadsheet"), path: "sheet.odt", options: ParseOptions())
        }
    }
}
