import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate bookmarks remove BOOK ID`: removes a bookmark.
    struct BookmarksRemove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove one of a book's bookmarks, by the id 'narrate bookmarks BOOK' lists."
        )

        @OptionGroup var book: BookArgument

        @Argument(help: "The bookmark's id.")
        var id: Int64

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let (found, bookmark) = try await makeLibraryUseCases(configuration: storage.configuration()).removeBookmark
                .execute(reference: book.reference, id: BookmarkID(rawValue: id))
            let record = BookmarkListing(bookmark, in: found)
            storage.report("Removed bookmark \(record.id) (page \(record.page ?? String(record.pageIndex))) of '\(found.book.metadata.title)'.".escapingControlCharacters)
        }
    }
}
