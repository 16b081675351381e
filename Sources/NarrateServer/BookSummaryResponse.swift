import Hummingbird
import NarrateKit

/// A library book in `GET /v1/books` and an upload's answer (snake_case keys).
struct BookSummaryResponse: ResponseEncodable {
    var summary: BookSummary
    /// Where the cover image is served, when the book has one.
    var cover: String?

    init(summary: BookSummary, cover: String? = nil) {
        self.summary = summary
        self.cover = cover
    }

    init(_ book: LibraryBook) {
        self.init(summary: BookSummary(book), cover: BookCoverController.link(for: book))
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, authors, language, format, pageCount = "page_count", chapterCount = "chapter_count", progress, added, cover
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summary.id.description, forKey: .id)
        try container.encode(summary.title, forKey: .title)
        try container.encode(summary.authors, forKey: .authors)
        try container.encodeIfPresent(summary.language, forKey: .language)
        // The case name (plainText, epub, html, markdown), not the CLI's file extension.
        try container.encode("\(summary.format)", forKey: .format)
        try container.encode(summary.pageCount, forKey: .pageCount)
        try container.encode(summary.chapterCount, forKey: .chapterCount)
        try container.encodeIfPresent(ProgressResponse(summary), forKey: .progress)
        try container.encode(summary.dateAdded, forKey: .added)
        try container.encodeIfPresent(cover, forKey: .cover)
    }
}
