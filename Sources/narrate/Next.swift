import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate next BOOK`: the page after the saved progress.
    struct Next: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Narrate the page after where you stopped, then remember it.")

        @OptionGroup var book: BookArgument

        @Option(name: [.short, .customLong("output")], help: "The WAV file to write (default: <title>-page-<label>.wav).")
        var output: String?

        @Flag(name: .long, help: "Start again from the first page.")
        var restart = false

        @OptionGroup var paging: PagingOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            InterruptHandling.install()
            let logger = common.storage.makeLogger()
            let configuration = common.configuration(paging)
            let library = try makeLibraryUseCases(configuration: configuration)
            var found = try await library.getBookDetail.execute(reference: book.reference)
            if restart { found.progress = nil }
            let speech = try await common.speech(configuration: configuration, language: found.book.metadata.language, logger: logger)
            var destination = ""
            let narration = try await makeNarrateNextPageUseCase(library: library, repository: speech.repository)
                .execute(book: found, voice: speech.voice) { narration throws(NarrationError) in
                    destination = output ?? "\(FileName.slug(found.book.metadata.title))-page-\(FileName.slug(narration.page.label)).wav"
                    do {
                        try WAVOutput.write(narration.audio, to: destination)
                    } catch let error as SpeechError {
                        throw .speech(error)
                    } catch {
                        throw .speech(.outputFailed(OutputError(path: destination, cause: .other("\(error)"))))
                    }
                }
            await speech.repository.flush()
            common.storage.report("Page \(narration.page.label) (\(narration.page.index) of \(narration.pageCount)) → \(destination): \(Format.duration(narration.audio.duration)). Progress saved.")
        }
    }
}
