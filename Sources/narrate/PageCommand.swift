import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate page BOOK PAGE`: narrate one page of a book into a WAV file.
    struct PageCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "page",
            abstract: "Narrate one page of a book into a WAV file.",
            discussion: """
                BOOK is a file (added to the library on first use), a library id, or a title prefix. \
                PAGE is the printed page label (xii, 12) when the book has one, else the page number; \
                #N always means the N-th page.
                """
        )

        @OptionGroup var book: BookArgument

        @Argument(help: "The page: its label or its number.")
        var page: String

        @Option(name: [.short, .customLong("output")], help: "The WAV file to write, or - for standard output (default: page-<PAGE>.wav).")
        var output: String?

        @Flag(name: .long, help: "Synthesize anew and replace the cached audio (the cache is used only if synthesis fails).")
        var refresh = false

        @OptionGroup var paging: PagingOptions
        @OptionGroup var matter: MatterOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var password: PasswordOptions
        @OptionGroup var casting: CastOptions

        func run() async throws {
            InterruptHandling.install()
            let environment = try common.environment(common.configuration(paging, matter, password))
            let destination = output ?? "page-\(page.replacingOccurrences(of: "/", with: "-")).wav"
            let request = try common.voiceRequest()
            let narrated: NarratedPage
            if let cast = try casting.request() {
                var speech = try await environment.resolvePageSpeech().execute(reference: book.reference, page: page, voice: request)
                speech.cast = try await environment.cast(cast, voice: request, reading: speech.book.book)
                narrated = try await environment.narratePageSpeech().execute(speech, refresh: refresh)
            } else {
                narrated = try await environment.narratePage().execute(reference: book.reference, page: page, voice: request, refresh: refresh)
            }
            common.storage.report(narrated.voice)
            let narration = narrated.narration
            try WAVOutput.write(narration.audio, to: destination)
            if destination != WAVWriter.standardOutputPath {
                common.storage.report("Page \(narration.page.label) (\(narration.page.index) of \(narration.pageCount), voice \(narrated.voice.profile.voice)) → \(destination): \(Format.duration(narration.audio.duration)).")
            }
        }
    }
}
