import struct Foundation.Data
import NarrateDomain

/// Settings every parser honours.
public struct ParseOptions: Sendable, Hashable {
    /// Target words per page when the book has no print pages of its own.
    public var wordsPerPage: Int

    public init(wordsPerPage: Int = 300) {
        self.wordsPerPage = wordsPerPage
    }
}

/// Turns the bytes of one document into a `Book`: metadata, chapters and pages of text.
public protocol DocumentParserContract: Sendable {
    /// The format this parser reads.
    var format: DocumentFormat { get }
    /// Parses `data`, the whole content of the file at `path` (used in messages and for a
    /// fallback title).
    /// - Throws: `BookError` with a message a user can act on.
    func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book
}
