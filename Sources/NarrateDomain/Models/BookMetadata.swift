/// Descriptive data of a book.
public struct BookMetadata: Sendable, Hashable, Codable {
    public var title: String
    public var authors: [String]
    /// BCP 47 language tag (`en`, `fr`, `ar`), if the book states one.
    public var language: String?
    public var identifier: String?
    public var publisher: String?
    public var date: String?
    public var bookDescription: String?
    /// Who prepared this edition (a Project Gutenberg "Credits:" or "Produced by" line).
    public var credits: String?

    public init(
        title: String, authors: [String] = [], language: String? = nil, identifier: String? = nil,
        publisher: String? = nil, date: String? = nil, bookDescription: String? = nil, credits: String? = nil
    ) {
        self.title = title
        self.authors = authors
        self.language = language
        self.identifier = identifier
        self.publisher = publisher
        self.date = date
        self.bookDescription = bookDescription
        self.credits = credits
    }
}
