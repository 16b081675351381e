import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate list`: the library's books.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the books in the library, newest first.")

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let books = try await makeLibraryUseCases(configuration: storage.configuration()).getBooks.execute()
            if json {
                print(try Format.json(books.map(BookListing.init)))
                return
            }
            if books.isEmpty {
                storage.report("The library is empty: add books with 'narrate add FILE'.")
                return
            }
            for book in books.map(BookSummary.init) {
                let progress = book.progress.map { "page \($0.pageIndex) of \(book.pageCount)" } ?? "\(book.pageCount) pages"
                print("\(String(book.id.rawValue).leftPadded(4))  \(book.title) — \(book.authors.joined(separator: ", ")) [\(book.format.name), \(progress)]".escapingControlCharacters)
            }
        }
    }
}
