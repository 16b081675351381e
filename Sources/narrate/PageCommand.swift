import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate page FILE N`: narrate one page of a book into a WAV file.
    struct PageCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "page",
            abstract: "Narrate one page of a book into a WAV file.",
            discussion: "PAGE is the printed page label (xii, 12) when the book has one, else the 1-based page number; #N always means the N-th page."
        )

        @Argument(help: "The book file.")
        var book: String

        @Argument(help: "The page: its label or its number.")
        var page: String

        @Option(name: [.short, .customLong("output")], help: "The WAV file to write, or - for standard output (default: page-<PAGE>.wav).")
        var output: String?

        @Flag(name: .long, help: "Synthesize anew and replace the cached audio (the cache is used only if synthesis fails).")
        var refresh = false

        @Option(name: .customLong("words-per-page"), help: "Words per page for books without printed page numbers.")
        var wordsPerPage: Int = 300

        @OptionGroup var common: CommonOptions

        func validate() throws {
            guard (50...5000).contains(wordsPerPage) else { throw ValidationError("--words-per-page must be from 50 to 5000.") }
        }

        func run() async throws {
            InterruptHandling.install()
            let logger = common.storage.makeLogger()
            var configuration = common.configuration()
            configuration.wordsPerPage = wordsPerPage
            let destination = output ?? "page-\(page.replacingOccurrences(of: "/", with: "-")).wav"
            do {
                let voice = try await makeResolveVoiceUseCase(configuration: configuration).execute(name: common.voice, overrides: common.overrides)
                let cache = try makeAudioCache(configuration: configuration, logger: logger)
                let repository = makeTTSRepository(cache: cache, logger: logger)
                let narration = if refresh {
                    try await makeRefreshPageNarrationUseCase(configuration: configuration, repository: repository).execute(bookPath: book, page: page, voice: voice)
                } else {
                    try await makeGetPageNarrationUseCase(configuration: configuration, repository: repository).execute(bookPath: book, page: page, voice: voice)
                }
                try? await cache?.flush()
                let writer = try WAVWriter(path: destination)
                do {
                    try writer.append(narration.audio)
                    try writer.finish()
                } catch {
                    writer.discard()
                    throw error
                }
                if destination != WAVWriter.standardOutputPath {
                    common.storage.report("Page \(narration.page.label) (\(narration.page.index) of \(narration.pageCount)) → \(destination): \(Format.duration(narration.audio.duration)).")
                }
            } catch {
                throw fail(error)
            }
        }
    }
}
