import Foundation
import Hummingbird
import NarrateKit

/// Where a book's reader stopped: in a book's summary and detail, and the answer to
/// `PUT /v1/books/{id}/progress`.
struct ProgressResponse: ResponseEncodable, Decodable {
    var page_index: Int
    var page: String?
    var updated: Date?
}

extension ProgressResponse {
    /// Where the summary's reader stopped; nil before they start.
    init?(_ summary: BookSummary) {
        guard let progress = summary.progress else { return nil }
        self.init(page_index: progress.pageIndex, page: summary.progressPageLabel, updated: progress.updatedAt)
    }
}
