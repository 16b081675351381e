import Foundation
import Logging
import NarrateDomain

/// Makes the read-along EPUB 3 of an export: the book's content documents with a span around every
/// spoken sentence (or word), one SMIL media overlay per document, the items' MP3 audio inside,
/// and a package document with the overlays' durations and the highlight class.
///
/// Everything comes from what the export left in its work folder (each item's MP3 and its timing)
/// and from the book's file, so building it again synthesizes nothing.
struct ReadAlongEPUBBuilder {
    /// The work folder inside the export folder: the items' audio and timing.
    static let workFolderName = ".narrate-readalong"
    /// The class a reading system puts on the element being read, defined in `stylesheetName`.
    static let activeClass = "-epub-media-overlay-active"
    /// Bounds on the documents rewritten: more or larger ones are copied as they are, unread.
    static let maxDocuments = 5_000
    static let maxDocumentBytes = 8 * 1_048_576
    static let stylesheet = "/* Narrate read-along: the sentence (or word) being read. */\n.\(activeClass) { background-color: #ffeb3b; color: #000000; }\n"

    let book: Book
    let items: [ExportItem]
    let files: [ExportedFile]
    let options: BookExportOptions
    let narrator: String
    let logger: Logger
    var now = Date()

    static func timingFileName(stem: String) -> String { "\(stem).timing.json" }

    /// The EPUB's name in the export folder.
    static func fileName(title: String) -> String { FileName.readable(title) + ".epub" }

    static func writeTiming(_ timing: ReadAlongTiming, to path: String) throws(ExportError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(timing) else { return }
        try ExportError.writing(path) { () throws(SystemCallError) in try AtomicFile.writeWhole(Array(data), to: path) }
    }

