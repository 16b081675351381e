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
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            InterruptHandling.install()
            let environment = try common.environment(common.configuration(paging, password))
            var destination = ""
            let narrated = try await environment.narrateNextPage()
                .execute(reference: book.reference, voice: try common.voiceRequest(), restart: restart) { narrated throws(NarrationError) in
                    // The book chose the voice: say which, and why, so a wrong language is easy to spot.
                    if narrated.book.book.metadata.language != nil { common.storage.report(narrated.voice) }
                    destination = output ?? "\(FileName.slug(narrated.book.book.metadata.title))-page-\(FileName.slug(narrated.narration.page.label)).wav"
                    do {
                        try WAVOutput.write(narrated.narration.audio, to: destination)
                    } catch let error as SpeechError {
                        throw .speech(error)
                    } catch {
                        throw .speech(.outputFailed(OutputError(path: destination, cause: .other("\(error)"))))
                    }
                }
            await environment.flush()
            let narration = narrated.narration
            common.storage.report("Page \(narration.page.label) (\(narration.page.index) of \(narration.pageCount)) → \(destination): \(Format.duration(narration.audio.duration)). Progress saved.")
        }
    }
}
