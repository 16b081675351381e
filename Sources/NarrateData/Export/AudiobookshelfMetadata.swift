import Foundation
import NarrateDomain

/// `metadata.json`, the file Audiobookshelf reads from a book's folder (and prefers to the
/// files' own tags): title, authors, the narrator ("eSpeak NG en-us"), description, language,
/// year, publisher, and the chapters on the book's whole timeline (files in reading order), in
/// seconds. Its cover is the `cover.jpg` or `cover.png` written beside it.
struct AudiobookshelfMetadata: Encodable, Equatable {
    struct Chapter: Encodable, Equatable {
        var id: Int
        var start: Double
        var end: Double
        var title: String
    }

    var title: String
    var authors: [String]
    var narrators: [String]
    var description: String?
    var language: String?
    var publishedYear: String?
    var publisher: String?
    var tags: [String]
    var chapters: [Chapter]

    static let fileName = "metadata.json"

    init(book: BookMetadata, narrator: String, files: [ExportedFile]) {
        title = book.title
        authors = book.authors
        narrators = [narrator]
        description = book.bookDescription
        language = book.language
        publishedYear = book.date.flatMap { date in
            let year = date.prefix(4)
            return year.count == 4 && year.allSatisfy(\.isNumber) ? String(year) : nil
        }
        publisher = book.publisher
        tags = ["narrate"]
        var starts: [(title: String, seconds: Double)] = []
        var offset = 0.0
        for file in files.sorted(by: { $0.number < $1.number }) {
            let inFile = file.chapterStarts ?? []
            if inFile.isEmpty || (inFile.first?.seconds ?? 0) > 0.0005 {
                // The file starts inside a chapter (or has none marked): it starts a chapter named after it.
                starts.append((file.title, offset))
            }
            starts += inFile.map { ($0.title, offset + $0.seconds) }
            offset += file.duration
        }
        chapters = starts.enumerated().map { index, start in
            let end = index + 1 < starts.count ? starts[index + 1].seconds : offset
            return Chapter(id: index, start: Self.rounded(start.seconds), end: Self.rounded(end), title: start.title)
        }.filter { $0.end > $0.start }
    }

    /// Milliseconds are enough for a chapter list.
    private static func rounded(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }

    func data() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
