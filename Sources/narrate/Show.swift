import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate show BOOK`: a book's details.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a book's details.")

        @OptionGroup var book: BookArgument

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            let found = try await makeLibraryUseCases(configuration: storage.configuration(password)).getBookDetail.execute(reference: book.reference)
            if json {
                print(try Format.json(BookListing(found)))
                return
            }
            let metadata = found.book.metadata
            var lines = [
                "Id:          \(found.id)",
                "Title:       \(metadata.title)",
                "Authors:     \(metadata.authors.joined(separator: ", "))",
                "Language:    \(metadata.language ?? "unknown")",
                "Format:      \(found.book.format.name) (\(found.book.format.rawValue))",
                "Pages:       \(found.book.pages.count)\(found.book.pages.contains { $0.label != String($0.index) } ? " (printed page numbers)" : "")",
                "Chapters:    \(found.book.chapters.count)",
                "Progress:    \(found.progress.map { "page \($0.pageIndex) of \(found.book.pages.count)" } ?? "not started")",
                "Source:      \(found.sourcePath)",
                "Added:       \(ISO8601DateFormatter().string(from: found.dateAdded))",
            ]
            if let publisher = metadata.publisher { lines.append("Publisher:   \(publisher)") }
            if let date = metadata.date { lines.append("Date:        \(date)") }
            if let identifier = metadata.identifier { lines.append("Identifier:  \(identifier)") }
            if let credits = metadata.credits { lines.append("Credits:     \(credits)") }
            if !found.book.skipped.isEmpty {
                let words = found.book.skipped.reduce(0) { $0 + $1.words }
                lines.append("Skipped:     \(words) words that are not the book ('narrate toc' lists them; --include-matter reads them)")
            }
            if let cover = found.book.cover { lines.append("Cover:       \(cover.mediaType), \(Format.bytes(Int64(cover.data.count)))") }
            if let description = metadata.bookDescription { lines.append("Description: \(description)") }
            print(lines.map(\.escapingControlCharacters).joined(separator: "\n"))
        }
    }
}
