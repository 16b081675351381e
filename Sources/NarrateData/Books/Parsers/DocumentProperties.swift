import NarrateDomain

/// The title, authors, language and description a document states of itself: a DOCX's core
/// properties (`docProps/core.xml`) or an ODT's `meta.xml`, both Dublin Core.
struct DocumentProperties {
    var title: String?
    var authors: [String] = []
    var language: String?
    var bookDescription: String?
    var identifier: String?

    init(_ tree: XMLTree?) {
        guard let tree else { return }
        func text(_ name: String) -> String? {
            let value = tree.first { $0.name == name }.map { MarkupText.collapseWhitespace($0.text) }
            return value?.isEmpty == false ? value : nil
        }
        title = text("title")
        // An ODT's `dc:creator` is whoever saved it last; its author is the initial creator.
        // Word separates several authors with semicolons.
        authors = (text("initial-creator") ?? text("creator")).map {
            $0.split(separator: ";").map { MarkupText.collapseWhitespace(String($0)) }.filter { !$0.isEmpty }
        } ?? []
        language = text("language")
        bookDescription = text("description")
        identifier = text("identifier")
    }

    /// The book's metadata: these properties, the title else `titleParagraph` (the first in the
    /// document's Title style) else the file's name, the language else `defaultLanguage`.
    func metadata(titleParagraph: String?, path: String, defaultLanguage: String?) -> BookMetadata {
        BookMetadata(
            title: title ?? titleParagraph.flatMap { $0.isEmpty ? nil : $0 } ?? EPUBParser.fileTitle(path),
            authors: authors,
            language: language ?? defaultLanguage,
            identifier: identifier,
            bookDescription: bookDescription
        )
    }
}
