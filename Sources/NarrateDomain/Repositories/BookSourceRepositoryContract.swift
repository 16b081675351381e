/// Opens a book file and gives its pages. (The library of saved books builds on this.)
public protocol BookSourceRepositoryContract: Sendable {
    /// The parsed book at `path`.
    /// - Throws: `BookError` when the file is missing, unreadable, unsupported or has no text.
    func book(at path: String) async throws(BookError) -> Book
}
