/// Opens book files: parses them, and fingerprints them so the library knows a file it has seen.
public protocol BookSourceRepositoryContract: Sendable {
    /// The parsed book at `path`.
    /// - Throws: `BookError` when the file is missing, unreadable, unsupported, broken or has no text.
    func book(at path: String) async throws(BookError) -> Book

    /// SHA-256 (lowercase hex) of the file's bytes: the same file imported twice is the same book.
    /// - Throws: `BookError.fileNotFound`, `.unreadable`, `.unsupportedFormat`.
    func contentHash(ofFileAt path: String) async throws(BookError) -> String
}
