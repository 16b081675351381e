import Foundation
import NarrateKit

/// A library book for `list`, `show` and their JSON.
struct BookListing: Encodable {
    var id: Int64
    var title: String
    var authors: [String]
    var language: String?
    var format: String
    var pageCount: Int
    var chapterCount: Int
    var progressPage: Int?
    var sourcePath: String
    var dateAdded: Date
    var credits: String?
    /// What the file holds that is not the book, left out, and why.
    var skipped: [SkippedMatter]

    init(_ book: LibraryBook) {
        id = book.id.rawValue
        title = book.book.metadata.title
        authors = book.book.metadata.authors
        language = book.book.metadata.language
        format = book.book.format.rawValue
        pageCount = book.book.pages.count
        chapterCount = book.book.chapters.count
        progressPage = book.progress?.pageIndex
        sourcePath = book.sourcePath
        dateAdded = book.dateAdded
        credits = book.book.metadata.credits
        skipped = book.book.skipped
    }
}
