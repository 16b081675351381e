/// A book's cover image, as stored in the book.
public struct BookCover: Sendable, Hashable, Codable {
    /// MIME type (`image/jpeg`, `image/png`).
    public var mediaType: String
    public var data: [UInt8]

    public init(mediaType: String, data: [UInt8]) {
        self.mediaType = mediaType
        self.data = data
    }
}
