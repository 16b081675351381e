import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate add FILE…`: add books to the library.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add books (EPUB, PDF, DOCX, ODT, FB2, text, HTML, Markdown; told by their content) to the library.")

        @Argument(help: "The book files.")
        var files: [String]

        @OptionGroup var paging: PagingOptions
        @OptionGroup var storage: StorageOptions
        @OptionGroup var password: PasswordOptions

        func validate() throws {
            if files.isEmpty { throw ValidationError("Name at least one book file.") }
        }

        func run() async throws {
            let library = try makeLibraryUseCases(configuration: storage.configuration(paging, password))
            var failures = 0
            for file in files {
                do {
                    let (book, existed) = try await library.importBook.execute(path: file)
                    let summary = "\(book.id): \(book.book.metadata.title) (\(book.book.pages.count) pages, \(book.book.chapters.count) chapters)"
                    print((existed ? "Already in the library: \(summary)" : "Added \(summary)").escapingControlCharacters)
                } catch {
                    // One bad file does not stop the others: report it and go on.
                    failures += 1
                    CommandFailure.report(error)
                }
            }
            if failures > 0 { throw ExitCode.failure }
        }
    }
}
