import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate pages BOOK`: list a book's pages.
    struct Pages: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the pages of a book.")

        @OptionGroup var book: BookArgument

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var paging: PagingOptions
        @OptionGroup var matter: MatterOptions
        @OptionGroup var storage: StorageOptions
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            let found = try await makeLibraryUseCases(configuration: storage.configuration(paging, matter, password)).getPages.execute(reference: book.reference)
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
        }
    }
}
