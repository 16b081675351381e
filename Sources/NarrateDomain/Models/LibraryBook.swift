import struct Foundation.Date

/// A book saved in the library, with what the library knows about it.
public struct LibraryBook: Sendable, Hashable, Codable {
    public var id: BookID
    public var book: Book
    /// SHA-256 (hex) of the imported file: the same file imported twice is the same book.
    public var contentHash: String
    /// The path the book was imported from.
    public var sourcePath: String
    public var dateAdded: Date
    public var progress: ReadingProgress?

    public init(id: BookID, book: Book, contentHash: String, sourcePath: String, dateAdded: Date, progress: ReadingProgress? = nil) {
        self.id = id
        self.book = book
        self.contentHash = contentHash
        self.sourcePath = sourcePath
        self.dateAdded = dateAdded
        self.progress = progress
    }
}
