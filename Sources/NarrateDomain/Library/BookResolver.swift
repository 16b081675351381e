import struct Foundation.Date

/// Finds the library book a user names: a file path (imported on first use, found by its
/// content afterwards), a library id, or an unambiguous title prefix.
struct BookResolver: Sendable {
    let library: any BookRepositoryContract
    let source: any BookSourceRepositoryContract
    /// Whether the book is read with what the library leaves out (boilerplate, contents lists,
    /// notes): then it is parsed again from its file, which must not have changed.
    var includesMatter = false

    init(library: any BookRepositoryContract, source: any BookSourceRepositoryContract, includesMatter: Bool = false) {
        self.library = library
        self.source = source
        self.includesMatter = includesMatter
    }

    /// The book, and whether it was already in the library.
    func resolve(_ reference: String) async throws(BookError) -> (book: LibraryBook, existed: Bool) {
        var found = try await resolveStored(reference)
        if found.existed, found.book.book.parserVersion < source.parserVersion {
            found.book = try await reread(found.book)
        }
        if includesMatter {
            let path = found.book.sourcePath
            guard (try? await source.contentHash(ofFileAt: path)) == found.book.contentHash else {
                throw .unreadable(path: path, reason: "reading everything in a book needs its file as it was added to the library, and this file is missing or changed; add the book again")
            }
            found.book.book = try await source.book(at: path, includingMatter: true)
        }
        return found
    }

    private func resolveStored(_ reference: String) async throws(BookError) -> (book: LibraryBook, existed: Bool) {
        let trimmed = reference.trimmingWhitespace
        guard !trimmed.isEmpty else { throw .bookNotFound(reference: reference) }
        if Self.looksLikePath(trimmed) {
            return try await importFile(trimmed)
        }
        if let id = Int64(trimmed) {
            guard let book = try await library.getBook(id: BookID(rawValue: id)) else { throw .bookNotFound(reference: reference) }
            return (book, true)
        }
        let wanted = trimmed.lowercased()
        // Titles only: the one book found is then read whole, the others not at all.
        let titles = try await library.getBookTitles()
        var matches = titles.filter { $0.title.lowercased() == wanted }
        if matches.count != 1 {
            matches = titles.filter { $0.title.lowercased().hasPrefix(wanted) }
        }
        if matches.isEmpty {
            // "waste land" and "wasteland" both find "The Waste Land".
            let key = Self.titleKey(wanted)
            matches = titles.filter { book in
                let title = Self.titleKey(book.title)
                return !key.isEmpty && (title.hasPrefix(key) || Self.titleKey(Self.droppingArticle(book.title)).hasPrefix(key))
            }
        }
        switch matches.count {
        case 0:
            throw .bookNotFound(reference: reference)
        case 1:
            guard let book = try await library.getBook(id: matches[0].id) else { throw .bookNotFound(reference: reference) }
            return (book, true)
        default:
            throw .ambiguousBook(reference: reference, matches: matches.map { "\($0.id): \($0.title)" })
        }
    }

    /// `stored` read again by today's parsers and saved, when its file is still there unchanged;
    /// else `stored` as it is.
    private func reread(_ stored: LibraryBook) async throws(BookError) -> LibraryBook {
        guard (try? await source.contentHash(ofFileAt: stored.sourcePath)) == stored.contentHash,
              let book = try? await source.book(at: stored.sourcePath) else { return stored }
        var updated = stored
        updated.book = book
        try await library.updateBook(updated)
        return updated
    }

    /// Imports `path` unless a file with the same content is in the library already.
    func importFile(_ path: String) async throws(BookError) -> (book: LibraryBook, existed: Bool) {
        let hash = try await source.contentHash(ofFileAt: path)
        if let existing = try await library.getBook(contentHash: hash) {
            return (existing, true)
        }
        let parsed = try await source.book(at: path)
        return (try await library.saveBook(parsed, contentHash: hash, sourcePath: path), false)
    }

    /// Letters and digits only, lowercased.
    static func titleKey(_ title: String) -> String {
        String(title.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }.map(Character.init))
    }

    /// The title without a leading English, French or German article.
    static func droppingArticle(_ title: String) -> String {
        let lowered = title.lowercased()
        for article in ["the ", "a ", "an ", "le ", "la ", "les ", "l'", "der ", "die ", "das "] where lowered.hasPrefix(article) {
            return String(title.dropFirst(article.count))
        }
        return title
    }

    /// A reference with a folder separator or a document extension is a file, not a title.
    static func looksLikePath(_ reference: String) -> Bool {
        if reference.contains("/") { return true }
        guard let dot = reference.lastIndex(of: ".") else { return false }
        let fileExtension = String(reference[reference.index(after: dot)...])
        return !fileExtension.isEmpty && DocumentFormat.mayHoldBook(fileExtension: fileExtension)
    }
}

extension Array {
    var onlyElement: Element? { count == 1 ? self[0] : nil }
}
