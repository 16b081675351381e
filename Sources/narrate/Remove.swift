import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate remove BOOK`: delete a book from the library.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a book from the library (the file itself stays).")

        @OptionGroup var book: BookArgument

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let removed = try await makeLibraryUseCases(configuration: storage.configuration()).deleteBook.execute(reference: book.reference)
            storage.report("Removed \(removed.id): \(removed.book.metadata.title).")
        }
    }
}
