import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate bookmarks add BOOK PAGE [--note TEXT]`: marks a page.
    struct BookmarksAdd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Bookmark the top of a page, with an optional note (the reading progress stays)."
        )

        @OptionGroup var book: BookArgument

        @Argument(help: "The page: its printed label (xii), its number, or #index.")
        var page: String

        @Option(name: .long, help: "A note to keep with it (at most 1,000 characters).")
        var note: String?

        @Flag(name: .long, help: "Print the bookmark as JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let (found, bookmark) = try await makeLibraryUseCases(configuration: storage.configuration()).addBookmark
                .execute(reference: book.reference, page: page, textOffset: 0, note: note)
            let record = BookmarkListing(bookmark, in: found)
            if json {
                print(try Format.json(record))
                return
            }
            print("Bookmark \(record.id) on page \(record.page ?? String(record.pageIndex)) of '\(found.book.metadata.title)'.".escapingControlCharacters)
        }
    }
}
