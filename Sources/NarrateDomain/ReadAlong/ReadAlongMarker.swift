/// Rewrites one content document for read-along: each spoken piece of text found in it gets a
/// `<span id="…">` (what a media overlay points to and a reader highlights), a stylesheet link goes
/// into the head, and an EPUB 2 (XHTML 1.1) document gets what EPUB 3 asks for.
///
/// Only markup is inserted (and, for EPUB 2, a DOCTYPE and a few attributes replaced): the text and
/// the other markup stay byte for byte, so the document stays well-formed. A piece inside one text
/// node is wrapped where it is. A piece that crosses inline elements (`He said <em>no</em>.`) is
/// wrapped whole when its ends can be moved out to one common parent through inline elements only
/// (then the span holds those elements); otherwise each of its text fragments is wrapped on its own
/// and only the first gets the id (the highlight then covers that fragment). Text no piece covers
/// (what was not spoken) is left as it was.
public struct ReadAlongMarker {
    /// Elements a span may be moved out of: inline (phrasing) elements.
    static let inlineElements: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
        "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
    ]
    /// Elements a span may hold besides text: phrasing content.
    static let phrasingElements: Set<String> = inlineElements.union(["br", "img", "wbr", "ruby", "rb", "rt", "rp", "label"])

    /// One piece of text found in the document, and the id its span gets.
    public struct Piece: Sendable, Hashable {
        public var scalars: ClosedRange<Int>
        public var id: String

        public init(scalars: ClosedRange<Int>, id: String) {
            self.scalars = scalars
            self.id = id
        }
    }

    private struct Edit {
        var range: Range<Int>
        var text: String
    }

    private let document: XHTMLDocument
    private var edits: [Edit] = []

    public init(document: XHTMLDocument) {
        self.document = document
    }

    /// An id for piece `number` that the document does not already use: `prefix` and the number.
    public static func id(prefix: String, number: Int, avoiding ids: Set<String>) -> String {
        var candidate = "\(prefix)\(number)"
        var suffix = 1
        while ids.contains(candidate) {
            candidate = "\(prefix)\(number)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// Wraps each piece (in document order, not overlapping) in a span with its id.
    public mutating func wrap(_ pieces: [Piece]) {
        for piece in pieces {
            wrap(piece)
        }
    }

    /// Links `href` as a stylesheet at the end of the head.
    public mutating func linkStylesheet(_ href: String) {
        guard let head = document.tokens.indices.first(where: { document.elementName($0) == "head" && isEnd($0) }) else { return }
        let at = document.tokens[head].range.lowerBound
        edits.append(Edit(range: at..<at, text: "<link rel=\"stylesheet\" type=\"text/css\" href=\"\(XMLText.escaped(href))\"/>"))
    }

    /// Makes an XHTML 1.1 document (EPUB 2) an EPUB 3 one: an HTML5 DOCTYPE, no attributes that
    /// HTML5 does not have (`xml:space`, a `width` or `height` that is not a number of pixels), and
    /// links changed by `link` (documents renamed to `.xhtml`; nil leaves a link as it is).
    public mutating func upgradeToEPUB3(link: (String) -> String? = { _ in nil }) {
        for token in document.tokens {
            switch token.kind {
            case .other:
                let head = document.bytes[token.range].prefix(9)
                if String(decoding: head, as: UTF8.self).uppercased() == "<!DOCTYPE" {
                    edits.append(Edit(range: token.range, text: "<!DOCTYPE html>"))
                }
            case .startTag:
                for attribute in XHTMLDocument.attributes(inTag: document.bytes[token.range]) {
                    if Self.isDropped(attribute.name, value: attribute.value) {
                        // The attribute and the whitespace before it.
                        var lower = attribute.range.lowerBound
                        while lower > token.range.lowerBound, XHTMLDocument.isASCIISpace(document.bytes[lower - 1]) { lower -= 1 }
                        edits.append(Edit(range: lower..<attribute.range.upperBound, text: ""))
                    } else if attribute.name == "href" || attribute.name == "src" || attribute.name.hasSuffix(":href"),
                              let changed = link(attribute.value) {
                        edits.append(Edit(range: attribute.valueRange, text: XMLText.escaped(changed)))
                    }
                }
            case .text, .endTag:
                continue
            }
        }
    }

    /// Attributes of XHTML 1.1 that an EPUB 3 content document may not have.
    static func isDropped(_ name: String, value: String) -> Bool {
        switch name {
        case "xml:space": true
        case "width", "height": value.isEmpty || !value.allSatisfy { ("0"..."9").contains($0) }
        default: false
        }
    }

    /// The document with every edit made.
    public func rewritten() -> [UInt8] {
        let ordered = edits.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }
        var output: [UInt8] = []
        output.reserveCapacity(document.bytes.count + edits.count * 24)
        var position = 0
        for (_, edit) in ordered where edit.range.lowerBound >= position {
            output.append(contentsOf: document.bytes[position..<edit.range.lowerBound])
            output.append(contentsOf: edit.text.utf8)
            position = edit.range.upperBound
        }
        output.append(contentsOf: document.bytes[position...])
        return output
    }

    // MARK: - Wrapping

    private func isEnd(_ token: Int) -> Bool {
        if case .endTag = document.tokens[token].kind { return true }
        return false
    }

    /// Whether every token strictly between `first` and `last` is whitespace or a comment.
    private func onlySpaceBetween(_ first: Int, _ last: Int) -> Bool {
        guard last > first + 1 else { return true }
        for token in (first + 1)..<last {
            switch document.tokens[token].kind {
            case .text where !document.hasVisibleText(token, in: document.tokens[token].range): continue
            case .other: continue
            default: return false
            }
        }
        return true
    }

    private mutating func wrap(_ piece: Piece) {
        let tokens = document.tokens
        let firstToken = document.scalarTokens[piece.scalars.lowerBound]
        let lastToken = document.scalarTokens[piece.scalars.upperBound]
        let startByte = document.scalarBytes[piece.scalars.lowerBound].lowerBound
        let endByte = document.scalarBytes[piece.scalars.upperBound].upperBound

        // Move the start out of inline elements it opens, and the end out of those it closes.
        var start = (offset: startByte, token: firstToken, parent: tokens[firstToken].parent)
        if !document.hasVisibleText(firstToken, in: tokens[firstToken].range.lowerBound..<startByte) {
            while let parent = start.parent, let name = document.elementName(parent), Self.inlineElements.contains(name),
                  onlySpaceBetween(parent, start.token) {
                start = (tokens[parent].range.lowerBound, parent, tokens[parent].parent)
            }
        }
        var end = (offset: endByte, token: lastToken, parent: tokens[lastToken].parent)
        if !document.hasVisibleText(lastToken, in: endByte..<tokens[lastToken].range.upperBound) {
            while let parent = end.parent, let name = document.elementName(parent), Self.inlineElements.contains(name),
                  let close = document.endTags[parent], onlySpaceBetween(end.token, close) {
                end = (tokens[close].range.upperBound, close, tokens[parent].parent)
            }
        }
        if start.parent == end.parent, holdsOnlyPhrasing(from: start.token, to: end.token, parent: start.parent) {
            edits.append(Edit(range: start.offset..<start.offset, text: "<span id=\"\(piece.id)\">"))
            edits.append(Edit(range: end.offset..<end.offset, text: "</span>"))
            return
        }
        // Each text fragment on its own; the first carries the id.
        var isFirst = true
        for token in firstToken...lastToken where !document.isHidden(token) {
            let range = tokens[token].range
            let lower = token == firstToken ? startByte : range.lowerBound
            let upper = token == lastToken ? endByte : range.upperBound
            guard document.hasVisibleText(token, in: lower..<upper) else { continue }
            edits.append(Edit(range: lower..<lower, text: isFirst ? "<span id=\"\(piece.id)\">" : "<span>"))
            edits.append(Edit(range: upper..<upper, text: "</span>"))
            isFirst = false
        }
    }

    /// Whether the elements that are children of `parent` between two tokens are all phrasing content.
    private func holdsOnlyPhrasing(from first: Int, to last: Int, parent: Int?) -> Bool {
        guard last > first else { return true }
        for token in first...last where document.tokens[token].parent == parent {
            if case let .startTag(name, _) = document.tokens[token].kind, !Self.phrasingElements.contains(name) {
                return false
            }
        }
        return true
    }
}

extension XHTMLDocument {
    /// Whether a text token is inside an element whose text is not shown (or holds no markup).
    func isHidden(_ token: Int) -> Bool {
        var parent = tokens[token].parent
        while let index = parent {
            if let name = elementName(index), Self.hiddenElements.contains(name) { return true }
            parent = tokens[index].parent
        }
        return false
    }
}
