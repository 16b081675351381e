import struct Foundation.Date

/// Where a reader stopped in a book.
public struct ReadingProgress: Sendable, Hashable, Codable {
    /// 1-based index of the last page narrated or read.
    public var pageIndex: Int
    public var updatedAt: Date

    public init(pageIndex: Int, updatedAt: Date) {
        self.pageIndex = pageIndex
        self.updatedAt = updatedAt
    }
}
