/// The identifier of a bookmark in the library.
public struct BookmarkID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}
