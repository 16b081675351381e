import Hummingbird
import NarrateKit

/// One library book in `GET /v1/books/{id}`: the summary and what else the book says of itself.
struct BookDetailResponse: ResponseEncodable {
    var summary: BookSummary
    var publisher: String?
    var date: String?
    var description: String?
    var skippedWords: Int
    /// Where the cover image is served, when the book has one.
    var cover: String?

    init(_ book: LibraryBook) {
        summary = BookSummary(book)
        publisher = book.book.metadata.publisher
        date = book.book.metadata.date
        description = book.book.metadata.bookDescription
        skippedWords = book.book.skipped.reduce(0) { $0 + $1.words }
        cover = BookCoverController.link(for: book)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, authors, language, publisher, date, description, format
        case pageCount = "page_count", chapterCount = "chapter_count", skippedWords = "skipped_words", progress, added, cover
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summary.id.description, forKey: .id)
        try container.encode(summary.title, forKey: .title)
        try container.encode(summary.authors, forKey: .authors)
        try container.encodeIfPresent(summary.language, forKey: .language)
        try container.encodeIfPresent(publisher, forKey: .publisher)
        try container.encodeIfPresent(date, forKey: .date)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode("\(summary.format)", forKey: .format)
        try container.encode(summary.pageCount, forKey: .pageCount)
        try container.encode(summary.chapterCount, forKey: .chapterCount)
        try container.encode(skippedWords, forKey: .skippedWords)
        try container.encodeIfPresent(ProgressResponse(summary), forKey: .progress)
        try container.encode(summary.dateAdded, forKey: .added)
        try container.encodeIfPresent(cover, forKey: .cover)
    }
}
