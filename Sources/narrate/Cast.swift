import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate cast BOOK [-o cast.json] [--quotes] [--json]`: the book's characters with the voice
    /// proposed for each, or its quotations and speakers.
    struct Cast: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a book's characters (name, gender, lines, proposed voice, aliases) and write a cast file, or with --quotes who speaks each quotation.",
            discussion: """
                Each character who speaks is proposed a voice of the narrator's engine (--voice, or \
                the book's language's), distinct and of its gender while there are some; -o FILE \
                writes the cast as JSON to edit and pass to --cast (say -f, page, book, serve). \
                A plain-text file is read as it is, and --quotes gives each part's start and end in \
                Unicode code points into its decoded text; any other book is read as `narrate text` reads it.
                """
        )

        @OptionGroup var book: BookArgument

        @Flag(name: .long, help: "Print every quoted part in reading order with its speaker and the rule that decided it.")
        var quotes = false

        @Flag(name: .long, help: "Print JSON instead of text.")
        var json = false

        @Option(name: [.short, .customLong("output")], help: "Write the proposed cast to this file (JSON), for --cast.")
        var output: String?

        @OptionGroup var paging: PagingOptions
        @OptionGroup var matter: MatterOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            let plainText = book.reference.lowercased().hasSuffix(".txt")
            let environment = try common.environment(common.configuration(paging, matter, password))
            let text: String
            var whole: Book?
            if plainText {
                text = try readTextFile(path: book.reference)
            } else {
                let found = try await environment.library().getPages.execute(reference: book.reference).book
                text = found.pages.map(\.text).joined(separator: "\n\n")
                whole = found
            }
            let analysis = makeGetDialogueUseCase().execute(text: text)
            if quotes {
                let records = analysis.parts.map { CastQuoteRecord($0, in: analysis, offsets: plainText) }
                if json { return print(try Format.json(records)) }
                for record in records { print("\(record.speaker ?? "—") [\(record.rule)]: \(record.text)") }
                return
            }
            let narrator = try await environment.chooseVoice.execute(try common.voiceRequest(), reading: whole)
            let cast = try await environment.resolveCast.propose(for: analysis, narrator: narrator)
            if let output {
                try writeFileAtomically(Array(try Format.json(cast).utf8) + [0x0A], to: output)
                common.storage.report("Wrote \(output): a cast of \(cast.characters.count) character\(cast.characters.count == 1 ? "" : "s"), narrated by \(cast.narrator ?? narrator.profile.displayName). Edit any voice and pass it with --cast \(output).")
            }
            let voices = Dictionary(cast.characters.map { ($0.name, $0.voice) }, uniquingKeysWith: { first, _ in first })
            let counts = analysis.lineCounts
            let records = analysis.characters.indices.map { index in
                let character = analysis.characters[index]
                return CastCharacterRecord(
                    name: character.name, aliases: character.aliases, gender: character.gender.rawValue, lines: counts[index],
                    voice: voices[character.name])
            }
            if json { return print(try Format.json(records)) }
            guard output == nil else { return }
            for record in records {
                print("\(record.name)\t\(record.gender)\t\(record.lines)\t\(record.voice ?? "-")\t\(record.aliases.joined(separator: ", "))")
            }
        }
    }
}
