import Foundation
import NarrateDomain

/// Reads a FictionBook 2 document into a `BlockCollector`, in the collector's XHTML terms, and
/// its description into metadata.
///
/// The main body's sections are `section`s, each titled by an `h1`…`h6` of its depth (nested
/// sections nest); paragraphs, subtitles, verse lines and epigraphs are blocks; a link of
/// `type="note"` is a note reference, not read. A body named `notes` (or `comments`) is one
/// `div epub:type="footnotes"`: left out and counted as notes, and links into it are note
/// markers. Images are not read; the cover image (the description's `coverpage`) is the cover.
final class FB2Reader: XMLStreamHandler {
    /// Bodies that hold the book's notes rather than its text.
    static let noteBodies: Set<String> = ["notes", "comments", "footnotes", "endnotes"]
    /// Elements of the text mapped to the collector's, by FB2 name.
    static let blocks: [String: String] = [
        "p": "p", "subtitle": "p", "text-author": "p", "v": "p", "date": "p", "stanza": "div", "poem": "div",
        "epigraph": "blockquote", "cite": "blockquote", "annotation": "blockquote", "table": "table", "tr": "tr",
        "td": "td", "th": "th",
    ]
    /// The largest cover image read (in base64 characters).
    static let maxCoverCharacters = 16 << 20

    private struct Open {
        var local: String
        var skips = false
        var emitted: String?
        var isSection = false
        var isTitle = false
        var capture: String?
    }

    let collector: BlockCollector
    private(set) var title: String?
    private(set) var authors: [String] = []
    private(set) var language: String?
    private(set) var bookDescription: String?
    private(set) var publisher: String?
    private(set) var year: String?
    private(set) var isbn: String?
    private(set) var cover: BookCover?

    private var stack: [Open] = []
    private var skipDepth = 0
    private var sectionDepth = 0
    private var inNotes = false
    private var coverID: String?
    /// What an element of the description holds, by its name, while it is read.
    private var captured: [String: String] = [:]
    private var author: [String: String] = [:]
    private var coverData: (type: String?, base64: String)?

    init(collector: BlockCollector) {
        self.collector = collector
    }

    func start(_ name: XMLName, attributes: [XMLName: String]) {
        let local = name.local
        var open = Open(local: local)
        defer { stack.append(open) }
        guard skipDepth == 0 else { return }
        func value(_ key: String) -> String? { attributes[XMLName(namespace: "", local: key)] }
        let href = attributes.first { $0.key.local == "href" }?.value
        let path = stack.map(\.local)
        if path.contains("description") {
            readDescription(local, path: path, href: href, open: &open)
            return
        }
        switch local {
        case "description":
            break
        case "stylesheet":
            beginSkip(&open)
        case "binary":
            if let id = value("id"), id == coverID { coverData = (value("content-type"), "") } else { beginSkip(&open) }
        case "body":
            inNotes = value("name").map { Self.noteBodies.contains($0.lowercased()) } ?? false
            if inNotes { begin("div", ["epub:type": "footnotes"], &open) }
        case "section":
            sectionDepth += 1
            open.isSection = true
            begin("section", value("id").map { ["id": $0] } ?? [:], &open)
        case "title":
            // A section's title heads it (not in the notes, whose titles are their numbers); the
            // body's own title is its title page, read as paragraphs.
            open.isTitle = true
            begin(stack.last?.local == "section" && !inNotes ? "h\(min(sectionDepth, 6))" : "div", [:], &open)
        case "a":
            var link = ["href": href ?? ""]
            if value("type") == "note" { link["epub:type"] = "noteref" }
            begin("a", link, &open)
        case "image", "empty-line":
            beginSkip(&open)
        default:
            guard let element = Self.blocks[local] else { return }
            // Words of a title's paragraphs stay apart in the heading they make.
            if local == "p", stack.last?.isTitle == true { collector.characters(" ") }
            begin(element, [:], &open)
        }
    }

    func end(_ name: XMLName) {
        guard let open = stack.popLast() else { return }
        if open.skips { skipDepth -= 1 }
        if open.isSection { sectionDepth -= 1 }
        if let emitted = open.emitted {
            collector.endElement(emitted)
            // Words of one block stay apart from the next's in what the collector leaves out.
            if emitted != "a" { collector.characters("\n") }
        }
        if let key = open.capture { endCapture(key) }
        if open.local == "binary", var data = coverData {
            coverData = nil
            data.base64.removeAll { $0.isWhitespace }
            if let bytes = Data(base64Encoded: data.base64, options: .ignoreUnknownCharacters), !bytes.isEmpty {
                cover = BookCover(mediaType: data.type ?? EPUBParser.imageType(of: bytes), data: Array(bytes))
            }
        }
        if open.local == "body" { inNotes = false }
    }

    func text(_ text: String) {
        if stack.last?.local == "binary" {
            // A cover past the bound is dropped, not read in part.
            guard var data = coverData else { return }
            data.base64 += text
            coverData = data.base64.utf8.count <= Self.maxCoverCharacters ? data : nil
            return
        }
        guard skipDepth == 0 else { return }
        if let index = stack.lastIndex(where: { $0.capture != nil }), let key = stack[index].capture {
            captured[key, default: ""] += text
            return
        }
        if stack.contains(where: { $0.local == "description" }) { return }
        collector.characters(text)
    }

    // MARK: - Description

    /// The title, authors, language, annotation and cover of `title-info`, the publisher, year
    /// and ISBN of `publish-info`. The document's own author (`document-info`) made the file,
    /// not the book, and a translator is not an author.
    private func readDescription(_ local: String, path: [String], href: String?, open: inout Open) {
        let parent = path.last
        switch (parent, local) {
        case ("title-info", "book-title"), ("title-info", "lang"), ("title-info", "annotation"),
            ("publish-info", "publisher"), ("publish-info", "year"), ("publish-info", "isbn"):
            open.capture = local
        case ("title-info", "author"):
            author = [:]
            open.capture = "author"
        case ("author", "first-name"), ("author", "middle-name"), ("author", "last-name"), ("author", "nickname"):
            if path.dropLast().last == "title-info" { open.capture = local }
        case ("coverpage", "image"):
            if coverID == nil, let href, href.hasPrefix("#") { coverID = String(href.dropFirst()) }
        case (_, "p") where path.contains("annotation"):
            // Its paragraphs' words stay apart in the description.
            captured["annotation", default: ""] += " "
        default:
            break
        }
    }

    private func endCapture(_ key: String) {
        let value = MarkupText.collapseWhitespace(captured.removeValue(forKey: key) ?? "")
        switch key {
        case "first-name", "middle-name", "last-name", "nickname":
            if !value.isEmpty { author[key] = value }
        case "author":
            let name = ["first-name", "middle-name", "last-name"].compactMap { author[$0] }.joined(separator: " ")
            if let name = name.isEmpty ? author["nickname"] : name, !name.isEmpty { authors.append(name) }
        case _ where value.isEmpty:
            break
        case "book-title": title = value
        case "lang": language = value
        case "annotation": bookDescription = value
        case "publisher": publisher = value
        case "year": year = value
        case "isbn": isbn = value
        default: break
        }
    }

    // MARK: - Output

    private func begin(_ element: String, _ attributes: [String: String], _ open: inout Open) {
        collector.startElement(element, attributes: attributes)
        open.emitted = element
    }

    private func beginSkip(_ open: inout Open) {
        open.skips = true
        skipDepth += 1
    }
}
