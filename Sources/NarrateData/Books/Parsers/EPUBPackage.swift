import struct Foundation.Data
import NarrateDomain

/// What the package document (OPF) says: metadata, manifest, reading order, guide.
struct EPUBPackage {
    struct Item {
        var id: String
        /// Archive entry name, or nil when the href leaves the archive or is external.
        var entry: String?
        var href: String
        var mediaType: String
        var properties: [Substring]
        var fallback: String?
    }

    struct SpineItem {
        var idref: String
        var entry: String
        var linear: Bool
    }

    /// The package's `version` attribute: "2.0" for EPUB 2, "3.0" for EPUB 3.
    var version: String?
    var title: String?
    var authors: [String] = []
    var language: String?
    var identifier: String?
    var publisher: String?
    var date: String?
    var bookDescription: String?
    var manifest: [String: Item] = [:]
    /// Manifest items in document order.
    var manifestOrder: [Item] = []
    var spine: [SpineItem] = []
    /// The spine's `toc` attribute: the manifest id of the NCX.
    var spineTOC: String?
    /// EPUB 2 `<meta name="cover" content="ID">`.
    var coverMetaID: String?
    /// `<guide>` reference with `type="cover"`, as an archive entry name.
    var guideCover: String?

    /// Reads the OPF at `entry`.
    /// - Throws: `.malformedXML`, `.missingSpine`, `.spineItemNotInManifest`, `.unsafeEntryPath`.
    init(data: [UInt8], entry: String, bookPath: String) throws(BookError) {
        let root: XMLTree
        switch XMLTree.parse(Data(data)) {
        case let .success(tree): root = tree
        case let .failure(error): throw .malformedXML(path: bookPath, entry: entry, reason: error.reason)
        }
        guard root.name == "package" else {
            throw .malformedXML(path: bookPath, entry: entry, reason: "the root element is <\(root.name)>, not <package>")
        }
        let base = EPUBPath.directory(of: entry)
        version = root.attribute("version")
        if let metadata = root.child("metadata") {
            readMetadata(metadata)
        }
        for element in root.child("manifest")?.children("item") ?? [] {
            guard let id = element.attribute("id"), let href = element.attribute("href") else { continue }
            let item = Item(
                id: id, entry: EPUBPath.resolve(href, from: base), href: href,
                mediaType: (element.attribute("media-type") ?? "").lowercased(),
                properties: (element.attribute("properties") ?? "").split(whereSeparator: \.isWhitespace),
                fallback: element.attribute("fallback")
            )
            if manifest[id] == nil {
                manifest[id] = item
                manifestOrder.append(item)
            }
        }
        guard let spineElement = root.child("spine") else { throw .missingSpine(path: bookPath) }
        spineTOC = spineElement.attribute("toc")
        for itemref in spineElement.children("itemref") {
            guard let idref = itemref.attribute("idref") else { continue }
            guard let item = manifest[idref] else { throw .spineItemNotInManifest(path: bookPath, idref: idref) }
            guard let itemEntry = item.entry else { throw .unsafeEntryPath(path: bookPath, entry: item.href) }
            spine.append(SpineItem(idref: idref, entry: itemEntry, linear: itemref.attribute("linear") != "no"))
        }
        if let reference = root.child("guide")?.children("reference").first(where: { $0.attribute("type")?.lowercased() == "cover" }),
           let href = reference.attribute("href") {
            guideCover = EPUBPath.resolve(href, from: base)
        }
    }

    private mutating func readMetadata(_ metadata: XMLTree) {
        // Some EPUB 2 files wrap the Dublin Core elements in <dc-metadata>.
        var elements = metadata.children
        if let legacy = metadata.child("dc-metadata") { elements += legacy.children }
        if let legacy = metadata.child("x-metadata") { elements += legacy.children }
        func value(_ element: XMLTree) -> String? {
            let text = MarkupText.collapseWhitespace(element.text)
            return text.isEmpty ? nil : text
        }
        for element in elements {
            switch element.name {
            case "title": if title == nil { title = value(element) }
            case "creator": if let name = value(element) { authors.append(name) }
            case "language": if language == nil { language = value(element)?.lowercased() }
            case "identifier": if identifier == nil { identifier = value(element) }
            case "publisher": if publisher == nil { publisher = value(element) }
            case "date": if date == nil { date = value(element) }
            case "description":
                if bookDescription == nil, let text = value(element) { bookDescription = Self.stripTags(text) }
            case "meta":
                if element.attribute("name") == "cover", let content = element.attribute("content") {
                    coverMetaID = content
                }
            default: continue
            }
        }
    }

    /// The text of an HTML fragment (descriptions often hold escaped markup).
    static func stripTags(_ html: String) -> String? {
        let collector = BlockCollector()
        collector.beginDocument("")
        HTMLScanner.scan(html, into: collector)
        collector.endDocument()
        let text = collector.finish().blocks.joined(separator: "\n\n")
        return text.isEmpty ? nil : text
    }
}
