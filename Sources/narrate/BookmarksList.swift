import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate bookmarks [list] BOOK`: a book's bookmarks in reading order.
    struct BookmarksList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List a book's bookmarks in reading order: id, page, the first words there, the note."
        )

        @OptionGroup var book: BookArgument

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let (found, bookmarks) = try await makeLibraryUseCases(configuration: storage.configuration()).getBookmarks.execute(reference: book.reference)
            let records = bookmarks.map { BookmarkListing($0, in: found) }
            if json {
                print(try Format.json(records))
                return
            }
            let title = found.book.metadata.title
            guard !records.isEmpty else {
                print("'\(title)' has no bookmarks: add one in the listening room, or with 'narrate bookmarks add BOOK PAGE'.".escapingControlCharacters)
                return
            }
            print("\(title): \(records.count) bookmark\(records.count == 1 ? "" : "s")".escapingControlCharacters)
            print("ID    PAGE        FROM")
            for record in records { record.lines.forEach { print($0) } }
        }
    }
}
