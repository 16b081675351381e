import struct Foundation.Data
import NarrateDomain

/// Reads EPUB 2 and EPUB 3 books, entirely in memory.
///
/// The reading order is the spine; chapters come from the nav document's TOC, else the NCX,
/// else one per spine document. Pages are the print pages when the book has a page list or
/// page-break markers, else pages of about `ParseOptions.wordsPerPage` words.
///
/// Spine items marked `linear="no"` are read like the others: a pure cover wrapper has no text and
/// so adds nothing, while a non-linear document with text (notes aside) is kept. A TOC entry for a
/// document without text (cover, image-only title page) is dropped, since it has nothing to read.
/// Content documents that are not well-formed XML are read leniently (`HTMLScanner`) rather than
/// lost; the container, package document and navigation files must be well-formed.
public struct EPUBParser: DocumentParserContract {
    public let format = DocumentFormat.epub
    /// Bounds on what the archive may unpack to.
    public var limits: ArchiveLimits

    public init(limits: ArchiveLimits = ArchiveLimits()) {
        self.limits = limits
    }

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        let archive = try EPUBArchive(data: data, path: path, limits: limits)
        try checkMimetype(archive, path: path)
        let packageEntry = try packageDocumentEntry(archive, path: path)
        guard let packageData = try archive.read(packageEntry) else {
            throw .missingPackageDocument(path: path, packagePath: packageEntry)
        }
        let package = try EPUBPackage(data: Array(packageData), entry: packageEntry, bookPath: path)
        let spineEntries = uniqueSpineEntries(package, archive: archive)
        let spineSet = Set(spineEntries)

        let (toc, pageList) = try navigation(package, archive: archive, spine: spineSet)

        let collector = BlockCollector()
        collector.chapterTargets = Set(toc.lazy.filter { $0.target.contains("#") }.map(\.target))
        for page in pageList where collector.pageListTargets[page.target] == nil {
            collector.pageListTargets[page.target] = page.label
        }
        collector.usesPageBreakMarkers = pageList.isEmpty
        collector.includesMatter = options.includesMatter
        for entry in spineEntries {
            guard let document = try archive.read(entry) else { continue }
            let checkpoint = collector.checkpoint()
            collector.beginDocument(entry)
            if !XHTMLReader.read(document, into: collector) {
                // Not well-formed XML: read it the way a browser would rather than lose the text.
                collector.rollback(to: checkpoint)
                collector.beginDocument(entry)
                HTMLScanner.scan(String(decoding: document, as: UTF8.self), into: collector)
            }
            collector.endDocument()
        }
        let collected = collector.finish()
        guard !collected.blocks.isEmpty else { throw .noText(path: path) }

        let chapterStarts: [BookLayout.ChapterStart]
        if toc.isEmpty {
            chapterStarts = spineChapters(spineEntries, collected: collected)
        } else {
            chapterStarts = toc.compactMap { entry in
                let document = EPUBPath.split(entry.target).path
                // An entry for a page without text (cover, image-only title page) has nothing to read.
                guard collected.documentRanges[document]?.isEmpty == false else { return nil }
                // An entry for skipped matter (the Gutenberg licence, an imprint) has nothing to read either.
                guard !collected.matterTargets.contains(entry.target) else { return nil }
                guard let index = collected.anchors[entry.target] ?? collected.anchors[document] else { return nil }
                return BookLayout.ChapterStart(title: entry.title, depth: entry.depth, blockIndex: index)
            }
        }
        let layout = collected.pageMarkers.isEmpty
            ? BookLayout.wordPages(blocks: collected.blocks, chapters: chapterStarts, wordsPerPage: options.wordsPerPage)
            : BookLayout.printPages(blocks: collected.blocks, chapters: chapterStarts, markers: collected.pageMarkers)

