import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Streams an XHTML document through `XMLParser` into a `BlockCollector`, in one pass.
enum XHTMLReader {
    /// Feeds `data` to `collector`; false when the document is not well-formed XML (the caller
    /// then undoes the partial read and falls back to the lenient `HTMLScanner`).
    static func read(_ data: Data, into collector: BlockCollector) -> Bool {
        // What libxml2 must not see goes to the lenient scanner instead.
        guard XMLPreflight.problem(in: data) == nil else { return false }
        let forwarder = Forwarder(collector: collector)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = forwarder
        let finished = parser.parse()
        return finished && !forwarder.failed
    }

    private final class Forwarder: NSObject, XMLParserDelegate {
        let collector: BlockCollector
        var failed = false

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            failed = true
            parser.abortParsing()
        }

        init(collector: BlockCollector) {
            self.collector = collector
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            collector.startElement(elementName, attributes: attributeDict)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            collector.endElement(elementName)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            collector.characters(string)
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            collector.characters(String(decoding: CDATABlock, as: UTF8.self))
        }
    }
}
