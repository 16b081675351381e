/// The package document (OPF) of a read-along EPUB 3: metadata with the media overlays'
/// durations and highlight class, the manifest and the spine.
public struct ReadAlongPackageDocument: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        public var id: String
        /// Relative to the package document.
        public var href: String
        public var mediaType: String
        public var properties: [String]
        /// The id of this content document's media overlay, if it has one.
        public var mediaOverlay: String?
        public var fallback: String?

        public init(id: String, href: String, mediaType: String, properties: [String] = [], mediaOverlay: String? = nil, fallback: String? = nil) {
            self.id = id
            self.href = href
            self.mediaType = mediaType
            self.properties = properties
            self.mediaOverlay = mediaOverlay
            self.fallback = fallback
        }
    }

    public struct SpineItem: Sendable, Hashable {
        public var idref: String
        public var linear: Bool

        public init(idref: String, linear: Bool = true) {
            self.idref = idref
            self.linear = linear
        }
    }

    /// A media overlay's id and the total length of its clips.
    public struct OverlayDuration: Sendable, Hashable {
        public var id: String
        public var milliseconds: Int

        public init(id: String, milliseconds: Int) {
            self.id = id
            self.milliseconds = milliseconds
        }
    }

    public var identifier: String
    public var title: String
    public var language: String
    public var creators: [String]
    public var publisher: String?
    public var date: String?
    public var bookDescription: String?
    /// `CCYY-MM-DDThh:mm:ssZ`.
    public var modified: String
    public var narrator: String?
    /// The class a reading system puts on the element being read.
    public var activeClass: String
    /// Each media overlay's duration (the book's is their sum).
    public var overlayDurations: [OverlayDuration]
    public var items: [Item]
    public var spine: [SpineItem]
    /// The id of the cover image item, also named by an EPUB 2 `meta name="cover"` for older readers.
    public var coverImage: String?

    public init(
        identifier: String, title: String, language: String, creators: [String], publisher: String? = nil, date: String? = nil,
        bookDescription: String? = nil, modified: String, narrator: String? = nil, activeClass: String,
        overlayDurations: [OverlayDuration], items: [Item], spine: [SpineItem], coverImage: String? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.language = language
        self.creators = creators
        self.publisher = publisher
        self.date = date
        self.bookDescription = bookDescription
        self.modified = modified
        self.narrator = narrator
        self.activeClass = activeClass
        self.overlayDurations = overlayDurations
        self.items = items
        self.spine = spine
        self.coverImage = coverImage
    }

    /// The total duration: the exact sum of the overlays' (EPUBCheck 5 warns when they differ).
    public var totalMilliseconds: Int {
        overlayDurations.reduce(0) { $0 + $1.milliseconds }
    }

    public func xml() -> String {
        func element(_ name: String, _ value: String?) -> String? {
            value.map { "<\(name)>\(XMLText.escaped($0))</\(name)>" }
        }
        var metadata = [
            "<dc:identifier id=\"pub-id\">\(XMLText.escaped(identifier))</dc:identifier>",
            "<dc:title>\(XMLText.escaped(title))</dc:title>",
            "<dc:language>\(XMLText.escaped(language))</dc:language>",
        ]
        metadata += creators.map { "<dc:creator>\(XMLText.escaped($0))</dc:creator>" }
        metadata += [element("dc:publisher", publisher), element("dc:date", date), element("dc:description", bookDescription)].compactMap { $0 }
        metadata.append("<meta property=\"dcterms:modified\">\(modified)</meta>")
        for overlay in overlayDurations {
            metadata.append("<meta property=\"media:duration\" refines=\"#\(XMLText.escaped(overlay.id))\">\(SMILClock.clockValue(overlay.milliseconds))</meta>")
        }
        metadata.append("<meta property=\"media:duration\">\(SMILClock.clockValue(totalMilliseconds))</meta>")
        if let narrator { metadata.append("<meta property=\"media:narrator\">\(XMLText.escaped(narrator))</meta>") }
        metadata.append("<meta property=\"media:active-class\">\(XMLText.escaped(activeClass))</meta>")
        if let coverImage { metadata.append("<meta name=\"cover\" content=\"\(XMLText.escaped(coverImage))\"/>") }

        let manifest = items.map { item in
            var attributes = "id=\"\(XMLText.escaped(item.id))\" href=\"\(XMLText.escaped(item.href))\" media-type=\"\(XMLText.escaped(item.mediaType))\""
            if !item.properties.isEmpty { attributes += " properties=\"\(XMLText.escaped(item.properties.joined(separator: " ")))\"" }
            if let overlay = item.mediaOverlay { attributes += " media-overlay=\"\(XMLText.escaped(overlay))\"" }
            if let fallback = item.fallback { attributes += " fallback=\"\(XMLText.escaped(fallback))\"" }
            return "<item \(attributes)/>"
        }
        let spine = spine.map { "<itemref idref=\"\(XMLText.escaped($0.idref))\"\($0.linear ? "" : " linear=\"no\"")/>" }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" xml:lang="\(XMLText.escaped(language))">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            \(metadata.joined(separator: "\n"))
            </metadata>
            <manifest>
            \(manifest.joined(separator: "\n"))
            </manifest>
            <spine>
            \(spine.joined(separator: "\n"))
            </spine>
            </package>

            """
    }
}
