import Foundation
import NarrateKit

/// A library book for `list`, `show` and their JSON (camelCase keys).
struct BookListing: Encodable {
    var summary: BookSummary
    var sourcePath: String
    var credits: String?
    /// What the file holds that is not the book, left out, and why.
    var skipped: [SkippedMatter]

    init(_ book: LibraryBook) {
        summary = BookSummary(book)
        sourcePath = book.sourcePath
        credits = book.book.metadata.credits
        skipped = book.book.skipped
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, authors, language, format, pageCount, chapterCount, progressPage, sourcePath, dateAdded, credits, skipped
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summary.id.rawValue, forKey: .id)
        try container.encode(summary.title, forKey: .title)
        try container.encode(summary.authors, forKey: .authors)
        try container.encodeIfPresent(summary.language, forKey: .language)
        try container.encode(summary.format.rawValue, forKey: .format)
        try container.encode(summary.pageCount, forKey: .pageCount)
        try container.encode(summary.chapterCount, forKey: .chapterCount)
        try container.encodeIfPresent(summary.progress?.pageIndex, forKey: .progressPage)
        try container.encode(sourcePath, forKey: .sourcePath)
        try container.encode(summary.dateAdded, forKey: .dateAdded)
        try container.encodeIfPresent(credits, forKey: .credits)
        try container.encode(skipped, forKey: .skipped)
    }
}
