import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate cast BOOK [--quotes] [--json]`: the book's characters, or its quotations and speakers.
    struct Cast: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a book's characters (name, aliases, gender, lines), or with --quotes who speaks each quotation.",
            discussion: """
                A plain-text file is read as it is, and --quotes gives each part's start and end in \
                Unicode code points into its decoded text; any other book is read as `narrate text` reads it.
                """
        )

        @OptionGroup var book: BookArgument

        @Flag(name: .long, help: "Print every quoted part in reading order with its speaker and the rule that decided it.")
        var quotes = false

        @Flag(name: .long, help: "Print JSON instead of text.")
        var json = false

        @OptionGroup var paging: PagingOptions
        @OptionGroup var matter: MatterOptions
        @OptionGroup var storage: StorageOptions
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            let plainText = book.reference.lowercased().hasSuffix(".txt")
            let text: String
            if plainText {
                text = try readTextFile(path: book.reference)
            } else {
                let library = try makeLibraryUseCases(configuration: storage.configuration(paging, matter, password))
                text = try await library.getPages.execute(reference: book.reference).book.pages.map(\.text).joined(separator: "\n\n")
            }
            let analysis = makeGetDialogueUseCase().execute(text: text)
            if quotes {
                let records = analysis.parts.map { CastQuoteRecord($0, in: analysis, offsets: plainText) }
                if json { return print(try Format.json(records)) }
                for record in records { print("\(record.speaker ?? "—") [\(record.rule)]: \(record.text)") }
                return
            }
            let counts = analysis.lineCounts
            let records = analysis.characters.indices.map { index in
                let character = analysis.characters[index]
                return CastCharacterRecord(
                    name: character.name, aliases: character.aliases, gender: character.gender.rawValue, lines: counts[index])
            }
            if json { return print(try Format.json(records)) }
            for record in records {
                print("\(record.name)\t\(record.gender)\t\(record.lines)\t\(record.aliases.joined(separator: ", "))")
            }
        }
    }
}
