import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate pages FILE`: list a book's pages.
    struct Pages: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the pages of a book.")

        @Argument(help: "The book file.")
        var book: String

        @Option(name: .customLong("words-per-page"), help: "Words per page for books without printed page numbers.")
        var wordsPerPage: Int = 300

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            var configuration = storage.configuration()
            configuration.wordsPerPage = wordsPerPage
            do {
                let book = try await makeGetPagesUseCase(configuration: configuration).execute(bookPath: self.book)
                if json {
                    print(try Format.json(book.pages.map { PageListing(page: $0) }))
                    return
                }
                print("\(book.metadata.title): \(book.pages.count) page\(book.pages.count == 1 ? "" : "s")")
                for page in book.pages {
                    let listing = PageListing(page: page)
                    print("\(String(page.index).leftPadded(5))  \(page.label.leftPadded(6))  \(String(listing.words).leftPadded(5)) words  \(listing.opening)")
                }
            } catch {
                throw fail(error)
            }
        }
    }
}

/// One line of `narrate pages`.
struct PageListing: Encodable {
    var index: Int
    var label: String
    var words: Int
    var opening: String

    init(page: Page) {
        index = page.index
        label = page.label
        words = page.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
        let flat = page.text.replacingOccurrences(of: "\n\n", with: " ")
        opening = flat.count > 60 ? String(flat.prefix(60)) + "…" : flat
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
