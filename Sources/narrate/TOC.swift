import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate toc BOOK`: the table of contents.
    struct TOC: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "toc", abstract: "Show a book's table of contents with the page each entry starts on.")

        @OptionGroup var book: BookArgument

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var matter: MatterOptions
        @OptionGroup var storage: StorageOptions
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            let (found, entries) = try await makeLibraryUseCases(configuration: storage.configuration(matter, password))
                .getTableOfContents.execute(reference: book.reference)
            if json {
                print(try Format.json(entries))
                return
            }
            print(found.book.metadata.title.escapingControlCharacters)
            for entry in entries {
                print("\(String(repeating: "  ", count: entry.depth + 1))\(entry.title)  ……  \(entry.pageLabel)".escapingControlCharacters)
            }
            let skipped = found.book.skipped
            if !skipped.isEmpty {
                print("Skipped, not the book (--include-matter reads it):")
                for item in skipped {
                    print("  \(item.title) — \(item.kind.reason), \(item.words) word\(item.words == 1 ? "" : "s")".escapingControlCharacters)
                }
            }
        }
    }
}
