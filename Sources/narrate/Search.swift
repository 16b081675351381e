import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate search QUERY`: full-text search of the library.
    struct Search: AsyncParsableCommand {
        /// Matching places shown per book without `--all`.
        static let hitsPerBook = 3

        static let configuration = CommandConfiguration(
            abstract: "Search titles, authors and the text of every page.",
            discussion: """
                Books come best match first, each with its \(hitsPerBook) best matching pages; a book \
                with more says how many are left out, and --all lists every one.
                """
        )

        @Argument(help: "Words to find.")
        var query: [String]

        @Flag(name: .long, help: "List every matching page of each book, not only the best \(Search.hitsPerBook).")
        var all = false

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let words = query.joined(separator: " ")
            let results = try await makeLibraryUseCases(configuration: storage.configuration())
                .searchBooks.execute(query: words, hitsPerBook: all ? nil : Self.hitsPerBook)
            if json {
                print(try Format.json(results.map(SearchListing.init)))
                return
            }
            if results.isEmpty { storage.report("Nothing matches '\(words)'.") }
            // The hits of one book come together, best book first.
            var start = results.startIndex
            while start < results.endIndex {
                let bookID = results[start].bookID
                let end = results[start...].firstIndex { $0.bookID != bookID } ?? results.endIndex
                for line in lines(for: results[start..<end]) { print(line.escapingControlCharacters) }
                start = end
            }
        }

        /// A book's heading, one line per hit, and how many hits were left out.
        private func lines(for hits: ArraySlice<BookSearchResult>) -> [String] {
            guard let first = hits.first else { return [] }
            let authors = first.authors.isEmpty ? "" : " — \(first.authors.joined(separator: ", "))"
            var lines = ["\(String(first.bookID.rawValue).leftPadded(4))  \(first.title)\(authors)"]
            for hit in hits {
                let place = hit.pageIndex.map { "page \($0)" } ?? "title and authors"
                // A snippet can span paragraphs: one line per hit.
                let snippet = hit.snippet.split(whereSeparator: \.isNewline).joined(separator: " ")
                lines.append("      \(place): \(snippet)")
            }
            let leftOut = first.bookMatchCount - hits.count
            if leftOut > 0 {
                lines.append("      … \(leftOut) more match\(leftOut == 1 ? "" : "es") in this book (--all lists every one)")
            }
            return lines
        }
    }
}
