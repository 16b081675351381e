import Foundation
import NarrateKit

/// One line of `narrate pages`.
struct PageListing: Encodable {
    var index: Int
    var label: String
    var chapter: String?
    var words: Int
    var opening: String

    init(page: Page, chapters: [Chapter]) {
        index = page.index
        label = page.label
        chapter = page.chapterIndex.flatMap { chapters.indices.contains($0) ? chapters[$0].title : nil }
        words = page.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
        let flat = page.text.replacingOccurrences(of: "\n\n", with: " ")
        opening = flat.count > 60 ? String(flat.prefix(60)) + "…" : flat
    }
}
