import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct DOCXParserTests {
    let sut = DOCXParser()
    typealias Fixture = OfficeFixture

    func parse(_ body: String, footnotes: String? = nil, core: String? = Fixture.core(), includesMatter: Bool = false) throws -> Book {
        try sut.parse(try Fixture.docx(body: body, footnotes: footnotes, core: core), path: "/books/fixture.docx", options: ParseOptions(includesMatter: includesMatter))
    }

    func text(_ book: Book) -> String { book.pages.map(\.text).joined(separator: "\n\n") }

    @Test("headings by style make chapters, Heading 2 nested; the core properties give title, authors and language")
    func headingsAndMetadata() throws {
        // Given
        let body = Fixture.paragraph("Opening words before any heading.") + Fixture.paragraph("Part One", style: "Heading1")
            + Fixture.paragraph("It began.") + Fixture.paragraph("A Section", style: "Heading2") + Fixture.paragraph("More.")
            + Fixture.paragraph("Part Two", style: "Heading1") + Fixture.paragraph("It ended.")

        // When
        let book = try parse(body)

        // Then
        #expect(book.format == .docx)
        #expect(book.chapters.map(\.title) == ["Part One", "A Section", "Part Two"])
        #expect(book.chapters.map(\.depth) == [0, 1, 0])
        #expect(book.metadata.title == "Fixture Document")
        #expect(book.metadata.authors == ["Ann Author", "Bob Writer"])
        #expect(book.metadata.language == "en-GB")
        #expect(text(book).hasPrefix("Opening words before any heading."))
    }

    @Test("a style based on a heading style is a heading; an outline level on the paragraph is too; level 9 is body text")
    func inheritedAndDirectHeadings() throws {
        // Given "Chapter Title", based on Heading 1 without a level of its own; "heading 3" known by name only
        let body = Fixture.paragraph("The Inherited", style: "ChapterTitle") + Fixture.paragraph("Text one.")
            + #"<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:r><w:t>The Direct</w:t></w:r></w:p>"# + Fixture.paragraph("Text two.")
            + #"<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:outlineLvl w:val="9"/></w:pPr><w:r><w:t>Not a heading.</w:t></w:r></w:p>"#
            + Fixture.paragraph("By Name", style: "Heading3")

        // When
        let book = try parse(body)

        // Then "heading 3" is two levels below the top: not a chapter, but still a heading
        #expect(book.chapters.map(\.title) == ["The Inherited", "The Direct"])
        #expect(text(book).contains("Not a heading."))
        #expect(text(book).contains("By Name"))
    }

    @Test("a footnote reference is not read, the footnote is a note: left out and counted")
    func footnotes() throws {
        // Given
        let body = Fixture.paragraph("Chapter", style: "Heading1")
            + #"<w:p><w:r><w:t>It was dark.</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="2"/></w:r><w:r><w:t xml:space="preserve"> The rain fell.</w:t></w:r></w:p>"#
            + #"<w:p><w:r><w:t>Marked</w:t></w:r><w:r><w:footnoteReference w:customMarkFollows="1" w:id="3"/><w:t>*</w:t></w:r><w:r><w:t xml:space="preserve"> here.</w:t></w:r></w:p>"#
        let notes = Fixture.footnotes([(2, "A note about darkness."), (3, "A starred note.")])

        // When
        let book = try parse(body, footnotes: notes)
        let everything = try parse(body, footnotes: notes, includesMatter: true)

        // Then
        #expect(text(book) == "Chapter\n\nIt was dark. The rain fell.\n\nMarked here.")
        #expect(book.skipped == [SkippedMatter(kind: .notes, title: "Notes", words: 7)])
        #expect(text(everything).hasSuffix("A note about darkness.\n\nA starred note."))
        #expect(!text(everything).contains("continued"))
    }

    @Test("a field's instruction is not read, its result is; a TOC field's result is a contents list, left out")
    func fields() throws {
        // Given a DATE field, a simple PAGE field, and a contents list made by a TOC field with no contents block around it
        let body = Fixture.paragraph("Title Page", style: "Heading1")
            + #"<w:p><w:r><w:t xml:space="preserve">Printed on </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> DATE \@ "d MMMM yyyy" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1 May 2024</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve">, page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>7</w:t></w:r></w:fldSimple><w:r><w:t>.</w:t></w:r></w:p>"#
            + #"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>TOC \o "1-3" \h</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Title Page 1</w:t></w:r></w:p><w:p><w:r><w:t>Chapter One 2</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#
            + Fixture.paragraph("Chapter One", style: "Heading1") + Fixture.paragraph("Words.")

        // When
        let book = try parse(body)

        // Then
        #expect(text(book) == "Title Page\n\nPrinted on 1 May 2024, page 7.\n\nChapter One\n\nWords.")
        #expect(book.skipped == [SkippedMatter(kind: .contents, title: "Contents", words: 6)])
    }

    @Test("hidden text is not read: a vanished run, a hidden character style, a hidden paragraph style; a run may show itself again")
    func hiddenText() throws {
        // Given
        let body = #"<w:p><w:r><w:t xml:space="preserve">Shown </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>vanished </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Secret"/></w:rPr><w:t>secret </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Secret"/><w:vanish w:val="0"/></w:rPr><w:t>unhidden </w:t></w:r><w:r><w:t>end.</w:t></w:r></w:p>"#
            + Fixture.paragraph("An editor's hidden paragraph.", style: "EditorNote")

        // When
        let book = try parse(body)

        // Then
        #expect(text(book) == "Shown unhidden end.")
    }

    @Test("tracked changes: a deleted run and text moved away are not read, an insertion is")
    func trackedChanges() throws {
        // Given
        let body = #"<w:p><w:r><w:t xml:space="preserve">The </w:t></w:r><w:del w:id="1" w:author="E"><w:r><w:delText xml:space="preserve">old </w:delText></w:r></w:del><w:ins w:id="2" w:author="E"><w:r><w:t xml:space="preserve">new </w:t></w:r></w:ins><w:moveFrom w:id="3" w:author="E"><w:r><w:t xml:space="preserve">moved </w:t></w:r></w:moveFrom><w:r><w:t>text.</w:t></w:r></w:p>"#

        // When / Then
        #expect(text(try parse(body)) == "The new text.")
    }

    @Test("tables and text boxes are read where they stand, a drawing's fallback copy once, math not at all")
    func tablesAndTextBoxes() throws {
        // Given
        let box = #"<mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>Boxed words.</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>Boxed words.</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent>"#
        let body = Fixture.paragraph("Before the table.")
            + #"<w:tbl><w:tblPr/><w:tr><w:tc><w:p><w:r><w:t>Name</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Age</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>Ann</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>31</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#
            + #"<w:p><w:r><w:t xml:space="preserve">Anchor </w:t></w:r><w:r>\#(box)</w:r><w:r><w:t>after.</w:t></w:r></w:p>"#
            + #"<w:p><w:r><w:t xml:space="preserve">Sum </w:t></w:r><m:oMath><m:r><m:t>x=1</m:t></m:r></m:oMath><w:r><w:t>done.</w:t></w:r></w:p>"#

        // When
        let book = try parse(body)

        // Then
        #expect(text(book) == "Before the table.\n\nName\n\nAge\n\nAnn\n\n31\n\nAnchor\n\nBoxed words.\n\nafter.\n\nSum done.")
    }

    @Test("a Table of Contents block is a contents list, left out; placeholder text is not read")
    func contentsBlockAndPlaceholder() throws {
        // Given
        let contents = #"<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/><w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent>\#(Fixture.paragraph("Contents", style: "TOCHeading"))<w:p><w:hyperlink w:anchor="_Toc1"><w:r><w:t>One 1</w:t></w:r></w:hyperlink></w:p></w:sdtContent></w:sdt>"#
        let placeholder = #"<w:sdt><w:sdtPr><w:showingPlcHdr/></w:sdtPr><w:sdtContent><w:p><w:r><w:t>Click here to enter text.</w:t></w:r></w:p></w:sdtContent></w:sdt>"#
        let body = contents + placeholder + #"<w:bookmarkStart w:id="0" w:name="_Toc1"/>"# + Fixture.paragraph("One", style: "Heading1") + Fixture.paragraph("Text.")

        // When
        let book = try parse(body)

        // Then
        #expect(text(book) == "One\n\nText.")
        #expect(book.skipped == [SkippedMatter(kind: .contents, title: "Contents", words: 3)])
    }

    @Test("names are matched by namespace, whatever the prefix; the title falls back to the Title paragraph, the language to the styles'")
    func prefixesAndFallbacks() throws {
        // Given a document under the prefix "ns0" and no core properties
        let document = #"<?xml version="1.0"?><ns0:document xmlns:ns0="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><ns0:body><ns0:p><ns0:pPr><ns0:pStyle ns0:val="Title"/></ns0:pPr><ns0:r><ns0:t>The Real Title</ns0:t></ns0:r></ns0:p><ns0:p><ns0:r><ns0:t>Body.</ns0:t></ns0:r></ns0:p></ns0:body></ns0:document>"#
        var entries = Fixture.docxEntries(body: "", core: nil)
        entries[3] = ("word/document.xml", Data(document.utf8))

        // When
        let book = try sut.parse(try EPUBFixture.archive(entries), path: "/books/untitled.docx", options: ParseOptions())

        // Then
        #expect(book.metadata.title == "The Real Title")
        #expect(book.metadata.language == "de-DE")
        #expect(text(book) == "The Real Title\n\nBody.")
        #expect(book.chapters.map(\.title) == ["The Real Title"])
    }

    @Test("a DOCX without its document part, with broken XML, or not a ZIP says so in one line")
    func damaged() throws {
        // Given
        let noDocument = try EPUBFixture.archive(Fixture.docxEntries(body: "").filter { $0.0 != "word/document.xml" })
        var broken = Fixture.docxEntries(body: "")
        broken[3] = ("word/document.xml", Data("<w:document><w:body>".utf8))

        // When / Then
        #expect(throws: BookError.unreadableDocument(path: "a.docx", format: .docx, reason: "it has no 'word/document.xml', where its text would be")) {
            try sut.parse(noDocument, path: "a.docx", options: ParseOptions())
        }
        #expect(throws: BookError.unreadableDocument(path: "b.docx", format: .docx, reason: "it is not a ZIP archive, or it is cut short (it has no central directory)")) {
            try sut.parse(Data("PK\u{3}\u{4} not really".utf8), path: "b.docx", options: ParseOptions())
        }
        let brokenData = try EPUBFixture.archive(broken)
        let result = Result { () throws(BookError) in try sut.parse(brokenData, path: "c.docx", options: ParseOptions()) }
        guard case let .failure(.unreadableDocument(path, format, reason)) = result else {
            Issue.record("a broken document part gave \(result)")
            return
        }
        #expect(path == "c.docx" && format == .docx)
        #expect(reason.hasPrefix("its part 'word/document.xml' is not well-formed XML"))
    }

    @Test("a document part that unpacks past the limit is refused as a ZIP bomb")
    func zipBomb() throws {
        // Given 2 MiB of spaces in the document part, a 1 MiB entry limit
        let body = Fixture.paragraph("x") + String(repeating: " ", count: 2 << 20)
        let parser = DOCXParser(limits: ArchiveLimits(maxEntrySize: 1 << 20, maxTotalSize: 8 << 20))

        // When / Then
        #expect(throws: BookError.entryTooLarge(path: "bomb.docx", entry: "word/document.xml", limit: 1 << 20)) {
            try parser.parse(try Fixture.docx(body: body), path: "bomb.docx", options: ParseOptions())
        }
    }
}
