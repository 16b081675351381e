import struct Foundation.Date

/// What a listing says about a library book: what it is, how long it is, and where its reader
/// stopped. The CLI (`list`, `show`) and the service (`/v1/books`) write it each in their own
/// JSON, from this one reading of a ``LibraryBook``.
public struct BookSummary: Sendable, Hashable {
    public var id: BookID
    public var title: String
    public var authors: [String]
    /// BCP 47 language tag (`en`, `fr`), if the book states one.
    public var language: String?
    public var format: DocumentFormat
    public var pageCount: Int
    public var chapterCount: Int
    /// Where the reader stopped, if they have started.
    public var progress: ReadingProgress?
    /// The printed label of the page the reader stopped at (nil when the book has no such page).
    public var progressPageLabel: String?
    public var dateAdded: Date

    public init(_ book: LibraryBook) {
        id = book.id
        title = book.book.metadata.title
        authors = book.book.metadata.authors
        language = book.book.metadata.language
        format = book.book.format
        pageCount = book.book.pages.count
        chapterCount = book.book.chapters.count
        progress = book.progress
        progressPageLabel = book.progress.flatMap { progress in book.book.pages.first { $0.index == progress.pageIndex }?.label }
        dateAdded = book.dateAdded
    }
}
