import struct Foundation.Date

/// Finds the library book a user names: a file path (imported on first use, found by its
/// content afterwards), a library id, or an unambiguous title prefix.
struct BookResolver: Sendable {
    let library: any BookRepositoryContract
    let source: any BookSourceRepositoryContract

    /// The book, and whether it was already in the library.
    func resolve(_ reference: String) async throws(BookError) -> (book: LibraryBook, existed: Bool) {
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
        let books = try await library.getAllBooks()
        if let exact = books.filter({ $0.book.metadata.title.lowercased() == wanted }).onlyElement {
            return (exact, true)
        }
        var matches = books.filter { $0.book.metadata.title.lowercased().hasPrefix(wanted) }
        if matches.isEmpty {
            // "waste land" and "wasteland" both find "The Waste Land".
            let key = Self.titleKey(wanted)
            matches = books.filter { book in
                let title = Self.titleKey(book.book.metadata.title)
                return !key.isEmpty && (title.hasPrefix(key) || Self.titleKey(Self.droppingArticle(book.book.metadata.title)).hasPrefix(key))
            }
        }
        switch matches.count {
        case 0: throw .bookNotFound(reference: reference)
        case 1: return (matches[0], true)
        default: throw .ambiguousBook(reference: reference, matches: matches.map { "\($0.id): \($0.book.metadata.title)" })
        }
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
        return DocumentFormat(fileExtension: String(reference[reference.index(after: dot)...])) != nil
    }
}

extension Array {
    var onlyElement: Element? { count == 1 ? self[0] : nil }
}
