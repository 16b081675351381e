import Foundation
import NarrateDomain

/// What a read-along EPUB is made from: the book's own EPUB (its documents, images, styles, fonts
/// and reading order), or, for a book of another format, XHTML made from the exported pages.
struct ReadAlongSource {
    struct Item {
        var id: String
        /// The archive entry name.
        var entry: String
        /// As the package document writes it (relative to the package document).
        var href: String
        var mediaType: String
        var properties: [String]
        var fallback: String?
        /// The entry it is read from, when it is written under another name.
        var originalEntry: String

        init(id: String, entry: String, href: String, mediaType: String, properties: [String], fallback: String? = nil) {
            self.id = id
            self.entry = entry
            self.href = href
            self.mediaType = mediaType
            self.properties = properties
            self.fallback = fallback
            originalEntry = entry
        }

        /// Written as `entry` (in the same EPUB), read from where it was.
        mutating func renamed(to entry: String, base: String) {
            self.entry = entry
            href = EPUBPath.relativeHref(from: base, to: entry)
        }
    }

    /// Where the package document goes (the source's own place, so every relative link holds).
    var packageEntry: String
    var items: [Item]
    var spine: [ReadAlongPackageDocument.SpineItem]
    /// The book's table of contents (archive entries, with fragments), for a book without a nav document.
    var contents: [(title: String, target: String, depth: Int)]
    /// Whether the book has an EPUB 3 navigation document of its own.
    var hasNavigation: Bool
    /// Whether its documents are XHTML 1.1 (EPUB 2), to be made EPUB 3 ones.
    var isEPUB2: Bool
    var identifier: String?
    var language: String?
    var publisher: String?
    var date: String?
    var coverImage: String?
    /// Files of `META-INF` to keep besides the container (font obfuscation, reader options).
    var metaINF: [(name: String, data: Data)]
    /// The bytes of an entry.
    var read: (String) throws(ExportError) -> Data?

    static let generatedPackageEntry = "EPUB/package.opf"
    static let keptMetaINF = ["META-INF/encryption.xml", "META-INF/com.apple.ibooks.display-options.xml"]

    /// The book's EPUB at `path`.
    /// - Throws: `ExportError.readAlongSourceUnreadable` when the file is gone, `.book` when it is
    ///   not the EPUB it was (damaged, too large).
    static func epub(at path: String) throws(ExportError) -> ReadAlongSource {
        guard let data = FileManager.default.contents(atPath: path) else { throw .readAlongSourceUnreadable(path: path) }
        let archive: EPUBArchive
        do { archive = try EPUBArchive(data: data, path: path, limits: ArchiveLimits()) } catch { throw .book(error) }
        func read(_ entry: String) throws(ExportError) -> Data? {
            do { return try archive.read(entry) } catch { throw .book(error) }
        }
        guard let container = try read("META-INF/container.xml"), case let .success(root) = XMLTree.parse(container),
              let fullPath = root.first(where: { $0.name == "rootfile" })?.attribute("full-path"),
              let packageEntry = EPUBPath.resolve(fullPath, from: ""), let packageData = try read(packageEntry)
        else { throw .book(.missingContainer(path: path)) }
        let package: EPUBPackage
        do { package = try EPUBPackage(data: Array(packageData), entry: packageEntry, bookPath: path) } catch { throw .book(error) }

        var items: [Item] = []
        for item in package.manifestOrder {
            guard let entry = item.entry, archive.contains(entry), entry != packageEntry,
                  item.mediaType != "application/x-dtbncx+xml", item.mediaType != "application/smil+xml" else { continue }
            items.append(Item(
                id: item.id, entry: entry, href: item.href, mediaType: item.mediaType,
                properties: item.properties.map(String.init).filter { $0 != "media-overlay" }, fallback: item.fallback
            ))
        }
        let kept = Set(items.map(\.id))
        var seen: Set<String> = []
        let spine = package.spine.filter { kept.contains($0.idref) && seen.insert($0.idref).inserted }
            .map { ReadAlongPackageDocument.SpineItem(idref: $0.idref, linear: $0.linear) }
        let hasNavigation = items.contains { $0.properties.contains("nav") }
        var contents: [(String, String, Int)] = []
        if !hasNavigation {
            let ncx = package.spineTOC.flatMap { package.manifest[$0] } ?? package.manifestOrder.first { $0.mediaType == "application/x-dtbncx+xml" }
            if let entry = ncx?.entry, let data = try read(entry), case let .success(tree) = XMLTree.parse(data) {
                let spineEntries = Set(package.spine.map(\.entry))
                contents = EPUBNavigation.fromNCX(tree, entry: entry).toc
                    .filter { spineEntries.contains(EPUBPath.split($0.target).path) }
                    .map { ($0.title, $0.target, $0.depth) }
            }
        }
        var metaINF: [(String, Data)] = []
        for name in keptMetaINF {
            if let data = try read(name) { metaINF.append((name, data)) }
        }
        let coverImage = package.coverMetaID.flatMap { package.manifest[$0] }.flatMap { $0.mediaType.hasPrefix("image/") && kept.contains($0.id) ? $0.id : nil }
        return ReadAlongSource(
            packageEntry: packageEntry, items: items, spine: spine, contents: contents, hasNavigation: hasNavigation,
            isEPUB2: !(package.version ?? "2").hasPrefix("3"), identifier: package.identifier, language: package.language,
            publisher: package.publisher, date: package.date, coverImage: coverImage, metaINF: metaINF, read: read
        )
    }

    /// XHTML made from the exported pages: one document per export item.
    static func generated(book: Book, items: [ExportItem]) -> ReadAlongSource {
        let language = book.metadata.language ?? "en"
        var documents: [String: Data] = [:]
        var sourceItems: [Item] = []
        var spine: [ReadAlongPackageDocument.SpineItem] = []
        var contents: [(String, String, Int)] = []
        for item in items {
            let number = String(repeating: "0", count: max(0, 3 - String(item.number).count)) + String(item.number)
            let href = "text/\(number).xhtml"
            let entry = EPUBPath.directory(of: generatedPackageEntry) + "/" + href
            let document = GeneratedContentDocument(title: item.title, language: language, pages: item.pages)
            documents[entry] = Data(document.xml().utf8)
            sourceItems.append(Item(id: "text-\(number)", entry: entry, href: href, mediaType: "application/xhtml+xml", properties: []))
            spine.append(.init(idref: "text-\(number)"))
            contents.append((item.title, entry, 0))
        }
        return ReadAlongSource(
            packageEntry: generatedPackageEntry, items: sourceItems, spine: spine, contents: contents, hasNavigation: false, isEPUB2: false,
            identifier: book.metadata.identifier, language: language, publisher: book.metadata.publisher, date: book.metadata.date,
            coverImage: nil, metaINF: [], read: { entry in documents[entry] }
        )
    }
}
