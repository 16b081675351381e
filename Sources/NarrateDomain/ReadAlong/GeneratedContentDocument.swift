/// An XHTML content document made from pages of text, for a read-along EPUB of a book that has
/// no XHTML of its own (plain text, Markdown, HTML): one `div` per page, one `p` per paragraph.
public struct GeneratedContentDocument: Sendable, Hashable {
    public var title: String
    public var language: String
    public var pages: [Page]
    /// Relative to the document.
    public var stylesheet: String?

    public init(title: String, language: String, pages: [Page], stylesheet: String? = nil) {
        self.title = title
        self.language = language
        self.pages = pages
        self.stylesheet = stylesheet
    }

    public func xml() -> String {
        let language = XMLText.escaped(language)
        var body: [String] = []
        var seen: Set<Int> = []
        for page in pages {
            // The pieces of a page that several chapters share are one page.
            let id = seen.insert(page.index).inserted ? " id=\"page-\(page.index)\"" : ""
            body.append("<div class=\"page\"\(id)>")
            for paragraph in page.text.split(separator: "\n\n" as String) where !paragraph.allSatisfy(\.isWhitespace) {
                body.append("<p>\(XMLText.escaped(String(paragraph)))</p>")
            }
            body.append("</div>")
        }
        let link = stylesheet.map { "\n<link rel=\"stylesheet\" type=\"text/css\" href=\"\(XMLText.escaped($0))\"/>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="\(language)" lang="\(language)">
            <head><title>\(XMLText.escaped(title))</title>\(link)</head>
            <body>
            \(body.joined(separator: "\n"))
            </body>
            </html>

            """
    }
}
