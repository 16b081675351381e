import struct Foundation.Data
import NarrateDomain

/// Settings every parser honours.
public struct ParseOptions: Sendable, Hashable {
    /// Target words per page when the book has no print pages of its own.
    public var wordsPerPage: Int
    /// Whether text that is not the book — Project Gutenberg boilerplate, printed contents
    /// lists, notes, imprints, colophons, indexes — is read too. By default it is left out and
    /// listed in `Book.skipped`.
    public var includesMatter: Bool

    public init(wordsPerPage: Int = 300, includesMatter: Bool = false) {
        self.wordsPerPage = wordsPerPage
        self.includesMatter = includesMatter
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
