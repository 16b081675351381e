import Foundation

/// Small DOCX, ODT and FB2 documents written by hand for the parsers' tests, each with only the
/// parts its test needs (a reader of real ones is tested on pandoc's and LibreOffice's files in
/// Tests/OfficeDocuments).
enum OfficeFixture {
    // MARK: - DOCX

    static let wordNamespaces = #"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math""#

    /// A paragraph in `style` (none: the default) with one run of `text`.
    static func paragraph(_ text: String, style: String? = nil) -> String {
        let properties = style.map { #"<w:pPr><w:pStyle w:val="\#($0)"/></w:pPr>"# } ?? ""
        return "<w:p>\(properties)<w:r><w:t xml:space=\"preserve\">\(text)</w:t></w:r></w:p>"
    }

    static func document(_ body: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document \#(wordNamespaces)><w:body>\#(body)<w:sectPr/></w:body></w:document>"#
    }

    /// Heading 1 and 2 (with outline levels), Title, a "Chapter Title" and a "TOC Heading" based
    /// on Heading 1 that state no level of their own, a "Heading 3" known by its name only, a
    /// hidden paragraph style and a hidden character style.
    static let styles = """
        <?xml version="1.0" encoding="UTF-8"?><w:styles \(wordNamespaces)>
        <w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="de-DE"/></w:rPr></w:rPrDefault></w:docDefaults>
        <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
        <w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
        <w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
        <w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:basedOn w:val="Normal"/></w:style>
        <w:style w:type="paragraph" w:styleId="ChapterTitle"><w:name w:val="Chapter Title"/><w:basedOn w:val="Heading1"/></w:style>
        <w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style>
        <w:style w:type="paragraph" w:styleId="TOCHeading"><w:name w:val="TOC Heading"/><w:basedOn w:val="Heading1"/></w:style>
        <w:style w:type="paragraph" w:styleId="EditorNote"><w:name w:val="Editor Note"/><w:rPr><w:vanish/></w:rPr></w:style>
        <w:style w:type="character" w:styleId="Secret"><w:name w:val="Secret"/><w:rPr><w:vanish/></w:rPr></w:style>
        </w:styles>
        """

    static func core(title: String = "Fixture Document", creator: String = "Ann Author; Bob Writer", language: String? = "en-GB") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>\(title)</dc:title><dc:creator>\(creator)</dc:creator>\(language.map { "<dc:language>\($0)</dc:language>" } ?? "")<cp:lastModifiedBy>Someone Else</cp:lastModifiedBy></cp:coreProperties>
        """
    }

    static func footnotes(_ notes: [(id: Int, text: String)]) -> String {
        let bodies = notes.map { #"<w:footnote w:id="\#($0.id)"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> \#($0.text)</w:t></w:r></w:p></w:footnote>"# }
        return #"<?xml version="1.0" encoding="UTF-8"?><w:footnotes \#(wordNamespaces)><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:t>continued</w:t></w:r></w:p></w:footnote>\#(bodies.joined())</w:footnotes>"#
    }

    /// The parts of a DOCX, `[Content_Types].xml` first, as Word writes them.
    static func docxEntries(body: String, footnotes: String? = nil, core: String? = core(), styles: String? = styles) -> [(String, Data)] {
        var entries: [(String, Data)] = [
            ("[Content_Types].xml", Data(#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>"#.utf8)),
            ("_rels/.rels", Data(#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>"#.utf8)),
            ("word/_rels/document.xml.rels", Data(#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com" TargetMode="External"/></Relationships>"#.utf8)),
            ("word/document.xml", Data(document(body).utf8)),
        ]
        if let styles { entries.append(("word/styles.xml", Data(styles.utf8))) }
        if let footnotes { entries.append(("word/footnotes.xml", Data(footnotes.utf8))) }
        if let core { entries.append(("docProps/core.xml", Data(core.utf8))) }
        return entries
    }

    static func docx(body: String, footnotes: String? = nil, core: String? = core(), styles: String? = styles) throws -> Data {
        try EPUBFixture.archive(docxEntries(body: body, footnotes: footnotes, core: core, styles: styles))
    }

    // MARK: - ODT

    static let odfNamespaces = #"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0""#

    /// Heading 1 and 2 with outline levels, Title, a "Chapter" style inheriting from Heading 1,
    /// a hidden character style; the default paragraph language is fr-CA.
    static let odtStyles = """
        <?xml version="1.0" encoding="UTF-8"?><office:document-styles \(odfNamespaces) office:version="1.3"><office:styles>
        <style:default-style style:family="paragraph"><style:text-properties fo:language="fr" fo:country="CA"/></style:default-style>
        <style:style style:name="Standard" style:family="paragraph"/>
        <style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard"/>
        <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="1"/>
        <style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="2"/>
        <style:style style:name="Chapter" style:family="paragraph" style:parent-style-name="Heading_20_1"/>
        <style:style style:name="Title" style:family="paragraph" style:parent-style-name="Heading"/>
        <style:style style:name="Secret" style:family="text"><style:text-properties text:display="none"/></style:style>
        </office:styles></office:document-styles>
        """

    static func odtContent(_ body: String, automaticStyles: String = "") -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><office:document-content \#(odfNamespaces) office:version="1.3"><office:automatic-styles>\#(automaticStyles)</office:automatic-styles><office:body><office:text>\#(body)</office:text></office:body></office:document-content>"#
    }

    static func meta(title: String? = "Fixture Text", initialCreator: String? = "Claire Creator", creator: String = "Last Saver", language: String? = nil) -> String {
        let fields = [
            title.map { "<dc:title>\($0)</dc:title>" }, initialCreator.map { "<meta:initial-creator>\($0)</meta:initial-creator>" },
            "<dc:creator>\(creator)</dc:creator>", language.map { "<dc:language>\($0)</dc:language>" },
        ].compactMap { $0 }
        return #"<?xml version="1.0" encoding="UTF-8"?><office:document-meta \#(odfNamespaces)><office:meta>\#(fields.joined())</office:meta></office:document-meta>"#
    }

    static func odt(_ body: String, automaticStyles: String = "", meta: String? = meta(), mimetype: String = "application/vnd.oasis.opendocument.text") throws -> Data {
        var entries: [(String, Data)] = [
            ("mimetype", Data(mimetype.utf8)),
            ("content.xml", Data(odtContent(body, automaticStyles: automaticStyles).utf8)),
            ("styles.xml", Data(odtStyles.utf8)),
            ("META-INF/manifest.xml", Data(#"<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>"#.utf8)),
        ]
        if let meta { entries.append(("meta.xml", Data(meta.utf8))) }
        return try EPUBFixture.archive(entries)
    }

    // MARK: - FB2

    /// A FictionBook with `body` as its main body's content, a description by
    /// `title-info`, and `notes` as its notes body's sections.
    static func fb2(
        body: String, notes: String = "", encoding: String = "UTF-8", titleInfo: String = defaultTitleInfo, binaries: String = ""
    ) -> String {
        let notesBody = notes.isEmpty ? "" : #"<body name="notes"><title><p>Notes</p></title>\#(notes)</body>"#
        return """
            <?xml version="1.0" encoding="\(encoding)"?>
            <FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink">
            <description><title-info>\(titleInfo)</title-info>
            <document-info><author><nickname>file-maker</nickname></author><program-used>hand</program-used></document-info>
            <publish-info><publisher>Small Press</publisher><year>1911</year></publish-info></description>
            <body>\(body)</body>\(notesBody)\(binaries)
            </FictionBook>
            """
    }

    static let defaultTitleInfo = """
        <genre>prose</genre><author><first-name>Anna</first-name><middle-name>P.</middle-name><last-name>Writer</last-name></author>
        <author><nickname>Ghost</nickname></author><book-title>Fixture Fiction</book-title>
        <annotation><p>First line.</p><p>Second line.</p></annotation><lang>en</lang>
        <translator><first-name>Not</first-name><last-name>Author</last-name></translator>
        """
}
