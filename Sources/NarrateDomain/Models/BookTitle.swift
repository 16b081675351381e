/// A library book's id and title: enough to find a book by the title a user types.
public struct BookTitle: Sendable, Hashable {
    public var id: BookID
    public var title: String

    public init(id: BookID, title: String) {
        self.id = id
        self.title = title
    }
}
