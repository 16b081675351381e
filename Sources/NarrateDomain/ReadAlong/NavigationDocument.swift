/// An EPUB 3 navigation document: the table of contents as nested lists (for a book that has
/// none of its own, an EPUB 2 book or one made from text).
public struct NavigationDocument: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var title: String
        /// Relative to the navigation document.
        public var href: String
        /// 0 for the top level.
        public var depth: Int

        public init(title: String, href: String, depth: Int) {
            self.title = title
            self.href = href
            self.depth = depth
        }
    }

    public var title: String
    public var language: String
    public var entries: [Entry]

    public init(title: String, language: String, entries: [Entry]) {
        self.title = title
        self.language = language
        self.entries = entries
    }

    /// The XHTML. Depths are taken as nesting, a level deeper at most per entry.
    public func xml() -> String {
        let language = XMLText.escaped(language)
        var body = "<nav epub:type=\"toc\" id=\"toc\">\n<h1>\(XMLText.escaped(title))</h1>\n<ol>"
        var depth = 0
        for (index, entry) in entries.enumerated() {
            let target = index == 0 ? 0 : min(max(entry.depth, 0), depth + 1)
            if index > 0 {
                if target > depth {
                    body += "\n<ol>"
                } else {
                    body += "</li>"
                    for _ in 0..<(depth - target) { body += "\n</ol></li>" }
                }
            }
            depth = target
            body += "\n<li><a href=\"\(XMLText.escaped(entry.href))\">\(XMLText.escaped(entry.title))</a>"
        }
        if !entries.isEmpty {
            body += "</li>"
            for _ in 0..<depth { body += "\n</ol></li>" }
        }
        body += "\n</ol>\n</nav>"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="\(language)" lang="\(language)">
            <head><title>\(XMLText.escaped(title))</title></head>
            <body>
            \(body)
            </body>
            </html>

            """
    }
}
