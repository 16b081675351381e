import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element or attribute name with its prefix resolved: the namespace URI ("" for none) and
/// the local name.
struct XMLName: Hashable {
    var namespace: String
    var local: String
}

/// What a reader of a document's XML is told, in document order.
protocol XMLStreamHandler: AnyObject {
    func start(_ name: XMLName, attributes: [XMLName: String])
    func end(_ name: XMLName)
    func text(_ text: String)
}

/// Streams XML through `XMLParser` (libxml2) to a handler, with each name's prefix resolved to
/// its namespace, so a reader matches `w:t` of WordprocessingML and not `m:t` of its math, under
/// whatever prefixes a writer chose. What `XMLPreflight` refuses never reaches libxml2, and
/// elements nest at most `maxDepth` deep.
enum XMLStream {
    static let maxDepth = 256

    /// Feeds `data` to `handler`.
    /// - Returns: why the XML could not be read to its end, or nil when it was.
    static func parse(_ data: Data, into handler: some XMLStreamHandler) -> XMLTreeError? {
        if let problem = XMLPreflight.problem(in: data) { return XMLTreeError(reason: problem) }
        let forwarder = Forwarder(handler: handler)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = forwarder
        let finished = parser.parse()
        if let error = forwarder.error { return error }
        return finished ? nil : XMLTreeError(reason: "no root element")
    }

    private final class Forwarder: NSObject, XMLParserDelegate {
        let handler: any XMLStreamHandler
        var error: XMLTreeError?
        /// Per open element: the names it started (to end them alike) and whether it bound prefixes.
        private var open: [(name: XMLName, bound: Bool)] = []
        /// Prefix bindings in scope, innermost last ("" is the default namespace).
        private var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]

        init(handler: any XMLStreamHandler) {
            self.handler = handler
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil { error = XMLTreeError(parseError, line: parser.lineNumber, column: parser.columnNumber) }
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            guard error == nil else { return }
            guard open.count < XMLStream.maxDepth else {
                error = XMLTreeError(reason: "elements are nested more than \(XMLStream.maxDepth) deep, line \(parser.lineNumber)")
                parser.abortParsing()
                return
            }
            var bindings: [String: String] = [:]
            for (key, value) in attributeDict {
                if key == "xmlns" {
                    bindings[""] = value
                } else if key.hasPrefix("xmlns:") {
                    bindings[String(key.dropFirst(6))] = value
                }
            }
            if !bindings.isEmpty { scopes.append(bindings) }
            var attributes: [XMLName: String] = [:]
            for (key, value) in attributeDict where key != "xmlns" && !key.hasPrefix("xmlns:") {
                // An attribute without a prefix is in no namespace, whatever the default is.
                attributes[key.contains(":") ? resolve(key, defaultNamespace: false) : XMLName(namespace: "", local: key)] = value
            }
            let name = resolve(elementName, defaultNamespace: true)
            open.append((name, !bindings.isEmpty))
            handler.start(name, attributes: attributes)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard error == nil, let last = open.popLast() else { return }
            handler.end(last.name)
            if last.bound { scopes.removeLast() }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard error == nil else { return }
            handler.text(string)
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard error == nil else { return }
            handler.text(String(decoding: CDATABlock, as: UTF8.self))
        }

        /// `prefix:local` with the prefix's namespace; an unbound prefix keeps its own text as
        /// the namespace, so it matches nothing a reader looks for.
        private func resolve(_ qualified: String, defaultNamespace: Bool) -> XMLName {
            guard let colon = qualified.firstIndex(of: ":") else {
                return XMLName(namespace: defaultNamespace ? lookup("") ?? "" : "", local: qualified)
            }
            let prefix = String(qualified[..<colon])
            let local = String(qualified[qualified.index(after: colon)...])
            return XMLName(namespace: lookup(prefix) ?? "unbound:" + prefix, local: local)
        }

        private func lookup(_ prefix: String) -> String? {
            for scope in scopes.reversed() {
                if let uri = scope[prefix] { return uri }
            }
            return nil
        }
    }
}