        let metadata = BookMetadata(
            title: package.title ?? Self.fileTitle(path),
            authors: package.authors,
            language: package.language,
            identifier: package.identifier,
            publisher: package.publisher,
            date: package.date,
            bookDescription: package.bookDescription
        )
        let cover = try self.cover(package, archive: archive)
        let lexicons = try self.lexicons(package, archive: archive, inline: collector.inlinePronunciations)
        return Book(metadata: metadata, format: .epub, chapters: layout.chapters, pages: layout.pages, cover: cover, skipped: collected.skipped, lexicons: lexicons)
    }

    // MARK: - Pronunciations

    /// The book's PLS lexicons (`application/pls+xml` manifest items, in manifest order), then
    /// its inline `ssml:ph` marks as one lexicon in the book's language. A lexicon that cannot
    /// be read is kept empty with its problem, so the listener is warned and the book is read
    /// without it.
    private func lexicons(_ package: EPUBPackage, archive: EPUBArchive, inline: [PronunciationEntry]) throws(BookError) -> [PronunciationLexicon] {
        var lexicons: [PronunciationLexicon] = []
        for item in package.manifestOrder where item.mediaType == "application/pls+xml" {
            guard lexicons.count < PronunciationLexicon.maxLexicons - 1, let entry = item.entry, let data = try archive.read(entry) else { continue }
            switch PLSReader.read(Array(data), name: entry) {
            case let .success(lexicon): lexicons.append(lexicon)
            case let .failure(failure): lexicons.append(PLSReader.broken(Array(data), name: entry, reason: failure.reason))
            }
        }
        if !inline.isEmpty {
            var seen: Set<String> = []
            // The first mark of a text wins, as the first entry of a lexicon does.
            let entries = inline.filter { seen.insert($0.graphemes[0]).inserted }.prefix(PronunciationLexicon.maxEntries)
            let canonical = entries.map { "\($0.alphabet)\u{1F}\($0.graphemes[0])\u{1F}\($0.phonemes)" }.joined(separator: "\n")
            lexicons.insert(
                PronunciationLexicon(name: "ssml:ph in the book", language: package.language, digest: PLSReader.digest(of: Array(canonical.utf8)), entries: Array(entries)),
                at: 0
            )
        }
        return lexicons
    }

    // MARK: - Container

    private func checkMimetype(_ archive: EPUBArchive, path: String) throws(BookError) {
        // A missing `mimetype` is tolerated (sloppy tools omit it); a wrong one is not an EPUB.
        guard let data = try archive.read("mimetype") else { return }
        let value = String(decoding: data, as: UTF8.self).trimmingASCIISpaces()
        guard value == "application/epub+zip" else {
            throw .wrongMimetype(path: path, found: String(value.prefix(100)))
        }
    }

    private func packageDocumentEntry(_ archive: EPUBArchive, path: String) throws(BookError) -> String {
        let containerEntry = "META-INF/container.xml"
        guard let data = try archive.read(containerEntry) else { throw .missingContainer(path: path) }
        let root: XMLTree
        switch XMLTree.parse(data) {
        case let .success(tree): root = tree
        case let .failure(error): throw .malformedXML(path: path, entry: containerEntry, reason: error.reason)
        }
        let rootfiles = root.all { $0.name == "rootfile" }
        let rootfile = rootfiles.first { $0.attribute("media-type") == "application/oebps-package+xml" } ?? rootfiles.first
        guard let fullPath = rootfile?.attribute("full-path"), !fullPath.isEmpty else {
            throw .missingPackageDocument(path: path, packagePath: "(none named in META-INF/container.xml)")
        }
        guard EPUBArchive.isSafe(entryName: fullPath), let entry = EPUBPath.resolve(fullPath, from: "") else {
            throw .unsafeEntryPath(path: path, entry: fullPath)
        }
        guard archive.contains(entry) else { throw .missingPackageDocument(path: path, packagePath: fullPath) }
        return entry
    }

    /// Spine documents in reading order, each once, that exist in the archive.
    private func uniqueSpineEntries(_ package: EPUBPackage, archive: EPUBArchive) -> [String] {
        var seen = Set<String>()
        return package.spine.compactMap { item in
            guard archive.contains(item.entry), seen.insert(item.entry).inserted else { return nil }
            return item.entry
        }
    }

    // MARK: - Navigation

    /// The table of contents and page list: the nav document's when it works, else the NCX's.
    private func navigation(
        _ package: EPUBPackage, archive: EPUBArchive, spine: Set<String>
    ) throws(BookError) -> (toc: [EPUBNavigation.Entry], pageList: [EPUBNavigation.PageTarget]) {
        var candidates: [EPUBNavigation] = []
        if let nav = package.manifestOrder.first(where: { $0.properties.contains("nav") }), let entry = nav.entry,
           let root = try readTree(entry, archive: archive) {
            candidates.append(.fromNavDocument(root, entry: entry))
        }
        let ncxItem = package.spineTOC.flatMap { package.manifest[$0] }
            ?? package.manifestOrder.first { $0.mediaType == "application/x-dtbncx+xml" }
            ?? package.manifestOrder.first { $0.entry?.lowercased().hasSuffix(".ncx") == true }
        if let ncxItem, let entry = ncxItem.entry, let root = try readTree(entry, archive: archive), root.name == "ncx" {
            candidates.append(.fromNCX(root, entry: entry))
        }
        func resolves(_ target: String) -> Bool { spine.contains(EPUBPath.split(target).path) }
        // A TOC is usable when every entry points into the book; a broken one (links to missing
        // documents) gives way to the next source.
        let toc = candidates.first { !$0.toc.isEmpty && $0.toc.allSatisfy { resolves($0.target) } }?.toc
            ?? candidates.map { $0.toc.filter { resolves($0.target) } }.max { $0.count < $1.count }
            ?? []
        let pageList = candidates.first { !$0.pageList.isEmpty && $0.pageList.contains { resolves($0.target) } }?
            .pageList.filter { resolves($0.target) } ?? []
        return (toc, pageList)
    }

    /// A navigation file's tree, or nil when it is missing or broken (the book stays readable).
    private func readTree(_ entry: String, archive: EPUBArchive) throws(BookError) -> XMLTree? {
        guard let data = try archive.read(entry), case let .success(root) = XMLTree.parse(data) else { return nil }
        return root
    }

    /// One chapter per spine document with text, titled by its first heading or `<title>`.
    private func spineChapters(_ entries: [String], collected: BlockCollector.Collected) -> [BookLayout.ChapterStart] {
        var firstHeading: [String: String] = [:]
        for heading in collected.headings where firstHeading[heading.document] == nil {
            firstHeading[heading.document] = heading.text
        }
        var chapters: [BookLayout.ChapterStart] = []
        for entry in entries {
            guard let range = collected.documentRanges[entry], !range.isEmpty else { continue }
            let title = firstHeading[entry]
                ?? collected.documentTitles[entry].flatMap { $0.isEmpty ? nil : $0 }
                ?? "Section \(chapters.count + 1)"
            chapters.append(BookLayout.ChapterStart(title: title, depth: 0, blockIndex: range.lowerBound))
        }
        return chapters
    }

    // MARK: - Cover

    private func cover(_ package: EPUBPackage, archive: EPUBArchive) throws(BookError) -> BookCover? {
        let candidates: [EPUBPackage.Item?] = [
            package.manifestOrder.first { $0.properties.contains("cover-image") },
            package.coverMetaID.flatMap { package.manifest[$0] },
        ]
        for case let item? in candidates {
            if item.mediaType.hasPrefix("image/"), let entry = item.entry, let data = try archive.read(entry), !data.isEmpty {
                return BookCover(mediaType: item.mediaType, data: Array(data))
            }
            if item.mediaType.contains("html"), let entry = item.entry, let cover = try firstImage(in: entry, package: package, archive: archive) {
                return cover
            }
        }
        if let guide = package.guideCover {
            return try firstImage(in: guide, package: package, archive: archive)
        }
        return nil
    }

    /// The first image a cover page shows (`<img src>` or SVG `<image xlink:href>`).
    private func firstImage(in document: String, package: EPUBPackage, archive: EPUBArchive) throws(BookError) -> BookCover? {
        guard let root = try readTree(document, archive: archive) else { return nil }
        let image = root.first { ($0.name == "img" && $0.attribute("src") != nil) || ($0.name == "image" && imageHref($0) != nil) }
        guard let image, let href = image.name == "img" ? image.attribute("src") : imageHref(image),
              let entry = EPUBPath.resolve(href, from: EPUBPath.directory(of: document)),
              let data = try archive.read(entry), !data.isEmpty else { return nil }
        let declared = package.manifestOrder.first { $0.entry == entry }?.mediaType
        return BookCover(mediaType: declared ?? Self.imageType(of: data), data: Array(data))
    }

    private func imageHref(_ element: XMLTree) -> String? {
        element.attributes.first { $0.key == "href" || $0.key.hasSuffix(":href") }?.value
    }

    static func imageType(of data: Data) -> String {
        let magic = Array(data.prefix(4))
        if magic.starts(with: [0xFF, 0xD8]) { return "image/jpeg" }
        if magic == [0x89, 0x50, 0x4E, 0x47] { return "image/png" }
        if magic == [0x47, 0x49, 0x46, 0x38] { return "image/gif" }
        return "application/octet-stream"
    }

    /// A title from the file name: its last path component without the extension.
    static func fileTitle(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

extension String {
    func trimmingASCIISpaces() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !MarkupText.isASCIISpace($0) }),
              let last = bytes.lastIndex(where: { !MarkupText.isASCIISpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
