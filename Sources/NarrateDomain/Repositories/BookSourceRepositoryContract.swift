/// Opens book files: parses them, and fingerprints them so the library knows a file it has seen.
public protocol BookSourceRepositoryContract: Sendable {
    /// The parsed book at `path`.
    /// - Throws: `BookError` when the file is missing, unreadable, unsupported, broken or has no text.
    func book(at path: String) async throws(BookError) -> Book

    /// The parsed book at `path`, with what is not the book (boilerplate, contents lists,
    /// notes, imprints) read too when `includingMatter`.
    func book(at path: String, includingMatter: Bool) async throws(BookError) -> Book

    /// SHA-256 (lowercase hex) of the file's bytes: the same file imported twice is the same book.
    /// - Throws: `BookError.fileNotFound`, `.unreadable`, `.unsupportedFormat`.
    func contentHash(ofFileAt path: String) async throws(BookError) -> String

    /// The generation of the parsers (see `Book.parserVersion`).
    var parserVersion: Int { get }
}

extension BookSourceRepositoryContract {
    public var parserVersion: Int { 0 }

    public func book(at path: String, includingMatter: Bool) async throws(BookError) -> Book {
        try await book(at: path)
    }
}
