import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small element tree for the EPUB's own XML files (container, OPF, NCX, nav).
///
/// Names are local names (prefix dropped); attributes keep their qualified names
/// (`epub:type`, `opf:role`), since a prefix is what tells `epub:type` from `type`.
final class XMLTree {
    let name: String
    let attributes: [String: String]
    private(set) var children: [XMLTree] = []
    /// Text and child elements in document order.
    private var contents: [Content] = []

    private enum Content {
        case text(String)
        case element(XMLTree)
    }

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// All text inside the element and its descendants.
    var text: String {
        var result = ""
        appendText(to: &result)
        return result
    }

    private func appendText(to result: inout String) {
        for content in contents {
            switch content {
            case let .text(text): result += text
            case let .element(child): child.appendText(to: &result)
            }
        }
    }

    func attribute(_ name: String) -> String? { attributes[name] }

    /// The first child named `name`.
    func child(_ name: String) -> XMLTree? { children.first { $0.name == name } }

    /// Children named `name`.
    func children(_ name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The first element (self included, depth first) that satisfies `predicate`.
    func first(where predicate: (XMLTree) -> Bool) -> XMLTree? {
        if predicate(self) { return self }
        for child in children {
            if let found = child.first(where: predicate) { return found }
        }
        return nil
    }

    /// Every element (self included, depth first) that satisfies `predicate`.
    func all(where predicate: (XMLTree) -> Bool) -> [XMLTree] {
        var result: [XMLTree] = []
        collect(where: predicate, into: &result)
        return result
    }

    private func collect(where predicate: (XMLTree) -> Bool, into result: inout [XMLTree]) {
        if predicate(self) { result.append(self) }
        for child in children { child.collect(where: predicate, into: &result) }
    }

    /// The `epub:type` tokens of the element (any prefix bound to the type attribute).
    var epubTypes: [Substring] {
        for (key, value) in attributes where key.hasSuffix(":type") {
            return value.split(whereSeparator: \.isWhitespace)
        }
        return []
    }

    /// How deep elements may nest. Real EPUB files nest a dozen levels; the limit keeps every
    /// walk of the tree (all recursive) far from the stack's end, whatever a file claims.
    static let maxDepth = 256

    /// Parses `data` strictly: nil result means the XML is not well-formed, with the reason.
    static func parse(_ data: Data) -> Result<XMLTree, XMLTreeError> {
        if let problem = XMLPreflight.problem(in: data) { return .failure(XMLTreeError(reason: problem)) }
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        // On Linux `parse()` returns true even when libxml2 had to recover from an error, so the
        // error callback is what tells a broken file.
        let finished = parser.parse()
        if let error = builder.error { return .failure(error) }
        guard finished, let root = builder.root else {
            return .failure(XMLTreeError(reason: "no root element"))
        }
        return .success(root)
    }

    static func localName(_ qualified: String) -> String {
        guard let colon = qualified.lastIndex(of: ":") else { return qualified }
        return String(qualified[qualified.index(after: colon)...])
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLTree?
        var stack: [XMLTree] = []
        var error: XMLTreeError?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil { error = XMLTreeError(parseError, line: parser.lineNumber, column: parser.columnNumber) }
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            guard stack.count < XMLTree.maxDepth else {
                if error == nil { error = XMLTreeError(reason: "elements are nested more than \(XMLTree.maxDepth) deep, line \(parser.lineNumber)") }
                parser.abortParsing()
                return
            }
            let node = XMLTree(name: XMLTree.localName(elementName), attributes: attributeDict)
            if let parent = stack.last {
                parent.children.append(node)
                parent.contents.append(.element(node))
            } else if root == nil {
                root = node
            }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.contents.append(.text(string))
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            stack.last?.contents.append(.text(String(decoding: CDATABlock, as: UTF8.self)))
        }
    }
}

/// Why an XML file could not be parsed.
struct XMLTreeError: Error {
    var reason: String

    init(reason: String) {
        self.reason = reason
    }

    init(_ error: any Error, line: Int, column: Int? = nil) {
        let code = (error as NSError).code
        let what = Self.descriptions[code] ?? "it is not well-formed XML (libxml2 error \(code))"
        reason = "\(what), line \(line)" + (column.map { ", column \($0)" } ?? "")
    }

    /// What libxml2's error codes (`XMLParser.ErrorCode`) mean, in words.
    static let descriptions: [Int: String] = [
        2: "it is too large to parse", 3: "it does not start like an XML document", 4: "the document is empty",
        5: "the document ends too early or has content after its root element",
        6: "a character reference (&#x…;) is not a valid character", 7: "a character reference (&#…;) is not a valid character",
        8: "a character reference is not a valid character", 9: "it has an invalid character",
        14: "an entity reference is cut off at the end", 22: "an entity reference has no name",
        23: "an entity reference is missing its ';'", 24: "an entity reference has no name", 25: "an entity reference is missing its ';'",
        26: "it uses an undeclared entity", 28: "it uses an unparsed entity", 29: "it uses an external entity",
        31: "it declares an unknown encoding", 32: "it declares an unsupported encoding", 34: "a quoted value is not closed",
        38: "an attribute value contains '<'", 39: "an attribute value is not quoted", 40: "an attribute value is not closed",
        41: "an attribute has no value", 42: "an attribute is given twice", 44: "a quoted literal is not closed",
        45: "a comment is not closed", 47: "a processing instruction is not closed", 57: "the XML declaration is not closed",
        61: "the DOCTYPE declaration is not closed", 62: "']]>' appears outside a CDATA section", 63: "a CDATA section is not closed",
        64: "the XML declaration is not at the very start", 65: "a space is missing between attributes",
        68: "a name is expected", 73: "an end tag does not match its start tag", 74: "an end tag is expected",
        75: "'=' is missing after an attribute name", 76: "an end tag does not match its start tag", 77: "a tag is not closed",
        79: "the encoding name is invalid", 80: "a comment contains '--'", 81: "its bytes do not match its declared encoding",
        85: "its elements are not properly nested", 86: "there is content after the root element",
        87: "an entity contains an invalid character", 89: "an entity refers to itself (an entity loop)",
        91: "a URI is invalid", 512: "reading was stopped",
    ]
}