    /// Writes the EPUB into the export folder (whole or not at all).
    func build() throws(ExportError) {
        let timings = try loadTimings()
        var source: ReadAlongSource = if book.format == .epub {
            try ReadAlongSource.epub(at: options.sourcePath ?? "")
        } else {
            ReadAlongSource.generated(book: book, items: items)
        }
        let base = EPUBPath.directory(of: source.packageEntry)
        let layout = ReadAlongEPUBLayout(base: base, files: files)

        // The content documents, in reading order, each read once; the spoken text found in them.
        let itemsByID = Dictionary(source.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let spineDocuments = source.spine.compactMap { itemsByID[$0.idref] }.filter { $0.mediaType == Self.xhtml }
        var documents: [XHTMLDocument?] = []
        for (index, item) in spineDocuments.enumerated() {
            documents.append(index < Self.maxDocuments ? try Self.readDocument(item.entry, from: source) : nil)
        }
        let plan = ReadAlongPlanner.plan(documents: documents, timings: timings, granularity: options.granularity)
        if plan.unplaced > 0 {
            logger.info("read-along: \(plan.unplaced) spoken pieces were not found in the book's text; their audio plays without a highlight")
        }

        // EPUB 2 documents become EPUB 3 ones, named .xhtml as EPUB 3 wants.
        let renames = source.isEPUB2 ? XHTMLRenaming.xhtmlNames(source.items) : [:]
        var rewritten: [String: Data] = [:]
        var overlays: [ReadAlongEPUBLayout.Overlay] = []
        for (index, item) in spineDocuments.enumerated() {
            guard let document = documents[index] else { continue }
            let documentPlan = plan.documents[index]
            guard documentPlan != nil || source.isEPUB2 else { continue }
            var marker = ReadAlongMarker(document: document)
            if let documentPlan {
                marker.wrap(documentPlan.pieces)
                marker.linkStylesheet(EPUBPath.relativeHref(from: EPUBPath.directory(of: item.entry), to: layout.stylesheet))
            }
            if source.isEPUB2 { marker.upgradeToEPUB3(link: XHTMLRenaming.renamedLink(from: item.entry, renames: renames)) }
            rewritten[item.entry] = Data(marker.rewritten())
            if let documentPlan, !documentPlan.clips.isEmpty {
                overlays.append(layout.overlay(number: index + 1, item: item.id, document: renames[item.entry] ?? item.entry, clips: documentPlan.clips))
            }
        }
        if source.isEPUB2 {
            // Documents outside the reading order (a cover page) are upgraded too.
            for (index, item) in source.items.enumerated() where item.mediaType == Self.xhtml && rewritten[item.entry] == nil && index < Self.maxDocuments {
                guard let document = try Self.readDocument(item.entry, from: source) else { continue }
                var marker = ReadAlongMarker(document: document)
                marker.upgradeToEPUB3(link: XHTMLRenaming.renamedLink(from: item.entry, renames: renames))
                rewritten[item.entry] = Data(marker.rewritten())
            }
        }
        let read = source.read
        let changed = rewritten
        source.read = { entry throws(ExportError) in
            if let data = changed[entry] { return data }
            return try read(entry)
        }
        for index in source.items.indices {
            guard let renamed = renames[source.items[index].entry] else { continue }
            source.items[index].renamed(to: renamed, base: base)
        }
        source.contents = source.contents.map { entry in
            let (path, fragment) = EPUBPath.split(entry.target)
            return (entry.title, (renames[path] ?? path) + (fragment.map { "#" + $0 } ?? ""), entry.depth)
        }
        try write(source: source, layout: layout, overlays: overlays, originals: renames)
    }

    /// Each item's timing, in the work folder.
    private func loadTimings() throws(ExportError) -> [ReadAlongTiming] {
        try files.map { file throws(ExportError) in
            let path = options.audioDirectory + "/" + (file.subtitleFileName ?? "")
            guard let data = FileManager.default.contents(atPath: path), let timing = try? JSONDecoder().decode(ReadAlongTiming.self, from: data) else {
                throw .encoderFailed(format: "EPUB", reason: "the timing \(path) is missing or damaged; delete \(options.audioDirectory) and export again")
            }
            return timing
        }
    }

    /// The document at `entry`, when it is well-formed and not too large to rewrite.
    private static func readDocument(_ entry: String, from source: ReadAlongSource) throws(ExportError) -> XHTMLDocument? {
        guard let data = try source.read(entry), data.count <= maxDocumentBytes, case .success = XMLTree.parse(data) else { return nil }
        return XHTMLDocument(bytes: Array(data))
    }

    /// Writes the container, the package document, the navigation document, the stylesheet, the
    /// book's files, the overlays and the audio.
    private func write(source: ReadAlongSource, layout: ReadAlongEPUBLayout, overlays: [ReadAlongEPUBLayout.Overlay], originals renames: [String: String]) throws(ExportError) {
        let usedAudio = Set(overlays.flatMap { $0.document.clips.map(\.audio) })
        var manifest: [ReadAlongPackageDocument.Item] = []
        let overlayOf = Dictionary(overlays.map { ($0.item, $0.id) }, uniquingKeysWith: { first, _ in first })
        for item in source.items {
            var properties = item.properties
            if source.isEPUB2, item.mediaType == Self.xhtml, let data = try source.read(item.originalEntry) {
                properties = Self.contentProperties(data)
            }
            if item.id == source.coverImage, !properties.contains("cover-image") { properties.append("cover-image") }
            manifest.append(.init(id: item.id, href: item.href, mediaType: item.mediaType, properties: properties, mediaOverlay: overlayOf[item.id], fallback: item.fallback))
        }
        for overlay in overlays {
            manifest.append(.init(id: overlay.id, href: EPUBPath.relativeHref(from: layout.base, to: overlay.entry), mediaType: "application/smil+xml"))
        }
        for (index, entry) in layout.audio.enumerated() where usedAudio.contains(EPUBPath.relativeHref(from: layout.smilFolder, to: entry)) {
            manifest.append(.init(id: "narrate-audio-\(files[index].number)", href: EPUBPath.relativeHref(from: layout.base, to: entry), mediaType: "audio/mpeg"))
        }
        manifest.append(.init(id: "narrate-css", href: EPUBPath.relativeHref(from: layout.base, to: layout.stylesheet), mediaType: "text/css"))
        var navigation: Data?
        if !source.hasNavigation {
            let folder = EPUBPath.directory(of: layout.navigation)
            var entries = source.contents.map { NavigationDocument.Entry(title: $0.title, href: EPUBPath.relativeHref(from: folder, to: $0.target), depth: $0.depth) }
            if entries.isEmpty, let first = source.spine.first.flatMap({ spine in source.items.first { $0.id == spine.idref } }) {
                entries = [.init(title: book.metadata.title, href: EPUBPath.relativeHref(from: folder, to: first.entry), depth: 0)]
            }
            let document = NavigationDocument(title: book.metadata.title, language: source.language ?? book.metadata.language ?? "en", entries: entries)
            navigation = Data(document.xml().utf8)
            manifest.append(.init(id: "narrate-nav", href: EPUBPath.relativeHref(from: layout.base, to: layout.navigation), mediaType: Self.xhtml, properties: ["nav"]))
        }
        let package = ReadAlongPackageDocument(
            identifier: source.identifier ?? "urn:narrate:" + FileName.slug(book.metadata.title),
            title: book.metadata.title,
            language: source.language ?? book.metadata.language ?? "en",
            creators: book.metadata.authors,
            publisher: source.publisher,
            date: source.date.flatMap(Self.w3cDate),
            bookDescription: book.metadata.bookDescription,
            modified: Self.timestamp(now),
            narrator: narrator,
            activeClass: Self.activeClass,
            overlayDurations: overlays.map { .init(id: $0.id, milliseconds: $0.document.durationMilliseconds) },
            items: manifest,
            spine: source.spine,
            coverImage: source.coverImage
        )

        let zip = try EPUBZipWriter(destination: options.directory + "/" + Self.fileName(title: book.metadata.title))
        try zip.add("META-INF/container.xml", Data(Self.container(packageEntry: source.packageEntry).utf8))
        for (name, data) in source.metaINF { try zip.add(name, data) }
        try zip.add(source.packageEntry, Data(package.xml().utf8))
        if let navigation { try zip.add(layout.navigation, navigation) }
        try zip.add(layout.stylesheet, Data(Self.stylesheet.utf8))
        for item in source.items {
            guard let data = try source.read(item.originalEntry) else { continue }
            try zip.add(item.entry, data, compressed: !Self.isCompressed(item.mediaType))
        }
        for overlay in overlays { try zip.add(overlay.entry, Data(overlay.document.xml().utf8)) }
        for (index, entry) in layout.audio.enumerated() where usedAudio.contains(EPUBPath.relativeHref(from: layout.smilFolder, to: entry)) {
            try zip.add(entry, file: options.audioDirectory + "/" + files[index].fileName)
        }
        try zip.commit()
    }

    static let xhtml = "application/xhtml+xml"

    /// What an EPUB 3 package says about a content document: whether it holds SVG, MathML or scripts.
    static func contentProperties(_ data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var properties: [String] = []
        if text.contains("<svg") || text.contains(":svg") { properties.append("svg") }
        if text.contains("<math") || text.contains(":math") { properties.append("mathml") }
        if text.contains("<script") { properties.append("scripted") }
        return properties
    }

    private static func isCompressed(_ mediaType: String) -> Bool {
        mediaType.hasPrefix("image/jpeg") || mediaType.hasPrefix("image/png") || mediaType.hasPrefix("image/gif")
            || mediaType.hasPrefix("audio/") || mediaType.hasPrefix("video/") || mediaType.hasPrefix("font/woff")
    }

    /// A publication date in the W3C form EPUB 3 asks for (`2004`, `2004-08`, `2004-08-07`), else nil.
    static func w3cDate(_ date: String) -> String? {
        let trimmed = date.trimmingCharacters(in: .whitespaces)
        let pattern = /^\d{4}(-\d{2}(-\d{2})?)?/
        guard let match = trimmed.prefixMatch(of: pattern) else { return nil }
        return String(match.output.0)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func container(packageEntry: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
        <rootfiles>
        <rootfile full-path="\(XMLText.escaped(packageEntry))" media-type="application/oebps-package+xml"/>
        </rootfiles>
        </container>

        """
    }
}
