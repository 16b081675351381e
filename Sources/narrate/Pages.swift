import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate pages BOOK`: list a book's pages.
    struct Pages: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the pages of a book.")

        @Argument(help: "The book: a file, a library id, or a title prefix.")
        var book: String

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var paging: PagingOptions
        @OptionGroup var matter: MatterOptions
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            var configuration = storage.configuration()
            configuration.wordsPerPage = paging.wordsPerPage
            configuration.includesMatter = matter.includeMatter
            do {
                let found = try await makeLibraryUseCases(configuration: configuration).getPages.execute(reference: book)
                let pages = found.book.pages
                if json {
                    print(try Format.json(pages.map { PageListing(page: $0, chapters: found.book.chapters) }))
                    return
                }
                print("\(found.book.metadata.title): \(pages.count) page\(pages.count == 1 ? "" : "s")")
                for page in pages {
                    let listing = PageListing(page: page, chapters: found.book.chapters)
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

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
